"""tinycss2 loaded for a short-lived `skillbox lint` process: its parser without its byte-decoding half.

`import tinycss2` runs `tinycss2/__init__.py`, which imports `tinycss2.bytes` (stylesheets given as bytes, which
the linter never has: it reads HTML as text) and through it `webencodings` with its label table and two UTF-16
codecs: ~4 M instructions, about 4% of a per-project lint process. The parser, tokenizer and serializer need one
function from `webencodings`, `ascii_lower`. So `load` imports exactly those submodules under their usual names,
with a stand-in `webencodings` holding only that function while they import (its body is webencodings' own
definition: lower-case ASCII letters only, so U+212A KELVIN SIGN is left alone as the CSS spec asks), and
removes the stand-in afterwards. Likewise `re`, which the tokenizer and serializer use only at import, to
compile three patterns (and `re.escape` one character class): they import under `regex_cache.stand_in_re`, so a
lint whose patterns are cached never imports `re`.

The package object is registered as `tinycss2` in `sys.modules`, holding the names the linter calls. Anything
else asked of it (`parse_stylesheet_bytes`, `__version__`, a `from tinycss2 import ...` elsewhere in the process)
runs the real `__init__.py` first, in that same module, which then imports the real `webencodings`: later code
sees the whole package and the same classes the linter's objects are made of. If tinycss2 or webencodings is
already imported, or the package is laid out differently from what we expect, this is a plain `import tinycss2`.
"""

from __future__ import annotations

import sys

_SUBMODULES = ("ast", "serializer", "tokenizer", "parser")  # what the package's public parse functions live in
_PUBLIC = {  # the names `tinycss2/__init__.py` re-exports from those submodules
    "parser": (
        "parse_blocks_contents",
        "parse_declaration_list",
        "parse_one_component_value",
        "parse_one_declaration",
        "parse_one_rule",
        "parse_rule_list",
        "parse_stylesheet",
    ),
    "serializer": ("serialize", "serialize_identifier"),
    "tokenizer": ("parse_component_value_list",),
}


def ascii_lower(string: str) -> str:
    """webencodings' `ascii_lower`: ASCII letters lower-cased, every other character unchanged."""
    return string.encode("utf8").lower().decode("utf8")


class _DeferredPackage(type(sys)):
    """The `tinycss2` package before its `__init__.py` ran: the first name it does not hold yet runs it."""

    def __getattr__(self, name: str):
        spec = self.__dict__.get("__spec__")
        if spec is None:
            raise AttributeError(name)
        self.__class__ = type(sys)  # a plain module from here on, whatever the real `__init__` does
        spec.loader.exec_module(self)
        return getattr(self, name)


def load():
    """The `tinycss2` package, with its parser, tokenizer and serializer imported (see the module docstring)."""
    if "tinycss2" in sys.modules or "webencodings" in sys.modules:
        import tinycss2

        return tinycss2
    try:
        return _load_parser_only()
    except Exception:  # an unexpected layout or version: the plain import, which has no stand-in to undo
        for name in [n for n in sys.modules if n == "tinycss2" or n.startswith("tinycss2.")]:
            del sys.modules[name]
        import tinycss2

        return tinycss2


def _load_parser_only():
    from skillbox.lint.grammars import machinery

    spec = machinery()[0].find_spec("tinycss2")
    if spec is None or not spec.submodule_search_locations or spec.loader is None:
        raise ImportError("tinycss2 is not a package on sys.path")
    package = _DeferredPackage("tinycss2")
    package.__spec__ = spec
    package.__loader__ = spec.loader
    package.__file__ = spec.origin
    package.__path__ = list(spec.submodule_search_locations)
    package.__package__ = "tinycss2"
    stand_in = type(sys)("webencodings")
    stand_in.ascii_lower = ascii_lower
    from skillbox.lint.regex_cache import stand_in_re

    stand_in_for_re = stand_in_re()
    sys.modules["tinycss2"] = package
    sys.modules["webencodings"] = stand_in
    try:
        for submodule in _SUBMODULES:
            module = __import__(f"tinycss2.{submodule}", fromlist=["_"])
            for name in _PUBLIC.get(submodule, ()):
                setattr(package, name, getattr(module, name))
    finally:
        if sys.modules.get("webencodings") is stand_in:
            del sys.modules["webencodings"]
        stand_in_for_re.close()
    return package
