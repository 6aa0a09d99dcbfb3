"""Memos for the resolver's recursive lookups that keep only answers no cut made partial.

The resolver's lookups (`module_attr`, `mro`, `_expression`, `_passed`, decorated values) call each other
recursively and are cut in two ways: at a depth limit, and where a lookup loops back into one still under way
(the cycle guard answers "nothing" there). A memo that stored whatever came back kept those partial answers and
handed them to every later lookup, so whether a call resolved depended on which file was resolved first.

Here an answer is stored for good only when it is what the lookup gives from any starting point:
- a cycle guard that answered for lookup L makes L and every lookup under way above it partial: their answers
  are kept only while L is under way (`scratch`), as a cache inside that one computation, and dropped with it;
- a depth cut makes an answer hold only at the depth it was asked from: it is kept under (key, depth) (`exact`);
  an answer no depth cut touched records how much deeper than its start it looked (`need`), and is reused from
  any depth where that still fits the limit.
So a lookup's answer is a function of its key and depth, whatever was looked up before it. (Keeping a cut answer
under its key alone, recomputed from every other depth, made Django's resolution ~40x slower: value flow hits
its depth limit ~1.6M times.)
"""

from __future__ import annotations

MISS = object()  # `Memo.get`: not known here, compute it (between `open` and `close`)
BIG = 1 << 30  # "no cut" for a level, "cut" for a depth


class Frames:
    """The lookups under way, of every memo of one resolver: how many (`level`), the lowest level a cycle cut
    made partial since the current lookup started (`cut`), and per level the scratch answers that expire with
    the lookup at that level."""

    __slots__ = ("cut", "expiring", "level")

    def __init__(self) -> None:
        self.level = 0
        self.cut = BIG
        self.expiring: list[list] = []


class Chain:
    """Lookups that pass one `depth` down to each other and give up past `limit` (the deepest depth whose check
    passes); `deep` is the deepest depth the current lookup reached, BIG once a check failed."""

    __slots__ = ("deep", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.deep = 0

    def cut(self) -> None:
        """A depth check failed: what is being computed holds only at the depth it was asked from."""
        self.deep = BIG


class Memo:
    """One lookup's answers by key. Use: `got = memo.get(key, depth)`; unless `got is MISS`, return it; else
    `saved = memo.open(key, depth)`, compute, `memo.close(key, depth, result, saved)`."""

    __slots__ = ("chain", "done", "exact", "frames", "guard", "scratch", "under_way")

    def __init__(self, frames: Frames, chain: Chain, guard=None) -> None:
        self.done: dict = {}  # key -> (answer, need)
        self.exact: dict = {}  # (key, depth) -> (answer,): a depth cut made it hold at that depth only
        self.scratch: dict = {}  # key -> (partial answer, the level of the lookup it depends on)
        self.under_way: dict = {}  # key -> level
        self.chain = chain
        self.frames = frames
        self.guard = guard  # the cycle guard's answer

    def clear(self) -> None:
        """Forget every answer (the tables they were read from changed); only between lookups."""
        self.done = {}
        self.exact = {}

    def get(self, key, depth: int):
        chain = self.chain
        if depth > chain.deep:
            chain.deep = depth
        done = self.done.get(key)
        if done is not None:
            answer, need = done
            if depth + need <= chain.limit:
                if depth + need > chain.deep:
                    chain.deep = depth + need
                return answer
        if self.exact:
            done = self.exact.get((key, depth))
            if done is not None:
                chain.deep = BIG
                return done[0]
        level = self.under_way.get(key)
        if level is not None:  # looped back into itself: the guard answers, and the loop is partial
            frames = self.frames
            if level < frames.cut:
                frames.cut = level
            return self.guard
        if self.scratch:
            held = self.scratch.get(key)
            if held is not None:
                frames = self.frames
                if held[1] < frames.cut:
                    frames.cut = held[1]
                return held[0]
        return MISS

    def open(self, key, depth: int) -> tuple[int, int]:
        frames = self.frames
        level = frames.level
        self.under_way[key] = level
        frames.level = level + 1
        if len(frames.expiring) <= level:
            frames.expiring.append([])
        saved = (frames.cut, self.chain.deep)
        frames.cut = BIG
        self.chain.deep = depth
        return saved

    def close(self, key, depth: int, answer, saved: tuple[int, int]) -> None:
        frames = self.frames
        level = frames.level - 1
        frames.level = level
        del self.under_way[key]
        expiring = frames.expiring[level]
        if expiring:  # partial answers that depended on this lookup being under way
            for memo, held_key in expiring:
                memo.scratch.pop(held_key, None)
            expiring.clear()
        cut = frames.cut
        chain = self.chain
        deep = chain.deep
        if cut > level:
            if deep >= BIG:
                self.exact[(key, depth)] = (answer,)
            else:
                self.done[key] = (answer, deep - depth)
        elif cut < level:  # partial because a lookup further up is under way: valid while it is
            self.scratch[key] = (answer, cut)
            frames.expiring[cut].append((self, key))
        frames.cut = cut if cut < saved[0] and cut < level else saved[0]
        if saved[1] > deep:
            chain.deep = saved[1]
