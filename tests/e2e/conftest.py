"""Fixtures that drive the real Claude Code CLI (npm `@anthropic-ai/claude-code`, pinned).

Reusable by every area's end-to-end tests:
- `claude_bin`: path of the pinned `claude` binary, installed once into a cache folder outside the repository.
- `claude_env(home, **extra)`: a minimal, offline environment for running `claude` with a throwaway HOME.
- `run_claude(*args, home=..., timeout=..., **extra_env)`: runs `claude` and returns the CompletedProcess.
- `plugin_source`: a copy of the repository's git-tracked files, i.e. exactly what a marketplace user receives.
- `installed_plugin`: a throwaway HOME where `plugin_source` was added as a local marketplace and
  `skillbox@skillbox` installed through the real CLI.
- `plugin_venv`: the launcher's venv, built ONCE per session by the installed copy's `bin/skillbox` from an empty
  environment (several concurrent first calls, as hooks would make them).
- `plugin_home`: `installed_plugin` with that venv linked into the plugin's data folder, so `claude -p` sessions
  that fire skillbox hooks start warm instead of each building their own venv. `fresh_plugin_home`: the same in
  a new HOME per test (its own plugin data folder, so its own memory database).
- `fake_api` + `run_session(prompt, home=, cwd=)`: real `claude -p` sessions offline, against a scripted Messages API
  on loopback (`fake_api.script(ToolUse("Read", {...}), Text("Done."))`; `fake_api.message_requests()` shows what
  reached the model, hook context included).

Helpers are imported by package path (`from tests.e2e.fake_api import Text, ToolUse`,
`from tests.e2e.claude_harness import install_plugin`). Only a missing `npm` skips these tests; a failing install
is a failure.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.claude_harness import (
    CACHE,
    CLAUDE_CODE_VERSION,
    CONCURRENT_FIRST_CALLS,
    BuiltVenv,
    InstalledPlugin,
    LauncherEnv,
    check_claude,
    copy_tracked_files,
    install_claude_code,
    install_plugin,
)
from tests.e2e.fake_api import start_fake_api


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    target = CACHE / f"claude-{CLAUDE_CODE_VERSION}"
    binary = target / "node_modules" / ".bin" / "claude"
    if not binary.exists():
        install_claude_code(target)
    check_claude(binary)
    return binary


@pytest.fixture(scope="session")
def claude_env():
    """Factory: the environment for one `claude` run with HOME=home; nothing leaks in from the developer's env."""

    def make(home: Path, **extra: str) -> dict[str, str]:
        env = {
            "HOME": str(home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
        }
        for name in ("TMPDIR", "PIP_FIND_LINKS", "PIP_CERT"):
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(extra)
        return env

    return make


@pytest.fixture(scope="session")
def run_claude(claude_bin, claude_env):
    """Runs the real `claude` with a throwaway HOME; returns the CompletedProcess (text mode)."""

    def run(*args: str, home: Path, timeout: float = 120, cwd: Path | None = None, **extra_env: str):
        home.mkdir(parents=True, exist_ok=True)
        return subprocess.run(
            [str(claude_bin), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd or home,
            env=claude_env(home, **extra_env),
            stdin=subprocess.DEVNULL,
        )

    return run


@pytest.fixture(scope="session")
def plugin_source(tmp_path_factory) -> Path:
    return copy_tracked_files(tmp_path_factory.mktemp("plugin-source") / "skillbox")


@pytest.fixture(scope="session")
def installed_plugin(run_claude, plugin_source, tmp_path_factory) -> InstalledPlugin:
    return install_plugin(run_claude, tmp_path_factory.mktemp("claude-home"), plugin_source)


@pytest.fixture(scope="session")
def plugin_venv(installed_plugin, tmp_path_factory) -> BuiltVenv:
    """Several concurrent first calls of the INSTALLED copy's launcher, from an empty environment, build the venv."""
    root = tmp_path_factory.mktemp("launcher")
    launcher_env = LauncherEnv(home=root / "home", data_dir=root / "data")
    launcher_env.home.mkdir()
    launcher = installed_plugin.install_path / "bin" / "skillbox"
    first_calls = launcher_env.run_concurrently(launcher, CONCURRENT_FIRST_CALLS, "--version")
    return BuiltVenv(launcher_env, first_calls)


def link_venv(plugin: InstalledPlugin, built: BuiltVenv) -> InstalledPlugin:
    venv = built.launcher_env.venv
    assert (venv / ".skillbox-stamp").exists(), "the session venv was not built; see test_launcher_installed.py"
    plugin.data_dir.mkdir(parents=True, exist_ok=True)
    link = plugin.data_dir / "venv"
    if not link.exists():
        link.symlink_to(venv, target_is_directory=True)
    return plugin


@pytest.fixture(scope="session")
def plugin_home(installed_plugin, plugin_venv) -> InstalledPlugin:
    """The installed plugin with the session's venv linked into its data folder: hooks in `claude -p` start warm.

    Shared by the whole session (so is its data folder, memory database included); see `fresh_plugin_home`.
    """
    return link_venv(installed_plugin, plugin_venv)


@pytest.fixture
def fresh_plugin_home(run_claude, plugin_source, plugin_venv, tmp_path) -> InstalledPlugin:
    """Like `plugin_home`, but a new HOME (and so an empty plugin data folder) for this test alone; about 1 s."""
    return link_venv(install_plugin(run_claude, tmp_path / "home", plugin_source), plugin_venv)


# ---- real `claude -p` sessions against a fake Messages API ---------------------------------------------------


@pytest.fixture
def fake_api():
    """A scripted Messages API on loopback (see fake_api.py): `fake_api.script(ToolUse(...), Text(...))`."""
    api, server = start_fake_api()
    yield api
    server.shutdown()
    server.server_close()


@pytest.fixture
def run_session(run_claude, fake_api):
    """Runs one `claude -p PROMPT` session in HOME=home against `fake_api`; returns the CompletedProcess.

    Always under a timeout: with no API answering, the client retries for minutes.
    """

    def run(prompt: str, *, home: Path, cwd: Path, args: tuple[str, ...] = (), timeout: float = 90, **extra_env):
        return run_claude(
            "-p", prompt, *args,
            home=home, cwd=cwd, timeout=timeout,
            ANTHROPIC_API_KEY="sk-ant-fake", ANTHROPIC_BASE_URL=fake_api.url, **extra_env,
        )  # fmt: skip

    return run
