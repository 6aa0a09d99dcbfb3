"""Synthetic code graphs shaped like a real project, for tests and benchmarks of the graph's use side.

`synthetic_graph(files=3000)` gives roughly Django's size (about 50k nodes, 120k edges): packages of modules, each
with classes, methods and functions; imports mostly within a package; calls mostly within a module or to imported
modules; inheritance within and across packages. Deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

_WORD_TEXT = (
    "request response view model query field form admin cache session auth user group permission template "
    "render loader context url route handler middleware signal storage file backend engine compiler lookup "
    "expression aggregate migration schema operation state token cookie header stream parser serializer "
    "validator widget manager registry config setting message mail log error"
)
WORDS = _WORD_TEXT.split()


def _name(rng: random.Random, parts: int, style: str) -> str:
    words = [rng.choice(WORDS) for _ in range(parts)]
    if style == "class":
        return "".join(w.capitalize() for w in words)
    return "_".join(words)


def synthetic_graph(files: int = 3000, seed: int = 7) -> dict:
    """Node-link data (directed multigraph) with the contract's node and link fields."""
    rng = random.Random(seed)
    nodes: list[dict] = []
    links: list[dict] = []
    packages = [f"pkg{i}" for i in range(max(1, files // 200))]
    file_ids: list[str] = []
    file_package: dict[str, str] = {}
    callables_by_file: dict[str, list[str]] = {}
    classes_by_file: dict[str, list[str]] = {}
    used: set[str] = set()

    for index in range(files):
        package = packages[index % len(packages)]
        sub = f"sub{(index // len(packages)) % 8}"
        stem = _name(rng, 1, "func")
        path = f"{package}/{sub}/{stem}_{index}.py"
        file_ids.append(path)
        file_package[path] = package
        nodes.append({"id": path, "kind": "file", "name": path.rsplit("/", 1)[1], "file": path, "line": 1})
        callables: list[str] = []
        classes: list[str] = []
        line = 3
        for _ in range(rng.randint(1, 4)):
            cls = _name(rng, 2, "class")
            cid = f"{path}::{cls}"
            if cid in used:
                continue
            used.add(cid)
            nodes.append(
                {"id": cid, "kind": "class", "name": cls, "file": path, "line": line, "docstring": f"A {cls} thing."}
            )
            links.append(_link(path, cid, "contains", path, line))
            classes.append(cid)
            line += 2
            for _ in range(rng.randint(2, 6)):
                meth = _name(rng, 2, "func")
                mid = f"{cid}.{meth}"
                if mid in used:
                    continue
                used.add(mid)
                nodes.append({"id": mid, "kind": "method", "name": meth, "file": path, "line": line})
                links.append(_link(cid, mid, "contains", path, line))
                callables.append(mid)
                line += rng.randint(3, 20)
        for _ in range(rng.randint(0, 4)):
            fn = _name(rng, 2, "func")
            fid = f"{path}::{fn}"
            if fid in used:
                continue
            used.add(fid)
            nodes.append({"id": fid, "kind": "function", "name": fn, "file": path, "line": line})
            links.append(_link(path, fid, "contains", path, line))
            callables.append(fid)
            line += rng.randint(3, 20)
        callables_by_file[path] = callables
        classes_by_file[path] = classes

    by_package: dict[str, list[str]] = {}
    for path in file_ids:
        by_package.setdefault(file_package[path], []).append(path)

    for path in file_ids:
        siblings = by_package[file_package[path]]
        imported = set()
        for _ in range(rng.randint(1, 6)):
            other = rng.choice(siblings) if rng.random() < 0.8 else rng.choice(file_ids)
            if other != path and other not in imported:
                imported.add(other)
                links.append(_link(path, other, "imports", path, rng.randint(1, 3)))
        targets = [c for other in imported for c in callables_by_file[other]]
        own = callables_by_file[path]
        for caller in own:
            node_line = 10
            for _ in range(rng.randint(0, 4)):
                pool = own if (rng.random() < 0.5 or not targets) else targets
                if pool:
                    callee = rng.choice(pool)
                    if callee != caller:
                        conf = "EXTRACTED" if pool is own or rng.random() < 0.85 else "INFERRED"
                        links.append(_link(caller, callee, "calls", path, node_line, conf))
                node_line += 1
        for cls in classes_by_file[path]:
            if rng.random() < 0.35:
                bases = [c for other in imported for c in classes_by_file[other]] or classes_by_file[path]
                base = rng.choice(bases)
                if base != cls:
                    links.append(_link(cls, base, "inherits", path, 3))
    return {"directed": True, "multigraph": True, "graph": {}, "nodes": nodes, "links": links}


def _link(source: str, target: str, relation: str, file: str, line: int, confidence: str = "EXTRACTED") -> dict:
    return {
        "source": source,
        "target": target,
        "relation": relation,
        "confidence": confidence,
        "file": file,
        "line": line,
    }


def write_synthetic(path: Path, files: int = 3000, seed: int = 7) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(synthetic_graph(files, seed)))
    return path


if __name__ == "__main__":
    import sys

    out = write_synthetic(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3000)
    data = json.loads(out.read_text())
    print(f"{out}: {len(data['nodes'])} nodes, {len(data['links'])} links")
