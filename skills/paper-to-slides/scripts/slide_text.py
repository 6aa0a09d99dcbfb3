"""How much room slide text needs: shared by the deck builder (to choose a size that fills the box) and the deck
checker (to warn when text overflows), so both measure text the same way.

The estimate is deliberately simple and font-independent: CJK glyphs are about one em wide, Latin glyphs about half
an em, lines are 1.2 em apart. It errs on the side of more room, which is what an overflow warning wants.
"""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
LINE_SPACING = 1.2


def text_em(text: str) -> float:
    """Width of `text` in em."""
    return sum(1.0 if CJK.match(ch) else 0.5 for ch in text)


def paragraph_height_pt(text: str, size_pt: float, width_pt: float, space_after_pt: float = 0.0) -> float:
    """Height one paragraph needs when wrapped into `width_pt`."""
    per_line = max(width_pt / size_pt, 1.0)
    lines = max(1, -(-int(text_em(text)) // int(per_line))) if text else 1
    return lines * size_pt * LINE_SPACING + space_after_pt
