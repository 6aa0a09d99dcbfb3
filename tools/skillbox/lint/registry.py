"""Lint rules as registered objects: a rule's code, severity, fix hint and check live together in its module.

A rule module declares each rule with `@rule(...)` above its check function; the decorator returns a `Rule`
whose `fixer` decorator attaches an optional safe autofix. What `skillbox lint explain` shows (`summary`,
`explanation`, the `bad` and `good` examples) lives in `lint/rules/docs/<group>.py`, keyed by code, and is read on
first use: by `lint explain`, `lint rules`, SARIF's rule table and the tests, never by a plain lint, whose
per-project process would otherwise unmarshal and build all 118 rules' texts and examples (bench/README.md "lint
speed per project, session 7"). The docs are not decoration: the test suite lints every `bad` and `good` example
and checks that every rule has docs and every doc entry a rule (tests/lint/test_rule_examples.py), so a rule's
documentation cannot drift from what it does.
"""

from __future__ import annotations

from skillbox.lint.records import dataclass, field

if False:  # annotations only: the samples module is for the docs (see above), not for a lint run; collections.abc
    from collections.abc import Callable, Iterable  # would import typing's friends at run time

    from skillbox.lint.samples import Sample

SEVERITIES = ("error", "warning", "info")
GROUPS = ("core", "media", "composition", "gsap", "captions", "fonts", "adapters", "project")
RULE_MODULES = [f"skillbox.lint.rules.{g}" for g in GROUPS]


@dataclass
class Hit:
    """What a check reports: where (byte offset) and what, optionally a context-dependent severity and the data
    its autofix needs."""

    offset: int
    message: str
    element: object = None  # the Element it is about (annotations here avoid importing typing at start-up)
    severity: str | None = None
    fix: object = None
    doc: object = None  # project rules name the document a hit belongs to
    element_id: str | None = None
    selector: str | None = None


@dataclass(frozen=True)
class Edit:
    """Replace bytes [start, end) of a file with `text`."""

    start: int
    end: int
    text: str


@dataclass(eq=False)
class Rule:
    code: str
    severity: str
    group: str
    fix_hint: str
    check: Callable[..., Iterable[Hit]]
    scope: str = "file"  # "file": check(doc); "project": check(project)
    autofix: Callable[..., list[Edit]] | None = None
    peer_code: bool = False  # the code and meaning are shared with `hyperframes lint`
    bad_also: tuple[str, ...] = field(default_factory=tuple)  # codes the bad example legitimately fires too
    opt_in: bool = False  # runs only when selected by code (--select / config), like ruff's opt-in rules

    def fixer(self, function: Callable[..., list[Edit]]) -> Callable[..., list[Edit]]:
        """Attach a safe autofix: `function(doc, hit) -> [Edit]`."""
        self.autofix = function
        return function

    @property
    def fixable(self) -> bool:
        return self.autofix is not None

    @property
    def summary(self) -> str:
        return rule_docs(self.group)[self.code]["summary"]

    @property
    def explanation(self) -> str:
        return rule_docs(self.group)[self.code]["explanation"].strip()

    @property
    def bad(self) -> Sample:
        return rule_docs(self.group)[self.code]["bad"]

    @property
    def good(self) -> Sample:
        return rule_docs(self.group)[self.code]["good"]


def rule_docs(group: str) -> dict[str, dict]:
    """The docs of a group's rules (code -> summary, explanation, bad, good), imported on first use."""
    return __import__(f"skillbox.lint.rules.docs.{group}", fromlist=("DOCS",)).DOCS


RULES: dict[str, Rule] = {}


def rule(
    code: str,
    severity: str,
    group: str,
    *,
    fix_hint: str,
    scope: str = "file",
    peer: bool = False,
    bad_also: tuple[str, ...] = (),
    opt_in: bool = False,
) -> Callable[[Callable[..., Iterable[Hit]]], Rule]:
    if severity not in SEVERITIES or group not in GROUPS:
        raise ValueError(f"rule {code}: bad severity {severity!r} or group {group!r}")

    def register(check: Callable[..., Iterable[Hit]]) -> Rule:
        if code in RULES:
            raise ValueError(f"duplicate rule code {code}")
        registered = Rule(code, severity, group, fix_hint, check, scope)
        registered.peer_code = peer
        registered.bad_also = tuple(bad_also)
        registered.opt_in = opt_in
        RULES[code] = registered
        return registered

    return register


_loaded = False


def all_rules() -> dict[str, Rule]:
    """Every registered rule, importing the rule modules on first use."""
    global _loaded
    if not _loaded:
        for module in RULE_MODULES:
            __import__(module)  # not importlib.import_module: the importlib package imports warnings (start-up)
        _loaded = True
    return RULES
