"""The maintained half of secret redaction: Yelp's detect-secrets rule set, loaded without importing it.

detect-secrets (PyPI, maintained by Yelp) ships a regex per credential format — AWS, Stripe, npm (`.npmrc`
`_authToken`), PyPI, GitHub, GitLab, Slack, SendGrid, Twilio, JWT, private-key headers, URLs with passwords —
and its keyword plugin's rules for `key = value` assignments in config files (`.env`, `~/.aws/credentials`,
`.pypirc`: `password`, `secret`, `db_pass`, `api_key`, ...). We use those rules rather than growing our own list.

Importing detect-secrets costs ~0.3 s (it pulls in requests), far too much for a hook, so the rules are read out
of it once and cached as JSON (pattern, flags, which groups hold the secret), first next to the interpreter (the
launcher's venv, rebuilt with it), else under `$SKILLBOX_HOME/cache/`. Later processes load the JSON (~1 ms) and
compile a rule only when a text reaches it. Without detect-secrets installed only privacy.py's own rules apply,
and `skillbox doctor` says so.

Not taken: the IP-address detector (an IP is not a credential) and the entropy detectors (they flag hashes and
ids everywhere; redacting those would gut memory).
"""

from __future__ import annotations

import json
import os
import re
import sys

CACHE_NAME = "skillbox-secret-rules.json"
FORMAT = 1
_SKIPPED = {"IPPublicDetector"}
_rules: list | None = None


def _cache_paths() -> list[str]:
    from skillbox.mem.settings import skillbox_home

    return [os.path.join(sys.prefix, CACHE_NAME), os.path.join(skillbox_home(), "cache", CACHE_NAME)]


def extract() -> dict:
    """Read the rules out of the installed detect-secrets (slow: imports it). Raises ImportError without it."""
    import importlib
    import inspect
    import pkgutil

    import detect_secrets.plugins as plugins
    from detect_secrets.plugins import keyword
    from detect_secrets.plugins.base import RegexBasedDetector

    rules = []
    for info in pkgutil.iter_modules(plugins.__path__):
        module = importlib.import_module(f"detect_secrets.plugins.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not issubclass(cls, RegexBasedDetector) or name in _SKIPPED:
                continue
            denylist = getattr(cls, "denylist", ())
            if inspect.isabstract(cls) or not isinstance(denylist, list | tuple | set | frozenset):
                continue
            for pattern in denylist:
                # detect-secrets reports every non-empty group (or the whole match) as the secret.
                rules.append({"source": name, "pattern": pattern.pattern, "flags": pattern.flags, "groups": None})
    for table in ("CONFIG_DENYLIST_REGEX_TO_GROUP", "QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP"):
        for pattern, group in getattr(keyword, table, {}).items():
            rule = {"source": f"KeywordDetector.{table}", "pattern": pattern.pattern, "flags": pattern.flags}
            if rule not in ({k: r[k] for k in ("source", "pattern", "flags")} for r in rules):
                rules.append({**rule, "groups": [group]})
    from detect_secrets.__version__ import VERSION

    return {"format": FORMAT, "detect_secrets": VERSION, "rules": rules}


def _write(path: str, data: dict) -> bool:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(tmp, path)
        return True
    except OSError:
        return False


def _read() -> dict | None:
    for path in _cache_paths():
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("format") == FORMAT:
            return data
    return None


def rule_set() -> dict | None:
    """The cached rule set, building the cache from detect-secrets on first use; None if it is not installed."""
    data = _read()
    if data is not None:
        return data
    try:
        data = extract()
    except Exception:  # not installed, or a future version shaped differently: our own rules still apply
        return None
    for path in _cache_paths():
        if _write(path, data):
            break
    return data


class Rule:
    __slots__ = ("groups", "regex", "source")

    def __init__(self, source: str, regex: re.Pattern, groups: list[int] | None):
        self.source, self.regex, self.groups = source, regex, groups


def rules() -> list[Rule]:
    """Compiled maintained rules (cached per process); [] without detect-secrets."""
    global _rules
    if _rules is None:
        data = rule_set()
        compiled = []
        for rule in (data or {}).get("rules", []):
            try:
                regex = re.compile(rule["pattern"], rule["flags"])
            except (re.error, KeyError, TypeError):
                continue
            compiled.append(Rule(rule.get("source", "?"), regex, rule.get("groups")))
        _rules = compiled
    return _rules


_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_\-+/=.]*")
# A prefilter, not a rule: the rules of these detectors cannot match a text (lower-cased) holding none of these
# words, so they are skipped for it (the keyword rules have no literal prefix and cost ~2 ms per 8 KB each).
# Detectors not listed always run. tests/mem/test_secrets.py checks every needle occurs in its rules' patterns.
NEEDLES: dict[str, tuple[str, ...]] = {
    # its words: *key, db_?pass, database_?pass, key_?pass, password, passwd, pwd, secret, contraseña (not a
    # bare "pass": every test run prints PASSED)
    "KeywordDetector": ("key", "password", "passwd", "pwd", "secret", "contrase", "dbpass", "db_pass", "databas"),
    "IbmCloudIamDetector": ("key", "pwd", "pass", "token"),
    "IbmCosHmacDetector": ("secret",),
    "CloudantDetector": ("key", "pw", "pass", "token", "cloudant"),
    "SoftlayerDetector": ("key", "pwd", "pass", "token", "softlayer"),
    "AWSKeyDetector": ("a3t", "abia", "acca", "akia", "asia", "aws"),
}
# Keyword rules capture any assigned value; shorter ones (`secret: x`, `pwd = 1`) are code, not credentials.
MIN_ASSIGNED = 6


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where the maintained rules see a secret: each reported group's span. Like detect-secrets, rules see one
    line at a time (a span never crosses a newline), and a needle-gated rule (NEEDLES) only the lines holding
    one of its needles; a rule without a declared group is widened to the end of its token (a rule matching the
    first 24 characters of a longer key must not leave the rest readable)."""
    spans: list[tuple[int, int]] = []
    lines: list[tuple[int, str, str]] | None = None  # (offset, line, lower-cased line), built on first need
    for rule in rules():
        needles = NEEDLES.get(rule.source.split(".")[0])
        if not needles:
            _collect(rule, text, 0, spans)
            continue
        if lines is None:
            lines, offset = [], 0
            for line in text.split("\n"):
                lines.append((offset, line, line.lower()))
                offset += len(line) + 1
        for offset, line, low in lines:
            if any(needle in low for needle in needles):
                _collect(rule, line, offset, spans)
    return spans


def _collect(rule: Rule, text: str, offset: int, spans: list[tuple[int, int]]) -> None:
    for match in rule.regex.finditer(text):
        groups = rule.groups or range(1, (rule.regex.groups or 0) + 1)
        found = [(match.start(g), match.end(g)) for g in groups if match.group(g)]
        if not found:
            found = [(match.start(), match.end())]
        for start, end in found:
            newline = text.find("\n", start, end)
            end = newline if newline != -1 else end
            if rule.groups:
                if end - start < MIN_ASSIGNED:
                    continue
            else:
                end = _TOKEN_CHAR.match(text, end).end()
            if end > start:
                spans.append((start + offset, end + offset))
