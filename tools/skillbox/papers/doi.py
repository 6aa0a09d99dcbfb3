"""DOIs read out of what people paste: prose punctuation around them, doi: prefixes, doi.org URLs, %-escapes."""

from __future__ import annotations

import re
import urllib.parse

DOI = re.compile(r"10\.\d{4,9}/\S+")
_OPENERS = "([{<'\"\u201c\u2018"
_PAIRS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _trim_tail(doi: str) -> str:
    """Strip punctuation prose puts after a DOI ("(doi:10.1/x)." or "10.1/x],") but keep brackets that are part of
    the DOI itself, as in 10.1016/S0140-6736(20)30183-5: a closing bracket goes only when unbalanced."""
    while doi:
        last = doi[-1]
        if last in ".,;:'\"\u201d\u2019" or (last in _PAIRS and doi.count(last) > doi.count(_PAIRS[last])):
            doi = doi[:-1]
            continue
        break
    return doi


def strip_prefixes(raw: str) -> str:
    """A DOI with its doi.org URL or doi: prefix and the prose punctuation around it removed (case kept)."""
    text = raw.strip().lstrip(_OPENERS)
    text = re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^doi:\s*", "", text, flags=re.IGNORECASE)
    return _trim_tail(urllib.parse.unquote(text).strip())


def normalise(raw: str) -> str:
    """Bare lower-case DOI; raises ValueError when `raw` holds none."""
    doi = strip_prefixes(raw)
    if not DOI.fullmatch(doi):
        raise ValueError(f"not a DOI: {raw!r}")
    return doi.lower()
