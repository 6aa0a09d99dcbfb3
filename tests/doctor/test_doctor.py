"""`skillbox doctor`: each layer's breakage is reported with a fix line, and exit 1 only when something is broken."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillbox import doctor
from skillbox.cli.root import cli
from skillbox.cli.tree import command_checker


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch):
    """Every location doctor reads points into the test's own folder."""
    monkeypatch.setenv("SKILLBOX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SKILLBOX_VENV", str(tmp_path / "data" / "venv"))
    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT", raising=False)
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)


def write_hooks(root: Path, hooks: dict) -> None:
    (root / "hooks").mkdir(exist_ok=True)
    (root / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks}))


def handler(**fields) -> dict:
    base = {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/skillbox", "args": ["--version"], "timeout": 5}
    return {key: value for key, value in {**base, **fields}.items() if value is not None}


def issues(check) -> list[tuple[str, str]]:
    return [(issue.severity, issue.message) for issue in check.issues]


@pytest.fixture
def executable_launcher(plugin_root: Path) -> Path:
    launcher = plugin_root / "bin" / "skillbox"
    launcher.chmod(0o755)
    return launcher


def test_healthy_plugin_passes_through_the_cli(plugin_root: Path, executable_launcher: Path):
    write_hooks(plugin_root, {"SessionStart": [{"hooks": [handler(args=["skills", "validate", "--json"])]}]})
    result = CliRunner().invoke(cli, ["doctor", "--plugin-root", str(plugin_root), "--json"])
    data = json.loads(result.output)
    statuses = {check["name"]: check["status"] for check in data["checks"]}
    assert statuses == {
        "python": "ok",
        "dependencies": "ok",
        "launcher-venv": "warn",  # not built yet: the launcher is there, it just has not run
        "plugin": "ok",
        "hooks": "ok",
        "memory": "ok",
    }
    assert data["ok"] is True and result.exit_code == 0


def test_broken_plugin_exits_1_with_fix_lines(plugin_root: Path):
    (plugin_root / "skills" / "cite-check" / "references" / "rules.md").unlink()
    result = CliRunner().invoke(cli, ["doctor", "--plugin-root", str(plugin_root)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    (index,) = [i for i, line in enumerate(lines) if "path_missing" in line]
    assert lines[index - 1].startswith("FAIL  plugin")
    assert lines[index + 1].strip().startswith("fix: edit skills/cite-check/SKILL.md line 9")
    assert lines[-1] == "1 check(s) failed"


def test_old_python_fails():
    check = doctor.check_python((3, 10, 4))
    assert check.status == "fail" and "3.11" in check.issues[0].fix
    assert doctor.check_python(tuple(sys.version_info[:3])).status == "ok"


def test_missing_and_outdated_dependencies_fail():
    check = doctor.check_dependencies(
        None, ["click>=8", "no-such-package-xyz>=1", "click<1", "tomli>=1; python_version < '3'"]
    )
    assert issues(check) == [
        ("fail", "no-such-package-xyz is not installed (needs no-such-package-xyz>=1)"),
        ("fail", f"click {__import__('importlib.metadata').metadata.version('click')} does not satisfy click<1"),
    ]


def test_declared_requirements_come_from_pyproject(plugin_root: Path):
    (plugin_root / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["click>=8"]\n')
    assert doctor.declared_requirements(plugin_root) == ["click>=8"]


@pytest.mark.parametrize(
    ("layout", "severity", "words"),
    [
        ({"venv.failed": ""}, "fail", "last build failed"),
        ({"venv/bin/other": ""}, "fail", "python is missing"),
        ({"venv/bin/python": ""}, "fail", "build never finished"),
        (
            {"venv/bin/python": "", "venv/.skillbox-stamp": "skillbox 0.0.1 pyproject 1 2\n"},
            "warn",
            "built for skillbox 0.0.1",
        ),
    ],
)
def test_launcher_venv_states(plugin_root: Path, tmp_path: Path, layout: dict, severity: str, words: str):
    for name, text in layout.items():
        (tmp_path / "data" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "data" / name).write_text(text)
    check = doctor.check_launcher_venv(plugin_root)
    assert check.status == severity
    assert any(words in issue.message for issue in check.issues)
    assert all(issue.fix for issue in check.issues)


def test_launcher_venv_current(plugin_root: Path, tmp_path: Path):
    venv = tmp_path / "data" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / ".skillbox-stamp").write_text("skillbox 1.2.3 pyproject 99 1000\n")
    check = doctor.check_launcher_venv(plugin_root)  # no pyproject.toml: only the version can be compared
    assert check.status == "ok" and check.summary.endswith("(built for 1.2.3)")


@pytest.mark.skipif(shutil.which("cksum") is None, reason="needs POSIX cksum, as bin/skillbox does")
def test_stamp_matches_what_the_launcher_writes(tmp_path: Path):
    """Build the launcher's venv stamp the launcher's own way (its shell function) and compare."""
    repo = Path(__file__).resolve().parents[2]
    launcher = (repo / "bin" / "skillbox").read_text()
    functions = ""
    for name in ("sb_read_version", "sb_expected_stamp"):
        function = re.search(rf"^{name}\(\) \{{\n.*?^\}}\n", launcher, re.MULTILINE | re.DOTALL)
        assert function, f"bin/skillbox no longer defines {name}(); update doctor.expected_stamp to match"
        functions += function.group(0)
    script = f'sb_root="{repo}"\n{functions}sb_expected_stamp\nprintf "%s" "$sb_want"\n'
    launcher_says = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True).stdout
    assert doctor.expected_stamp(repo) == launcher_says
    venv = tmp_path / "data" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / ".skillbox-stamp").write_text(launcher_says + "\n")
    assert doctor.check_launcher_venv(repo).status == "ok"
    (venv / ".skillbox-stamp").write_text(launcher_says.replace("pyproject ", "pyproject 1") + "\n")
    assert "next call rebuilds" in doctor.check_launcher_venv(repo).issues[0].message


def test_venv_location_follows_the_launcher(monkeypatch, tmp_path: Path):
    monkeypatch.delenv("SKILLBOX_VENV")
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "pd"))
    assert doctor.launcher_venv() == tmp_path / "pd" / "venv"
    monkeypatch.delenv("CLAUDE_PLUGIN_DATA")
    assert doctor.launcher_venv() == Path.home() / ".skillbox" / "venv"


@pytest.mark.parametrize(
    ("hooks", "severity", "words"),
    [
        ({"SessionBegin": [{"hooks": [handler()]}]}, "fail", "unknown hook event 'SessionBegin'"),
        ({"Stop": [{"hooks": [handler(type="script")]}]}, "fail", "unknown hook type 'script'"),
        ({"Stop": [{"hooks": [handler(command="${CLAUDE_PLUGIN_ROOT}/bin/missing")]}]}, "fail", "not found"),
        ({"Stop": [{"hooks": [handler(command="no-such-program-xyz")]}]}, "fail", "not found"),
        ({"Stop": [{"hooks": [handler(args=["${CLAUDE_PLUGIN_ROOT}/tools/gone.py"])]}]}, "fail", "missing file"),
        ({"Stop": [{"hooks": [handler(timeout=0)]}]}, "fail", "timeout 0"),
        ({"Stop": [{"hooks": [handler(timeout="5")]}]}, "fail", "timeout '5'"),
        ({"Stop": [{"hooks": [handler(timeout=None)]}]}, "warn", "no timeout"),
        ({"Stop": [{"hooks": [handler(args=["memory", "hook", "stop"])]}]}, "fail", "has no command 'memory'"),
        ({"Stop": [{"matcher": "*"}]}, "fail", 'needs a "hooks" list'),
        (
            {"Stop": [{"hooks": [handler(args=None, command="${CLAUDE_PLUGIN_ROOT}/bin/skillbox --version")]}]},
            "warn",
            "unquoted",
        ),
        (
            {"Stop": [{"hooks": [handler(args=None, command='"${CLAUDE_PLUGIN_ROOT}/bin/skillbox" nope')]}]},
            "fail",
            "no command 'nope'",
        ),
        (
            {"Stop": [{"hooks": [handler(args=None, command='"${CLAUDE_PLUGIN_ROOT}/bin/gone" x')]}]},
            "fail",
            "not found",
        ),
        ({"Stop": [{"hooks": [{"type": "command", "args": []}]}]}, "fail", "needs a 'command'"),
    ],
)
def test_hook_problems(plugin_root: Path, executable_launcher: Path, hooks: dict, severity: str, words: str):
    write_hooks(plugin_root, hooks)
    check = doctor.check_hooks(plugin_root, command_checker())
    assert check.status == severity, issues(check)
    assert any(words in message for _, message in issues(check)), issues(check)


def test_hooks_json_without_hooks_wrapper_fails(plugin_root: Path):
    (plugin_root / "hooks").mkdir()
    (plugin_root / "hooks" / "hooks.json").write_text(json.dumps({"SessionStart": []}))
    assert "no top-level" in doctor.check_hooks(plugin_root).issues[0].message


def test_launcher_not_executable(plugin_root: Path):
    write_hooks(plugin_root, {"Stop": [{"hooks": [handler()]}]})
    (plugin_root / "bin" / "skillbox").chmod(0o644)
    assert "not executable" in doctor.check_hooks(plugin_root).issues[0].message


def test_memory_location_and_states(tmp_path: Path, monkeypatch):
    db = tmp_path / "home" / "memory.db"
    assert doctor.memory_db_path() == db
    assert doctor.check_memory().status == "ok"
    db.parent.mkdir()
    with sqlite3.connect(db) as connection:
        connection.execute("create table t (x)")
    connection.close()
    check = doctor.check_memory()
    assert check.status == "ok" and "1 tables" in check.summary
    db.write_bytes(b"not a database at all" * 100)
    assert "not a readable SQLite database" in doctor.check_memory().issues[0].message


def test_memory_home_falls_back_to_plugin_data(monkeypatch, tmp_path: Path):
    monkeypatch.delenv("SKILLBOX_HOME")
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(tmp_path / "pd"))
    assert doctor.memory_db_path() == tmp_path / "pd" / "memory.db"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc, where even root cannot create files")
def test_unwritable_memory_folder(monkeypatch):
    monkeypatch.setenv("SKILLBOX_HOME", "/proc/skillbox-doctor-test")
    (issue,) = doctor.check_memory().issues
    assert issue.severity == "fail" and "cannot create files" in issue.message and "SKILLBOX_HOME" in issue.fix


def test_memory_home_that_is_a_file(tmp_path: Path):
    (tmp_path / "home").write_text("oops")
    assert "is a file" in doctor.check_memory().issues[0].message
