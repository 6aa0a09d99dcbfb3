"""The compact per-file records that extraction produces and the cache stores.

Records are plain tuples (cheap to pickle, to hold for thousands of files, and to compare), path-independent
(the same bytes in two places give the same record, so the cache is keyed by content) and carry no tree-sitter
objects: trees are dropped as soon as a file is extracted.
"""

from __future__ import annotations

import hashlib
import marshal
from typing import NamedTuple

# Bump when the record layout or extraction semantics change: it is part of every cache key.
EXTRACTOR_VERSION = 2


class Def(NamedTuple):
    kind: str  # class | function | method | interface | type
    qualname: str  # dotted path inside the file: "Class.method"
    name: str
    line: int
    end_line: int
    parent: int  # index of the enclosing definition, -1 for the file
    doc: str | None
    notes: tuple[str, ...]


class Ref(NamedTuple):  # cached and resolved as a plain tuple in this field order
    relation: str  # call | inherit | implement | type | decorator
    name: str
    receiver: str | None  # "self", "os.path", "super()" ... or None for a bare name
    scope: int  # index of the innermost enclosing definition, -1 for the file
    line: int


class ImportRec(NamedTuple):
    module: str  # module / path text as written ("os.path", "./util", "stdio.h")
    level: int  # Python relative-import dots
    names: tuple[tuple[str, str | None], ...] | None  # (name, alias) pairs, None for `import module`
    alias: str | None  # `import module as alias`, `import * as ns`
    line: int
    scope: int
    reexport: bool  # `export ... from` (JS/TS): names become exports of this file


class Heading(NamedTuple):
    level: int
    title: str
    slug: str
    line: int
    parent: int


class DocLink(NamedTuple):
    target: str  # link target as written (relative path, maybe with #anchor)
    line: int
    heading: int


class Mention(NamedTuple):
    text: str  # backticked text that may name a code symbol
    line: int
    heading: int


class FileRecord(NamedTuple):
    lang: str
    defs: tuple[Def, ...] = ()
    refs: tuple[Ref, ...] = ()
    imports: tuple[ImportRec, ...] = ()
    doc: str | None = None
    notes: tuple[str, ...] = ()
    errors: int = 0  # syntax-error / missing nodes tree-sitter recovered from
    encoding_errors: int = 0  # 1 when the bytes are not valid UTF-8 (parsed anyway)
    headings: tuple[Heading, ...] = ()
    links: tuple[DocLink, ...] = ()
    mentions: tuple[Mention, ...] = ()
    # Digest of what other files can see of this one (definitions, imports, bases, headings; no lines, no
    # bodies). While no file's interface changes, unchanged files resolve exactly as before.
    interface: str = ""


def to_plain(record: FileRecord | None) -> tuple | None:
    """Nested plain tuples: what `marshal` can store (several times faster than pickling named tuples)."""
    if record is None:
        return None
    return (
        record.lang,
        tuple(map(tuple, record.defs)),
        tuple(map(tuple, record.refs)),
        tuple(map(tuple, record.imports)),
        record.doc,
        record.notes,
        record.errors,
        record.encoding_errors,
        tuple(map(tuple, record.headings)),
        tuple(map(tuple, record.links)),
        tuple(map(tuple, record.mentions)),
        record.interface,
    )


_new = tuple.__new__  # NamedTuple._make checks lengths in Python; records come from our own cache


def from_plain(t: tuple | None) -> FileRecord | None:
    if t is None:
        return None
    return _new(
        FileRecord,
        (
            t[0],
            tuple([_new(Def, d) for d in t[1]]),
            t[2],  # refs stay plain tuples (the resolver indexes them): most objects, least touched
            tuple([_new(ImportRec, i) for i in t[3]]),
            t[4],
            t[5],
            t[6],
            t[7],
            tuple([_new(Heading, h) for h in t[8]]),
            tuple([_new(DocLink, x) for x in t[9]]),
            tuple([_new(Mention, m) for m in t[10]]),
            t[11],
        ),
    )


BASE_RELATIONS = ("inherit", "implement")
# Value-flow facts other files resolve through (what a function returns, what a class's attributes hold, what a
# module exports under another name): part of the interface, so a change to one re-resolves the files that use it.
SHARED_FLOW = frozenset(
    {"returns", "returncall", "returntype", "attr", "attralias", "exportas", "exportdefault", "namespace", "cbparam"}
)
# Parameter flow crosses files the other way: a call site's arguments (and a decorator, which passes the def it
# decorates) give another file's parameters their values (see resolve.py "parameter flow").
PARAM_FLOW = frozenset({"param", "decorator", "arg0", "arg1", "argkw", "yields"})
# Shared when the scope is a class body (`x: T`) or the module (`ASCII = Box(...)`, read as `box.ASCII`).
OUTER_SCOPE_FLOW = frozenset({"assign", "awaitassign", "alias"})


def shared_flow(refs: tuple, defs: tuple) -> list[tuple]:
    """The refs of a record (plain layout) that belong to its interface besides bases, as (relation, name,
    receiver, scope). A function's local variable belongs there when the function returns it (`const c = new
    Client(); return c`): what a call of the function gives, in the files that call it, is that value."""
    out = []
    returned = None
    for r in refs:
        relation = r[0]
        if relation in SHARED_FLOW or relation in PARAM_FLOW:
            out.append(r[:4])
        elif relation in OUTER_SCOPE_FLOW:
            if r[3] < 0 or defs[r[3]][0] in ("class", "interface", "type", "impl"):
                out.append(r[:4])
                continue
            if returned is None:
                returned = {(x[3], x[1]) for x in refs if x[0] == "returns"}
            if (r[3], r[1]) in returned:
                out.append(r[:4])
    return out


def plain_interface(t: tuple) -> str:
    """The `interface` digest of a record in the plain layout (definitions, imports, bases, heading slugs)."""
    # `parts` is held by a name while it is marshalled, and every inner tuple is built here: marshal flags objects
    # by their reference count, so the digest of the same record must be computed the same way every time.
    parts = (
        t[0],
        tuple([(d[0], d[1], d[2], d[5]) for d in t[1]]),
        tuple([(i[0], i[1], i[2], i[3], i[5], i[6]) for i in t[3]]),
        tuple([r[:4] for r in t[2] if r[0] in BASE_RELATIONS]),
        tuple([h[2] for h in t[8]]),
        tuple(shared_flow(t[2], t[1])),
    )
    return hashlib.blake2b(marshal.dumps(parts), digest_size=12).hexdigest()


def finish_plain(t: tuple, encoding_errors: int) -> tuple:
    """A plain record with its encoding flag and interface digest filled in."""
    return (*t[:7], encoding_errors, *t[8:11], plain_interface(t))
