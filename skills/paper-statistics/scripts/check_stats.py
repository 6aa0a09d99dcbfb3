#!/usr/bin/env python3
"""Recompute the p-value of every reported test result in a manuscript and flag the ones that disagree.

The idea is statcheck's (Nuijten et al., 2016): a result written as `t(28) = 2.20, p = .036` carries everything
needed to recompute p, so a p-value that cannot follow from its own statistic and degrees of freedom is a typo, a
copy-paste from another test, or a one-tailed p reported as two-tailed. Like statcheck it allows for rounding of
the reported statistic (t = 2.20 may be anything in [2.195, 2.205)) and of the reported p, and it separates
plain inconsistencies from decision errors (the reported p and the recomputed p fall on different sides of
alpha, so the conclusion itself changes).

Recognised forms (APA-like, case-insensitive, Unicode minus and χ² accepted):
  t(df) = x, p ...        F(df1, df2) = x, p ...      r(df) = x, p ...
  χ2(df) = x, p ...       chi2(df, N = n) = x, p ...   z = x, p ...
where `p ...` is `p = .036`, `p < .05`, `p > .10` or `p ≤ .001`. The p-values are two-tailed, as statcheck
assumes; a result whose sentence says "one-tailed" or "one-sided" is also accepted when half the two-tailed p
matches. Standard library only: the distributions are computed with the regularised incomplete beta and gamma
functions (checked against SciPy in the tests).

Exit status: 0 when every result is consistent, 1 when any is not (or nothing could be checked with
--require-results), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ALPHA = 0.05

# ---- distributions -------------------------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (modified Lentz's method)."""
    tiny, eps = 1e-300, 3e-16
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def gammainc_upper(s: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(s, x)."""
    if x <= 0.0:
        return 1.0
    if x < s + 1.0:  # series for P, then Q = 1 - P
        term = total = 1.0 / s
        n = s
        for _ in range(10000):
            n += 1.0
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(-x + s * math.log(x) - math.lgamma(s)))
    tiny = 1e-300  # continued fraction for Q
    b = x + 1.0 - s
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - s)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(-x + s * math.log(x) - math.lgamma(s)) * h


def p_two_tailed(test: str, value: float, df1: float | None = None, df2: float | None = None) -> float:
    """The two-tailed p of a statistic (F and χ² are one-sided by nature: their upper tail)."""
    if test == "t":
        return betainc(df1 / 2.0, 0.5, df1 / (df1 + value * value))
    if test == "r":  # r with df = n - 2 is a t test of t = r * sqrt(df / (1 - r^2))
        if abs(value) >= 1.0:
            return 0.0
        return p_two_tailed("t", value * math.sqrt(df1 / (1.0 - value * value)), df1)
    if test == "F":
        if value <= 0:
            return 1.0
        return betainc(df2 / 2.0, df1 / 2.0, df2 / (df2 + df1 * value))
    if test == "chi2":
        return gammainc_upper(df1 / 2.0, value / 2.0) if value > 0 else 1.0
    if test == "z":
        return math.erfc(abs(value) / math.sqrt(2.0))
    raise ValueError(f"unknown test {test}")


# ---- parsing -------------------------------------------------------------------------------------------------

_NUM = r"[-−–]?\s*(?:\d+(?:\.\d*)?|\.\d+)"
_P = r"(?P<pc>[=<>≤≥]|<=|>=)\s*(?P<p>(?:0?\.\d+|\d(?:\.\d+)?)(?:\s*[x×]\s*10\s*\^?\s*[-−–]\s*\d+|[eE][-−–]?\d+)?)"
_TAIL = r"\s*[,;]?\s*(?:p|P|𝑝)\s*"
PATTERNS = {
    "t": re.compile(rf"\bt\s*\(\s*(?P<df1>\d+(?:\.\d+)?)\s*\)\s*=\s*(?P<v>{_NUM}){_TAIL}{_P}"),
    "F": re.compile(
        rf"\bF\s*\(\s*(?P<df1>\d+(?:\.\d+)?)\s*,\s*(?P<df2>\d+(?:\.\d+)?)\s*\)\s*=\s*(?P<v>{_NUM}){_TAIL}{_P}"
    ),
    "r": re.compile(rf"\br\s*\(\s*(?P<df1>\d+)\s*\)\s*=\s*(?P<v>{_NUM}){_TAIL}{_P}"),
    "chi2": re.compile(
        rf"(?:χ\s*[2²]|chi\s*-?\s*(?:square[d]?|2|²)|X\s*[2²])\s*\(\s*(?P<df1>\d+)\s*(?:,\s*N\s*=\s*\d+\s*)?\)"
        rf"\s*=\s*(?P<v>{_NUM}){_TAIL}{_P}",
        re.IGNORECASE,
    ),
    "z": re.compile(rf"(?<![\w(])[zZ]\s*=\s*(?P<v>{_NUM}){_TAIL}{_P}"),
}
ONE_TAILED = re.compile(r"one[- ]?(?:tailed|sided)|单侧|单尾", re.IGNORECASE)


def _number(text: str) -> float:
    text = text.replace("−", "-").replace("–", "-").replace(" ", "")
    text = re.sub(r"[x×]10\^?-", "e-", text)
    return float(text)


def _decimals(text: str) -> int:
    text = text.strip().replace("−", "-").replace("–", "-")
    return len(text.split(".", 1)[1]) if "." in text and "e" not in text.lower() else 0


@dataclass
class Result:
    line: int
    text: str
    test: str
    df1: float | None
    df2: float | None
    value: float
    p_comparison: str
    p_reported: float
    p_computed: float
    p_low: float  # the recomputed p over the rounding interval of the reported statistic
    p_high: float
    verdict: str  # consistent | consistent_one_tailed | inconsistent | decision_error
    message: str


def _rounding_range(value: float, decimals: int) -> tuple[float, float]:
    half = 0.5 * 10.0 ** (-decimals)
    return abs(value) - half, abs(value) + half


def _p_matches(comparison: str, reported: float, decimals: int, low: float, high: float) -> bool:
    """Whether some p in [low, high] (recomputed over the statistic's rounding) agrees with what was written."""
    if comparison in ("<", "≤", "<="):
        return low < reported or (comparison != "<" and math.isclose(low, reported))
    if comparison in (">", "≥", ">="):
        return high > reported or (comparison != ">" and math.isclose(high, reported))
    half = 0.5 * 10.0 ** (-decimals) if decimals else 0.0
    return low <= reported + half + 1e-12 and high >= reported - half - 1e-12


def _significant(comparison: str, reported: float) -> bool | None:
    """Does the written p claim significance at ALPHA? None when it does not say (e.g. p < .10)."""
    if comparison in ("<", "≤", "<="):
        return True if reported <= ALPHA else None
    if comparison in (">", "≥", ">="):
        return False if reported >= ALPHA else None
    return reported < ALPHA


def check_match(test: str, match: re.Match, line_no: int, sentence: str) -> Result:
    df1 = float(match.group("df1")) if "df1" in match.groupdict() and match.group("df1") else None
    df2 = float(match.group("df2")) if "df2" in match.groupdict() and match.group("df2") else None
    raw_value = match.group("v")
    value = _number(raw_value)
    comparison = match.group("pc")
    p_text = match.group("p")
    reported = _number(p_text)
    decimals = _decimals(p_text)
    lo_v, hi_v = _rounding_range(value, _decimals(raw_value))
    lo_v = max(lo_v, 0.0)
    if test == "r":
        hi_v = min(hi_v, 0.999999)
    p_computed = p_two_tailed(test, abs(value), df1, df2)
    # a larger statistic gives a smaller p
    p_low, p_high = p_two_tailed(test, hi_v, df1, df2), p_two_tailed(test, lo_v, df1, df2)
    if _p_matches(comparison, reported, decimals, p_low, p_high):
        verdict, message = "consistent", "p agrees with the statistic and df"
    elif ONE_TAILED.search(sentence) and _p_matches(comparison, reported, decimals, p_low / 2, p_high / 2):
        verdict, message = "consistent_one_tailed", "p agrees only as a one-tailed p (the text says one-tailed)"
    else:
        claimed = _significant(comparison, reported)
        actual = p_computed < ALPHA
        if claimed is not None and claimed != actual:
            verdict = "decision_error"
            message = (
                f"reported p {comparison} {p_text} but the statistic gives p = {p_computed:.4g}: the conclusion at "
                f"alpha = {ALPHA} changes"
            )
        else:
            verdict = "inconsistent"
            message = f"reported p {comparison} {p_text} but the statistic gives p = {p_computed:.4g}"
        if math.isclose(p_low / 2, reported, rel_tol=0.05) or _p_matches(
            comparison, reported, decimals, p_low / 2, p_high / 2
        ):
            message += " (it matches half of that: a one-tailed p reported without saying so?)"
    return Result(
        line_no,
        match.group(0),
        test,
        df1,
        df2,
        value,
        comparison,
        reported,
        round(p_computed, 6),
        round(p_low, 6),
        round(p_high, 6),
        verdict,
        message,
    )


# Markup a manuscript wraps results in, and the full-width punctuation of Chinese text: read as the plain APA
# form so `*t*(28) = 2.20`, `$t(28)=2.20$`, `\textit{p}` and `t（28）＝2.20，p＝.036` are all found. Line breaks
# are kept, so line numbers still point into the file.
_MARKUP = [
    (re.compile(r"\\(?:textit|mathit|emph|textrm|mathrm|text)\{([^{}\n]*)\}"), r"\1"),
    (re.compile(r"\\chi\s*\^\s*\{?\s*2\s*\}?"), "χ2"),
    (re.compile(r"\\(?:le|leq)\b"), "≤"),
    (re.compile(r"\\(?:ge|geq)\b"), "≥"),
    (re.compile(r"\\(?:lt)\b"), "<"),
    (re.compile(r"\\(?:gt)\b"), ">"),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"(?<![\w\\])[*_]{1,2}([A-Za-zχ𝑝]{1,4}2?)[*_]{1,2}(?!\w)"), r"\1"),
    (re.compile(r"\$"), ""),
]
_FULL_WIDTH = str.maketrans({"，": ", ", "；": "; ", "（": "(", "）": ")", "＝": "=", "＜": "<", "＞": ">", "．": "."})


def plain_text(text: str) -> str:
    """`text` with Markdown emphasis, LaTeX math markup and full-width punctuation read as plain characters."""
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return text.translate(_FULL_WIDTH)


def scan_text(text: str) -> list[Result]:
    """Every recognised result in `text`, in reading order."""
    text = plain_text(text)
    found: list[tuple[int, Result]] = []
    taken: list[tuple[int, int]] = []
    lines = text.splitlines()
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    for test, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            span = match.span()
            if any(a < span[1] and span[0] < b for a, b in taken):
                continue  # e.g. the z pattern inside a longer match
            taken.append(span)
            line_no = max(i for i, s in enumerate(starts) if s <= span[0]) + 1
            sentence_start = max(text.rfind(".", 0, max(span[0] - 1, 0)), text.rfind("\n", 0, span[0])) + 1
            ends = [i for i in (text.find(". ", span[1]), text.find("\n", span[1])) if i != -1]
            sentence = text[sentence_start : min(ends) if ends else len(text)]
            found.append((span[0], check_match(test, match, line_no, sentence)))
    return [r for _, r in sorted(found, key=lambda item: item[0])]


def style_notes(text: str) -> list[dict]:
    """Reporting habits that are not errors of arithmetic but that reviewers flag."""
    notes = []
    for i, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"\b[pP]\s*=\s*0?\.0+(?!\d*[1-9])", line):
            notes.append({"line": i, "text": m.group(0), "note": "p = .000 is not a p-value: write p < .001"})
    return notes


def read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(path)
    return file.read_text(encoding="utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Recompute p from each reported t, F, r, chi2 or z result and flag inconsistent p-values."
    )
    parser.add_argument("file", help="manuscript text (Markdown, plain text or LaTeX); - reads stdin")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--require-results", action="store_true", help="exit 1 when no result could be recognised at all"
    )
    args = parser.parse_args(argv)
    try:
        text = read_input(args.file)
    except FileNotFoundError:
        print(f"Error: no such file: {args.file}", file=sys.stderr)
        return 2
    results = scan_text(text)
    notes = style_notes(text)
    bad = [r for r in results if r.verdict in ("inconsistent", "decision_error")]
    if args.json:
        payload = {
            "results": [asdict(r) for r in results],
            "notes": notes,
            "checked": len(results),
            "inconsistent": sum(r.verdict == "inconsistent" for r in results),
            "decision_errors": sum(r.verdict == "decision_error" for r in results),
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for r in results:
            mark = {"consistent": "ok", "consistent_one_tailed": "ok"}.get(r.verdict, r.verdict.upper())
            print(f"line {r.line}: {mark}: {r.text} — {r.message}")
        for n in notes:
            print(f"line {n['line']}: note: {n['text']} — {n['note']}")
        print(
            f"{len(results)} result(s) checked, {len(bad)} inconsistent "
            f"({sum(r.verdict == 'decision_error' for r in results)} change the conclusion)"
        )
    if not results:
        print(
            "warning: no test result was recognised; results must read like t(28) = 2.20, p = .036 "
            "(see the recognised forms in --help)",
            file=sys.stderr,
        )
    if bad or (args.require_results and not results):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
