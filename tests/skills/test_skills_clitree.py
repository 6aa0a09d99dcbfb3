"""Command lines are resolved against the real click tree: groups, commands, options and choice values."""

from __future__ import annotations

import click
import pytest

from skillbox.cli.root import LazyGroup
from skillbox.cli.tree import check_cli_command as check_command_line


@click.command()
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]))
@click.option("--json", "as_json", is_flag=True)
@click.option("--limit", type=int)
def lint(path, fmt, as_json, limit):
    raise AssertionError("checking a command line must never run it")


@click.group(cls=LazyGroup, lazy_commands={}, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True)
def tool(debug):
    """Test root."""


tool.add_command(lint)


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", "a.html", "--format", "json"),
        ("lint", "--format=sarif", "a.html"),
        ("lint", "--format", "text|json|sarif"),
        ("lint", "--format", "FORMAT"),
        ("--debug", "lint", "x", "--json", "--limit", "-1"),
        ("lint", "-h"),
        ("lint", "--", "--not-an-option"),
        ("<command>", "--anything"),
        (),
    ],
)
def test_valid_lines(argv):
    assert check_command_line(argv, root=tool) == []


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (("lnit", "a.html"), "command_unknown"),
        (("lint", "a.html", "--yaml"), "command_unknown_option"),
        (("--verbose", "lint"), "command_unknown_option"),
        (("lint", "--format", "xml"), "command_bad_choice"),
        (("lint", "--format", "text|xml"), "command_bad_choice"),
    ],
)
def test_invalid_lines(argv, code):
    ((found_code, message),) = check_command_line(argv, root=tool)
    assert found_code == code
    assert message.startswith("`skillbox")


def test_real_tree_loads_lazy_groups():
    assert check_command_line(("skills", "validate", "--json")) == []
    assert check_command_line(("skills", "validate", "--strict"))[0][0] == "command_unknown_option"
    assert check_command_line(("-V",)) == []
