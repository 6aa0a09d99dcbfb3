"""Pause the cyclic garbage collector around allocation-heavy passes over a loaded graph.

Rendering the report or the viewer for a Django-size graph allocates a few hundred thousand short-lived containers.
Each burst makes the collector walk every tracked object of the loaded graph (Django: ~250k), and one full
collection there costs more than the rest of the viewer's work; yet these passes create no reference cycles, so
reference counting frees everything anyway. The previous collector state is restored on exit.

What a paused pass made and kept is then old, not young: left in the youngest generation, all of it (a whole
build: records, tables, blocks, the graph) would be walked by the first collection after the pause, which the
next few hundred allocations trigger (~0.15-0.3 s after a Django build, ~0.1 s after loading its graph). It is
moved to the oldest generation instead (`gc.freeze` then `gc.unfreeze`, which moves lists, not objects), where
only a full collection looks at it again; cycles in it are still collected then.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()  # every tracked object to the permanent generation, and the young count back to 0
            gc.unfreeze()  # ... then all of them to the oldest generation
            gc.enable()
