"""What must never be stored: `<private>` regions, our own injected context, and obvious secrets.

Two rules, applied by `Scrubber` to every string that crosses the write boundary (`capture.py`):

1. Text inside a private tag is removed. Tags are matched case-insensitively with any attributes; nesting is
   counted per tag name; a tag left open hides everything after it, including later fields of the same payload
   (a region may start in one field and end in another); stray closing tags are dropped. Besides `<private>`,
   the tags that wrap injected context (ours and claude-mem's) and harness messages are treated the same way, so
   memory never feeds on its own output.
2. Secrets are replaced with `[REDACTED]`: detect-secrets' maintained rule set (secret_rules.py: cloud and SaaS
   keys, `.npmrc` tokens, `.pypirc`/`.env`/`~/.aws/credentials` assignments, URLs with passwords) plus the few
   formats it lacks, kept here (Anthropic, Hugging Face, Google, OpenAI project keys, bearer tokens, whole PEM
   blocks, upper-case `*_TOKEN=` style assignments).

Stripping runs on the full text before anything is trimmed, so a region cannot hide in the elided middle of a
long value and leak its tail.
"""

from __future__ import annotations

import re

PRIVATE_TAGS = (
    "private",
    "skillbox-memory",
    "claude-mem-context",
    "system-reminder",
    "system_instruction",
    "system-instruction",
    "persisted-output",
)
REDACTED = "[REDACTED]"

_TAG = (
    r"<\s*(/?)\s*(" + "|".join(re.escape(t) for t in PRIVATE_TAGS) + r")\b[^>]*?(/?)\s*>",
    re.I,
)

# One alternation so a long value is scanned once. Branches k1-k4 keep their non-secret prefix.
_SECRETS = (
    "|".join(
        [
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|\Z)",
            r"\bsk-ant-[A-Za-z0-9_\-]{10,}",
            r"\bhf_[A-Za-z0-9]{20,}",
            r"\bnpm_[A-Za-z0-9]{30,}",
            r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{20,}",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
            r"\bglpat-[A-Za-z0-9_\-]{20,}",
            r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",
            r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
            r"\bAIza[0-9A-Za-z_\-]{35}",
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
            r"(?P<k1>\b[Bb]earer\s+)[A-Za-z0-9._~+/=\-]{16,}",
            r"(?P<k2>\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^/\s:@]+:)[^@\s/]+(?=@)",
            r"(?P<k3>\b[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)"
            r"[A-Z0-9_]*\s*[=:]\s*['\"]?)[^\s'\"]{4,}",
            r"(?P<k4>[\"'](?:password|passwd|secret|token|api_key|apikey|access_token|client_secret)[\"']\s*:\s*[\"'])"
            r"[^\"']{4,}",
        ]
    ),
    0,
)
# Every secret pattern needs one of these (lower-cased) substrings; text without any skips the regex, and the
# regex is only compiled when some text needs it (compiling it costs a hook process several milliseconds).
_SECRET_HINTS = (
    "-----begin", "sk-", "hf_", "npm_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xox",
    "akia", "asia", "aiza", "eyj", "bearer", "://", "password", "passwd", "secret", "token", "api_key", "apikey",
    "access_key", "private_key", "credential",
)  # fmt: skip
_HINTS_PATTERN = "|".join(re.escape(hint) for hint in _SECRET_HINTS)


# Above this length the tag regex (slow where HTML puts a `<` every few characters) only runs when a tag name
# occurs at all: one lower-casing and a few substring searches cost ~0.2 s on 50 MB instead of ~0.7 s.
_LONG = 65536


# The tag openers, on lower-cased text: one regex pass whose every try starts at a `<` (faster than the full tag
# regex with re.I, which also scans each tag's attributes).
_TAG_START = r"<\s*/?\s*(?:" + "|".join(re.escape(t) for t in PRIVATE_TAGS) + ")"


def _names_tags(value: str) -> bool:
    return re.compile(_TAG_START).search(value.lower()) is not None


def _redact_match(match: re.Match) -> str:
    for group in ("k1", "k2", "k3", "k4"):
        kept = match.group(group)
        if kept is not None:
            return kept + REDACTED
    return REDACTED


def redact_secrets(text: str) -> str:
    """Our own rules (formats detect-secrets lacks: Anthropic, Hugging Face, Google, OpenAI project keys, bearer
    tokens, whole PEM blocks, upper-case env assignments), then detect-secrets' maintained rule set."""
    if not text:
        return text
    if re.compile(_HINTS_PATTERN, re.I).search(text):
        text = re.compile(*_SECRETS).sub(_redact_match, text)
    if len(text) >= 8 and re.compile(_MAYBE_MAINTAINED).search(text):
        from skillbox.mem.secret_rules import secret_spans

        spans = secret_spans(text)
        if spans:
            text = _replace_spans(text, spans)
    return text


# A text without an assignment sign, a colon, an `@` or a long token cannot match any detect-secrets rule.
_MAYBE_MAINTAINED = r"[=:@]|[A-Za-z0-9_\-+/]{16}"


def _replace_spans(text: str, spans: list[tuple[int, int]]) -> str:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, pos = [], 0
    for start, end in merged:
        out.append(text[pos:start])
        out.append(REDACTED)
        pos = end
    out.append(text[pos:])
    return "".join(out)


class Scrubber:
    """Strips private regions from a sequence of strings that belong together (one payload, in field order).

    The open-tag state carries from one string to the next, so `<private>` opened in one field hides the
    following fields until it is closed. `removed` tells the caller that something was withheld.
    """

    def __init__(self, *, redact: bool = True):
        self.redact = redact
        self.open: dict[str, int] = {}
        self.removed = False

    @property
    def inside(self) -> bool:
        return any(self.open.values())

    def text(self, value: str, cap: int | None = None) -> str:
        """`value` without private regions and secrets. With `cap`, a longer result is elided to its head and tail
        (`elide`) and only the kept windows are scanned for secrets, so a 50 MB output costs one tag scan."""
        stripped = self.strip(value)
        if not self.redact or not stripped:
            return stripped
        if cap is not None and len(stripped) > cap:
            return elide(stripped, cap, redact_secrets)
        return redact_secrets(stripped)

    def strip(self, value: str) -> str:
        """`value` without private regions (state carried to the next string); secrets untouched."""
        if not value:
            return value
        if "<" not in value or (len(value) > _LONG and not self.inside and not _names_tags(value)):
            if self.inside:
                self.removed = True
                return ""
            return value
        parts: list[str] = []
        pos = 0
        for match in re.compile(*_TAG).finditer(value):
            if not self.inside:
                parts.append(value[pos : match.start()])
            else:
                self.removed = True
            closing, name, selfclosing = match.group(1), match.group(2).lower(), match.group(3)
            if closing:
                if self.open.get(name):
                    self.open[name] -= 1
            elif not selfclosing:
                self.open[name] = self.open.get(name, 0) + 1
            self.removed = True
            pos = match.end()
        if self.inside:
            if pos < len(value):
                self.removed = True
        else:
            parts.append(value[pos:])
        return "".join(parts)

    def value(self, value, cap: int | None = None):
        """Scrub a decoded JSON value in document order: string values and list items share the open-tag state;
        dict keys are field names, scrubbed on their own so they never collapse into one another."""
        if isinstance(value, str):
            return self.text(value, cap)
        if isinstance(value, dict):
            return {
                scrub_text(k, redact=self.redact) if isinstance(k, str) else k: self.value(v, cap)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self.value(v, cap) for v in value]
        return value


# A secret cut by the elision boundary must still be recognised: each kept window is scanned with this much
# extra text on its inner side, then cut (a PEM block longer than this is redacted to the window's end).
ELIDE_MARGIN = 4096


def elide(text: str, cap: int, keep=None) -> str:
    """Head (60%) and tail (30%) of a text longer than `cap`, with the elided length between. `keep(window)`
    transforms each window first (secret redaction), scanned with `ELIDE_MARGIN` extra characters."""
    if len(text) <= cap:
        return keep(text) if keep else text
    head, tail = int(cap * 0.6), int(cap * 0.3)
    first = text[: head + ELIDE_MARGIN]
    last = text[-(tail + ELIDE_MARGIN) :] if tail else ""
    if keep:
        first, last = keep(first), keep(last)
    first, last = first[:head], (last[-tail:] if tail else "")
    return f"{first}\n…[{len(text) - head - tail} chars elided]…\n{last}"


def scrub_text(text: str, *, redact: bool = True) -> str:
    """One standalone string (a log line, a manual note): private regions and secrets removed."""
    return Scrubber(redact=redact).text(text)
