"""The walk of a cold build, in a forked child, while the build process gets ready for what follows.

A cold build (no usable stat index) will extract and resolve every file, so two pieces of its serial start are
certain to be needed and need nothing from the walk: importing the later stages (~0.09 CPU-s) and compiling the
queries of the languages extraction spreads over several batches (Python's ~0.055 s, JavaScript's ~0.015 s,
made before extraction forks so that every process inherits them). On two cores they cost no wall time while a
forked child walks the tree (`forking.computed_beside`).

Which languages to warm is only known from the walk, so the child tells: a language is named on a pipe as soon
as it has more files than one batch holds (then extraction spreads it for sure, see `build._batches`). The
build process compiles a named language between its import steps, first, since extraction needs it first.
Whatever is left when the walk ends (steps, or a language only the whole count settles) is done where it was
done before: `build._extract` warms what is still cold and imports the rest while the workers extract.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from skillbox.graph.walk import WalkResult, walk_tree


def walk_beside(root: Path, max_bytes: int, out: Path, steps: Iterable[Callable[[], None]], many: int) -> WalkResult:
    """`walk_tree(root)`, walked by a forked child while this process takes `steps` and warms every language the
    child names (one with more than `many` files) until the walk is done."""
    from skillbox.graph.forking import computed_beside

    if not hasattr(os, "fork"):  # nothing to walk beside (and no non-blocking pipes on Windows' Python 3.11)
        return walk_tree(root, max_bytes=max_bytes, exclude=(out,))
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    try:

        def walk() -> tuple[list, dict]:
            counts: dict[str, int] = {}

            def seen(lang: str) -> None:
                count = counts[lang] = counts.get(lang, 0) + 1
                if count == many + 1:
                    os.write(write_end, lang.encode() + b"\n")  # a few bytes: never blocks, never split

            walked = walk_tree(root, max_bytes=max_bytes, exclude=(out,), on_file=seen)
            return walked.files, walked.skipped

        def warm_named() -> None:
            try:
                named = os.read(read_end, 4096)
            except BlockingIOError:
                return
            if named:
                from skillbox.graph.worker import warm

                warm(named.decode().split())

        interleaved = []
        for step in steps:
            interleaved += [warm_named, step]
        files, skipped = computed_beside(walk, [*interleaved, warm_named])
    finally:
        os.close(read_end)
        os.close(write_end)
    return WalkResult(files, skipped)
