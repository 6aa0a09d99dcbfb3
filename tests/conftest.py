"""Shared fixtures: a small but complete plugin root on disk, built fresh for each test that needs one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GOOD_SKILL = """---
name: cite-check
description: "Checks a reference list. Use when: the user asks to verify citations."
license: MIT
---

# Cite check

Read [the rules](references/rules.md) first.

```sh
skillbox skills validate . --json
```
"""

GOOD_COMMAND = """---
description: Validate the skills of this plugin
argument-hint: "[path]"
allowed-tools: Bash(skillbox:*)
---

Run `${CLAUDE_PLUGIN_ROOT}/bin/skillbox skills validate $ARGUMENTS` and explain each problem.
"""

PLUGIN = {
    "name": "demo",
    "version": "1.2.3",
    "description": "A demo plugin.",
    "author": {"name": "Someone"},
    "repository": "https://example.org/demo",
    "license": "MIT",
}
MARKETPLACE = {
    "name": "demo",
    "description": "A demo marketplace.",
    "owner": {"name": "Someone"},
    "plugins": [{"name": "demo", "source": "./", "description": "The demo plugin."}],
}


def write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


@pytest.fixture
def plugin_root(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    write_json(root / ".claude-plugin" / "plugin.json", PLUGIN)
    write_json(root / ".claude-plugin" / "marketplace.json", MARKETPLACE)
    skill = root / "skills" / "cite-check"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text(GOOD_SKILL)
    (skill / "references" / "rules.md").write_text("# Rules\n")
    (root / "commands").mkdir()
    (root / "commands" / "check.md").write_text(GOOD_COMMAND)
    (root / "bin").mkdir()
    (root / "bin" / "skillbox").write_text("#!/bin/sh\n")
    return root
