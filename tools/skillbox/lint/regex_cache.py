"""Regular expressions built without the `re` package once this interpreter has compiled them: a bytecode cache
for patterns.

`re.compile` parses and compiles a pattern in Python (`re._parser`, `re._compiler`), and `import re` itself loads
enum, functools, collections and copyreg: together about a fifth of the instructions of a per-project
`skillbox lint` process (issue 12, point 7). What that work produces is plain data (the engine's opcode list, the
final flags, the group names), from which the C engine's `_sre.compile` makes an ordinary `re.Pattern`. So the
programs are kept the way bytecode is: in one file beside this module's own `.pyc` (in `__pycache__`, or under
`sys.pycache_prefix`), named for the interpreter that made them and holding its identity (cache tag, exact
version, `_sre.MAGIC`, code size), and never written when bytecode is not (`-B`, PYTHONDONTWRITEBYTECODE). A
later process builds its patterns from that file with `_sre.compile` and never imports `re`.

A program is recorded only after the pattern built from it compares equal to the one `re.compile` returns
(`re.Pattern` equality compares flags, pattern text and code; the groups are compared too), so a change in `re`'s
private parser can only mean nothing is recorded. A missing, unreadable, damaged or foreign file means `re`
compiles, as before; `_sre.compile` validates the code it is given, and a program it refuses is dropped and
compiled again.
"""

from __future__ import annotations

import _sre
import marshal
import sys

# What a program's validity depends on: the engine's opcodes and code word size, the Unicode tables that
# case-insensitive patterns are compiled with (fixed for one exact interpreter version), and the byte order a large
# character class's block table is packed in (`re._compiler._bytes_to_codes`; bytecode itself has none).
_IDENTITY = (sys.implementation.cache_tag, sys.hexversion, _sre.MAGIC, _sre.CODESIZE, sys.maxunicode, sys.byteorder)
# `re`'s flag values (fixed since the engine's first version), so that modules using patterns need not import
# `re` for them.
IGNORECASE = 2
MULTILINE = 8
DOTALL = 16
_MOST = 2000  # programs kept in the file at most (a safety bound: the linter has a few hundred patterns)
_programs: dict | None = None
_unwritable = False  # a write failed in this process (a read-only install): record nothing more


def compile(pattern: str | bytes, flags: int = 0, *, keep: bool = True):
    """`re.compile(pattern, flags)` for an int `flags`: the same `re.Pattern`, from the cached program if any.
    `keep=False`: a pattern made from run-time text, compiled by `re` and never recorded (the file holds only
    the linter's own, bounded set of patterns, so it neither grows with the documents linted nor is rewritten
    for each of them)."""
    if not keep:
        return _real_re().compile(pattern, flags)
    programs = _loaded()
    flags = int(flags)  # a RegexFlag from a library's own `re` is an int to marshal and to the key
    key = (pattern, flags)
    program = programs.get(key)
    if program is not None:
        try:
            return _sre.compile(pattern, *program)
        except Exception:  # a damaged entry: _sre validates the code it is given
            del programs[key]
    if _unwritable or sys.dont_write_bytecode or len(programs) >= _MOST:
        return _real_re().compile(pattern, flags)  # nothing will be recorded: no second pass of re's parser
    compiled, program = _compiled_by_re(pattern, flags)
    if program is not None:
        programs[key] = program
        _save(programs)
    return compiled


def _compiled_by_re(pattern, flags):
    """The pattern from `re.compile`, and its program (final flags, code, groups, group index both ways), or None
    when the program rebuilt by `_sre.compile` is not the pattern `re.compile` made."""
    re = _real_re()
    compiled = re.compile(pattern, flags)
    try:
        from re import _compiler, _parser

        parsed = _parser.parse(pattern, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        code = [int(word) for word in _compiler._code(parsed, flags)]  # opcodes are int subclasses: plain ints
        program = (int(flags | parsed.state.flags), code, parsed.state.groups - 1)
        program += (groupindex, tuple(indexgroup))
        rebuilt = _sre.compile(pattern, *program)
        if rebuilt == compiled and rebuilt.groups == compiled.groups and rebuilt.groupindex == compiled.groupindex:
            return compiled, program
    except Exception:  # re's private parser changed shape: compile with re every time, as before
        pass
    return compiled, None


_re = None  # the real `re` package, once this module needed it


def _real_re():
    """The `re` package, imported now if need be. While a stand-in (`stand_in_re`) holds its name, the real `re` is
    imported beside it and the stand-in stays, so the rest of that library's import still compiles through this
    cache (and records its patterns on the first run, not the second); closing the stand-in registers it."""
    global _re
    if _re is None:
        from skillbox.lint.stand_in_modules import StandInModule

        stand_in = sys.modules.get("re")
        if type(stand_in) is StandInModule:
            del sys.modules["re"]
            try:
                import re
            finally:
                sys.modules["re"] = stand_in
        else:
            import re
        _re = re
    return _re


def _path() -> str | None:
    """The file beside this module's bytecode (None when bytecode has no place: no `__file__`, no cache tag)."""
    external = sys.modules.get("_frozen_importlib_external")
    if external is None or not __file__ or sys.implementation.cache_tag is None:  # pragma: no cover
        return None
    try:
        compiled = external.cache_from_source(__file__)
    except Exception:  # pragma: no cover - e.g. a source path the importer cannot map
        return None
    return compiled.rpartition(".")[0] + ".programs"  # regex_cache.cpython-311.programs


def _loaded() -> dict:
    global _programs
    if _programs is None:
        _programs = {}
        path = _path()
        if path is not None:
            try:
                with open(path, "rb") as file:
                    identity, programs = marshal.loads(file.read())
                if identity == _IDENTITY and type(programs) is dict:
                    _programs = programs
            except Exception:  # absent, unreadable, truncated, not ours: compile with re and write it again
                pass
    return _programs


def _save(programs: dict) -> None:
    """Write the programs atomically (a concurrent reader sees the old file or the new one), as the importer
    writes bytecode: not at all under -B / PYTHONDONTWRITEBYTECODE, silently not where it cannot (and then not
    again in this process: `compile` stops making programs, so a read-only install costs what `re` costs)."""
    global _unwritable
    path = _path()
    if path is None:
        _unwritable = True
        return
    if sys.dont_write_bytecode:
        return
    import os

    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(marshal.dumps((_IDENTITY, programs)))
        os.replace(temporary, path)
    except (OSError, ValueError):  # ValueError: marshal met something it cannot write (not expected)
        _unwritable = True
        try:  # noqa: SIM105 - contextlib is not worth importing for this
            os.unlink(temporary)
        except OSError:
            pass


_SPECIAL = {c: "\\" + chr(c) for c in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}  # what `re.escape` escapes


def escape(text: str) -> str:
    """`re.escape(text)` for a str: every character with a meaning in a pattern, backslashed."""
    return text.translate(_SPECIAL)


def stand_in_re():
    """While a library that only compiles patterns at import is imported (tinycss2's tokenizer and serializer,
    tree-sitter's binding, which keeps `re.compile` for `#match?` predicates), `re` in `sys.modules` is a stand-in
    whose `compile` is this cache's: a lint whose patterns are cached then never imports `re`, nor the enum and
    functools modules it loads. Nothing happens when `re` is already imported. The library keeps the stand-in as
    its `re`; an attribute it lacks comes from the real `re` afterwards. If the real `re` was imported meanwhile
    (a cache miss), it takes the name back at the end."""
    from skillbox.lint.stand_in_modules import standing_in

    attributes = {"compile": compile, "escape": escape, "IGNORECASE": IGNORECASE, "MULTILINE": MULTILINE}
    attributes["DOTALL"] = DOTALL
    return standing_in({"re": attributes}, real=_real_re, real_if_imported=lambda: _re)
