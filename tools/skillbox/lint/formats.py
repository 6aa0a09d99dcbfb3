"""Render a `LintResult` as compiler-style text, the JSON contract of design.md, or SARIF 2.1.0."""

from __future__ import annotations

from skillbox import __version__
from skillbox.lint import paths as fs
from skillbox.lint.engine import LintResult
from skillbox.lint.registry import Rule

SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def to_json(result: LintResult) -> dict:
    return {
        "ok": result.ok,
        "errorCount": result.count("error"),
        "warningCount": result.count("warning"),
        "infoCount": result.count("info"),
        "filesScanned": result.files_scanned,
        "findings": [f.to_json() for f in result.findings],
    }


def to_text(result: LintResult) -> str:
    lines = []
    for f in result.findings:
        fix = " [fixable]" if f.fixable else ""
        lines.append(f"{f.file}:{f.line}:{f.column}: {f.severity} {f.code} {f.message}{fix}")
        if f.fix_hint:
            lines.append(f"    fix: {f.fix_hint}")
    errors, warnings, infos = result.count("error"), result.count("warning"), result.count("info")
    files = result.files_scanned
    summary = f"{errors} error(s), {warnings} warning(s), {infos} info in {files} file(s)"
    fixable = sum(1 for f in result.findings if f.fixable)
    if fixable:
        summary += f"; {fixable} fixable with --fix"
    lines.append(summary)
    return "\n".join(lines)


def to_sarif(result: LintResult, rules: dict[str, Rule]) -> dict:
    used = sorted({f.code for f in result.findings})
    index = {code: i for i, code in enumerate(used)}
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "skillbox-lint",
                        "version": __version__,
                        "rules": [
                            {
                                "id": code,
                                "name": code,
                                "shortDescription": {"text": rules[code].summary},
                                "fullDescription": {"text": rules[code].explanation},
                                "help": {"text": rules[code].fix_hint},
                                "defaultConfiguration": {"level": SARIF_LEVEL[rules[code].severity]},
                                "properties": {"group": rules[code].group},
                            }
                            for code in used
                        ],
                    }
                },
                "results": [
                    {
                        "ruleId": f.code,
                        "ruleIndex": index[f.code],
                        "level": SARIF_LEVEL[f.severity],
                        "message": {"text": f"{f.message}. Fix: {f.fix_hint}" if f.fix_hint else f.message},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": fs.clean(f.file)},
                                    "region": {"startLine": f.line, "startColumn": f.column},
                                }
                            }
                        ],
                    }
                    for f in result.findings
                ],
            }
        ],
    }


def render(result: LintResult, fmt: str, rules: dict[str, Rule]) -> str:
    if fmt in ("json", "sarif"):
        from skillbox.lint.json_text import dumps  # not the json package (start-up cost, see there)

        return dumps(to_json(result) if fmt == "json" else to_sarif(result, rules))
    return to_text(result)


def rule_table(rules: dict[str, Rule]) -> list[dict]:
    return [
        {
            "code": r.code,
            "severity": r.severity,
            "group": r.group,
            "summary": r.summary,
            "fixable": r.fixable,
            "sharedWithHyperframes": r.peer_code,
            "optIn": r.opt_in,
        }
        for r in sorted(rules.values(), key=lambda r: (r.group, r.code))
    ]


def explain(r: Rule) -> str:
    fix = "yes (skillbox lint --fix)" if r.fixable else "no"
    return "\n".join(
        [
            f"{r.code} ({r.severity}, group {r.group})",
            "",
            r.summary,
            "",
            r.explanation,
            "",
            "Bad:",
            _indent(r.bad.snippet),
            *_files_line(r.bad, r.good),
            "",
            "Good:",
            _indent(r.good.snippet),
            *_files_line(r.good, r.bad),
            "",
            f"Fix: {r.fix_hint}",
            f"Autofix: {fix}",
            f"Silence on one element: <!-- skillbox-lint: ignore[{r.code}] --> right before it; for a whole file "
            f'<!-- skillbox-lint: ignore-file[{r.code}] -->; for a project ignore = ["{r.code}"] under '
            "[tool.skillbox.lint] in pyproject.toml (or [lint] in skillbox.toml).",
        ]
    )


def _files_line(sample, other) -> list[str]:
    """Project rules differ in which files exist, not in markup: say so when the two snippets read the same."""
    if sample.snippet.strip() != other.snippet.strip():
        return []
    names = sorted(sample.files)
    return [f"    (project files: {', '.join(names)})"]


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
