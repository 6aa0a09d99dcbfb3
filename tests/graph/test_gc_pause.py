"""`gc_paused`: what a paused pass kept is old afterwards (no collection walks it right away), and cycles made
while paused are still collected by a full collection."""

from __future__ import annotations

import gc
import weakref

from skillbox.graph.gc_pause import gc_paused


class _Node:
    pass


def test_kept_objects_are_old_right_after_the_pause():
    gc.collect()
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        kept = [{"id": str(i), "links": []} for i in range(100_000)]  # (the inner list keeps each dict tracked)
    assert gc.isenabled()
    # In the oldest generation, not the youngest: the next young collection does not walk these 200k containers
    # (before, it walked them all to move them one generation up).
    last = kept[-1]
    assert sum(1 for obj in gc.get_objects(generation=2) if obj is kept or obj is last) == 2
    assert len(gc.get_objects(generation=0)) < 10_000
    assert not gc.get_freeze_count()


def test_cycles_made_while_paused_are_still_collected():
    with gc_paused():
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
    assert gone() is not None  # a cycle: reference counting alone cannot free it
    gc.collect()
    assert gone() is None


def test_nested_pause_leaves_the_outer_one_in_charge():
    with gc_paused():
        with gc_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
