"""`build_graph`: the graph build as four stages, each a function from one typed value to the next.

    plan      walk + stat index + cache decisions                  -> Plan
    extract   records per file, from the cache or a process pool   -> Extracted
    link      resolution into per-file blocks of graph.json        -> Linked
    summarize what the build reports, on every path                -> dict
    write     graph.json, its caches and the use outputs           -> files on disk

Incremental builds are choices the stages make from their input, never exits from the pipeline:
- plan trusts a file by its stat (size, mtime, language epoch, outside the racy window); when it trusts every file
  and graph.json is the file the last build wrote (`Plan.up_to_date`), extract reads nothing and link does nothing;
- extract takes unchanged files from the record cache; when every file has its last build's content key (a touch,
  a checkout: `Extracted.unchanged`) the graph cannot differ and link does nothing;
- link reuses the blocks of graph.json of the files no changed interface can reach; when the new blocks equal the
  old ones byte for byte (`Linked.changed` empty), write keeps graph.json and its use outputs.
Resolution runs over all records whenever it runs, which keeps an incremental build byte-identical to a cold one.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from skillbox.errors import InvalidInputError, NotFoundError
from skillbox.graph.cache import RACY_NS, RecordCache, language_epoch, unseal
from skillbox.graph.records import FileRecord, from_plain
from skillbox.graph.walk import DEFAULT_MAX_BYTES, WalkResult, walk_tree

if TYPE_CHECKING:
    from skillbox.graph.graph_json import BlockParts

OUT_NAME = "skillbox-out"
GRAPH_NAME = "graph.json"
INDEX_VERSION = 1
POOL_MIN_FILES = 48
BATCH_FILES = 24
ONE_BATCH_FILES = 4 * BATCH_FILES  # a language with no more files than this is extracted as one batch
EXTERNALS = ""  # the blocks entry of the external nodes (no file has an empty path)

Progress = Callable[[str, int, int], None]


# -- the values passed from stage to stage -------------------------------------------------------------------------
class IndexEntry(NamedTuple):
    """A file as the stat index remembers it; trusted without reading while its size, mtime and language match."""

    size: int
    mtime_ns: int
    key: str  # the content key of its record in the pack
    lang: str


class Block(NamedTuple):
    """One file's part of graph.json: its node lines, its link lines, what they count, its unresolved names."""

    nodes: bytes
    links: bytes
    counts: tuple  # (kinds, relations, confidences), each as sorted (value, count) pairs
    unresolved: int


NO_BLOCK = Block(b"", b"", ((), (), ()), 0)


class StoredBlock(NamedTuple):
    """A block of the previous build as cache/blocks.bin remembers it: where it sits in graph.json."""

    key: str | None  # the content key of the record it was made from (None: the external nodes)
    node_span: tuple[int, int]  # (offset, length) in graph.json
    link_span: tuple[int, int]
    counts: tuple = ()
    unresolved: int = 0


@dataclass
class Plan:
    """What the build will do: the files, and which of them the stat index lets it trust without reading."""

    root: Path
    out: Path
    graph_path: Path
    cache: RecordCache
    options: dict
    force: bool
    walked: WalkResult
    index: dict | None  # the last build's stat index, when this engine wrote it with these options
    previous: dict[str, IndexEntry]  # its files
    trusted: dict[str, IndexEntry]  # the files whose record the cache gives by their stat alone
    graph_intact: bool  # graph.json is still the file the last build wrote

    @property
    def up_to_date(self) -> bool:
        """Every file trusted, none added or removed, graph.json untouched: nothing needs to be read."""
        return (
            self.index is not None
            and self.graph_intact
            and len(self.trusted) == len(self.walked.files) == len(self.previous)
        )


@dataclass
class Extracted:
    """The record of every file (from the cache or just extracted) and the caches' state after this build."""

    records: dict[str, FileRecord]
    keys: dict[str, str]  # rel -> the content key of its record
    files: dict[str, IndexEntry]  # the stat index after this build
    skipped: dict[str, list[str]]  # reason -> sorted paths (the walk's and the unreadable files)
    pack: dict[str, bytes]  # the record pack as this build found it
    entries: dict[str, bytes]  # the pack after this build: exactly the current files' entries
    cache_counts: dict[str, int]  # hits, misses, corrupt
    read: bool  # False when the plan was up to date (nothing read, the caches stay as they are)
    unchanged: bool  # every file has its last build's content key: the graph cannot differ


@dataclass
class Linked:
    """The blocks of graph.json after resolution, and which files' blocks differ from the previous build's."""

    relinked: bool  # False: resolution did not run (the graph cannot differ from the previous one)
    blocks: dict[str, Block] = field(default_factory=dict)  # per file, in path order
    externals: Block = NO_BLOCK
    fresh: dict[str, BlockParts] = field(default_factory=dict)  # the blocks just built, in memory
    old_blocks: dict[str, StoredBlock] = field(default_factory=dict)
    digest: str = ""  # every file's interface, which the blocks were resolved against
    reuse: frozenset[str] = frozenset()  # the files whose blocks were copied from the previous graph.json
    changed: set[str] | None = None  # files whose block differs ("" = the external nodes); None: unknown
    stats: dict = field(default_factory=dict)
    # The resolver's tables and memos, kept past the link stage: freeing them (~0.05 s on Django) there would sit
    # between resolution and the index writer's fork, where nothing else runs. They go with the build's values.
    resolver: object = field(default=None, repr=False)


@dataclass
class BuildResult:
    """What a build produced; `data()`/`graph()` read graph.json (the build streams it, holding no dicts)."""

    root: Path
    out_dir: Path
    graph_path: Path
    summary: dict
    nodes: list[dict] = field(default_factory=list)
    links: list[dict] = field(default_factory=list)
    # The build's own values (records, blocks, resolver tables, the graph in memory), released with the result
    # rather than when `build_graph` returns: freeing them is ~0.15 s of a Django build, which a command that
    # ends its process right after printing need not pay (`cli.fast_path.nothing_left_to_finalize`).
    held: tuple = field(default=(), repr=False, compare=False)

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


# -- the pipeline ------------------------------------------------------------------------------------------------
def build_graph(
    root: Path | str,
    out_dir: Path | str | None = None,
    force: bool = False,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    jobs: int | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Build (or bring up to date) the graph of `root`; see the module docstring for the stages.

    The cyclic garbage collector is paused for the whole build: records, resolver tables and the graph are
    hundreds of thousands of containers without cycles, and each collection would walk them all again (on
    Django ~1 s of a cold build, ~0.5 s of loading the graph for the use side)."""
    from skillbox.graph.gc_pause import gc_paused

    report = progress or (lambda stage, done, total: None)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    with gc_paused():
        plan = make_plan(root, out_dir, force, max_bytes, seconds, report, jobs)
        extracted = extract(plan, jobs, seconds, report)
        linked = link(plan, extracted, seconds, report, jobs)
        summary = summarize(plan, extracted, linked)
        graph = write(plan, extracted, linked, summary, seconds, report)
    seconds["total"] = time.perf_counter() - started
    summary["seconds"] = {k: round(v, 3) for k, v in seconds.items()}
    return BuildResult(plan.root, plan.out, plan.graph_path, summary, held=(plan, extracted, linked, graph))


@contextmanager
def _timed(seconds: dict[str, float], stage: str) -> Iterator[None]:
    mark = time.perf_counter()
    try:
        yield
    finally:
        seconds[stage] = time.perf_counter() - mark


# -- plan ----------------------------------------------------------------------------------------------------------
def make_plan(
    root, out_dir, force: bool, max_bytes: int, seconds: dict, report: Progress, jobs: int | None = None
) -> Plan:
    """Walk the tree and decide, from the last build's stat index, which files need not be read.

    Without a usable stat index the build is cold: a forked child walks the tree while this process imports the
    later stages and compiles the queries extraction will need (`cold_walk`). With one, most builds change
    little: the walk runs here and nothing is imported or compiled that the build may not need."""
    root, out = resolve_paths(root, out_dir)
    graph_path = out / GRAPH_NAME
    cache = RecordCache(out / "cache")
    # A different engine (our code, queries, Python) invalidates the stat index: nothing is trusted by mtime.
    options = {"max_bytes": max_bytes, "version": INDEX_VERSION, "engine": engine_digest()}
    index = None if force else cache.load_index()
    if index is not None and index.get("options") != options:
        index = None
    with _timed(seconds, "walk"):
        cores = jobs if jobs is not None else (os.cpu_count() or 1)
        if index is None and cores > 1:
            from skillbox.graph.cold_walk import walk_beside

            walked = walk_beside(root, max_bytes, out, IMPORTS_FOR_NEXT_STAGES, ONE_BATCH_FILES)
        else:
            walked = walk_tree(root, max_bytes=max_bytes, exclude=(out,))
    report("walk", len(walked.files), len(walked.files))

    try:
        previous = {rel: IndexEntry(*entry) for rel, entry in index["files"].items()} if index else {}
    except (TypeError, KeyError, AttributeError):
        index, previous = None, {}  # a stat index of another shape: trust nothing, rebuild
    written_ns = index.get("written_ns", 0) if index else 0
    trusted = {}
    for rel, lang, size, mtime_ns in walked.files:
        entry = previous.get(rel)
        if (
            entry
            and entry.size == size
            and entry.mtime_ns == mtime_ns
            and entry.lang == lang
            and entry.key.endswith(language_epoch(lang))  # else its grammar or query changed: maybe another record
            and mtime_ns < written_ns - RACY_NS  # else modified too close to the last build to trust its mtime
        ):
            trusted[rel] = entry
    intact = index is not None and _graph_intact(index, graph_path)
    return Plan(root, out, graph_path, cache, options, force, walked, index, previous, trusted, intact)


def _graph_intact(index: dict, graph_path: Path) -> bool:
    """graph.json is still the file the indexed build wrote (not deleted, not edited by hand)."""
    try:
        st = graph_path.stat()
    except OSError:
        return False
    return index.get("graph") == (st.st_size, st.st_mtime_ns)


# -- extract -------------------------------------------------------------------------------------------------------
class _Taken(NamedTuple):
    """What extraction got for one file: its content key (None: unreadable), its record (None: skipped, with
    the reason)."""

    key: str | None
    record: FileRecord | None
    reason: str | None


UNREADABLE = _Taken(None, None, "unreadable")


def extract(plan: Plan, jobs: int | None, seconds: dict, report: Progress) -> Extracted:
    """Every file's record: trusted files from the pack, the others read (a content key already in the pack is
    not extracted again) and extracted, in a process pool when there are many."""
    files = plan.walked.files
    if plan.up_to_date:
        counts = {"hits": len(files), "misses": 0, "corrupt": 0}
        return Extracted(
            records={},
            keys={},
            files=plan.previous,
            skipped={},
            pack={},
            entries={},
            cache_counts=counts,
            read=False,
            unchanged=True,
        )

    with _timed(seconds, "extract"):
        pack = {} if plan.force else plan.cache.pack()
        entries: dict[str, bytes] = {}
        results: dict[str, _Taken] = {}
        counts = Counter()

        early: dict[int, tuple] = {}  # id of a fresh entry still held in the results -> its (record, reason)

        def take_early(done: dict[int, list]) -> None:
            """This process's own fresh entries, unsealed while the other extracting processes finish their last
            batches (`extract_shared`'s `own_done`): ~half of the unsealing that used to follow them, serially
            (~0.05 s on Django). `take` then finds them here, in the usual order."""
            for batch in done.values():
                for _rel, _key, blob in batch:
                    if blob is not None:
                        try:
                            plain, reason = unseal(blob, verify=False)
                            early[id(blob)] = (from_plain(plain), reason)
                        except Exception:  # left to `take`, which counts it as corrupt
                            continue

        def take(rel: str, key: str, blob: bytes | None, fresh: bool = False) -> bool:
            if blob is None:
                return False
            try:
                done = early.pop(id(blob), None) if fresh else None
                if done is not None:
                    record, reason = done
                else:
                    plain, reason = unseal(blob, verify=not fresh)
                    record = from_plain(plain)
            except Exception:
                counts["corrupt"] += 1
                pack.pop(key, None)  # never offered again: the file is re-extracted
                return False
            entries[key] = blob
            results[rel] = _Taken(key, record, reason)
            return True

        todo: list[tuple[str, str]] = []
        for rel, lang, _size, _mtime_ns in files:
            entry = plan.trusted.get(rel)
            if entry is not None and take(rel, entry.key, pack.get(entry.key)):
                counts["hits"] += 1
            else:
                todo.append((rel, lang))
        report("cache", counts["hits"], len(files))

        languages = {rel: lang for rel, lang, _size, _mtime in files}
        sizes = {rel: size for rel, _lang, size, _mtime in files}
        retry = []
        for rel, key, blob in _extract(plan.root, frozenset(pack), todo, jobs, report, sizes, take_early):
            if key is None:
                results[rel] = UNREADABLE
            elif blob is None:  # content already cached under this key
                if take(rel, key, pack.get(key)):
                    counts["hits"] += 1
                else:
                    retry.append((rel, languages[rel]))
            elif take(rel, key, blob, fresh=True):
                counts["misses"] += 1
        for rel, key, blob in _extract(plan.root, frozenset(), retry, 1, report, sizes):
            if key is None:
                results[rel] = UNREADABLE
            elif take(rel, key, blob, fresh=True):
                counts["misses"] += 1

    new_files = {
        rel: IndexEntry(size, mtime_ns, results[rel].key, lang)
        for rel, lang, size, mtime_ns in files
        if rel in results and results[rel].key is not None
    }
    previous = plan.previous
    # Touched but identical (a checkout, a save without edits, a racy mtime): same keys, same graph.
    unchanged = (
        plan.index is not None
        and len(new_files) == len(results) == len(previous)
        and all(rel in previous and previous[rel].key == entry.key for rel, entry in new_files.items())
        and plan.graph_intact
    )
    skipped = {reason: list(paths) for reason, paths in plan.walked.skipped.items()}
    records = {}
    for rel, taken in results.items():
        if taken.record is None:
            skipped.setdefault(taken.reason or "unreadable", []).append(rel)
        else:
            records[rel] = taken.record
    for paths in skipped.values():
        paths.sort()
    keys = {rel: results[rel].key for rel in records}
    cache_counts = {"hits": counts["hits"], "misses": counts["misses"], "corrupt": counts["corrupt"]}
    return Extracted(
        records=records,
        keys=keys,
        files=new_files,
        skipped=skipped,
        pack=pack,
        entries=entries,
        cache_counts=cache_counts,
        read=True,
        unchanged=unchanged,
    )


# -- link ----------------------------------------------------------------------------------------------------------
def link(plan: Plan, extracted: Extracted, seconds: dict, report: Progress, jobs: int | None = None) -> Linked:
    """Resolve the records into edges and serialise each file's block of graph.json.

    Blocks of the previous graph.json stay valid while no file's interface changed: then only the changed files'
    references are resolved again, and unchanged blocks are copied out of the previous file. When interfaces
    changed, the files no changed name can reach are still copied (see `reach.affected_files`)."""
    if extracted.unchanged:
        return Linked(relinked=False)
    with _timed(seconds, "resolve"):
        report("resolve", 0, 1)
        from skillbox.graph.graph_json import file_block
        from skillbox.graph.link_split import resolve_blocks

        records = extracted.records
        digest = _interface_digest(records)
        # (`plan.index` exists only if it was written by this engine: our code is part of its options.)
        intact = not plan.force and plan.index is not None and plan.graph_intact
        old_digest, old_blocks = _load_blocks(plan.cache) if intact else (None, {})
        reuse = _reusable(plan, extracted, digest, old_digest, old_blocks)
        old_graph = plan.graph_path.read_bytes() if old_blocks else b""
        resolver, built_blocks = resolve_blocks(records, reuse, split=jobs != 1)
        blocks, fresh = {}, {}
        for rel in sorted(records):
            if rel in reuse:
                old = old_blocks[rel]
                (n_off, n_len), (l_off, l_len) = old.node_span, old.link_span
                blocks[rel] = Block(
                    old_graph[n_off : n_off + n_len], old_graph[l_off : l_off + l_len], old.counts, old.unresolved
                )
            else:
                # (package.json and tsconfig.json records make no nodes: no block was rendered for them)
                built, unresolved = built_blocks.get(rel) or (
                    file_block(resolver.file_nodes[rel], resolver.file_edges[rel]),
                    resolver.file_unresolved.get(rel, 0),
                )
                fresh[rel] = built.parts
                blocks[rel] = Block(built.nodes_json, built.links_json, built.counts, unresolved)
        externals = [resolver.externals[k] for k in sorted(resolver.externals)]
        built = file_block(externals, [])
        fresh[EXTERNALS] = built.parts
        ext_nodes = built.nodes_json
        ext_block = Block(ext_nodes, b"", built.counts, 0)
        # The files whose part of graph.json differs from the previous build's: what the query index updates,
        # and empty when an edit did not change the graph (a comment, a blank line).
        changed = _changed_blocks(blocks, ext_nodes, old_blocks, old_graph) if old_blocks else None
        del old_graph
    return Linked(
        relinked=True,
        blocks=blocks,
        externals=ext_block,
        fresh=fresh,
        old_blocks=old_blocks,
        digest=digest,
        reuse=reuse,
        changed=changed,
        stats=dict(resolver.stats),
        resolver=resolver,
    )


def _load_blocks(cache: RecordCache) -> tuple[str | None, dict[str, StoredBlock]]:
    digest, stored = cache.load_blocks()
    try:
        return digest, {rel: StoredBlock(*entry) for rel, entry in stored.items()}
    except TypeError:
        return None, {}  # a blocks file of another shape: nothing to reuse


def _reusable(plan: Plan, extracted: Extracted, digest: str, old_digest, old_blocks: dict) -> frozenset[str]:
    """The files whose previous block can be copied: same record, and no changed interface reaches them."""
    keys = extracted.keys
    same = frozenset(rel for rel, block in old_blocks.items() if rel in keys and block.key == keys[rel])
    if old_digest == digest:
        return same
    if old_blocks.keys() - {EXTERNALS} != keys.keys():
        return frozenset()
    # Some interfaces changed: reuse the files that no changed name can reach.
    from skillbox.graph.reach import affected_files

    before = {rel: _cached_record(extracted.pack, plan.previous.get(rel)) for rel in keys.keys() - same}
    affected = None if None in before.values() else affected_files(extracted.records, before)
    return frozenset() if affected is None else same - affected


def _changed_blocks(blocks: dict[str, Block], ext_nodes: bytes, old_blocks: dict, old_graph: bytes) -> set[str]:
    """Files whose nodes or links differ from the previous graph.json, deleted files included."""
    changed = {rel for rel in old_blocks if rel not in blocks and rel != EXTERNALS}
    for rel, block in blocks.items():
        old = old_blocks.get(rel)
        if old is None:
            changed.add(rel)
            continue
        (n_off, n_len), (l_off, l_len) = old.node_span, old.link_span
        if old_graph[n_off : n_off + n_len] != block.nodes or old_graph[l_off : l_off + l_len] != block.links:
            changed.add(rel)
    old_ext = old_blocks.get(EXTERNALS)
    if old_ext is None:
        changed.add(EXTERNALS)
        return changed
    offset, length = old_ext.node_span
    if old_graph[offset : offset + length] != ext_nodes:
        changed.add(EXTERNALS)
    return changed


# -- summarize -----------------------------------------------------------------------------------------------------
def summarize(plan: Plan, extracted: Extracted, linked: Linked) -> dict:
    """What the build reports (and the stat index keeps for the next no-change build), on every path."""
    if not linked.relinked:
        summary = dict(plan.index["summary"])
        summary["up_to_date"] = True
        summary["changed_files"] = 0
        summary["cache"] = dict(extracted.cache_counts)
        return summary
    records, blocks = extracted.records, linked.blocks
    languages = Counter(rec.lang for rec in records.values())
    kinds, relations, confidence = Counter(), Counter(), Counter()
    for node_counts, relation_counts, confidence_counts in [b.counts for b in blocks.values()] + [
        linked.externals.counts
    ]:
        kinds.update(dict(node_counts))
        relations.update(dict(relation_counts))
        confidence.update(dict(confidence_counts))
    stats = dict(linked.stats)
    stats["unresolved_refs"] = sum(block.unresolved for block in blocks.values())
    skipped = extracted.skipped
    return {
        "root": str(plan.root),
        "out": str(plan.out),
        "graph": str(plan.graph_path),
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
        "resolved_again": len(records) - len(linked.reuse),
        "changed_files": None if linked.changed is None else len(linked.changed),
        "cache": dict(extracted.cache_counts),
    }


# -- write ---------------------------------------------------------------------------------------------------------
def write(plan: Plan, extracted: Extracted, linked: Linked, summary: dict, seconds: dict, report: Progress):
    """graph.json when the graph changed, the use outputs beside it (only the missing ones when it did not), the
    blocks of graph.json, then the stat index and the record pack for the next build. Returns the graph it
    assembled, if any (for the caller to release)."""
    cache, graph_path = plan.cache, plan.graph_path
    graph = None
    if not linked.relinked:
        _refresh_use_outputs(graph_path, plan.root, seconds)
        if extracted.read:  # touched files: the same records under new stats
            if extracted.entries.keys() != extracted.pack.keys() or extracted.cache_counts["corrupt"]:
                cache.save_pack(extracted.entries)
            cache.save_index({**plan.index, "files": _plain(extracted.files), "written_ns": time.time_ns()})
        return None

    order = sorted(linked.blocks)
    keys, blocks, old_blocks = extracted.keys, linked.blocks, linked.old_blocks
    if linked.changed is not None and not linked.changed:
        # The graph is byte for byte the previous one: keep graph.json, its use outputs and their stamps.
        _refresh_use_outputs(graph_path, plan.root, seconds)
        spans = {rel: (old_blocks[rel].node_span, old_blocks[rel].link_span) for rel in order}
        ext = old_blocks[EXTERNALS]
        cache.save_blocks(linked.digest, _stored_blocks(order, keys, spans, blocks, ext.node_span, ext.link_span))
    else:
        graph = _write_graph(plan, extracted, linked, order, seconds, report)

    graph_stat = graph_path.stat()
    cache.save_index(
        {
            "options": plan.options,
            "files": _plain(extracted.files),
            "written_ns": time.time_ns(),
            "graph": (graph_stat.st_size, graph_stat.st_mtime_ns),
            "summary": {k: v for k, v in summary.items() if k not in ("seconds", "cache")},
        }
    )
    if extracted.cache_counts["corrupt"] or extracted.entries.keys() != extracted.pack.keys():
        cache.save_pack(extracted.entries)
    return graph


def _write_graph(plan: Plan, extracted: Extracted, linked: Linked, order: list[str], seconds: dict, report: Progress):
    """graph.json and what people and agents read beside it: communities.json, GRAPH_REPORT.md, graph.html and
    the query index, made from the graph in memory (the nodes and links just serialised; reused blocks parsed
    back). The graph is assembled before graph.json is written so a cold build's index writer can start right
    away. Saves the blocks' places in graph.json for the next build; returns the graph."""
    from skillbox.graph import graph_json
    from skillbox.graph.code_graph import from_blocks
    from skillbox.graph.index_writer import describes
    from skillbox.graph.outputs import writer_for_build

    graph_path, blocks, changed, fresh = plan.graph_path, linked.blocks, linked.changed, linked.fresh
    with _timed(seconds, "load"):
        report("write", 0, 1)
        # The query index is updated in place only if it describes the graph.json about to be replaced.
        index_changes = changed if changed is not None and describes(graph_path) else None
        parts = (
            fresh[rel] if rel in fresh else graph_json.parse_block(blocks[rel].nodes, blocks[rel].links)
            for rel in [*order, EXTERNALS]
        )
        graph = from_blocks(parts, {"schema": graph_json.SCHEMA}, graph_path)
    use = writer_for_build(graph, graph_path, plan.root, changed=index_changes)
    use.start_early()
    # The blocks' edge tuples (the graph holds its own edges) are freed once the index writer is forked, not
    # before: on Django 154k tuples, ~0.02 s that would delay the writer's start.
    fresh.clear()
    try:
        with _timed(seconds, "write"):
            node_spans, link_spans = graph_json.write_chunks(
                graph_path,
                [blocks[rel].nodes for rel in order] + [linked.externals.nodes],
                [blocks[rel].links for rel in order],
            )
            spans = {rel: (node_spans[i], link_spans[i]) for i, rel in enumerate(order)}
            stored = _stored_blocks(order, extracted.keys, spans, blocks, node_spans[-1], (0, 0))
            plan.cache.save_blocks(linked.digest, stored)
    except BaseException:
        use.abandon()
        raise
    report("report", 0, 1)
    seconds.update(use.finish().seconds)
    return graph


def _stored_blocks(order, keys, spans, blocks, ext_node_span, ext_link_span) -> dict[str, tuple]:
    """cache/blocks.bin's entries: each file's block by its place in graph.json, then the external nodes'."""
    stored = {
        rel: tuple(StoredBlock(keys[rel], *spans[rel], blocks[rel].counts, blocks[rel].unresolved)) for rel in order
    }
    stored[EXTERNALS] = (None, ext_node_span, ext_link_span)
    return stored


def _plain(files: dict[str, IndexEntry]) -> dict[str, tuple]:
    """The stat index's files as plain tuples (marshal, which seals the cache, takes no named tuples)."""
    return {rel: tuple(entry) for rel, entry in files.items()}


def _refresh_use_outputs(graph_path: Path, root: Path, seconds: dict[str, float]) -> None:
    """An up-to-date graph whose report, viewer, communities or query index went missing gets them back."""
    from skillbox.graph.outputs import refresh_for_build

    use = refresh_for_build(graph_path, root)
    if use is not None:
        seconds.update(use.seconds)


# -- extraction in a process pool ------------------------------------------------------------------------------
def _extract(
    root: Path, known: frozenset[str], todo, jobs: int | None, report: Progress, sizes: dict[str, int], own_done=None
):
    """[(rel, key, sealed entry or None)] for `todo`, in its order when extracted here, in batch order when
    shared; `own_done`: see `extract_shared` (only called when the work is shared with forked children)."""
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
    if os.name == "posix":
        from skillbox.graph.shared_extract import extract_shared
        from skillbox.graph.worker import warm

        # Before the fork, so every child inherits them: the parsers and queries of the languages spread over
        # several batches. A language of one batch is made by the one process that takes it, while the others
        # extract (TypeScript's query alone takes ~0.1 s to compile, which every process would wait for).
        met = Counter(batch[0][1] for batch in batches)
        warm({lang for lang, count in met.items() if count > 1})
        shared = extract_shared(
            str(root), known, batches, workers, report, meanwhile=_import_what_comes_next, own_done=own_done
        )
        if shared is not None:
            return shared
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

    A batch holds one language, and a language of few files (up to `ONE_BATCH_FILES`) is one batch unless it is
    the language with the most files (which is always spread, so a small project still uses every core): its
    parser and query (TSX's query alone costs ~65 ms) are then made by the one process that meets it, not by
    every one or before the fork. Sizes are the walk's."""
    by_lang: dict[str, list[tuple[str, str]]] = {}
    for rel, lang in sorted(todo, key=lambda item: (-sizes[item[0]], item[0])):
        by_lang.setdefault(lang, []).append((rel, lang))
    most = max(by_lang.values(), key=len) if by_lang else None
    batches = []
    for files in by_lang.values():
        step = len(files) if len(files) <= ONE_BATCH_FILES and files is not most else BATCH_FILES
        batches.extend(files[i : i + step] for i in range(0, len(files), step))
    batches.sort(key=lambda batch: -sum(sizes[rel] for rel, _lang in batch))
    return batches


def _import_resolution() -> None:
    import skillbox.graph.resolve  # noqa: F401


def _import_outputs() -> None:
    import skillbox.graph.outputs  # noqa: F401


def _import_clustering() -> None:
    from skillbox.graph.cluster import import_clustering

    import_clustering()


# What resolution and the use side import (~0.09 CPU-s, a third of it igraph and leidenalg), in the order they
# need it: steps, so a cold build's walk can take what fits beside it and extraction the rest.
IMPORTS_FOR_NEXT_STAGES = (_import_resolution, _import_outputs, _import_clustering)


def _import_what_comes_next() -> None:
    """This process would only wait while the workers extract: import what resolution and the use side need
    next, so the build's serial part after extraction doesn't pay it (steps already taken cost nothing)."""
    for step in IMPORTS_FOR_NEXT_STAGES:
        step()


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


def _cached_record(pack: dict, entry: IndexEntry | None) -> FileRecord | None:
    """The record a previous build cached for a file (its stat index entry), or None."""
    if not entry or entry.key not in pack:
        return None
    try:
        plain, _reason = unseal(pack[entry.key])
        return from_plain(plain)
    except Exception:
        return None
