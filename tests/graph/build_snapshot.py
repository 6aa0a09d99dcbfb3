"""What a sequence of builds writes, as bytes: the yardstick that a refactor of the build changes nothing.

`run_scenarios` copies a corpus, then builds it cold, again unchanged, after a touch, after a blank line, after
a file is copied, after a file is deleted, and once more with `--force`; after each build it takes `snapshot`:
graph.json, GRAPH_REPORT.md, communities.json, a canonical dump of the query index (every row of every table,
the full-text index as its term instances) and the build summary without its timings. The machine's paths are
replaced by `<root>` so the bytes do not depend on where the copy lives. mtimes are set to fixed past values so
no file falls inside the racy window and the cache counts do not depend on timing.

Also run by hand to record a corpus outside the repository:
    python tests/graph/build_snapshot.py CORPUS DEST
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import sys
from pathlib import Path

FIXED_NS = 1_600_000_000 * 10**9  # 2020-09-13: far outside the racy window of any build
FILES = ("graph.json", "GRAPH_REPORT.md", "communities.json")


def index_dump(path: Path) -> bytes:
    """Every row of the query index in rowid order, and the FTS5 index as (term, row, column, offset)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        lines = []
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        for table in tables:
            if table.startswith("node_text"):
                continue  # the FTS5 shadow tables: read through fts5vocab below
            lines.append(f"## {table}")
            for row in db.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid"):
                if table == "meta" and row[1] in ("stamp", "communities"):
                    row = (*row[:2], row[2].rsplit(":", 1)[0] + ":<mtime>")  # graph.json's stamp: size, mtime
                lines.append(json.dumps(list(row)))
        lines.append("## sql")
        lines.extend(r[0] for r in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"))
        db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, node_text, 'instance')")
        lines.append("## node_text")
        lines.extend(
            json.dumps(list(row)) for row in db.execute("SELECT * FROM temp.vocab ORDER BY term, doc, col, offset")
        )
    finally:
        db.close()
    return ("\n".join(lines) + "\n").encode()


def snapshot(root: Path, summary: dict) -> dict[str, bytes]:
    out = root / "skillbox-out"

    def plain(data: bytes) -> bytes:
        return data.replace(str(out).encode(), b"<out>").replace(str(root).encode(), b"<root>")

    taken = {name: plain((out / name).read_bytes()) for name in FILES}
    taken["query-index"] = plain(index_dump(out / "cache" / "query-index.sqlite"))
    kept = {k: v for k, v in summary.items() if k != "seconds"}
    taken["summary"] = plain(json.dumps(kept, indent=1, sort_keys=True).encode())
    return taken


def _pin_mtimes(root: Path, ns: int) -> None:
    for path in sorted(root.rglob("*")):
        if path.is_file() and "skillbox-out" not in path.parts:
            os.utime(path, ns=(ns, ns))


def run_scenarios(corpus: Path, work: Path, jobs: int | None = 1) -> dict[str, dict[str, bytes]]:
    """{scenario: snapshot} for the builds described in the module docstring, in `work`/<corpus name> (emptied
    first: the folder's name is the report's title)."""
    from skillbox.graph.build import build_graph

    work = work / corpus.name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(corpus, work, ignore=shutil.ignore_patterns("skillbox-out", ".git", "node_modules"))
    root = work.resolve()
    _pin_mtimes(root, FIXED_NS)
    taken: dict[str, dict[str, bytes]] = {}

    def build(name: str, force: bool = False) -> None:
        result = build_graph(root, force=force, jobs=jobs)
        taken[name] = snapshot(root, result.summary)

    build("cold")
    first = root / _edited_file(root / "skillbox-out" / "graph.json")
    build("nochange")
    os.utime(first, ns=(FIXED_NS + 10**9, FIXED_NS + 10**9))
    build("touched")
    with first.open("ab") as handle:
        handle.write(b"\n")
    os.utime(first, ns=(FIXED_NS + 2 * 10**9, FIXED_NS + 2 * 10**9))
    build("blank-line")
    copy = first.with_name("copy_" + first.name)
    shutil.copyfile(first, copy)
    os.utime(copy, ns=(FIXED_NS + 3 * 10**9, FIXED_NS + 3 * 10**9))
    build("copied")
    first.unlink()
    build("deleted")
    build("forced", force=True)
    return taken


def _edited_file(graph_path: Path) -> str:
    """The file the scenarios edit: the first code file of the graph (the first file of any kind if none)."""
    files = sorted(
        (n.get("language") in ("markdown", "rst", "text"), n["id"])
        for n in json.loads(graph_path.read_bytes())["nodes"]
        if n["kind"] == "file"
    )
    return files[0][1]


def digests(taken: dict[str, dict[str, bytes]]) -> dict[str, str]:
    return {
        f"{scenario}/{name}": hashlib.sha256(data).hexdigest()
        for scenario, files in taken.items()
        for name, data in sorted(files.items())
    }


def main(argv: list[str]) -> None:
    corpus, dest = Path(argv[0]), Path(argv[1])
    work = dest.parent / ".work"
    taken = run_scenarios(corpus, work, jobs=None)
    for scenario, files in taken.items():
        (dest / scenario).mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (dest / scenario / name).write_bytes(data)
    (dest / "digests.json").write_text(json.dumps(digests(taken), indent=1, sort_keys=True) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
