"""Token counting for budgeted answers.

No tokenizer model is available offline, so answers are measured with one deterministic estimator, used on both
sides of every comparison (our answer vs. the files it saves reading). It follows how BPE vocabularies treat code:
a run of whitespace is one token, each punctuation character is one, a letter run costs one token per 6 letters
(common words and identifiers are usually 1-2 tokens), and digits are grouped by three.
"""

from __future__ import annotations

import re

_PIECES = re.compile(r"\s+|[A-Za-z]+|\d{1,3}|[^\sA-Za-z\d]")


def count_tokens(text: str) -> int:
    total = 0
    for piece in _PIECES.findall(text):
        first = piece[0]
        if first.isalpha() and first.isascii():
            total += (len(piece) + 5) // 6
        else:
            total += 1
    return total
