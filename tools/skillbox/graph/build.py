"""`build_graph`: walk -> records (cache or process pool) -> resolve -> graph.json, incrementally by default.

The no-change path reads only the stat index: if every file has the size and mtime it had when the last graph
was written (and graph.json is the file that build wrote), nothing is read or parsed. Otherwise unchanged files
come from the record cache, changed ones are extracted (in a process pool when there are many), and resolution
runs over all records, which is what keeps an incremental build byte-identical to a cold one.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.graph.cache import RACY_NS, RecordCache, language_epoch, unseal
from skillbox.graph.records import from_plain
from skillbox.graph.walk import DEFAULT_MAX_BYTES, walk_tree

OUT_NAME = "skillbox-out"
GRAPH_NAME = "graph.json"
INDEX_VERSION = 1
POOL_MIN_FILES = 48
BATCH_FILES = 24

Progress = Callable[[str, int, int], None]


@dataclass
class BuildResult:
    """What a build produced; `data()`/`graph()` read graph.json (the build streams it, holding no dicts)."""

    root: Path
    out_dir: Path
    graph_path: Path
    summary: dict
    nodes: list[dict] = field(default_factory=list)
    links: list[dict] = field(default_factory=list)

    @property
    def up_to_date(self) -> bool:
        return bool(self.summary.get("up_to_date"))

    def data(self) -> dict:
        """The node-link data of graph.json (read from disk when this build did not rebuild it)."""
        if self.nodes or self.links:
            return {"directed": True, "multigraph": True, "graph": {}, "nodes": self.nodes, "links": self.links}
        from skillbox.graph.graph_json import load_data

        return load_data(self.graph_path)

    def graph(self):
        """The graph as a networkx.MultiDiGraph."""
        from skillbox.graph.graph_json import to_networkx

        return to_networkx(self.data())


def resolve_paths(root: Path | str, out_dir: Path | str | None) -> tuple[Path, Path]:
    root = Path(root)
    if not root.exists():
        raise NotFoundError(f"path does not exist: {root}")
    if not root.is_dir():
        raise NotFoundError(f"not a directory: {root}", hint="point `graph build` at a project folder")
    root = root.resolve()
    out = Path(out_dir).resolve() if out_dir else root / OUT_NAME
    _check_writable(out)
    return root, out


def _check_writable(out: Path) -> None:
    """A missing, non-folder or read-only output location is the user's to fix: one line, not a traceback.
    (`os.access` also sees a read-only file system when running as root.)"""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InvalidInputError(f"cannot write the graph to {out}: it is a file, not a folder") from None
    except OSError as err:
        raise InvalidInputError(
            f"cannot write the graph to {out}: {err.strerror or err}", hint="pass --out a folder you can write"
        ) from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise InvalidInputError(
            f"cannot write the graph to {out}: the folder is read-only", hint="pass --out a folder you can write"
        )


def build_graph(
    root: Path | str,
    out_dir: Path | str | None = None,
    force: bool = False,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Build (or bring up to date) the graph of `root`; see the module docstring for the incremental paths.

    The cyclic garbage collector is paused for the whole build: records, resolver tables and the graph are
    hundreds of thousands of containers without cycles, and each collection would walk them all again (on
    Django ~1 s of a cold build, ~0.5 s of loading the graph for the use side)."""
    from skillbox.graph.gc_pause import gc_paused

    with gc_paused():
        return _build_graph(root, out_dir, force, max_bytes=max_bytes, jobs=jobs, progress=progress)


def _build_graph(root, out_dir, force, *, max_bytes, jobs, progress) -> BuildResult:
    root, out = resolve_paths(root, out_dir)
    report = progress or (lambda stage, done, total: None)
    started = time.perf_counter()
    seconds: dict[str, float] = {}
    graph_path = out / GRAPH_NAME
    cache = RecordCache(out / "cache")

    mark = time.perf_counter()
    walked = walk_tree(root, max_bytes=max_bytes, exclude=(out,))
    walked_lang = {rel: lang for rel, lang, _size, _mtime in walked.files}
    walked_size = {rel: size for rel, _lang, size, _mtime in walked.files}
    seconds["walk"] = time.perf_counter() - mark
    report("walk", len(walked.files), len(walked.files))

    # A different engine (our code, queries, Python) invalidates the stat index: nothing is trusted by mtime.
    options = {"max_bytes": max_bytes, "version": INDEX_VERSION, "engine": engine_digest()}
    index = None if force else cache.load_index()
    if index is not None and index.get("options") != options:
        index = None
    previous = index["files"] if index else {}

    if index is not None and _unchanged(walked.files, previous, index, graph_path):
        summary = dict(index["summary"])
        summary["up_to_date"] = True
        summary["changed_files"] = 0
        summary["cache"] = {"hits": len(walked.files), "misses": 0, "corrupt": 0}
        _refresh_use_outputs(graph_path, root, seconds)
        seconds["total"] = time.perf_counter() - started
        summary["seconds"] = _rounded(seconds)
        return BuildResult(root, out, graph_path, summary)

    # Which files can come straight from the cache by their stat, which must be read.
    mark = time.perf_counter()
    written_ns = index.get("written_ns", 0) if index else 0
    pack = {} if force else cache.pack()
    entries: dict[str, bytes] = {}  # the pack after this build: exactly the current files' entries
    results: dict[str, tuple] = {}  # rel -> (key, record or None, skip reason or None)
    counts = Counter()

    def take(rel: str, key: str, blob: bytes | None, fresh: bool = False) -> bool:
        if blob is None:
            return False
        try:
            plain, reason = unseal(blob, verify=not fresh)
            record = from_plain(plain)
        except Exception:
            counts["corrupt"] += 1
            pack.pop(key, None)  # never offered again: the file is re-extracted
            return False
        entries[key] = blob
        results[rel] = (key, record, reason)
        return True

    todo: list[tuple[str, str]] = []
    for rel, lang, size, mtime_ns in walked.files:
        entry = previous.get(rel)
        trusted = entry and entry[0] == size and entry[1] == mtime_ns and entry[3] == lang
        trusted = trusted and entry[2].endswith(language_epoch(lang))
        if trusted and mtime_ns < written_ns - RACY_NS and take(rel, entry[2], pack.get(entry[2])):
            counts["hits"] += 1
            continue
        todo.append((rel, lang))
    report("cache", counts["hits"], len(walked.files))

    retry = []
    for rel, key, blob in _extract(root, frozenset(pack), todo, jobs, report, walked_size):
        if key is None:
            results[rel] = (None, None, "unreadable")
        elif blob is None:  # content already cached under this key
            if take(rel, key, pack.get(key)):
                counts["hits"] += 1
            else:
                retry.append((rel, walked_lang[rel]))
        elif take(rel, key, blob, fresh=True):
            counts["misses"] += 1
    for rel, key, blob in _extract(root, frozenset(), retry, 1, report, walked_size):
        if key is None:
            results[rel] = (None, None, "unreadable")
        elif take(rel, key, blob, fresh=True):
            counts["misses"] += 1
    seconds["extract"] = time.perf_counter() - mark

    new_files = {}
    for rel, lang, size, mtime_ns in walked.files:
        if rel in results and results[rel][0] is not None:
            new_files[rel] = (size, mtime_ns, results[rel][0], lang)

    # Touched but identical (a checkout, a save without edits, a racy mtime): same keys, same graph.
    if (
        index is not None
        and len(new_files) == len(results) == len(previous)
        and all(previous.get(rel, (None,) * 4)[2] == entry[2] for rel, entry in new_files.items())
        and _graph_intact(index, graph_path)
    ):
        summary = dict(index["summary"])
        summary["up_to_date"] = True
        summary["changed_files"] = 0
        summary["cache"] = {"hits": counts["hits"], "misses": counts["misses"], "corrupt": counts["corrupt"]}
        _refresh_use_outputs(graph_path, root, seconds)
        seconds["total"] = time.perf_counter() - started
        summary["seconds"] = _rounded(seconds)
        if entries.keys() != pack.keys() or counts["corrupt"]:
            cache.save_pack(entries)
        cache.save_index({**index, "files": new_files, "written_ns": time.time_ns()})
        return BuildResult(root, out, graph_path, summary)

    skipped = {reason: list(paths) for reason, paths in walked.skipped.items()}
    records = {}
    for rel, (_key, record, reason) in results.items():
        if record is None:
            skipped.setdefault(reason or "unreadable", []).append(rel)
        else:
            records[rel] = record
    for paths in skipped.values():
        paths.sort()

    mark = time.perf_counter()
    report("resolve", 0, 1)
    from skillbox.graph.graph_json import SCHEMA, file_block, parse_block, write_chunks
    from skillbox.graph.resolve import resolve

    # Blocks of graph.json from the previous build stay valid while no file's interface changed: then only the
    # changed files' references are resolved again, and unchanged blocks are copied out of the previous file.
    # (`index` exists only if it was written by this engine: our code is part of its options.)
    digest = _interface_digest(records)
    intact = not force and index is not None and _graph_intact(index, graph_path)
    old_digest, old_blocks = cache.load_blocks() if intact else (None, {})
    keys = {rel: results[rel][0] for rel in records}
    same = frozenset(rel for rel, block in old_blocks.items() if rel in keys and block[0] == keys[rel])
    if old_digest == digest:
        reuse = same
    elif old_blocks.keys() - {EXTERNALS} == keys.keys():
        # Some interfaces changed: reuse the files that no changed name can reach (see `affected_files`).
        from skillbox.graph.reach import affected_files

        before = {rel: _cached_record(pack, previous.get(rel)) for rel in keys.keys() - same}
        affected = None if None in before.values() else affected_files(records, before)
        reuse = frozenset() if affected is None else same - affected
    else:
        reuse = frozenset()
    old_graph = graph_path.read_bytes() if old_blocks else b""
    resolver = resolve(records, reuse)
    blocks, fresh = {}, {}
    for rel in sorted(records):
        if rel in reuse:
            key, (n_off, n_len), (l_off, l_len), block_counts, unresolved = old_blocks[rel]
            nodes_b, links_b = old_graph[n_off : n_off + n_len], old_graph[l_off : l_off + l_len]
        else:
            nodes_b, links_b, block_counts, *fresh[rel] = file_block(resolver.file_nodes[rel], resolver.file_edges[rel])
            unresolved = resolver.file_unresolved.get(rel, 0)
        blocks[rel] = (nodes_b, links_b, block_counts, unresolved)
    externals = [resolver.externals[k] for k in sorted(resolver.externals)]
    ext_nodes, _ext_links, ext_counts, *fresh[EXTERNALS] = file_block(externals, [])
    # The files whose part of graph.json differs from the previous build's ("" stands for the external nodes):
    # what the query index updates, and empty when an edit did not change the graph (a comment, a blank line).
    changed = _changed_blocks(blocks, ext_nodes, old_blocks, old_graph) if old_blocks else None
    del old_graph
    seconds["resolve"] = time.perf_counter() - mark

    order = sorted(blocks)
    if changed is not None and not changed:
        # The graph is byte for byte the previous one: keep graph.json, its use outputs and their stamps.
        _refresh_use_outputs(graph_path, root, seconds)
        spans = {rel: old_blocks[rel][1:3] for rel in order}
        cache.save_blocks(
            digest,
            {**_block_entries(order, keys, spans, blocks), EXTERNALS: (None, *old_blocks[EXTERNALS][1:3])},
        )
    else:
        # What people and agents read: communities.json, GRAPH_REPORT.md, graph.html and the query index, made
        # from the graph in memory (the nodes and links just serialised; reused blocks parsed back). The graph is
        # assembled before graph.json is written so a cold build's index writer can start right away.
        mark = time.perf_counter()
        report("write", 0, 1)
        from skillbox.graph.code_graph import from_blocks
        from skillbox.graph.index_writer import describes
        from skillbox.graph.outputs import writer_for_build

        # The query index is updated in place only if it describes the graph.json about to be replaced.
        index_changes = changed if changed is not None and describes(graph_path) else None
        parts = (
            fresh[rel] if rel in fresh else parse_block(blocks[rel][0], blocks[rel][1]) for rel in [*order, EXTERNALS]
        )
        graph = from_blocks(parts, {"schema": SCHEMA}, graph_path)
        del fresh
        seconds["load"] = time.perf_counter() - mark
        use = writer_for_build(graph, graph_path, root, changed=index_changes)
        use.start_early()
        try:
            mark = time.perf_counter()
            node_spans, link_spans = write_chunks(
                graph_path, [blocks[rel][0] for rel in order] + [ext_nodes], [blocks[rel][1] for rel in order]
            )
            spans = {rel: (node_spans[i], link_spans[i]) for i, rel in enumerate(order)}
            cache.save_blocks(
                digest, {**_block_entries(order, keys, spans, blocks), EXTERNALS: (None, node_spans[-1], (0, 0))}
            )
            seconds["write"] = time.perf_counter() - mark
        except BaseException:
            use.abandon()
            raise
        report("report", 0, 1)
        seconds.update(use.finish().seconds)

    stats = dict(resolver.stats)
    stats["unresolved_refs"] = sum(block[3] for block in blocks.values())
    summary = _summary(root, out, graph_path, records, [b[2] for b in blocks.values()] + [ext_counts], skipped, stats)
    summary["resolved_again"] = len(records) - len(reuse)
    summary["changed_files"] = None if changed is None else len(changed)
    summary["cache"] = {"hits": counts["hits"], "misses": counts["misses"], "corrupt": counts["corrupt"]}
    seconds["total"] = time.perf_counter() - started
    summary["seconds"] = _rounded(seconds)

    graph_stat = graph_path.stat()
    cache.save_index(
        {
            "options": options,
            "files": new_files,
            "written_ns": time.time_ns(),
            "graph": (graph_stat.st_size, graph_stat.st_mtime_ns),
            "summary": {k: v for k, v in summary.items() if k not in ("seconds", "cache")},
        }
    )
    if counts["corrupt"] or entries.keys() != pack.keys():
        cache.save_pack(entries)
    return BuildResult(root, out, graph_path, summary)


EXTERNALS = ""  # the blocks entry of the external nodes (no file has an empty path)


def _changed_blocks(blocks: dict, ext_nodes: bytes, old_blocks: dict, old_graph: bytes) -> set[str]:
    """Files whose nodes or links differ from the previous graph.json, deleted files included."""
    changed = {rel for rel in old_blocks if rel not in blocks and rel != EXTERNALS}
    for rel, (nodes_b, links_b, _counts, _unresolved) in blocks.items():
        old = old_blocks.get(rel)
        if old is None:
            changed.add(rel)
            continue
        (n_off, n_len), (l_off, l_len) = old[1], old[2]
        if old_graph[n_off : n_off + n_len] != nodes_b or old_graph[l_off : l_off + l_len] != links_b:
            changed.add(rel)
    old_ext = old_blocks.get(EXTERNALS)
    if old_ext is None or old_graph[old_ext[1][0] : old_ext[1][0] + old_ext[1][1]] != ext_nodes:
        changed.add(EXTERNALS)
    return changed


def _block_entries(order: list[str], keys: dict, spans: dict, blocks: dict) -> dict:
    return {rel: (keys[rel], *spans[rel], blocks[rel][2], blocks[rel][3]) for rel in order}


def _refresh_use_outputs(graph_path: Path, root: Path, seconds: dict[str, float]) -> None:
    """An up-to-date graph whose report, viewer, communities or query index went missing gets them back."""
    from skillbox.graph.outputs import refresh_for_build

    use = refresh_for_build(graph_path, root)
    if use is not None:
        seconds.update(use.seconds)


def _unchanged(files, previous: dict, index: dict, graph_path: Path) -> bool:
    if len(files) != len(previous):
        return False
    written_ns = index.get("written_ns", 0)
    for rel, lang, size, mtime_ns in files:
        entry = previous.get(rel)
        if entry is None or entry[0] != size or entry[1] != mtime_ns or entry[3] != lang:
            return False
        if not entry[2].endswith(language_epoch(lang)):
            return False  # its language's grammar or query changed: same bytes, maybe another record
        if mtime_ns >= written_ns - RACY_NS:
            return False  # modified too close to the last build to trust its mtime
    return _graph_intact(index, graph_path)


def _graph_intact(index: dict, graph_path: Path) -> bool:
    """graph.json is still the file the indexed build wrote (not deleted, not edited by hand)."""
    try:
        st = graph_path.stat()
    except OSError:
        return False
    return index.get("graph") == (st.st_size, st.st_mtime_ns)


def _extract(root: Path, known: frozenset[str], todo, jobs: int | None, report: Progress, sizes: dict[str, int]):
    from skillbox.graph.worker import extract_batch

    if not todo:
        return []
    total = len(todo)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or total < POOL_MIN_FILES:
        out = extract_batch(str(root), known, todo)
        report("extract", total, total)
        return out
    batches = _batches(todo, sizes)
    out = []
    # Imported here: the no-change path must not pay ~0.1 s for the process-pool machinery.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(batches)), mp_context=context) as pool:
        futures = [pool.submit(extract_batch, str(root), known, batch) for batch in batches]
        _import_what_comes_next()
        for future in futures:
            out.extend(future.result())
            report("extract", len(out), total)
    return out


def _batches(todo: list[tuple[str, str]], sizes: dict[str, int]) -> list[list[tuple[str, str]]]:
    """The pool's work, biggest batches first so no worker is left with a long one at the end.

    A batch holds one language: every worker compiles the query of each language it meets (TSX alone costs
    ~65 ms), so a language with a handful of files is better met by one worker only. Sizes are the walk's."""
    by_lang: dict[str, list[tuple[str, str]]] = {}
    for item in sorted(todo, key=lambda item: (-sizes[item[0]], item[0])):
        by_lang.setdefault(item[1], []).append(item)
    batches = [files[i : i + BATCH_FILES] for files in by_lang.values() for i in range(0, len(files), BATCH_FILES)]
    batches.sort(key=lambda batch: -sum(sizes[rel] for rel, _lang in batch))
    return batches


def _import_what_comes_next() -> None:
    """This process would only wait while the workers extract: import what resolution and the use side need
    next (~0.2 s, mostly igraph and leidenalg), so the build's serial part after extraction doesn't pay it."""
    import skillbox.graph.outputs
    import skillbox.graph.resolve  # noqa: F401
    from skillbox.graph.cluster import import_clustering

    import_clustering()


def _rounded(seconds: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 3) for k, v in seconds.items()}


def engine_digest() -> str:
    """Our extraction and resolution code and queries, and the Python version (cheap: ~40 small files)."""
    import hashlib
    import sys

    h = hashlib.blake2b(digest_size=16)
    h.update(f"{sys.version_info[0]}.{sys.version_info[1]}".encode())
    here = Path(__file__).resolve().parent
    for path in sorted([*here.glob("*.py"), *here.glob("languages/*.py"), *here.glob("queries/*.scm")]):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _interface_digest(records: dict) -> str:
    """What every file's resolution depends on besides its own record: all files' interfaces. (Our code is
    covered by `engine_digest`: a build by other code finds no stat index, so no blocks to reuse.)"""
    import hashlib

    h = hashlib.blake2b(digest_size=16)
    for rel in sorted(records):
        h.update(f"{rel}\0{records[rel].interface}\n".encode())
    return h.hexdigest()


def _cached_record(pack: dict, entry) -> object | None:
    """The record a previous build cached for a file (its stat index entry), or None."""
    if not entry or entry[2] not in pack:
        return None
    try:
        plain, _reason = unseal(pack[entry[2]])
        return from_plain(plain)
    except Exception:
        return None


def _summary(root, out, graph_path, records, block_counts, skipped, stats) -> dict:
    languages = Counter(rec.lang for rec in records.values())
    kinds, relations, confidence = Counter(), Counter(), Counter()
    for node_counts, relation_counts, confidence_counts in block_counts:
        kinds.update(dict(node_counts))
        relations.update(dict(relation_counts))
        confidence.update(dict(confidence_counts))
    return {
        "root": str(root),
        "out": str(out),
        "graph": str(graph_path),
        "files": len(records),
        "languages": dict(sorted(languages.items())),
        "nodes": sum(kinds.values()),
        "nodes_by_kind": dict(sorted(kinds.items())),
        "edges": sum(relations.values()),
        "edges_by_relation": dict(sorted(relations.items())),
        "confidence": dict(sorted(confidence.items())),
        "skipped": {reason: len(paths) for reason, paths in sorted(skipped.items())},
        "skipped_files": {reason: paths[:20] for reason, paths in sorted(skipped.items())},
        "warnings": {
            "syntax_errors": sum(1 for rec in records.values() if rec.errors),
            "invalid_utf8": sum(1 for rec in records.values() if rec.encoding_errors),
        },
        "unresolved": dict(sorted(stats.items())),
        "up_to_date": False,
    }
