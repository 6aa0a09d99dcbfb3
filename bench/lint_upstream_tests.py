"""Score skillbox lint against the expectations in the upstream linter's own unit tests.

Oracle: heygen-com/hyperframes `packages/lint/src/**/*.test.ts` (read from a cache folder, never committed). Each
`it(...)` block that lints one self-contained HTML template literal (no `${}`) through `lintHyperframeHtml` is
turned into expectations "code X is present" / "code X is absent", read from its `expect(...)` lines:
`toBeDefined/toBeTruthy/toBe(true)/toContain/toBeGreaterThan(0)/toHaveLength(n>0)` mean present,
`toBeUndefined/toBeFalsy/toBe(false)/toHaveLength(0)/toEqual([])` absent, `.not.` flips. Severity-only checks
are left out (our severities follow the render oracle, bench/lint_render_cases.py). `isSubComposition: true`
and `filePath` options are passed on.

    python bench/lint_upstream_tests.py [--repo /work/cache/hyperframes] [--misses CODE] [--json]

Prints, per code we implement, expectations met / total, and the codes the tests name that we do not implement.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

IT = re.compile(r"^\s*(?:it|test)\(\s*([\"'`])(.*?)\1\s*,", re.M)
TEMPLATE = re.compile(r"`((?:\\.|[^`\\])*)`", re.S)
CODE = re.compile(r"""["']([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']""")
EXPECT = re.compile(r"expect\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)((?:\s*\.\s*not)?)\s*\.\s*(\w+)\(([^)]*)\)")
DEFINE = re.compile(r"(?:const|let|var)\s+(\w+)\s*=\s*(.*?);\s*$", re.S | re.M)
PRESENT = {"toBeDefined", "toBeTruthy", "toContain", "toContainEqual"}
ABSENT = {"toBeUndefined", "toBeFalsy"}


@dataclass
class Expectation:
    file: str
    title: str
    html: str
    code: str
    present: bool
    sub: bool
    file_path: str | None


def _polarity(matcher: str, arg: str, negated: bool) -> bool | None:
    arg = arg.strip()
    if matcher in PRESENT:
        result = True
    elif matcher in ABSENT:
        result = False
    elif matcher == "toBe" and arg in ("true", "false"):
        result = arg == "true"
    elif matcher in ("toHaveLength", "toBe") and arg.isdigit():
        result = int(arg) > 0
    elif matcher in ("toBeGreaterThan",) and arg.isdigit():
        result = True
    elif matcher == "toBeGreaterThanOrEqual" and arg.isdigit():
        result = int(arg) > 0
    elif matcher == "toEqual" and arg.replace(" ", "") == "[]":
        result = False
    else:
        return None
    return (not result) if negated else result


def _blocks(text: str):
    starts = [m for m in IT.finditer(text)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        yield m.group(2), text[m.end() : end]


def extract(repo: Path) -> tuple[list[Expectation], collections.Counter]:
    out: list[Expectation] = []
    skipped: collections.Counter = collections.Counter()
    for test_file in sorted((repo / "packages" / "lint" / "src").rglob("*.test.ts")):
        text = test_file.read_text(encoding="utf-8")
        for title, body in _blocks(text):
            if "lintHyperframeHtml" not in body:
                skipped["not lintHyperframeHtml (project/fs tests)"] += 1
                continue
            templates = [t for t in TEMPLATE.findall(body) if "<" in t]
            if not templates:
                skipped["no inline html"] += 1
                continue
            if len(templates) > 1 and body.count("lintHyperframeHtml(") > 1:
                skipped["several documents in one test"] += 1
                continue
            assigned = re.search(r"(?:=\s*|lintHyperframeHtml\(\s*)`((?:\\.|[^`\\])*)`", body, re.S)
            if not assigned:
                skipped["html built by a helper"] += 1
                continue
            html = assigned.group(1)  # the literal linted, not a backticked word in a comment
            if "${" in html:
                skipped["html built with ${}"] += 1
                continue
            html = html.replace("\\`", "`").replace("\\\\", "\\")
            sub = bool(re.search(r"isSubComposition\s*:\s*true", body))
            fp = re.search(r"filePath\s*:\s*[\"']([^\"']+)[\"']", body)
            defs = {m.group(1): m.group(2) for m in DEFINE.finditer(body)}
            found = 0
            for m in EXPECT.finditer(body):
                subject, negated, matcher, arg = m.group(1), bool(m.group(2).strip()), m.group(3), m.group(4)
                prop = re.match(r"\s*\w+\s*\??\.\s*(\w+)", subject)
                if prop and prop.group(1) not in ("length", "some", "filter", "find", "findings", "map", "every"):
                    continue  # finding?.severity / .message / .snippet: not about presence
                if "severity" in subject or "message" in subject or "fixHint" in subject:
                    continue
                codes = CODE.findall(subject)
                if matcher in ("toContain", "toContainEqual") and not codes:
                    codes = CODE.findall(arg)
                if not codes:
                    root = re.match(r"\s*(\w+)", subject)
                    if root and root.group(1) in defs:
                        codes = CODE.findall(defs[root.group(1)])
                polarity = _polarity(matcher, arg if matcher not in ("toContain",) else "", negated)
                if matcher in ("toContain", "toContainEqual"):
                    polarity = not negated
                if polarity is None or len(set(codes)) != 1:
                    continue
                exp = Expectation(test_file.name, title, html, codes[0], polarity, sub, fp.group(1) if fp else None)
                if exp not in out:
                    out.append(exp)
                found += 1
            if not found:
                skipped["no code expectation read"] += 1
    return out, skipped


def our_codes(exp: Expectation, memo: dict) -> set[str]:
    key = (exp.html, exp.sub, exp.file_path)
    if key not in memo:
        from skillbox.lint.document import parse_document
        from skillbox.lint.engine import Selection, lint_document
        from skillbox.lint.registry import all_rules

        doc = parse_document(exp.html.encode("utf-8"), exp.file_path or "index.html", is_subcomposition=exp.sub)
        every = Selection(select=set(all_rules()))  # opt-in rules too: the tests name them
        memo[key] = {f.code for f in lint_document(doc, every)}
    return memo[key]


def score(exps: list[Expectation]) -> tuple[dict, dict]:
    from skillbox.lint.registry import all_rules

    ours = set(all_rules())
    memo: dict = {}
    per: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    missing: collections.Counter = collections.Counter()
    for exp in exps:
        if exp.code not in ours:
            missing[exp.code] += 1
            continue
        met = (exp.code in our_codes(exp, memo)) == exp.present
        per[exp.code][0] += met
        per[exp.code][1] += 1
    return dict(per), dict(missing)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=Path("/work/cache/hyperframes"))
    ap.add_argument("--misses", help="print the failing expectations of this code")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (args.repo / "packages" / "lint" / "src").is_dir():
        print(f"no packages/lint/src under {args.repo}", file=sys.stderr)
        return 2
    exps, skipped = extract(args.repo)
    per, missing = score(exps)
    if args.misses:
        memo: dict = {}
        for exp in exps:
            if exp.code == args.misses and (exp.code in our_codes(exp, memo)) != exp.present:
                want = "present" if exp.present else "absent"
                print(f"--- {exp.file}: {exp.title} (want {want}; sub={exp.sub})\n{exp.html.strip()}\n")
        return 0
    met = sum(v[0] for v in per.values())
    total = sum(v[1] for v in per.values())
    below = {c: v for c, v in per.items() if v[0] / v[1] < 0.98}
    if args.json:
        print(json.dumps({"per_code": per, "missing_codes": missing, "skipped": skipped}, indent=2))
        return 0
    print(f"expectations read: {len(exps)} (codes we implement: {total}; others: {sum(missing.values())})")
    print(f"met: {met}/{total} = {met / max(total, 1):.1%} over {len(per)} codes")
    for code, (ok, n) in sorted(below.items(), key=lambda kv: kv[1][0] / kv[1][1]):
        print(f"  below 98%: {code} {ok}/{n}")
    print(f"codes the tests name that we do not implement ({len(missing)}):")
    for code, n in sorted(missing.items(), key=lambda kv: -kv[1]):
        print(f"  {code} ({n})")
    print("tests skipped:", dict(skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
