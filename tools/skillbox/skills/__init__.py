"""Validators for Agent Skills packages, slash commands and the `.claude-plugin` manifests.

Library only (no click): `validate_path` returns a `ValidationReport` of `Problem`s. The markdown scanning helpers
(`find_command_mentions`, `find_path_mentions`) and `check_command_line` are exported for checks built on top;
the command tree those checks walk is passed in (`skillbox.cli.tree` wraps the click tree).
"""

from skillbox.skills.clitree import check_command_line
from skillbox.skills.mdscan import CommandMention, PathMention, find_command_mentions, find_path_mentions
from skillbox.skills.problems import Problem
from skillbox.skills.validate import ValidationReport, default_plugin_root, find_plugin_root, validate_path

__all__ = [
    "CommandMention",
    "PathMention",
    "Problem",
    "ValidationReport",
    "check_command_line",
    "default_plugin_root",
    "find_command_mentions",
    "find_path_mentions",
    "find_plugin_root",
    "validate_path",
]
