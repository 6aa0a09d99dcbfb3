"""Pause the cyclic garbage collector around allocation-heavy passes over a loaded graph.

Rendering the report or the viewer for a Django-size graph allocates a few hundred thousand short-lived containers.
Each burst makes the collector walk every tracked object of the loaded graph (Django: ~250k), and one full
collection there costs more than the rest of the viewer's work; yet these passes create no reference cycles, so
reference counting frees everything anyway. The previous collector state is restored on exit.
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
            gc.enable()
