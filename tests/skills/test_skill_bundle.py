"""The bundle's skills and slash commands: budgets, structure, and that everything they mention exists.

These are the checks a reader of a skill relies on without noticing: the description fits Claude Code's limits,
the body stays short, every reference file is one hop from SKILL.md, and no command line, lint code, path or
script named in a skill or command is made up.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from skillbox.cli.tree import check_cli_command as check_command_line
from tests.skills.conftest import COMMANDS, REPO, SKILLS

# The skills this bundle ships (mem-search is written with the memory CLI and checked the same way when present).
PAPER = [
    "paper-reader",
    "paper-to-slides",
    "paper-writing",
    "paper-polishing",
    "paper-citations",
    "paper-rebuttal",
    "paper-figures",
    "paper-data-availability",
    "literature-search",
]
GSAP = ["gsap-core", "gsap-timeline", "gsap-performance", "gsap-plugins", "gsap-frameworks"]
HYPERFRAMES = ["hyperframes", "hyperframes-cli", "hyperframes-media", "hyperframes-templates"]
EXPECTED = [*PAPER, "code-graph", *GSAP, *HYPERFRAMES]
ALL_SKILLS = sorted(p.parent.name for p in SKILLS.glob("*/SKILL.md"))
EXPECTED_COMMANDS = ["graph", "lint", "paper-polish", "journal-club"]

ALLOWED_KEYS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
MAX_DESCRIPTION, MAX_BODY_LINES, MAX_REFERENCE_LINES = 1024, 500, 400

# Lint codes the HyperFrames linter guarantees; skills may cite only these.
LINT_CODES = {
    "timeline_not_paused",
    "timeline_play_called",
    "timeline_created_async",
    "element_missing_entrance",
    "track_clip_overlap",
    "duplicate_id",
    "clip_start_reference_invalid",
    "timeline_id_mismatch",
    "root_missing_composition_id",
    "root_missing_dimensions",
    "missing_timeline_registry",
    "css_transition_used",
}

# The fixed command-line contract (shared/design.md): subcommand path -> flags it accepts.
CLI = {
    ("tour",): set(),
    ("doctor",): {"--json"},
    ("skills", "validate"): {"--json"},
    ("graph", "build"): {"--out", "--force", "--json"},
    ("graph", "query"): {"--budget", "--json", "--graph"},
    ("graph", "path"): {"--json", "--graph"},
    ("graph", "explain"): {"--json", "--graph"},
    ("graph", "affected"): {"--depth", "--json", "--graph"},
    ("graph", "mcp"): set(),
    ("mem", "hook"): set(),
    ("mem", "search"): {"--type", "--project", "--since", "--until", "--file", "--limit", "--json"},
    ("mem", "timeline"): {"--before", "--after", "--json"},
    ("mem", "get"): {"--json"},
    ("mem", "add"): {"--type", "--title", "--narrative", "--file", "--project", "--json"},
    ("mem", "context"): {"--project"},
    ("mem", "export"): set(),
    ("mem", "import"): set(),
    ("mem", "stats"): {"--json"},
    ("mem", "prune"): set(),
    ("mem", "mcp"): set(),
    ("lint",): {"--format", "--fix", "--select", "--ignore"},
    ("lint", "rules"): {"--json"},
    ("lint", "explain"): set(),
}
GROUPS_WITH_SUBCOMMANDS = {"skills", "graph", "mem"}


def split_frontmatter(path: Path) -> tuple[dict, str, str]:
    text = path.read_text(encoding="utf-8")
    _, raw, body = text.split("---", 2)
    return yaml.safe_load(raw), raw, body


def code_text(markdown: str) -> list[str]:
    """Inline code spans and fenced code blocks: where command lines live."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", markdown, flags=re.DOTALL)
    rest = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    return blocks + re.findall(r"`([^`\n]+)`", rest)


def skillbox_invocations(markdown: str) -> list[list[str]]:
    """Token lists after each `skillbox` in code (a trailing backslash continues the line)."""
    found = []
    for chunk in code_text(markdown):
        chunk = chunk.replace("\\\n", " ")
        for line in chunk.splitlines():
            for match in re.finditer(r"(?<![\w/-])skillbox((?:\s+[^\s|;&>]+)*)", line):
                found.append(match.group(1).split())
    return found


def check_invocation(tokens: list[str]) -> str | None:
    """None when `skillbox <tokens>` fits the contract, else what is wrong."""
    if not tokens:
        return None
    words = [t for t in tokens if not t.startswith("-")]
    if not words:
        return None
    group = words[0]
    if group in GROUPS_WITH_SUBCOMMANDS:
        if len(words) < 2:
            return None  # a bare group name in prose, e.g. `skillbox mem`
        key = (group, words[1])
    elif group == "lint":
        key = ("lint", words[1]) if len(words) > 1 and ("lint", words[1]) in CLI else ("lint",)
        placeholder = len(words) > 2 and (words[2].startswith("<") or words[2].isupper())
        if key == ("lint", "explain") and len(words) > 2 and words[2] not in LINT_CODES and not placeholder:
            return f"unknown lint code {words[2]}"
    else:
        key = (group,)
    if key not in CLI:
        return f"unknown command skillbox {' '.join(key)}"
    for flag in (t.split("=")[0] for t in tokens if t.startswith("--")):
        if flag not in CLI[key] and flag not in {"--help", "-h"}:
            return f"skillbox {' '.join(key)} has no flag {flag}"
    return None


def test_every_planned_skill_and_command_exists():
    assert set(EXPECTED) <= set(ALL_SKILLS)
    assert set(EXPECTED_COMMANDS) <= {p.stem for p in COMMANDS.glob("*.md")}


@pytest.mark.parametrize("skill", ALL_SKILLS)
def test_frontmatter_keys_name_and_description_budget(skill):
    meta, raw, _ = split_frontmatter(SKILLS / skill / "SKILL.md")
    assert set(meta) <= ALLOWED_KEYS, f"non-spec keys {set(meta) - ALLOWED_KEYS}"
    assert meta["name"] == skill
    description = meta["description"]
    assert 200 <= len(description) <= MAX_DESCRIPTION, len(description)
    assert re.search(r"^description: \"", raw, flags=re.MULTILINE), "quote the description (strict YAML)"
    assert "Use when" in description, "say when to use it, not only what it does"
    assert "<" not in description and ">" not in description
    if "allowed-tools" in meta:
        assert isinstance(meta["allowed-tools"], str) and "," not in meta["allowed-tools"]


@pytest.mark.parametrize("skill", ALL_SKILLS)
def test_body_and_references_stay_within_budget_and_one_level_deep(skill):
    folder = SKILLS / skill
    _, _, body = split_frontmatter(folder / "SKILL.md")
    assert len(body.splitlines()) <= MAX_BODY_LINES
    references = sorted((folder / "references").glob("**/*")) if (folder / "references").exists() else []
    for ref in references:
        assert ref.is_file() and ref.parent == folder / "references", f"{ref} is nested: keep one level"
        lines = ref.read_text(encoding="utf-8").splitlines()
        assert len(lines) <= MAX_REFERENCE_LINES, f"{ref.name}: {len(lines)} lines"
        assert f"references/{ref.name}" in body, f"{ref.name} is not linked from SKILL.md"
        assert "references/" not in "\n".join(lines), f"{ref.name} links further: keep depth one level"
        if len(lines) > 100:
            assert "## Contents" in lines, f"{ref.name} is long: give it a table of contents"


@pytest.mark.parametrize("skill", ALL_SKILLS)
def test_every_path_a_skill_mentions_exists_inside_that_skill(skill):
    folder = SKILLS / skill
    text = (folder / "SKILL.md").read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks show the user's files, not ours
    for rel in re.findall(r"(?<![\w/.-])((?:references|scripts|assets)/[\w./-]+\.\w+)", prose):
        assert (folder / rel).is_file(), f"{skill} mentions missing {rel}"
    for target, rel in re.findall(r"\$\{CLAUDE_PLUGIN_ROOT\}/skills/([\w-]+)/([\w./-]+)", text):
        assert target == skill, f"{skill} reaches into another skill's folder ({target}); call the CLI instead"
        assert (folder / rel).is_file(), f"{skill} mentions missing {rel}"
    for script in (folder / "scripts").glob("*.py") if (folder / "scripts").exists() else []:
        assert f"scripts/{script.name}" in text, f"{script.name} is shipped but SKILL.md never says how to run it"


def contract_or_cli_problem(tokens: list[str]) -> str | None:
    """A command line passes when it fits the fixed contract (which areas still landing must honour) or when the
    real click tree accepts it (commands and flags added beyond the contract)."""
    problem = check_invocation(tokens)
    if problem is None or not check_command_line(tokens):
        return None
    return problem


@pytest.mark.parametrize("path", sorted(SKILLS.glob("*/SKILL.md")) + sorted(COMMANDS.glob("*.md")), ids=str)
def test_every_skillbox_command_line_is_in_the_cli_contract(path):
    text = path.read_text(encoding="utf-8")
    problems = [p for tokens in skillbox_invocations(text) if (p := contract_or_cli_problem(tokens))]
    assert problems == []


@pytest.mark.parametrize("path", sorted(SKILLS.rglob("*.md")) + sorted(COMMANDS.glob("*.md")), ids=str)
def test_every_cited_lint_code_exists(path):
    if not any(part.startswith(("hyperframes", "gsap-")) for part in path.parts) and path.parent != COMMANDS:
        return
    cited = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", path.read_text(encoding="utf-8")))
    assert cited <= LINT_CODES, f"not lint codes: {cited - LINT_CODES}"


def test_contract_checker_rejects_made_up_commands_flags_and_codes():
    text = "Run `skillbox graph build . --json`, then `skillbox graph sync` and `skillbox lint x.html --strict`; "
    text += "`skillbox lint explain no_such_code`; `skillbox mem search foo --limit 5`"
    problems = [check_invocation(t) for t in skillbox_invocations(text)]
    assert problems == [
        None,
        "unknown command skillbox graph sync",
        "skillbox lint has no flag --strict",
        "unknown lint code no_such_code",
        None,
    ]


@pytest.mark.parametrize("script", sorted(SKILLS.glob("*/scripts/*.py")), ids=lambda p: p.name)
def test_every_script_answers_help_and_has_a_test(script):
    result = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "usage:" in result.stdout
    tests = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    assert f'load_script("{script.parent.parent.name}", "{script.stem}")' in tests


@pytest.mark.parametrize("command", sorted(COMMANDS.glob("*.md")), ids=lambda p: p.name)
def test_slash_commands_take_arguments_and_describe_themselves(command):
    meta, _, body = split_frontmatter(command)
    assert meta.get("description")
    assert "$ARGUMENTS" in body
    assert "$1" not in body, "$0 is the first argument in current Claude Code"
    for rel in re.findall(r"\$\{CLAUDE_PLUGIN_ROOT\}/([\w./-]+)", body):
        assert (REPO / rel).is_file(), f"{command.name} mentions missing {rel}"


@pytest.mark.parametrize("skill", ALL_SKILLS)
def test_task_evals_have_a_checkable_shape(skill):
    data = json.loads((SKILLS / skill / "evals" / "tasks.json").read_text(encoding="utf-8"))
    assert data["skill_name"] == skill
    evals = data["evals"]
    assert len(evals) >= 3
    assert len({e["id"] for e in evals}) == len(evals)
    for e in evals:
        assert isinstance(e["prompt"], str) and len(e["prompt"]) > 10
        assert isinstance(e.get("files", []), list)
        assert len(e["expectations"]) >= 2
        assert all(isinstance(x, str) and len(x) > 10 for x in e["expectations"])


@pytest.mark.skipif(
    shutil.which("agentskills") is None and not (Path(sys.executable).parent / "agentskills").exists(),
    reason="skills-ref (agentskills CLI) is not installed; it is in the dev extra",
)
@pytest.mark.parametrize("skill", ALL_SKILLS)
def test_agentskills_validate_accepts_every_skill(skill):
    exe = shutil.which("agentskills") or str(Path(sys.executable).parent / "agentskills")
    result = subprocess.run([exe, "validate", str(SKILLS / skill)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == f"Valid skill: {SKILLS / skill}" or skill in result.stdout
