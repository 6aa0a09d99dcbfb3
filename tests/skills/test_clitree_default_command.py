"""Command-line checks understand groups with a default command, like `skillbox lint PATH ...`."""

from __future__ import annotations

from skillbox.cli.tree import check_cli_command as check_command_line


def test_paths_go_to_the_default_command_and_its_options_are_checked():
    assert check_command_line(["lint", "index.html", "compositions/", "--format", "json"]) == []
    assert check_command_line(["lint", ".", "--fix", "--select", "timeline_not_paused"]) == []
    assert check_command_line(["lint", "rules", "--json"]) == []
    assert check_command_line(["lint", "explain", "track_clip_overlap"]) == []
    assert check_command_line(["lint", "index.html", "--strict"]) == [
        ("command_unknown_option", "`skillbox lint paths` has no option --strict")
    ]
