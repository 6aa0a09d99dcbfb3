"""`collections` and `enum` as tree-sitter's binding sees them while it initialises in a `skillbox lint` process.

The binding's init takes from the standard library `re.compile` (for `#match?` predicates; see
`regex_cache.stand_in_re`), `enum.IntEnum` (to make `LogType`) and, in tree-sitter 0.25 (0.26 has a `Point` type
of its own), `collections.namedtuple` (to make `Point`). Importing `enum`, with functools, collections, operator,
keyword and reprlib behind it, costs ~14 M instructions, a sixth of a per-project lint process (callgrind, one
`lint DIR --json` as bin/skillbox execs it: 82.5 -> 68.7 M), for one or two small types. So while the binding
initialises, `collections` and `enum` in `sys.modules` are stand-ins whose `namedtuple` and `IntEnum` make those
types as the real functions would for the binding's calls:
- `Point`: a tuple subclass with the tuple's layout (the binding makes a point by giving a plain tuple this type),
  fields read by `_collections._tuplegetter` as namedtuple's are, and namedtuple's methods and repr;
- `LogType`: an int subclass whose members are its instances, looked up by value, with IntEnum's name, value,
  repr and str (no iteration over the class: nothing here iterates it).
Any other name asked of a stand-in while it stands in raises AttributeError; `grammars` then initialises the
binding again with the real modules. A module already imported is left alone. The two types stay the binding's
for the process: graph code that runs later in the same process (the tests, a tour that lints first) gets these,
and tests/lint/test_binding_stand_ins.py holds them to the real types' behaviour.
"""

from __future__ import annotations

from _collections import _tuplegetter

from skillbox.lint.stand_in_modules import standing_in


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    """`collections.namedtuple` for plain field names (the binding's `Point`): same layout, accessors and methods."""
    if rename or defaults is not None:
        raise AttributeError("collections.namedtuple with rename/defaults: not the binding's call")
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = tuple(map(str, field_names))
    if not all(name.isidentifier() and not name.startswith("_") for name in (typename, *fields)):
        raise AttributeError("collections.namedtuple with unusual names: not the binding's call")
    arguments = ", ".join(fields)
    tuple_new = tuple.__new__
    new = eval(f"lambda _cls, {arguments}: _tuple_new(_cls, ({arguments},))", {"_tuple_new": tuple_new})
    new.__name__ = "__new__"
    new.__doc__ = f"Create new instance of {typename}({arguments})"
    repr_format = "(" + ", ".join(f"{name}=%r" for name in fields) + ")"

    @classmethod
    def _make(cls, iterable):
        result = tuple_new(cls, iterable)
        if len(result) != len(fields):
            raise TypeError(f"Expected {len(fields)} arguments, got {len(result)}")
        return result

    def _replace(self, /, **changes):
        result = self._make(map(changes.pop, fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return result

    def __repr__(self):
        return self.__class__.__name__ + repr_format % self

    def _asdict(self):
        return dict(zip(self._fields, self, strict=True))

    def __getnewargs__(self):
        return tuple(self)

    namespace = {
        "__doc__": f"{typename}({arguments})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": {},
        "__new__": staticmethod(new),
        "_make": _make,
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": fields,
        "__module__": module if module is not None else "collections",
    }
    for index, name in enumerate(fields):
        namespace[name] = _tuplegetter(index, f"Alias for field number {index}")
    return type(typename, (tuple,), namespace)


def IntEnum(value, names, *, module=None, qualname=None, type=None, start=1, boundary=None):
    """`enum.IntEnum(name, {member: value})`, the functional form the binding calls for `LogType`."""
    if not isinstance(names, dict) or type is not None or boundary is not None:
        raise AttributeError("enum.IntEnum in a form other than the binding's")
    cls = builtins_type(value, (int,), {"__module__": module or "tree_sitter", "__qualname__": qualname or value})
    members = {}
    for name, number in names.items():
        member = int.__new__(cls, number)
        member._name_ = name
        members[name] = member
        setattr(cls, name, member)
    by_value = {int(member): member for member in members.values()}

    def __new__(cls, number):
        try:
            return by_value[number]
        except (KeyError, TypeError):
            raise ValueError(f"{number!r} is not a valid {cls.__qualname__}") from None

    cls.__new__ = staticmethod(__new__)
    cls.__members__ = members
    cls.name = property(lambda self: self._name_)
    cls.value = property(int)
    cls.__repr__ = lambda self: f"<{self.__class__.__qualname__}.{self._name_}: {int(self)!r}>"
    cls.__str__ = int.__repr__  # IntEnum's str and format are the int's
    cls.__format__ = int.__format__
    cls.__reduce_ex__ = lambda self, protocol: (self.__class__, (int(self),))
    return cls


builtins_type = type  # `type` is a parameter name of IntEnum's signature


def stand_ins():
    """`collections` and `enum` stand in (module docstring) until the block ends; each only when not imported."""
    return standing_in({"collections": {"namedtuple": namedtuple}, "enum": {"IntEnum": IntEnum}})
