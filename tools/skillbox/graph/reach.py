"""Which files an interface change can reach, so a build re-resolves those and reuses every other file's block.

A file's part of graph.json depends on its own record and on what it can see of the others: definitions by name
(imports, module attributes, class members, unique-name guesses, doc mentions), the set of files (import paths),
imports and re-exports, class bases, and doc headings. Definitions are the common change (a function added,
renamed, removed); everything else is rare and answered conservatively: resolve everything again.

When only definitions changed, the names involved (each changed definition's name and the parts of its qualified
name) are all another file can have used to reach them: resolution looks names up, it never enumerates a file. So
a file is re-resolved when it mentions one of those names anywhere it resolves from — a reference's name or
receiver, an imported name, alias or module path, a backticked mention in a doc — and reused otherwise. The build's
invariant (an incremental graph.json equals a cold one byte for byte) is what the tests check this against.
"""

from __future__ import annotations

import re
from collections import defaultdict

from skillbox.graph.languages.js_project import PROJECT_LANG
from skillbox.graph.records import PARAM_FLOW, FileRecord, shared_flow

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def affected_files(records: dict[str, FileRecord], before: dict[str, FileRecord]) -> set[str] | None:
    """Files to resolve again, given the current records and the previous records of the files that changed
    (`before`: path -> old record, for exactly the files whose content changed; the set of files is the same).
    None when a change is of a kind that can reach any file (then everything is resolved again)."""
    names: set[str] = set()
    flow: list = []  # memo for _param_flow_reach
    extra: set[str] = set()
    for rel, old in before.items():
        new = records[rel]
        if old.interface == new.interface:
            continue
        if (
            old.lang != new.lang
            or old.lang == PROJECT_LANG  # a package.json or tsconfig.json: any import may now resolve elsewhere
            or _imports(old) != _imports(new)
            or _bases(old) != _bases(new)
            or [h.slug for h in old.headings] != [h.slug for h in new.headings]
        ):
            return None
        # A changed return, attribute or export alias reaches the files that name its function, class or attribute.
        for relation, name, _receiver, scope in set(_flow(old)) ^ set(_flow(new)):
            if relation in PARAM_FLOW and relation not in ("yields", "decorator"):
                continue  # call sites and parameters reach through _param_flow_reach, not by every name they pass
            names.update(scope.split("."))
            names.add(name)
            if relation in ("exportas", "exportdefault"):
                names.add("default")
                names.update(_IDENT.findall(_receiver or ""))
        old_defs, new_defs = _defs(old), _defs(new)
        changed: set[str] = set()
        for qualname in old_defs.keys() | new_defs.keys():
            if old_defs.get(qualname) != new_defs.get(qualname):
                changed.update(qualname.split("."))
                changed.update(d[1] for d in old_defs.get(qualname, ()))
                changed.update(d[1] for d in new_defs.get(qualname, ()))
        reached_files, reached_names = _param_flow_reach(records, old, new, changed, flow)
        extra |= reached_files
        names |= changed | reached_names
    affected = set(before) | extra
    if names:
        affected.update(rel for rel, rec in records.items() if rel not in affected and _mentions(rec, names))
    return affected


def _param_flow_reach(records, old: FileRecord, new: FileRecord, changed: set[str], memo: list):
    """(files, names) a change reaches through parameter flow (resolve.py "parameter flow"): values travel from
    call sites into the parameters of the function called, and on into the attributes and returns set from
    them. A changed parameter, a changed call site of a function with such a parameter, or a changed definition
    such a call site passes by name reaches the files of those functions and every file that names the
    function or one of those attributes."""
    if not memo:
        memo.append(_param_functions(records))
    functions: dict[str, set[str]] = memo[0]
    if not functions:
        return set(), set()
    called = {_called_name(site) for site in set(_sites(old)) ^ set(_sites(new))}
    for _param, _slot, qualname in set(_params(old)) ^ set(_params(new)):
        parts = qualname.split(".")
        called.add(parts[-1])
        if parts[-1] == "__init__" and len(parts) > 1:  # `C(x)` passes to it
            called.add(parts[-2])
    if changed:
        for rec in (old, new):
            for ref in rec.refs:
                if ref[0] in PARAM_SITES and not changed.isdisjoint(_IDENT.findall(ref[1])):
                    called.add(_called_name(ref))
        if len(memo) == 1:
            passed: dict[str, set[str]] = {}
            for rec in records.values():
                for ref in rec.refs:
                    if ref[0] in PARAM_SITES and _called_name(ref) in functions:
                        for word in _IDENT.findall(ref[1] if ref[0] != "decorator" else ""):
                            passed.setdefault(word, set()).add(_called_name(ref))
            memo.append(passed)
        for name in changed:
            called.update(memo[1].get(name, ()))
    files: set[str] = set()
    names: set[str] = set()
    if called:
        called.add("")  # a call through a parameter can reach any of them
    for function in called & functions.keys():
        for rel in functions[function]:
            files.add(rel)
        names.add(function)
    for rel in files:
        names.update(_param_outputs(records[rel]))
    return files, names


def _param_outputs(rec: FileRecord) -> set[str]:
    """Names through which a file's parameter values leave it: attributes set and names returned in the
    functions with followed parameters, and those functions' names."""
    scopes = {r[3] for r in rec.refs if r[0] == "param"}
    out = {rec.defs[scope].name for scope in scopes if scope >= 0}
    out.update(r[1] for r in rec.refs if r[3] in scopes and r[0] in ("attralias", "attr", "returns", "yields"))
    return out - {"self", "cls"}  # every method names these: they say nothing about who reads the values


PARAM_SITES = frozenset({"decorator", "arg0", "arg1", "argkw"})


def _params(rec: FileRecord) -> list[tuple]:
    return [(r[1], r[2], _scope_name(rec, r[3])) for r in rec.refs if r[0] == "param"]


def _sites(rec: FileRecord) -> list[tuple]:
    return [(r[0], r[1], r[2], _scope_name(rec, r[3])) for r in rec.refs if r[0] in PARAM_SITES]


def _called_name(ref: tuple) -> str:
    """The name a call site calls: the decorator's, or the last part of the called expression."""
    return ref[1] if ref[0] == "decorator" else (ref[2] or "").rsplit(".", 1)[-1]


def _param_functions(records: dict[str, FileRecord]) -> dict[str, set[str]]:
    """Name -> files of the functions with a followed parameter (a class's name for its `__init__`). Calls
    through a parameter (`cb(x)`, any function can be passed there) count under every name: such a file is
    listed under "" and joins every reach."""
    names: dict[str, set[str]] = {}
    for rel, rec in records.items():
        params = {(r[3], r[1]) for r in rec.refs if r[0] == "param"}
        for scope, _name in params:
            if scope < 0:
                continue
            d = rec.defs[scope]
            names.setdefault(d.name, set()).add(rel)
            if d.name == "__init__" and d.parent >= 0:
                names.setdefault(rec.defs[d.parent].name, set()).add(rel)
        if any(r[0] in PARAM_SITES and r[0] != "decorator" and (r[3], r[2]) in params for r in rec.refs):
            names.setdefault("", set()).add(rel)
    return names


def _scope_name(rec: FileRecord, scope: int) -> str:
    """A scope by qualified name, not by index: inserting a definition shifts every later index."""
    return rec.defs[scope].qualname if 0 <= scope < len(rec.defs) else ""


def _defs(rec: FileRecord) -> dict[str, list[tuple]]:
    """qualname -> [(kind, name, parent qualname)] in file order (order matters when a name is defined twice)."""
    out: dict[str, list[tuple]] = defaultdict(list)
    for d in rec.defs:
        out[d.qualname].append((d.kind, d.name, _scope_name(rec, d.parent)))
    return out


def _imports(rec: FileRecord) -> list[tuple]:
    return [(i.module, i.level, i.names, i.alias, _scope_name(rec, i.scope), i.reexport) for i in rec.imports]


def _flow(rec: FileRecord) -> list[tuple]:
    return [(r[0], r[1], r[2], _scope_name(rec, r[3])) for r in shared_flow(rec.refs, rec.defs)]


def _bases(rec: FileRecord) -> list[tuple]:
    return [(r[0], r[1], r[2], _scope_name(rec, r[3])) for r in rec.refs if r[0] in ("inherit", "implement")]


def _mentions(rec: FileRecord, names: set[str]) -> bool:
    for ref in rec.refs:
        if ref[1] in names:
            return True
        receiver = ref[2]
        if receiver and not names.isdisjoint(_IDENT.findall(receiver)):
            return True
    for imp in rec.imports:
        if imp.alias in names or not names.isdisjoint(_IDENT.findall(imp.module)):
            return True
        for name, alias in imp.names or ():
            if name in names or alias in names:
                return True
    return any(not names.isdisjoint(_IDENT.findall(m.text)) for m in rec.mentions)
