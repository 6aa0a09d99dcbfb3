"""`@dataclass` and `field` for the lint's own value classes, without importing `dataclasses`.

`skillbox lint DIR` is a short process, started once per project (by a user or an agent after every edit), so its
start-up is most of its cost. `dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`) and builds
three or four methods per class through `exec`; for the 26 value classes the lint defines at import that was
about a sixth of a per-project run. This module covers exactly the subset the lint uses, with the semantics of
`dataclasses` for it: fields in declaration order with defaults or `field(default_factory=...)`, `eq=False`,
`frozen=True`, `field(compare=False, repr=False)`. `__init__` is generated (one `exec` per class, as fast per
instance as the dataclass one); `__eq__`, `__hash__` and `__repr__` compare, hash and print the tuple of field
values the way the dataclass methods do. Anything outside that subset (inheritance from another record,
`ClassVar`, a class defining its own `__eq__`, a mutable default...) raises at import, so it cannot silently
behave differently.
tests/lint/test_records.py checks these classes against `dataclasses` itself.
"""

from __future__ import annotations

_MISSING = object()
_HAS_FACTORY = object()
_repr_running: set[int] = set()


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a `frozen=True` record (as `dataclasses.FrozenInstanceError`)."""


class _Field:
    __slots__ = ("compare", "default", "default_factory", "repr")

    def __init__(self, default, default_factory, compare: bool, repr: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr


def field(*, default=_MISSING, default_factory=_MISSING, compare: bool = True, repr: bool = True):
    """A field with a default factory or without a place in `==` / `repr` (as `dataclasses.field`)."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return _Field(default, default_factory, compare, repr)


def dataclass(cls=None, /, *, eq: bool = True, frozen: bool = False):
    """`@dataclass`, `@dataclass(eq=False)` or `@dataclass(frozen=True)`."""
    if cls is None:
        return lambda c: _process(c, eq, frozen)
    return _process(cls, eq, frozen)


def _process(cls: type, eq: bool, frozen: bool) -> type:
    own = cls.__dict__
    for name in ("__eq__", "__hash__", "__repr__", "__init__", "__setattr__", "__post_init__"):
        if name in own and not (name == "__hash__" and own[name] is None):
            raise TypeError(f"{cls.__name__}: records do not support a custom {name}")
    for base in cls.__mro__[1:]:  # (not `hasattr`: a miss on a class formats an AttributeError message)
        if "__record_fields__" in base.__dict__:
            raise TypeError(f"{cls.__name__}: records do not support inheritance")
    annotations = own.get("__annotations__", {})
    names: list[str] = []
    compared: list[str] = []
    shown: list[str] = []
    params: list[str] = []
    body: list[str] = []
    namespace: dict = {"_HAS_FACTORY": _HAS_FACTORY, "_setattr": object.__setattr__}
    for name, annotation in annotations.items():
        text = annotation if annotation.__class__ is str else str(annotation)
        if "ClassVar" in text or "InitVar" in text:
            raise TypeError(f"{cls.__name__}.{name}: records do not support ClassVar/InitVar")
        value = own.get(name, _MISSING)
        names.append(name)
        if isinstance(value, _Field):
            if value.compare:
                compared.append(name)
            if value.repr:
                shown.append(name)
            default = value.default
            factory = value.default_factory
        else:  # a plain default (already the class attribute) or none: compared and shown
            compared.append(name)
            shown.append(name)
            default = value
            factory = _MISSING
        if factory is not _MISSING:
            namespace[f"_factory_{name}"] = factory
            params.append(f"{name}=_HAS_FACTORY")
            assigned = f"_factory_{name}() if {name} is _HAS_FACTORY else {name}"
            if name in own:
                delattr(cls, name)
        elif default is not _MISSING:
            if default.__class__.__hash__ is None:  # dataclasses' test: a list, dict or set shared by all
                raise ValueError(
                    f"mutable default {type(default)} for field {name} is not allowed: use default_factory"
                )
            namespace[f"_default_{name}"] = default
            params.append(f"{name}=_default_{name}")
            assigned = name
            if value is not default:  # field(default=...): the class attribute is the field, not its default
                setattr(cls, name, default)
        else:
            if params and "=" in params[-1]:
                raise TypeError(f"{cls.__name__}: non-default argument {name!r} follows default argument")
            params.append(name)
            assigned = name
        body.append(f"_setattr(self, {name!r}, {assigned})" if frozen else f"self.{name} = {assigned}")
    source = f"def __init__(self, {', '.join(params)}):\n    " + ("\n    ".join(body) or "pass") + "\n"
    init = _init_from(source, namespace, cls.__module__)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    cls.__record_fields__ = tuple(names)
    cls.__match_args__ = tuple(names)
    cls.__repr__ = _repr_method(tuple(shown))
    if eq:
        cls.__eq__ = _eq_method(tuple(compared))
        cls.__hash__ = _hash_method(tuple(compared)) if frozen else None
    if frozen:
        cls.__setattr__ = _frozen_setattr(cls, frozenset(names))
        cls.__delattr__ = _frozen_delattr(cls, frozenset(names))
    return cls


SOURCES: set[tuple[str, tuple[str, ...], str]] = set()  # every generated __init__: (source, names, module)
_prebuilt: dict | None = None


def _init_from(source: str, namespace: dict, module: str):
    """The `__init__` that `exec(source, namespace)` defines. Parsing and compiling two dozen generated sources was
    about a tenth of a per-project `skillbox lint` process, so lint/record_inits.py holds them compiled (a maker
    per source, taking the namespace as arguments; `python -m skillbox.lint.records` rewrites it and a test checks
    it is current). A source it lacks is compiled here, as before."""
    global _prebuilt
    names = tuple(sorted(namespace))
    SOURCES.add((source, names, module))
    if _prebuilt is None:
        from skillbox.lint.record_inits import MAKERS

        _prebuilt = MAKERS
    maker = _prebuilt.get((source, names))
    if maker is not None:
        return maker(**namespace)
    exec(source, namespace)
    return namespace["__init__"]


def generated_module() -> str:
    """The text of lint/record_inits.py for skillbox's record classes imported so far (import them all first)."""
    keys = sorted({(source, names) for source, names, module in SOURCES if module.startswith("skillbox.")})
    seen = {key: number for number, key in enumerate(keys)}
    out = [
        '"""Compiled `__init__` methods of the lint\'s record classes (see `records._init_from`).',
        "",
        "Generated by `python -m skillbox.lint.records`; do not edit. tests/lint/test_records.py checks it is current.",
        '"""',
        "",
        "# ruff: noqa",
        "# fmt: off",
    ]
    for (source, names), number in seen.items():
        out.append("")
        out.append("")
        out.append(f"def _make_{number}(*, {', '.join(names)}):")
        out.extend("    " + line for line in source.rstrip("\n").split("\n"))
        out.append("    return __init__")
    out.append("")
    out.append("")
    out.append("MAKERS = {")
    for (source, names), number in seen.items():
        out.append(f"    ({source!r}, {names!r}): _make_{number},")
    out.append("}")
    return "\n".join(out) + "\n"


def _values(obj, names: tuple[str, ...]) -> tuple:
    return tuple(getattr(obj, name) for name in names)


def _eq_method(names: tuple[str, ...]):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return _values(self, names) == _values(other, names)
        return NotImplemented

    return __eq__


def _hash_method(names: tuple[str, ...]):
    def __hash__(self):
        return hash(_values(self, names))

    return __hash__


def _repr_method(names: tuple[str, ...]):
    def __repr__(self):
        key = id(self)
        if key in _repr_running:  # a parent <-> children cycle prints as `...`, as dataclasses' repr does
            return "..."
        _repr_running.add(key)
        try:
            fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            _repr_running.discard(key)
        return f"{self.__class__.__qualname__}({fields})"

    return __repr__


def _frozen_setattr(cls: type, names: frozenset[str]):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    return __setattr__


def _frozen_delattr(cls: type, names: frozenset[str]):
    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    return __delattr__


if __name__ == "__main__":  # python -m skillbox.lint.records: rewrite lint/record_inits.py
    import importlib
    import pathlib
    import pkgutil
    import sys

    import skillbox.lint

    for info in pkgutil.walk_packages(skillbox.lint.__path__, "skillbox.lint."):
        importlib.import_module(info.name)
    records = sys.modules["skillbox.lint.records"]  # the imported module, not this __main__ copy
    target = pathlib.Path(records.__file__).with_name("record_inits.py")
    target.write_text(records.generated_module(), encoding="utf-8")
