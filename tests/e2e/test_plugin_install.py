"""The plugin as a Claude Code user gets it: validated, installed from a local marketplace, listed as enabled."""

from __future__ import annotations

import json

from tests.e2e.claude_harness import PLUGIN_ID, REPO, copy_tracked_files


def test_validate_strict_passes(run_claude, plugin_source, tmp_path):
    proc = run_claude("plugin", "validate", "--strict", str(plugin_source), home=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Validation passed" in proc.stdout


def test_validate_strict_reports_what_the_plugin_provides(run_claude, plugin_source, tmp_path):
    proc = run_claude("plugin", "validate", "--strict", "--json", str(plugin_source), home=tmp_path)
    report = json.loads(proc.stdout)
    assert report["success"] is True
    hooks = report["provides"]["hooks"]
    assert any(h["event"] == "SessionStart" and h["command"].endswith("/bin/skillbox") for h in hooks), hooks


def test_strict_validation_catches_a_broken_manifest(run_claude, plugin_source, tmp_path):
    """The gate above can fail: a string `author` (an object is required) is rejected."""
    broken = copy_tracked_files(tmp_path / "broken")
    manifest_path = broken / ".claude-plugin" / "plugin.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["author"] = "someone"
    manifest_path.write_text(json.dumps(manifest))
    proc = run_claude("plugin", "validate", "--strict", str(broken), home=tmp_path / "home")
    assert proc.returncode == 1


def test_marketplace_add_and_install_succeed(installed_plugin):
    for args, proc in installed_plugin.steps:
        assert proc.returncode == 0, (args, proc.stderr)
    add, install = (proc.stdout for _, proc in installed_plugin.steps)
    assert "Successfully added marketplace: skillbox" in add
    assert f"Successfully installed plugin: {PLUGIN_ID}" in install


def test_plugin_list_shows_it_enabled_without_errors(installed_plugin):
    entry = installed_plugin.entry
    assert entry["enabled"] is True
    assert not entry.get("errors"), entry
    version = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())["version"]
    assert entry["version"] == version


def test_installed_copy_has_an_executable_launcher(installed_plugin):
    for name in ("skillbox", "skillbox-python"):
        launcher = installed_plugin.install_path / "bin" / name
        assert launcher.is_file()
        assert launcher.stat().st_mode & 0o111, f"{launcher} lost its executable bit in the install copy"
    assert (installed_plugin.install_path / "hooks" / "hooks.json").is_file()
