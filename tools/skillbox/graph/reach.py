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
from skillbox.graph.records import FileRecord, shared_flow

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def affected_files(records: dict[str, FileRecord], before: dict[str, FileRecord]) -> set[str] | None:
    """Files to resolve again, given the current records and the previous records of the files that changed
    (`before`: path -> old record, for exactly the files whose content changed; the set of files is the same).
    None when a change is of a kind that can reach any file (then everything is resolved again)."""
    names: set[str] = set()
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
            names.update(scope.split("."))
            names.add(name)
            if relation in ("exportas", "exportdefault"):
                names.add("default")
                names.update(_IDENT.findall(_receiver or ""))
        old_defs, new_defs = _defs(old), _defs(new)
        for qualname in old_defs.keys() | new_defs.keys():
            if old_defs.get(qualname) != new_defs.get(qualname):
                names.update(qualname.split("."))
                names.update(d[1] for d in old_defs.get(qualname, ()))
                names.update(d[1] for d in new_defs.get(qualname, ()))
    affected = set(before)
    if names:
        affected.update(rel for rel, rec in records.items() if rel not in affected and _mentions(rec, names))
    return affected


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
