"""tree-sitter and the HTML / JavaScript grammars, loaded for a short-lived `skillbox lint` process.

The packages' own `__init__.py` files cost a per-project lint more than the parsers do: `tree_sitter` imports
`typing` (for one Protocol class) and each grammar package imports `importlib.resources` (for query files we never
read), which pulls in `tempfile`, `shutil`, compression modules and `random`. All we need are the compiled
`_binding` extension modules, so we load exactly those, registered under their usual names: a later
`import tree_sitter` anywhere in the process (the graph code) finds the same binding in `sys.modules` and gets the
same `Parser`, `Node` and `Language` classes. If the packages are laid out differently from what we expect, we
fall back to a plain import.
"""

from __future__ import annotations

import sys


def _binding(package: str):
    """`package._binding` without executing `package/__init__.py`."""
    name = f"{package}._binding"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    PathFinder, ExtensionFileLoader = machinery()
    spec = PathFinder.find_spec(package)
    sub = PathFinder.find_spec(name, spec.submodule_search_locations) if spec is not None else None
    if sub is None or not isinstance(sub.loader, ExtensionFileLoader):
        import importlib

        return importlib.import_module(name)
    from skillbox.lint.binding_stand_ins import stand_ins
    from skillbox.lint.regex_cache import stand_in_re

    try:  # tree-sitter's binding takes `re.compile`, `collections.namedtuple` and `enum.IntEnum` at init
        with stand_in_re(), stand_ins():
            return _initialised(sub, name)
    except AttributeError:  # it asked a stand-in for something else: initialise it with the real modules
        return _initialised(sub, name)


def _initialised(spec, name: str):
    """The extension module of `spec`, created, registered under `name` and executed (unregistered on failure)."""
    module = spec.loader.create_module(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def machinery():
    """`importlib.machinery`'s `PathFinder` and `ExtensionFileLoader` without importing the `importlib` package,
    whose `__init__` imports `warnings` (~1.5 M instructions of a ~110 M lint process): both are classes of the
    frozen bootstrap module the interpreter loads at start-up, which `importlib.machinery` re-exports. Also how
    `css_library` finds tinycss2."""
    external = sys.modules.get("_frozen_importlib_external")
    if external is None:  # pragma: no cover - CPython always has it
        from importlib import machinery as external
    return external.PathFinder, external.ExtensionFileLoader


tree_sitter = _binding("tree_sitter")  # Parser, Language, Node, Tree: the classes `import tree_sitter` re-exports


_PARSERS: dict = {}  # one per grammar and process (a dict, not functools.cache: functools is not loaded here)


def _parser(package: str):
    parser = _PARSERS.get(package)
    if parser is None:
        parser = _PARSERS[package] = tree_sitter.Parser(tree_sitter.Language(_binding(package).language()))
    return parser


def html_parser():
    """The tree-sitter-html parser (one per process)."""
    return _parser("tree_sitter_html")


def js_parser():
    """The tree-sitter-javascript parser (one per process; loaded on the first inline script)."""
    return _parser("tree_sitter_javascript")
