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


def main(argv: list[str] | None = None) -> int:
    """Measure one line of slide text by hand: will this title or bullet fit its box?"""
    import argparse

    parser = argparse.ArgumentParser(description="Estimate the height slide text needs when wrapped into a box.")
    parser.add_argument("text")
    parser.add_argument("--size", type=float, default=20.0, help="font size in pt (default 20)")
    parser.add_argument("--width-in", type=float, default=12.1, help="box width in inches (default 12.1: full width)")
    args = parser.parse_args(argv)
    if args.size <= 0 or args.width_in <= 0:
        parser.error("--size and --width-in must be positive")
    height = paragraph_height_pt(args.text, args.size, args.width_in * 72)
    lines = round(height / (args.size * LINE_SPACING))
    print(f"{lines} line(s), {height / 72:.2f} in tall at {args.size:g} pt in a {args.width_in:g} in box")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
