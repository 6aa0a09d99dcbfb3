"""Lint every upstream registry item the way a user receives it, and list our error-severity findings.

Oracle: heygen-com/hyperframes ships `registry/blocks/*`, `registry/components/*` and `registry/examples/*` as
correct code. Each block/component is mounted as `compositions/<name>.html` under a boring host `index.html`
(exactly what upstream's `scripts/lint-registry-items.mjs` does, with the same three root rules ignored, since the
host provides the root), with its non-HTML assets copied to the targets its registry-item.json declares (what
`hyperframes add` installs); each example is linted as the project it is. An error on an item is a false positive
until a render shows otherwise (bench/lint_render.py).

Usage: python bench/lint_registry.py [--repo /work/cache/hyperframes] [--json] [--render-fixes] [NAME...]
Exit 1 when any item has an error finding. `--render-fixes`: for every item `--fix` changes, render the item
before and after the fix (bench/lint_render.py, 1 fps) and count differing frames — a fix must not change a
correct render.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

HOST = """<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=1920, height=1080" />
    <script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>
  </head>
  <body>
    <div id="root" data-composition-id="main" data-start="0" data-width="1920" data-height="1080" data-duration="5">
      <section id="host-slot" class="clip" data-start="0" data-duration="5" data-track-index="1"></section>
    </div>
    <script>
      window.__timelines = window.__timelines || {};
      const tl = gsap.timeline({ paused: true });
      tl.to("#host-slot", { opacity: 1, duration: 0.1 }, 0);
      window.__timelines["main"] = tl;
    </script>
  </body>
</html>
"""

# Same list as upstream's script: rules that assume a standalone composition (the host provides the root).
IGNORED = {"root_missing_composition_id", "root_missing_dimensions", "multiple_root_compositions"}


def discover(repo: Path) -> list[tuple[str, str, Path]]:
    """(kind, name, path): blocks/components as `<name>/<name>.html`, examples as project folders."""
    items = []
    for kind in ("blocks", "components"):
        folder = repo / "registry" / kind
        for sub in sorted(folder.iterdir()) if folder.is_dir() else []:
            html = sub / f"{sub.name}.html"
            if html.is_file():
                items.append((kind, sub.name, html))
    examples = repo / "registry" / "examples"
    for sub in sorted(examples.iterdir()) if examples.is_dir() else []:
        if (sub / "index.html").is_file():
            items.append(("examples", sub.name, sub))
    return items


def mount(kind: str, name: str, path: Path, work: Path) -> tuple[Path, Path | None]:
    """Return (project folder to lint, the item's own file or None for a whole example project)."""
    if kind == "examples":
        return path, None
    proj = work / f"{kind}-{name}"
    (proj / "compositions").mkdir(parents=True, exist_ok=True)
    (proj / "index.html").write_text(HOST, encoding="utf-8")
    target = proj / "compositions" / f"{name}.html"
    shutil.copyfile(path, target)
    # What `hyperframes add` also installs: the item's assets at their declared targets (project-root relative).
    manifest = path.parent / "registry-item.json"
    try:
        files = json.loads(manifest.read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError):
        files = []
    for entry in files:
        src, dest = path.parent / entry.get("path", ""), entry.get("target")
        if not dest or src == path or not src.is_file() or dest.endswith(".html"):
            continue
        (proj / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, proj / dest)
    return proj, target


def lint_items(repo: Path, names: list[str]) -> list[dict]:
    from skillbox.lint.engine import lint_paths

    rows = []
    with tempfile.TemporaryDirectory(prefix="skillbox-lint-registry-") as tmp:
        cwd = os.getcwd()
        for kind, name, path in discover(repo):
            if names and name not in names:
                continue
            proj, own = mount(kind, name, path, Path(tmp))
            os.chdir(proj)
            try:
                result = lint_paths([Path(".")])
            finally:
                os.chdir(cwd)
            errors = []
            for f in result.findings:
                if f.severity != "error" or f.code in IGNORED:
                    continue
                if own is not None and Path(f.file).name != own.name:
                    continue
                errors.append({"code": f.code, "file": f.file, "line": f.line, "message": f.message})
            rows.append({"kind": kind, "name": name, "errors": errors})
    return rows


def standalone(kind: str, path: Path, work: Path) -> Path:
    """The item as a project of its own (its HTML as index.html, assets at their targets), for rendering."""
    if kind == "examples":
        return path
    proj, own = mount(kind, path.stem, path, work)
    (proj / "index.html").unlink()
    own.rename(proj / "index.html")
    return proj


def render_fixes(repo: Path, names: list[str]) -> list[dict]:
    from lint_render import RenderError, frames_differ, render_frames

    from skillbox.lint.fix import fix_paths

    rows = []
    with tempfile.TemporaryDirectory(prefix="skillbox-lint-fixes-") as tmp:
        for kind, name, path in discover(repo):
            if names and name not in names:
                continue
            before = Path(tmp) / "before" / f"{kind}-{name}"
            shutil.copytree(standalone(kind, path, Path(tmp) / "mount"), before)
            after = Path(tmp) / "after" / f"{kind}-{name}"
            shutil.copytree(before, after)
            report = fix_paths([after])
            if not report.changed:
                continue
            row = {"kind": kind, "name": name, "fixes": report.applied}
            try:
                a, b = render_frames(before, fps=1, timeout=600), render_frames(after, fps=1, timeout=600)
                row.update(frames=len(a), differ=frames_differ(a, b))
            except RenderError as exc:
                row["error"] = str(exc)
            print(json.dumps(row), flush=True)
            rows.append(row)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=Path("/work/cache/hyperframes"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--render-fixes", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.render_fixes:
        rows = render_fixes(args.repo, args.names)
        return 1 if any(r.get("differ") or r.get("error") for r in rows) else 0
    if not (args.repo / "registry").is_dir():
        print(f"no registry under {args.repo} (fetch heygen-com/hyperframes first)", file=sys.stderr)
        return 2
    rows = lint_items(args.repo, args.names)
    if args.json:
        print(json.dumps(rows, indent=2))
    failing = [r for r in rows if r["errors"]]
    codes = collections.Counter(e["code"] for r in rows for e in r["errors"])
    if not args.json:
        for r in failing:
            print(f"✗ {r['kind']}/{r['name']}")
            for e in r["errors"]:
                print(f"    {e['code']} {e['file']}:{e['line']}: {e['message'][:140]}")
        by_kind = collections.Counter(r["kind"] for r in rows)
        bad_kind = collections.Counter(r["kind"] for r in failing)
        for kind in ("blocks", "components", "examples"):
            print(f"{kind}: {bad_kind[kind]}/{by_kind[kind]} items with an error")
        print("error codes:", dict(codes.most_common()))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
