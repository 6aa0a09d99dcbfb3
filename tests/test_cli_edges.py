"""Usage errors exit 2 with click's message; domain errors are one `Error:` line and exit 1; never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain.txt"
    path.write_text("x")
    return path


@pytest.mark.parametrize(
    "args",
    [
        ["skills", "validate", "a", "b"],
        ["skills", "validate", "--strict"],
        ["skills", "nope"],
        ["doctor", "--plugin-root", "/no/such/folder"],
        ["doctor", "extra-argument"],
        ["tour", "--out"],
        ["tour", "--bogus"],
    ],
)
def test_usage_errors_exit_2(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].startswith("Error: ") and "Traceback" not in result.output


def test_tour_out_that_is_a_file_is_a_usage_error(a_file: Path):
    result = CliRunner().invoke(cli, ["tour", "--out", str(a_file)])
    assert result.exit_code == 2
    assert "'--out'" in result.stderr


def test_tour_out_below_a_file_is_a_usage_error(a_file: Path):
    result = CliRunner().invoke(cli, ["tour", "--out", str(a_file / "sub")])
    assert result.exit_code == 2
    assert "cannot create" in result.stderr and "Traceback" not in result.output


def test_group_without_subcommand_shows_its_commands():
    result = CliRunner().invoke(cli, ["skills"])
    assert "validate" in result.output
    assert result.exit_code in (0, 2)  # click prints help; 8.2+ exits 2


def test_validate_unrecognised_file_is_one_error_line(a_file: Path):
    result = CliRunner().invoke(cli, ["skills", "validate", str(a_file)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {a_file} is not a SKILL.md")


def test_help_lists_the_foundation_commands():
    result = CliRunner().invoke(cli, ["--help"])
    for name in ("doctor", "skills", "tour"):
        assert f"  {name} " in result.output
