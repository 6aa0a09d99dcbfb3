"""Stand-in modules: a few attributes registered under a module's name while a library imports, so that the
library's import does not import the real module (one home for the lint's stand-ins: `re` in `regex_cache`,
`collections` and `enum` in `binding_stand_ins`).

While it is registered, a stand-in answers only the attributes it was given: any other name raises AttributeError
(a library we do not know; callers then import it with the real modules). After the block, a library that kept the
stand-in as its module gets any other name from the real module, when one was given (`real`).
"""

from __future__ import annotations

import sys


class StandInModule(type(sys)):
    def __getattr__(self, name: str):
        real = self.__dict__.get("_real")
        if real is None or sys.modules.get(self.__name__) is self:
            raise AttributeError(f"{self.__name__}.{name}: a stand-in while a library imports")
        return getattr(real(), name)


class standing_in:  # a lower-case name: used like a function, `with standing_in({...}): import ...`
    """Stand-ins for the modules of `attributes` ({module name: {attribute: value}}) not imported yet, until the
    block ends (or `close`). `real()` gives the real module a stand-in defers to afterwards; at the end, a stand-in
    still registered gives way to `real_if_imported()` when that returns a module, else its name is removed."""

    def __init__(self, attributes: dict, *, real=None, real_if_imported=None) -> None:
        self.modules = []
        self.real_if_imported = real_if_imported
        for name, values in attributes.items():
            if name not in sys.modules:
                module = StandInModule(name)
                module.__dict__.update(values, _real=real)
                sys.modules[name] = module
                self.modules.append(module)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for module in self.modules:
            if sys.modules.get(module.__name__) is module:
                imported = self.real_if_imported() if self.real_if_imported is not None else None
                if imported is not None:
                    sys.modules[module.__name__] = imported
                else:
                    del sys.modules[module.__name__]
