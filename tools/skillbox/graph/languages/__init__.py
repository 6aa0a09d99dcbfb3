"""The language registry: one row per language, data not code.

A row names the file extensions, the tree-sitter grammar (module + function) and the query file in
`graph/queries/<query>.scm`. A language whose imports or scoping need more than captures can name a small hook
module (`hooks`) with `parse_import(node) -> list[ImportRec]` and `resolve_import(...)`. Adding a language is a row
here, a query file and a fixture with its golden test.

Capture convention of the query files (the tree-sitter tags convention plus a few of our own):

- `@definition.<kind>` around a definition with `@name` on its name; kind is class, function, method, interface
  or type. A function directly inside a class-like definition becomes a method. An optional `@doc` is its docstring.
- `@reference.<relation>` around a use, with `@name` (and optional `@receiver`, the object before the dot).
  Relations: call, inherit, implement, type (annotations, used types), decorator.
- `@import` around an import statement, with `@import.source` (module / path text) and optional `@import.name` /
  `@import.alias`, unless the row has a hook that parses the statement itself.
- `@position.<relation>` around a use, with `@name` and `@receiver` (an identifier): `reference.<relation><i>` where
  `i` is the index of `@name` among its parent's named children, dropped from 4 on (Python `item0`-`item3`).
- `@definition.member` around a JS/TS method: `@definition.function` in a class body, `@definition.objmethod` in an
  object literal (`extract.MEMBER_KEYS`).
- `@argument.<relation>` around a function, with `@name`: `reference.<relation>` when the function is an argument of a
  call to a plain name, that name its `@receiver` (TypeScript `cbarg`).
- `@unpack` around a `targets = values` assignment, `@name` on the targets and `@receiver` on the values: the refs
  the row's hook `unpack_pairs(targets, values)` pairs off them (Python `a, b = f, g()`).
- `@comment` on comments: `NOTE:`/`WHY:`/`HACK:` ones are kept as the enclosing definition's `notes`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

QUERIES = Path(__file__).resolve().parent.parent / "queries"


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    extensions: tuple[str, ...]
    module: str  # grammar package, e.g. "tree_sitter_python"
    function: str = "language"
    query: str = ""  # defaults to `name`
    hooks: str = ""  # optional module with parse_import / resolve_import
    # Python methods do not see class-level names; Java/C#/... methods do.
    class_scope_visible: bool = True
    # Definitions of sibling files in the same directory are visible without an import (Go packages).
    package_scope: bool = False
    # The receiver words meaning "the enclosing class instance".
    self_words: tuple[str, ...] = ("this",)
    # Node types wrapping a definition that belong to it (decorators): the definition's span starts there.
    def_wrappers: tuple[str, ...] = ()
    # Language family for heuristic matches: a C call never resolves to a Python function.
    family: str = ""
    # Names the language itself defines (Python builtins, JS globals, the Rust prelude): a bare call or a
    # receiver with such a name that nothing in scope rebinds never goes to a repository definition.
    builtins: frozenset[str] = field(default_factory=frozenset)
    # Methods every value of a builtin type has (`join`, `get`, `toString`, `then`): called on a receiver of
    # unknown type they are not guessed to be the repository's method of that name.
    builtin_methods: frozenset[str] = field(default_factory=frozenset)
    # Whether a call can land on a `type` definition (Go conversions can; a Rust or TS type alias cannot).
    callable_types: bool = True
    # Another file's definitions are visible only through an import (Python, JS/TS, Rust): a bare name that
    # nothing in scope binds is a local, a parameter or a global, never a same-named definition elsewhere.
    imports_required: bool = False
    # Files declare namespaces and `using`/`import` them: a bare type name means the definition in a namespace
    # the file is in or uses. "nested": the enclosing namespaces are visible too (C# `namespace A.B` sees A's
    # types); "packages": only the file's own package and its on-demand imports (Java `package a.b;`,
    # `import c.d.*;`).
    namespaces: str = ""
    # Same-named methods of one class are overloads (Java): one node stands for all of them, so a call to that
    # node is no guess between bodies (as it is for Python's conditional `def`s).
    overloads: bool = False
    # A method body sees its class's inherited members by bare name (Java `assertToken(...)` of a base test class,
    # a base's field `delegate`), not only the class's own.
    inherited_in_scope: bool = False
    # Method names that construct an instance of their receiver class (Ruby `Foo.new`).
    constructors: tuple[str, ...] = ()
    # A callback (a call's function argument) around a definition is a scope of the record without a node
    # (JS/TS; `extract._callback_scope`), so `const f = ...` of one test callback is not the next one's;
    # same-named functions of different scopes are nodes of their own (`path::f@line`).
    callback_scopes: bool = False

    def grammar(self):
        return getattr(importlib.import_module(self.module), self.function)()

    def query_text(self) -> str:
        # "typescript+js_flow+jsx": query files are concatenated, so shared patterns live in one place.
        parts = (self.query or self.name).split("+")
        return "\n".join((QUERIES / f"{part}.scm").read_text(encoding="utf-8") for part in parts)

    def hook(self):
        return importlib.import_module(self.hooks) if self.hooks else None

    @property
    def group(self) -> str:
        return self.family or self.name


def _python_builtins() -> frozenset[str]:
    import builtins

    return frozenset(dir(builtins))


def _python_builtin_methods() -> frozenset[str]:
    import io

    types = (str, bytes, list, dict, set, frozenset, tuple, int, float, object, io.TextIOBase, io.BufferedIOBase)
    return frozenset(name for t in types for name in dir(t) if not name.startswith("__"))


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


JS_GLOBALS = _words(
    """Array ArrayBuffer Atomics BigInt Boolean DataView Date Error EvalError Float32Array Float64Array Function
    Int8Array Int16Array Int32Array Intl JSON Map Math Number Object Promise Proxy RangeError ReferenceError Reflect
    RegExp Set String Symbol SyntaxError TypeError URIError Uint8Array Uint8ClampedArray Uint16Array Uint32Array
    WeakMap WeakSet WeakRef console globalThis window document navigator process Buffer require module exports
    setTimeout clearTimeout setInterval clearInterval queueMicrotask structuredClone parseInt parseFloat isNaN
    isFinite encodeURIComponent decodeURIComponent encodeURI decodeURI fetch Response Request Headers URL
    URLSearchParams FormData Blob File ReadableStream WritableStream TextEncoder TextDecoder AbortController
    crypto performance atob btoa"""
)
JS_BUILTIN_METHODS = _words(
    """toString valueOf hasOwnProperty isPrototypeOf propertyIsEnumerable toLocaleString then catch finally map
    filter forEach reduce reduceRight push pop shift unshift slice splice concat join indexOf lastIndexOf includes
    find findIndex findLast findLastIndex some every keys values entries get set has delete add clear sort reverse
    fill flat flatMap at charAt charCodeAt codePointAt substring substr split replace replaceAll trim trimStart
    trimEnd startsWith endsWith toLowerCase toUpperCase padStart padEnd repeat match matchAll search test exec
    apply call bind toFixed toISOString getTime json text arrayBuffer blob formData clone"""
)
RUST_PRELUDE = _words(
    """Ok Err Some None Box Vec String Option Result Default Clone Copy Send Sync Sized Drop Fn FnMut FnOnce
    Iterator IntoIterator Extend ToOwned ToString From Into TryFrom TryInto AsRef AsMut PartialEq Eq PartialOrd
    Ord drop"""
)
RUST_BUILTIN_METHODS = _words(
    """unwrap expect unwrap_or unwrap_or_else unwrap_or_default map map_err and_then ok err ok_or ok_or_else
    is_some is_none is_ok is_err iter iter_mut into_iter collect clone to_string to_owned as_str as_ref as_mut
    len is_empty push pop insert remove get get_mut contains extend chars bytes lines trim split join
    into from default"""
)

# java.lang: visible in every Java file without an import.
JAVA_LANG = _words(
    """Object String Integer Long Short Byte Character Boolean Float Double Number Math StrictMath System Thread
    Runtime StringBuilder StringBuffer CharSequence Class ClassLoader Enum Record Iterable Comparable Cloneable
    AutoCloseable Runnable Void Throwable Exception RuntimeException Error AssertionError
    IllegalArgumentException IllegalStateException NullPointerException UnsupportedOperationException
    IndexOutOfBoundsException ArrayIndexOutOfBoundsException ClassCastException ArithmeticException
    NumberFormatException CloneNotSupportedException InterruptedException ReflectiveOperationException
    ClassNotFoundException NoSuchFieldException NoSuchMethodException SecurityException StackOverflowError
    OutOfMemoryError Override Deprecated SuppressWarnings FunctionalInterface SafeVarargs ThreadLocal"""
)
# What every Object has, and the methods of java.lang's and java.util's everyday types (String, StringBuilder,
# collections, maps, iterators, streams, Optional): on a receiver of unknown type far likelier these than the
# repository's method of that name.
JAVA_BUILTIN_METHODS = _words(
    """equals hashCode toString getClass notify notifyAll wait clone finalize length charAt substring isEmpty
    isBlank trim strip split startsWith endsWith contains indexOf lastIndexOf replace toLowerCase toUpperCase
    format valueOf append insert size get put add addAll remove removeAll containsKey containsValue keySet values
    entrySet getKey getValue iterator hasNext next stream forEach map filter collect orElse orElseThrow isPresent
    ifPresent intValue longValue doubleValue booleanValue compareTo getMessage getCause printStackTrace
    getName getSimpleName cast isInstance ordinal name"""
)


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec(
        "python",
        (".py", ".pyi"),
        "tree_sitter_python",
        hooks="skillbox.graph.languages.python",
        class_scope_visible=False,
        self_words=("self", "cls"),
        def_wrappers=("decorated_definition",),
        builtins=_python_builtins(),
        builtin_methods=_python_builtin_methods(),
        imports_required=True,
    ),
    LanguageSpec(
        "javascript",
        (".js", ".mjs", ".cjs", ".jsx"),
        "tree_sitter_javascript",
        query="javascript+js_flow+jsx",
        hooks="skillbox.graph.languages.javascript",
        family="js",
        builtins=JS_GLOBALS,
        builtin_methods=JS_BUILTIN_METHODS,
        imports_required=True,
        callback_scopes=True,
    ),
    LanguageSpec(
        "typescript",
        (".ts", ".mts", ".cts"),
        "tree_sitter_typescript",
        "language_typescript",
        query="typescript+js_flow",
        hooks="skillbox.graph.languages.javascript",
        family="js",
        builtins=JS_GLOBALS,
        builtin_methods=JS_BUILTIN_METHODS,
        callable_types=False,
        imports_required=True,
        callback_scopes=True,
    ),
    LanguageSpec(
        "tsx",
        (".tsx",),
        "tree_sitter_typescript",
        "language_tsx",
        query="typescript+js_flow+jsx",
        hooks="skillbox.graph.languages.javascript",
        family="js",
        builtins=JS_GLOBALS,
        builtin_methods=JS_BUILTIN_METHODS,
        callable_types=False,
        imports_required=True,
        callback_scopes=True,
    ),
    LanguageSpec("go", (".go",), "tree_sitter_go", hooks="skillbox.graph.languages.go", package_scope=True),
    LanguageSpec(
        "rust",
        (".rs",),
        "tree_sitter_rust",
        hooks="skillbox.graph.languages.rust",
        self_words=("self", "Self"),
        builtins=RUST_PRELUDE,
        builtin_methods=RUST_BUILTIN_METHODS,
        callable_types=False,
        imports_required=True,
    ),
    LanguageSpec(
        "java",
        (".java",),
        "tree_sitter_java",
        hooks="skillbox.graph.languages.dotted",
        family="jvm",
        namespaces="packages",
        builtins=JAVA_LANG,
        builtin_methods=JAVA_BUILTIN_METHODS,
        overloads=True,
        inherited_in_scope=True,
    ),
    LanguageSpec("c", (".c", ".h"), "tree_sitter_c", family="c"),
    LanguageSpec("cpp", (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++"), "tree_sitter_cpp", family="c"),
    LanguageSpec(
        "csharp", (".cs",), "tree_sitter_c_sharp", hooks="skillbox.graph.languages.dotted", namespaces="nested"
    ),
    LanguageSpec("ruby", (".rb",), "tree_sitter_ruby", self_words=("self",), constructors=("new",)),
    LanguageSpec(
        "php",
        (".php",),
        "tree_sitter_php",
        "language_php",
        hooks="skillbox.graph.languages.dotted",
        self_words=("$this", "self", "static"),
    ),
    LanguageSpec(
        "kotlin", (".kt", ".kts"), "tree_sitter_kotlin", hooks="skillbox.graph.languages.dotted", family="jvm"
    ),
    LanguageSpec(
        "swift", (".swift",), "tree_sitter_swift", hooks="skillbox.graph.languages.swift", self_words=("self",)
    ),
    LanguageSpec(
        "scala", (".scala", ".sc"), "tree_sitter_scala", hooks="skillbox.graph.languages.dotted", family="jvm"
    ),
    LanguageSpec("lua", (".lua",), "tree_sitter_lua", self_words=("self",)),
    LanguageSpec("bash", (".sh", ".bash"), "tree_sitter_bash"),
)


@cache
def by_extension() -> dict[str, LanguageSpec]:
    return {ext: spec for spec in LANGUAGES for ext in spec.extensions}


@cache
def by_name() -> dict[str, LanguageSpec]:
    return {spec.name: spec for spec in LANGUAGES}


def for_path(path: str) -> LanguageSpec | None:
    dot = path.rfind(".")
    return by_extension().get(path[dot:].lower()) if dot >= 0 else None
