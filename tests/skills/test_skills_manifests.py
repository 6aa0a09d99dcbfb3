"""plugin.json and marketplace.json: the facts Claude Code enforces, each reported on its own line."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from skillbox.cli.tree import command_checker
from skillbox.skills import validate_path as _validate_path

validate_path = partial(_validate_path, check_command=command_checker())  # as `skillbox skills validate` does


def edit(root: Path, name: str, change) -> None:
    path = root / ".claude-plugin" / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def problems(root: Path) -> list[tuple[str, str]]:
    return [(p.file.rsplit("/", 1)[-1], p.code) for p in validate_path(root).problems]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d.update(author="Someone"), "manifest_schema"),
        (lambda d: d.update(repository={"type": "git", "url": "x"}), "manifest_schema"),
        (lambda d: d.update(keywords="a, b"), "manifest_schema"),
        (lambda d: d.update(version="1.0"), "manifest_schema"),
        (lambda d: d.update(name="Demo Plugin"), "manifest_schema"),
        (lambda d: d.pop("description"), "manifest_schema"),
        (lambda d: d.update(unknownField=1), "manifest_schema"),
        (lambda d: d.update(hooks="./hooks/hooks.json"), "manifest_hooks_key"),
        (lambda d: d.update(skills="skills/extra"), "manifest_schema"),
        (lambda d: d.update(skills="./skills/../../x"), "manifest_path_outside"),
        (lambda d: d.update(agents=["./agents"]), "manifest_path_missing"),
    ],
)
def test_plugin_manifest_rules(plugin_root: Path, change, code):
    edit(plugin_root, "plugin.json", change)
    found = problems(plugin_root)
    assert ("plugin.json", code) in found
    # A renamed plugin also loses its marketplace entry; nothing else may be reported.
    assert set(found) - {("plugin.json", code)} <= {("marketplace.json", "marketplace_name_mismatch")}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda d: d.update(owner="Someone"), "manifest_schema"),
        (lambda d: d.update(plugins=["demo"]), "manifest_schema"),
        (lambda d: d["plugins"][0].update(source="sub/dir"), "manifest_schema"),
        (lambda d: d["plugins"][0].update(source="./../x"), "manifest_path_outside"),
        (lambda d: d["plugins"][0].update(source="."), "marketplace_root_source"),
        (lambda d: d["plugins"][0].update(version="1.2.3"), "marketplace_version"),
        (lambda d: d["plugins"][0].update(name="other"), "marketplace_name_mismatch"),
        (lambda d: d.update(name="claude-plugins-official"), "marketplace_reserved_name"),
        (lambda d: d["plugins"][0].update(foo=1), "manifest_schema"),
        (lambda d: d.pop("description"), "manifest_schema"),
    ],
)
def test_marketplace_manifest_rules(plugin_root: Path, change, code):
    edit(plugin_root, "marketplace.json", change)
    found = problems(plugin_root)
    assert ("marketplace.json", code) in found
    # A broken source also means no entry installs this root; nothing else may be reported.
    assert set(found) - {("marketplace.json", code)} <= {("marketplace.json", "marketplace_entry_missing")}


def test_marketplace_without_an_entry_for_this_root(plugin_root: Path):
    (plugin_root / "sub").mkdir()
    edit(plugin_root, "marketplace.json", lambda d: d["plugins"][0].update(source="./sub"))
    assert problems(plugin_root) == [("marketplace.json", "marketplace_entry_missing")]


def test_schema_problem_points_at_the_member_line(plugin_root: Path):
    edit(plugin_root, "plugin.json", lambda d: d.update(author="Someone"))
    (problem,) = validate_path(plugin_root).problems
    text = (plugin_root / ".claude-plugin" / "plugin.json").read_text().splitlines()
    assert text[problem.line - 1].strip().startswith('"author"')
    assert problem.message == "author: 'Someone' is not of type 'object'"


def test_invalid_json_reports_its_line(plugin_root: Path):
    (plugin_root / ".claude-plugin" / "plugin.json").write_text('{\n  "name": "demo",\n}\n')
    found = validate_path(plugin_root).problems
    assert (found[0].file, found[0].line, found[0].code) == (".claude-plugin/plugin.json", 3, "json_invalid")
