"""Benchmark: the graph's call edges against outside oracles (shared/oracles.md, "Graph").

- `pycg`: the PyCG micro-benchmark (`fetch github:vitsalis/PyCG`, unpacked outside the repo): 119 small Python
  cases, each with the call graph its authors expect (`callgraph.json`, dotted module.qualname names). Our
  `calls` edges, plus decorator references (a decorator is called by the scope that defines the function), are
  mapped to those names; calling a class counts as calling its `__init__` (own or inherited), as in PyCG.
  EXTRACTED and INFERRED edges are scored; AMBIGUOUS candidates are scored on a line of their own.
  Builtins are left out of both sides. Edge precision / recall over all cases, per category, and exact cases.
- `jedi`: call sites sampled with a fixed seed from Python's own `ast` on a repository; jedi's `goto` (follow
  imports) is the truth. Precision of our edges per confidence level, recall of jedi's in-repo resolutions.
- `ts`: the same with the TypeScript compiler API (`bench/ts_oracle.mjs`, npm `typescript` installed into a cache
  folder) on a TS repository.
- `java`: the same with javac's attribution (`bench/JavaOracle.java`, run as a single-file program by the JDK's
  `java`, 11 or newer; every .java file of the repository attributed together, with no classpath) on a Java
  repository. A constructor call's truth is its class, as the graph's edge for `new C()` goes to the class.
- `modules`: every bare import specifier of a JS/TS monorepo (`@acme/core/x`, `#internal`, tsconfig aliases)
  against `ts.resolveModuleName` with the importer's nearest tsconfig (`bench/ts_modules_oracle.mjs`). Workspace
  packages are linked into a temporary `node_modules/` at the root first, as a package manager's install would.

Targets (issue 13): EXTRACTED >= 99% precise, INFERRED >= 95%, call recall >= 90% of the checker's in-repo
resolutions; PyCG precision >= 0.97 and recall >= 0.80.

    python bench/graph_oracles.py pycg [--snippets DIR]
    python bench/graph_oracles.py jedi --repo DIR [--sample 400] [--seed 13]
    python bench/graph_oracles.py ts --repo DIR [--sample 400] [--seed 13] [--node-cache DIR]
    python bench/graph_oracles.py java --repo DIR [--sample 400] [--seed 13]
    python bench/graph_oracles.py modules --repo DIR [--node-cache DIR]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

CACHE = Path(os.environ.get("SKILLBOX_BENCH_CACHE", "/work/cache/graphtrust"))
TARGETS = {"EXTRACTED": 0.99, "INFERRED": 0.95}
RECALL_TARGET = 0.90
PYCG_TARGETS = (0.97, 0.80)


# ---- building the graph in memory -----------------------------------------------------------------------------


def graph_of(root: Path, suffixes: tuple[str, ...] | None = None) -> tuple[dict, list]:
    """(nodes by id, links) of the tree: records extracted in this process, resolved, as graph.json has them."""
    from skillbox.graph.graph_json import file_block
    from skillbox.graph.languages import for_path
    from skillbox.graph.records import from_plain
    from skillbox.graph.resolve import resolve
    from skillbox.graph.walk import walk_tree
    from skillbox.graph.worker import extract_bytes

    records = {}
    for rel, lang, _size, _mtime in walk_tree(root).files:
        if suffixes and not rel.endswith(suffixes):
            continue
        if for_path(rel) is None and lang != "jsproject":  # source files and package.json / tsconfig.json
            continue
        plain, _reason = extract_bytes((root / rel).read_bytes(), lang)
        if plain is not None:
            records[rel] = from_plain(plain)
    resolver = resolve(records)
    nodes: dict[str, dict] = {}
    links: list[dict] = []
    for rel in sorted(records):
        block_nodes, edges = file_block(resolver.file_nodes[rel], resolver.file_edges[rel]).parts
        for node in block_nodes:
            nodes[node["id"]] = node
        for edge in edges:
            link = {"source": edge[0], "target": edge[1], "relation": edge[2], "line": edge[3]}
            link.update(confidence=edge[4], context=edge[5], file=edge[6])
            if len(edge) > 8 and edge[8]:
                link["reason"] = edge[8]
            links.append(link)
    return nodes, links


# ---- PyCG ------------------------------------------------------------------------------------------------------


def _dotted(node_id: str) -> str:
    """`pkg/mod.py::A.f` -> `pkg.mod.A.f`, `pkg/__init__.py` -> `pkg`."""
    path, _, qual = node_id.partition("::")
    module = path[: -len(".py")] if path.endswith(".py") else path
    module = module.replace("/", ".")
    if module.endswith(".__init__"):
        module = module[: -len(".__init__")]
    return f"{module}.{qual}" if qual else module


def _constructor(node_id: str, nodes: dict, bases: dict) -> str | None:
    """A class's `__init__`, own or the first one up its bases; None when there is none (PyCG draws no edge)."""
    seen = set()
    pending = [node_id]
    while pending:
        current = pending.pop(0)
        if current in seen:
            continue
        seen.add(current)
        init = f"{current}.__init__"
        if init in nodes:
            return init
        pending.extend(bases.get(current, ()))
    return None


def pycg_edges(nodes: dict, links: list, ambiguous: bool = False) -> set[tuple[str, str]]:
    bases = defaultdict(list)
    for link in links:
        if link["relation"] == "inherits":
            bases[link["source"]].append(link["target"])
    out = set()
    for link in links:
        relation = link["relation"]
        source, target = link["source"], link["target"]
        if relation == "references" and link["context"] == "decorator":
            # The decorated definition is the source; the call happens in the scope around it.
            node = nodes.get(source)
            if node is None or "::" not in source:
                continue
            path, _, qual = source.partition("::")
            source = f"{path}::{qual.rsplit('.', 1)[0]}" if "." in qual else path
        elif relation != "calls":
            continue
        if link["confidence"] == "AMBIGUOUS" and not ambiguous:
            continue
        node = nodes.get(target)
        if node is not None and node["kind"] == "class":
            target = _constructor(target, nodes, bases)
            if target is None:
                continue
        out.add((_dotted(source), _dotted(target)))
    return out


def pycg_expected(case: Path) -> set[tuple[str, str]]:
    data = json.loads((case / "callgraph.json").read_text())
    return {
        (caller, callee)
        for caller, callees in data.items()
        for callee in callees
        if not caller.startswith("<builtin>") and not callee.startswith("<builtin>")
    }


def run_pycg(args) -> dict:
    snippets = Path(args.snippets)
    if not snippets.is_dir():
        sys.exit(f"Error: no PyCG snippets at {snippets} (fetch github:vitsalis/PyCG and unpack micro-benchmark/)")
    cases = sorted(p.parent for p in snippets.glob("*/*/callgraph.json"))
    per_cat: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # tp, fp, fn, exact, cases
    misses = []
    with_ambiguous = [0, 0]
    started = time.perf_counter()
    for case in cases:
        nodes, links = graph_of(case, (".py",))
        got = pycg_edges(nodes, links)
        want = pycg_expected(case)
        wide = pycg_edges(nodes, links, ambiguous=True)
        with_ambiguous[0] += len(wide & want)
        with_ambiguous[1] += len(wide - want)
        # Edges to names outside the case (imports of missing modules) are not ours to score.
        tp, fp, fn = len(got & want), len(got - want), len(want - got)
        row = per_cat[case.parent.name]
        row[0] += tp
        row[1] += fp
        row[2] += fn
        row[3] += got == want
        row[4] += 1
        if got != want:
            misses.append((f"{case.parent.name}/{case.name}", sorted(got - want), sorted(want - got)))
    seconds = time.perf_counter() - started
    tp = sum(r[0] for r in per_cat.values())
    fp = sum(r[1] for r in per_cat.values())
    fn = sum(r[2] for r in per_cat.values())
    exact = sum(r[3] for r in per_cat.values())
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"PyCG micro-benchmark: {len(cases)} cases in {seconds:.1f} s")
    print(f"{'category':14} {'cases':>5} {'exact':>5} {'prec':>6} {'recall':>6}")
    for cat in sorted(per_cat):
        ctp, cfp, cfn, cexact, ncases = per_cat[cat]
        cprec = ctp / (ctp + cfp) if ctp + cfp else 1.0
        crec = ctp / (ctp + cfn) if ctp + cfn else 1.0
        print(f"{cat:14} {ncases:5} {cexact:5} {cprec:6.3f} {crec:6.3f}")
    target_p, target_r = PYCG_TARGETS
    print(
        f"{'all':14} {len(cases):5} {exact:5} {precision:6.3f} {recall:6.3f}"
        f"   target >= {target_p:.2f} / >= {target_r:.2f}; PyCG itself 0.976 / 0.932"
    )
    wide_tp, wide_fp = with_ambiguous
    print(
        f"with AMBIGUOUS candidates too: precision {wide_tp / max(1, wide_tp + wide_fp):.3f}"
        f" recall {wide_tp / max(1, tp + fn):.3f}"
    )
    if args.verbose:
        for name, extra, missing in misses:
            print(f"- {name}: extra {extra} missing {missing}")
    return {"precision": precision, "recall": recall, "exact": exact, "cases": len(cases)}


# ---- sampled call sites against a type checker --------------------------------------------------------------


def site_edges(links: list) -> dict[tuple[str, int], list[dict]]:
    """`calls` edges by (file, line)."""
    out: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for link in links:
        if link["relation"] == "calls" and link.get("file") and link.get("line"):
            out[(link["file"], link["line"])].append(link)
    return out


def score_sites(sites: list[tuple], nodes: dict, links: list, label: str, shown: int = 10) -> dict:
    """sites: (file, line, callee name, truth) with truth = (file, line[, qualified name in the file]) of the
    definition, "external", or None (the checker could not tell). A graph edge at a site is right when its target
    is the truth's definition. `shown` caps the missed and wrong edges printed as examples."""
    by_site = site_edges(links)
    node_at = {(n.get("file"), n.get("line"), n.get("name")): node_id for node_id, n in nodes.items()}
    # Overloads and redefinitions share one node (the first): a truth at a later one is that node when it is
    # the only node of that name in the file.
    by_name: dict[tuple, list[str]] = defaultdict(list)
    functions: dict[str, list[tuple[int, int]]] = defaultdict(list)  # file -> (line, end line) of its functions
    for node_id, n in nodes.items():
        by_name[(n.get("file"), n.get("name"))].append(node_id)
        if n.get("kind") in ("function", "method") and n.get("end_line"):
            functions[n["file"]].append((n["line"], n["end_line"]))
    right: dict[str, int] = defaultdict(int)
    wrong: dict[str, int] = defaultdict(int)
    unknown: dict[str, int] = defaultdict(int)
    in_repo = found = found_sure = not_nodes = 0
    examples: dict[str, list] = defaultdict(list)
    by_reason: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for file, line, name, truth in sites:
        edges = [e for e in by_site.get((file, line), ()) if nodes.get(e["target"], {}).get("name") == name]
        truth_id = None
        if isinstance(truth, tuple) and len(truth) > 2 and f"{truth[0]}::{truth[2]}" in nodes:
            truth_id = f"{truth[0]}::{truth[2]}"  # the checker named the declaration (javac): overloads are one node
            in_repo += 1
        elif isinstance(truth, tuple):
            truth_id = node_at.get((truth[0], truth[1], name))
            if truth_id is None and len(by_name.get((truth[0], name), ())) == 1:
                only = by_name[(truth[0], name)][0]
                if _may_stand_for(functions[truth[0]], truth[1], nodes[only]["line"]):
                    truth_id = only
            if truth_id is None:  # e.g. a def the graph does not hold as a node (lambda, nested oddity)
                truth_id = ("missing", truth)
                not_nodes += 1
            else:
                in_repo += 1
        for edge in edges:
            confidence = edge["confidence"]
            kind = _reason_kind(edge.get("reason", ""))
            if truth is None:
                unknown[confidence] += 1
            elif edge["target"] == truth_id or _constructor_of(edge["target"], truth_id, nodes):
                right[confidence] += 1
                by_reason[(confidence, kind)][0] += 1
            else:
                wrong[confidence] += 1
                by_reason[(confidence, kind)][1] += 1
                if len(examples[confidence]) < max(6, shown):
                    examples[confidence].append(f"{file}:{line} {name} -> {edge['target']} (truth {truth})")
        if isinstance(truth_id, str):
            hit = [e for e in edges if e["target"] == truth_id or _constructor_of(e["target"], truth_id, nodes)]
            found += bool(hit)
            sure = any(e["confidence"] != "AMBIGUOUS" for e in hit)
            found_sure += sure
            if not sure and len(examples["missed"]) < shown:
                got = ", ".join(f"{e['target']} {e['confidence']}" for e in edges) or "no edge"
                examples["missed"].append(f"{file}:{line} {name} -> {truth_id} (graph: {got})")
    print(
        f"{label}: {len(sites)} sampled call sites, {in_repo} resolved by the checker to a definition the graph holds"
        f" ({not_nodes} more to locals, lambdas or other definitions that are not nodes)"
    )
    print(f"{'confidence':10} {'edges':>6} {'right':>6} {'wrong':>6} {'unknown':>7} {'precision':>9}  target")
    out = {"sites": len(sites), "in_repo": in_repo}
    for confidence in ("EXTRACTED", "INFERRED", "AMBIGUOUS"):
        r, w, u = right[confidence], wrong[confidence], unknown[confidence]
        precision = r / (r + w) if r + w else float("nan")
        target = f">= {TARGETS[confidence]:.0%}" if confidence in TARGETS else "(candidates)"
        print(f"{confidence:10} {r + w + u:6} {r:6} {w:6} {u:7} {precision:9.3f}  {target}")
        out[confidence] = {"right": r, "wrong": w, "unknown": u, "precision": precision}
    recall = found / in_repo if in_repo else float("nan")
    recall_sure = found_sure / in_repo if in_repo else float("nan")
    print(
        f"recall of the checker's in-repo resolutions: {recall:.3f} (any confidence), "
        f"{recall_sure:.3f} (EXTRACTED+INFERRED); target >= {RECALL_TARGET:.0%}"
    )
    for (confidence, kind), (r, w) in sorted(by_reason.items()):
        if confidence != "EXTRACTED":
            print(f"  {confidence} because {kind}: {r} right, {w} wrong")
    for confidence, lines in examples.items():
        for text in lines:
            print(f"  {'missed' if confidence == 'missed' else 'wrong ' + confidence}: {text}")
    out["recall"], out["recall_sure"] = recall, recall_sure
    return out


def _may_stand_for(functions: list[tuple[int, int]], truth_line: int, node_line: int) -> bool:
    """Whether the file's only node of a name may stand for a declaration at `truth_line` the graph holds no node
    at (an overload signature, a `const` holding the function): not when the declaration is local to a function
    the node is outside of (`const [open, setOpen] = useState()` is no interface's `setOpen`)."""
    inside = [(start, end) for start, end in functions if start < truth_line <= end]
    if not inside:
        return True
    start, end = max(inside)  # the innermost function around the declaration
    return start <= node_line <= end


def _constructor_of(target: str, truth_id, nodes: dict) -> bool:
    """`new C()` answered with C's constructor (`C.C`, Java) where the checker names the class C: the same call."""
    if not isinstance(truth_id, str) or not target.startswith(truth_id + "."):
        return False
    return nodes.get(target, {}).get("name") == nodes.get(truth_id, {}).get("name") == target.rsplit(".", 1)[-1]


def _reason_kind(reason: str) -> str:
    """A reason without its particulars (names, lines, counts), to group edges by why they were drawn."""
    return re.sub(r"\b(?:line )?\d+\b|`[^`]*`|\S+\(\)|\b[\w.]*[A-Z_][\w.]*\b|\S+/\S+", "…", reason)[:80]


def python_call_sites(root: Path, files: list[str]) -> list[tuple[str, int, int, str]]:
    """(file, line, column of the called name, name) of every call whose callee is a name or an attribute."""
    out = []
    for rel in files:
        try:
            tree = ast.parse((root / rel).read_bytes())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                out.append((rel, func.lineno, func.col_offset, func.id))
            elif isinstance(func, ast.Attribute) and func.end_lineno == func.lineno:
                out.append((rel, func.end_lineno, func.end_col_offset - len(func.attr), func.attr))
    return out


_DEFS_BY_FILE: dict[str, dict[int, str]] = {}


def _defs_of(root: Path, rel: str) -> dict[int, str]:
    """line of each def/class name -> its qualified name in the module, from Python's own `ast`."""
    found = _DEFS_BY_FILE.get(rel)
    if found is None:
        found = _DEFS_BY_FILE[rel] = {}
        try:
            tree = ast.parse((root / rel).read_bytes())
        except (OSError, SyntaxError, ValueError):
            return found

        def visit(node, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    found[child.lineno] = f"{prefix}{child.name}"
                    visit(child, f"{prefix}{child.name}.")

        visit(tree, "")
    return found


def _first_def_of_its_name(root: Path, truth: tuple[str, int]) -> tuple[str, int]:
    """The graph holds one node per qualified name, at its first def: `@typing.overload` stubs and the
    implementation they describe (`Progress.open` in rich: two stubs, then the def jedi names) are one node.
    A truth at a later def of the same qualified name is moved to the first; anything else is unchanged."""
    rel, line = truth
    defs = _defs_of(root, rel)
    qual = defs.get(line)
    if qual is None:
        return truth
    return rel, min(at for at, q in defs.items() if q == qual)


def run_jedi(args) -> dict:
    import jedi

    root = Path(args.repo).resolve()
    nodes, links = graph_of(root)
    files = sorted({n["file"] for n in nodes.values() if n.get("file", "").endswith(".py")})
    sites = python_call_sites(root, files)
    random.Random(args.seed).shuffle(sites)
    sites = sites[: args.sample]
    project = jedi.Project(root)
    judged = []
    started = time.perf_counter()
    scripts: dict[str, object] = {}
    for rel, line, column, name in sites:
        script = scripts.get(rel)
        if script is None:
            script = scripts[rel] = jedi.Script(path=str(root / rel), project=project)
        try:
            names = script.goto(line, column, follow_imports=True)
        except Exception:
            names = []
        truth = None
        if names and names[0].type == "statement":
            # `f = obj.method` then `f()`: goto stops at the assignment; what it holds is the callee.
            try:
                inferred = script.infer(line, column)
            except Exception:
                inferred = []
            if inferred and inferred[0].type in ("function", "class"):
                names = inferred
        if len(names) >= 1:
            first = names[0]
            module_path = first.module_path
            if module_path is not None and Path(module_path).resolve().is_relative_to(root) and first.line:
                truth = (Path(module_path).resolve().relative_to(root).as_posix(), first.line)
                if len({(str(n.module_path), n.line) for n in names}) > 1:
                    truth = None  # jedi itself is unsure
            elif first.type in ("function", "class", "module", "instance") or first.in_builtin_module():
                truth = "external"
        if isinstance(truth, tuple):
            truth = _first_def_of_its_name(root, truth)
        judged.append((rel, line, name, truth))
    print(f"jedi {jedi.__version__}: {len(sites)} sites in {time.perf_counter() - started:.1f} s, seed {args.seed}")
    return score_sites(judged, nodes, links, f"{root.name} (jedi)", args.shown)


def run_ts(args) -> dict:
    root = Path(args.repo).resolve()
    node_cache = Path(args.node_cache)
    _need_typescript(node_cache)
    nodes, links = graph_of(root)
    suffixes = (".ts", ".tsx", ".mts", ".cts")
    files = sorted(
        {n["file"] for n in nodes.values() if n.get("file", "").endswith(suffixes) and not n["file"].endswith(".d.ts")}
    )
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "files.json"
        listing.write_text(json.dumps({"root": str(root), "files": files, "seed": args.seed, "sample": args.sample}))
        env = dict(os.environ, NODE_PATH=str(node_cache / "node_modules"))
        started = time.perf_counter()
        proc = subprocess.run(
            ["node", str(REPO / "bench" / "ts_oracle.mjs"), str(listing)],
            capture_output=True,
            text=True,
            env=env,
            cwd=node_cache,
        )
        if proc.returncode != 0:
            sys.exit(f"Error: ts_oracle failed: {proc.stderr.strip()[-800:]}")
    rows = json.loads(proc.stdout)
    print(f"typescript {rows['version']}: {len(rows['sites'])} sites in {time.perf_counter() - started:.1f} s")
    judged = []
    for site in rows["sites"]:
        truth = site["truth"]
        if isinstance(truth, list):
            truth = (truth[0], truth[1])
        judged.append((site["file"], site["line"], site["name"], truth))
    return score_sites(judged, nodes, links, f"{root.name} (tsc)", args.shown)


def run_java(args) -> dict:
    root = Path(args.repo).resolve()
    if shutil.which("java") is None:
        sys.exit("Error: the java oracle needs a JDK's `java` (11 or newer) on PATH")
    nodes, links = graph_of(root, suffixes=(".java",))
    files = sorted({n["file"] for n in nodes.values() if n.get("file", "").endswith(".java")})
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "files.txt"
        listing.write_text("\n".join(files) + "\n", encoding="utf-8")
        started = time.perf_counter()
        proc = subprocess.run(
            ["java", str(REPO / "bench" / "JavaOracle.java"), str(root), str(listing)], capture_output=True, text=True
        )
        if proc.returncode != 0:
            sys.exit(f"Error: JavaOracle failed: {proc.stderr.strip()[-800:]}")
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line]
    print(f"javac: {len(rows)} call sites in {len(files)} files in {time.perf_counter() - started:.1f} s")
    # The graph's edges carry a line, not a column: where one line calls one name twice with different truths
    # (`toString().equals(o.toString())`), no edge can be told right or wrong, so those sites are left out.
    truths: dict[tuple, set] = defaultdict(set)
    for row in rows:
        truths[(row["file"], row["line"], row["name"])].add(json.dumps(row["truth"]))
    rows = [row for row in rows if len(truths[(row["file"], row["line"], row["name"])]) == 1]
    random.Random(args.seed).shuffle(rows)
    judged = []
    for row in rows[: args.sample]:
        truth = row["truth"]
        if isinstance(truth, list):
            truth = tuple(truth)
        judged.append((row["file"], row["line"], row["name"], truth))
    return score_sites(judged, nodes, links, f"{root.name} (javac)", args.shown)


def _import_kind(reason: str) -> str:
    for word, kind in (
        (" paths ", "tsconfig paths"),
        ("baseUrl", "tsconfig baseUrl"),
        ("build output", "exports to build output (guess)"),
        ("no workspace", "package outside workspaces (guess)"),
        (" imports ", "package.json imports"),
        (" exports ", "package.json exports"),
        (" main", "package.json main"),
        ("(subpath", "package subpath"),
        ("package folder", "folder name (guess)"),
        ("source root", "@/ source root (guess)"),
    ):
        if word in reason:
            return kind
    return "other" if reason else "(no reason)"


def _link_workspaces(root: Path) -> list[Path]:
    """node_modules/<name> -> each named package folder (unique names), as an install links a workspace."""
    import orjson

    names: dict[str, list[Path]] = defaultdict(list)
    for manifest in root.rglob("package.json"):
        if "node_modules" in manifest.parts:
            continue
        try:
            name = orjson.loads(manifest.read_bytes()).get("name")
        except (orjson.JSONDecodeError, AttributeError):
            continue
        if isinstance(name, str) and name:
            names[name].append(manifest.parent)
    made = []
    for name, folders in sorted(names.items()):
        link = root / "node_modules" / name
        if len(folders) != 1 or link.exists() or link.is_symlink():
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(folders[0], target_is_directory=True)
        made.append(link)
    return made


def run_modules(args) -> dict:
    root = Path(args.repo).resolve()
    node_cache = Path(args.node_cache)
    _need_typescript(node_cache)
    from skillbox.graph.records import from_plain
    from skillbox.graph.walk import walk_tree
    from skillbox.graph.worker import extract_bytes

    _nodes, links = graph_of(root)
    by_site: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for link in links:
        if link["relation"] == "imports":
            by_site[(link["source"], link["line"])].append(link)
    imports = []
    for rel, lang, _size, _mtime in walk_tree(root).files:
        if lang not in ("javascript", "typescript", "tsx"):
            continue
        plain, _reason = extract_bytes((root / rel).read_bytes(), lang)
        record = from_plain(plain) if plain is not None else None
        lines = defaultdict(list)
        for imp in record.imports if record else ():
            if not imp.module.startswith((".", "/")) and ":" not in imp.module:
                lines[imp.line].append(imp.module)
        for line, modules in lines.items():
            found = by_site.get((rel, line), [])
            if len(set(modules)) == 1 and len(found) == 1:
                imports.append((rel, modules[0], found[0]))
    made = _link_workspaces(root)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            listing = Path(tmp) / "imports.json"
            payload = [{"file": rel, "module": module} for rel, module, _link in imports]
            listing.write_text(json.dumps({"root": str(root), "imports": payload}))
            env = dict(os.environ, NODE_PATH=str(node_cache / "node_modules"))
            proc = subprocess.run(
                ["node", str(REPO / "bench" / "ts_modules_oracle.mjs"), str(listing)],
                capture_output=True,
                text=True,
                env=env,
                cwd=node_cache,
            )
    finally:
        for link in made:
            link.unlink()
            for parent in (link.parent, link.parent.parent):
                if parent != root and parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()
    if proc.returncode != 0:
        sys.exit(f"Error: ts_modules_oracle failed: {proc.stderr.strip()[-800:]}")
    rows = json.loads(proc.stdout)
    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    wrong = []
    for (rel, module, link), truth in zip(imports, rows["resolved"], strict=True):
        ours = link["target"]
        ours_in_repo = not ours.startswith("external:")
        kind = (link["confidence"], _import_kind(link.get("reason", "")) if ours_in_repo else "external")
        if truth in (None, "external"):
            verdict = "checker: outside the repo" if ours_in_repo else "both outside"
            if ours_in_repo and link["confidence"] == "EXTRACTED":
                wrong.append((rel, module, ours, truth))
        elif ours == truth:
            verdict = "same file"
        elif not ours_in_repo:
            verdict = "missed (ours external)"
            wrong.append((rel, module, ours, truth))
        elif truth.endswith(".d.ts") and not ours.endswith(".d.ts"):
            verdict = "checker: its declaration"
        else:
            verdict = "wrong file"
            wrong.append((rel, module, ours, truth))
        table[kind][verdict] += 1
    print(f"typescript {rows['version']}: {len(imports)} bare imports of {root.name}")
    verdicts = ("same file", "checker: its declaration", "wrong file", "checker: outside the repo")
    verdicts += ("missed (ours external)",)
    print("| confidence | how resolved | " + " | ".join(verdicts) + " |")
    print("|---|---|" + "---|" * len(verdicts))
    for (confidence, kind), counts in sorted(table.items()):
        if kind == "external" and not counts.get("missed (ours external)"):
            continue
        print(f"| {confidence} | {kind} | " + " | ".join(str(counts.get(v, 0)) for v in verdicts) + " |")
    for rel, module, ours, truth in wrong[:15]:
        print(f"  differs: {rel} imports {module!r}: ours {ours}, checker {truth}")
    return {"table": {f"{c}|{k}": dict(v) for (c, k), v in table.items()}, "differs": len(wrong)}


# The compiler API the oracle scripts use (`ts.ScriptTarget`, `createProgram`): TypeScript 5. npm's latest (7.x, the
# native port) no longer exports it, so the figures in bench/README.md were all taken with this release.
TYPESCRIPT = "typescript@5.9.3"


def _need_typescript(node_cache: Path) -> None:
    """Exit with the install command unless the cache holds a TypeScript 5 compiler API."""
    package = node_cache / "node_modules" / "typescript" / "package.json"
    try:
        version = json.loads(package.read_text())["version"]
    except (OSError, ValueError, KeyError):
        version = None
    if version is None or not version.startswith("5."):
        found = f"typescript {version}" if version else "no npm typescript"
        install = f"npm install --prefix {node_cache} {TYPESCRIPT}"
        sys.exit(f"Error: {found} in {node_cache}; the oracle needs {TYPESCRIPT} ({install})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pycg")
    p.add_argument("--snippets", default=str(CACHE / "pycg" / "micro-benchmark" / "snippets"))
    p.add_argument("-v", "--verbose", action="store_true", help="list every case that is not exact")
    for name in ("jedi", "ts", "java"):
        p = sub.add_parser(name)
        p.add_argument("--repo", required=True)
        p.add_argument("--sample", type=int, default=400)
        p.add_argument("--seed", type=int, default=13)
        p.add_argument("--node-cache", default=str(CACHE / "node"))
        p.add_argument("--shown", type=int, default=10, help="how many missed and wrong edges to print")
    p = sub.add_parser("modules")
    p.add_argument("--repo", required=True)
    p.add_argument("--node-cache", default=str(CACHE / "node"))
    args = parser.parse_args()
    {"pycg": run_pycg, "jedi": run_jedi, "ts": run_ts, "java": run_java, "modules": run_modules}[args.command](args)


if __name__ == "__main__":
    main()
