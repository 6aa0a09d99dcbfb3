"""Which project a working directory belongs to, so memory is shared where the code is shared.

A git repository is identified by its *common* git dir: every worktree of one repository points there (via the
`.git` file's `gitdir:` and that dir's `commondir`), so worktrees share one memory instead of splitting it.
Found by reading files, not by running `git` (a subprocess would cost more than the whole hook budget).
Folders outside git are identified by their path. `project_overrides` (path prefix -> name) wins over both.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Project:
    name: str
    root: str


def _read_gitdir_file(dot_git: Path) -> Path | None:
    """A `.git` *file* (worktree or submodule) says `gitdir: <path>`; relative paths are relative to it."""
    try:
        text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    target = Path(text[len("gitdir:") :].strip())
    if not target.is_absolute():
        target = dot_git.parent / target
    return Path(os.path.normpath(target))


def _common_dir(git_dir: Path) -> Path:
    """A worktree's private git dir names the shared one in `commondir` (usually `../..`)."""
    try:
        rel = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return git_dir
    common = Path(rel)
    if not common.is_absolute():
        common = git_dir / common
    return Path(os.path.normpath(common))


def git_root(start: Path) -> Path | None:
    """The main working tree of the repository containing `start` (for a worktree: the repo it belongs to)."""
    current = start
    for _ in range(64):
        dot_git = current / ".git"
        if dot_git.is_dir():
            return current
        if dot_git.is_file():
            git_dir = _read_gitdir_file(dot_git)
            if git_dir is None:
                return current
            common = _common_dir(git_dir)
            if common.name == ".git":
                return common.parent
            # A bare repository or a submodule (`.git/modules/x`, no commondir): the checkout itself is the project.
            return current if common == git_dir else common
        if current.parent == current:
            return None
        current = current.parent
    return None


def resolve_project(cwd: str | os.PathLike | None, overrides: dict[str, str] | None = None) -> Project:
    """Project for a session's cwd. Overrides match the longest path prefix."""
    path = Path(os.path.abspath(os.path.expanduser(str(cwd)))) if cwd else Path(os.getcwd())
    for prefix in sorted(overrides or {}, key=len, reverse=True):
        norm = os.path.abspath(os.path.expanduser(prefix))
        if str(path) == norm or str(path).startswith(norm.rstrip(os.sep) + os.sep):
            return Project(overrides[prefix], norm)
    root = git_root(path) or path
    return Project(root.name or str(root), str(root))


def is_excluded(project: Project, patterns: list[str]) -> bool:
    """Exclusion globs match the project name or its root path."""
    return any(fnmatch.fnmatchcase(project.name, p) or fnmatch.fnmatchcase(project.root, p) for p in patterns)
