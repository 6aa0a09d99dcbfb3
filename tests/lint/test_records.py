"""`skillbox.lint.records` behaves as `dataclasses` for the subset the lint uses: the same class declared both ways
gives the same constructor, equality, hashing, repr and frozenness (stdlib `dataclasses` is the oracle)."""

from __future__ import annotations

import dataclasses

import pytest

from skillbox.lint import records


def declare(module):
    """The same three classes, made by `module.dataclass` / `module.field`."""

    @module.dataclass
    class Plain:
        name: str
        offset: int
        media: str | None = None
        items: list[int] = module.field(default_factory=list)
        hidden: object = module.field(default=None, repr=False, compare=False)

    @module.dataclass(eq=False)
    class Node:
        tag: str
        parent: Node | None = None
        children: list[Node] = module.field(default_factory=list)

    @module.dataclass(frozen=True)
    class Edit:
        start: int
        end: int
        text: str

    return Plain, Node, Edit


OURS, STDLIB = declare(records), declare(dataclasses)


def params(cls):
    """(name, default) per constructor parameter; a default factory shows as "factory"."""
    import inspect

    out = []
    for p in inspect.signature(cls).parameters.values():
        default = p.default
        if default is not inspect.Parameter.empty and not isinstance(default, (str, int, type(None))):
            default = "factory"  # each module's own sentinel
        out.append((p.name, default))
    return out


@pytest.mark.parametrize("index", [0, 1, 2])
def test_constructor_parameters_and_defaults_match(index):
    ours, theirs = OURS[index], STDLIB[index]
    assert params(ours) == params(theirs)
    assert ours.__match_args__ == theirs.__match_args__


def test_equality_repr_and_factories_match():
    for cls in (OURS[0], STDLIB[0]):
        a, b = cls("x", 1), cls("x", 1, hidden="ignored by ==")
        assert a == b and a.items == [] and a.items is not b.items
        assert a != cls("x", 2) and a != ("x", 1)
        with pytest.raises(TypeError):
            hash(a)  # eq without frozen: unhashable, as dataclasses makes it
    assert repr(OURS[0]("x", 1, items=[2])) == repr(STDLIB[0]("x", 1, items=[2])).replace(
        STDLIB[0].__qualname__, OURS[0].__qualname__
    )
    with pytest.raises(TypeError):
        OURS[0]("only one")


def test_eq_false_compares_identity_and_repr_survives_cycles():
    for cls in (OURS[1], STDLIB[1]):
        parent = cls("div")
        child = cls("p", parent)
        parent.children.append(child)
        assert parent != cls("div") and parent == parent
        assert {parent, child} == {child, parent}  # eq=False keeps identity hashing
        assert "..." in repr(parent)  # the child's parent prints as `...`, not a RecursionError
    ours_parent = OURS[1]("div")
    ours_parent.children.append(OURS[1]("p", ours_parent))
    stdlib_parent = STDLIB[1]("div")
    stdlib_parent.children.append(STDLIB[1]("p", stdlib_parent))
    assert repr(ours_parent).replace(OURS[1].__qualname__, "N") == repr(stdlib_parent).replace(
        STDLIB[1].__qualname__, "N"
    )


def test_frozen_is_hashable_by_value_and_immutable():
    ours, theirs = OURS[2], STDLIB[2]
    assert hash(ours(1, 2, "a")) == hash(theirs(1, 2, "a")) == hash((1, 2, "a"))
    assert {ours(1, 2, "a"), ours(1, 2, "a")} == {ours(1, 2, "a")}
    edit = ours(1, 2, "a")
    with pytest.raises(AttributeError, match="cannot assign to field 'text'"):
        edit.text = "b"
    with pytest.raises(AttributeError):
        del edit.start


def test_unsupported_forms_fail_at_declaration():
    with pytest.raises(TypeError):

        @records.dataclass
        class Custom:
            a: int

            def __eq__(self, other):
                return True

    with pytest.raises(TypeError):

        @records.dataclass
        class Base:
            a: int

        @records.dataclass
        class Child(Base):
            b: int


@pytest.mark.parametrize("module", [dataclasses, records], ids=["dataclasses", "records"])
def test_a_mutable_default_fails_at_declaration_as_in_dataclasses(module):
    """A list default would be one list shared by every instance; dataclasses refuses it, so must the subset."""
    with pytest.raises(ValueError, match="default_factory"):

        @module.dataclass
        class Shared:
            items: list = []  # noqa: RUF012

    with pytest.raises(ValueError, match="default_factory"):

        @module.dataclass(frozen=True)
        class SharedField:
            items: dict = module.field(default={}, compare=False)


def _import_every_lint_module() -> None:
    import importlib
    import pkgutil

    import skillbox.lint

    for info in pkgutil.walk_packages(skillbox.lint.__path__, "skillbox.lint."):
        importlib.import_module(info.name)


def test_the_prebuilt_inits_are_current():
    """lint/record_inits.py holds exactly the __init__ sources of the lint's record classes (else regenerate it with
    `python -m skillbox.lint.records`; a stale file is not wrong, only slower: missing sources are compiled)."""
    from pathlib import Path

    _import_every_lint_module()
    path = Path(records.__file__).with_name("record_inits.py")
    assert path.read_text(encoding="utf-8") == records.generated_module()


def test_lint_records_use_the_prebuilt_inits():
    from skillbox.lint.document import Document
    from skillbox.lint.registry import Edit, Hit

    for cls in (Hit, Edit, Document):
        assert cls.__init__.__code__.co_filename.endswith("record_inits.py"), cls


def test_each_prebuilt_init_behaves_as_its_compiled_source():
    import inspect

    from skillbox.lint.record_inits import MAKERS

    assert len(MAKERS) >= 20
    for (source, names), maker in MAKERS.items():
        namespace = {}
        for name in names:
            if name == "_setattr":
                namespace[name] = object.__setattr__
            elif name.startswith("_factory_"):
                namespace[name] = lambda name=name: [name]
            else:
                namespace[name] = object()  # _HAS_FACTORY and each default: distinct sentinels
        prebuilt = maker(**namespace)
        compiled_ns = dict(namespace)
        exec(source, compiled_ns)
        compiled = compiled_ns["__init__"]
        assert inspect.signature(prebuilt) == inspect.signature(compiled), source
        required = [p for p in inspect.signature(compiled).parameters.values() if p.default is p.empty][1:]
        a, b = type("A", (), {"__init__": prebuilt})(*range(len(required))), type("B", (), {})()
        compiled(b, *range(len(required)))
        assert vars(a) == vars(b), source
