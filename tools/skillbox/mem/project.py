"""Which project a working directory belongs to, so memory is shared where the code is shared.

A git repository is identified by its *common* git dir: every worktree of one repository points there (via the
`.git` file's `gitdir:` and that dir's `commondir`), so worktrees share one memory instead of splitting it.
Found by reading files, not by running `git` (a subprocess would cost more than the whole hook budget).
Folders outside git are identified by their path. `project_overrides` (path prefix -> name) wins over both.
"""

from __future__ import annotations

import fnmatch
import os


class Project:
    """A project's display name (what `--project` takes) and the root folder it was derived from."""

    __slots__ = ("name", "root")

    def __init__(self, name: str, root: str):
        self.name = name
        self.root = root

    def __eq__(self, other) -> bool:
        return isinstance(other, Project) and (self.name, self.root) == (other.name, other.root)

    def __hash__(self) -> int:
        return hash((self.name, self.root))

    def __repr__(self) -> str:
        return f"Project({self.name!r}, {self.root!r})"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read().strip()
    except OSError:
        return None


def _gitdir_of_file(dot_git: str) -> str | None:
    """A `.git` *file* (worktree or submodule) says `gitdir: <path>`; relative paths are relative to it."""
    text = _read(dot_git)
    if not text or not text.startswith("gitdir:"):
        return None
    target = text[len("gitdir:") :].strip()
    return os.path.normpath(os.path.join(os.path.dirname(dot_git), target))


def _common_dir(git_dir: str) -> str:
    """A worktree's private git dir names the shared one in `commondir` (usually `../..`)."""
    rel = _read(os.path.join(git_dir, "commondir"))
    return os.path.normpath(os.path.join(git_dir, rel)) if rel else git_dir


def git_root(start: str) -> str | None:
    """The main working tree of the repository containing `start` (for a worktree: the repo it belongs to).

    Plain string paths: pathlib costs the hook process several milliseconds to import.
    """
    current = start
    for _ in range(256):
        dot_git = os.path.join(current, ".git")
        if os.path.isdir(dot_git):
            return current
        if os.path.isfile(dot_git):
            git_dir = _gitdir_of_file(dot_git)
            if git_dir is None:
                return current
            common = _common_dir(git_dir)
            if os.path.basename(common) == ".git":
                return os.path.dirname(common)
            # A submodule (`.git/modules/x`, no commondir) or a bare common dir: the checkout itself is the project.
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    return None


def resolve_project(cwd: str | os.PathLike | None, overrides: dict[str, str] | None = None) -> Project:
    """Project for a session's cwd. Overrides match the longest path prefix."""
    path = os.path.abspath(os.path.expanduser(os.fspath(cwd))) if cwd else os.getcwd()
    for prefix in sorted(overrides or {}, key=len, reverse=True):
        norm = os.path.abspath(os.path.expanduser(prefix))
        if path == norm or path.startswith(norm.rstrip(os.sep) + os.sep):
            return Project(overrides[prefix], norm)
    root = git_root(path) or path
    return Project(os.path.basename(root) or root, root)


def is_excluded(project: Project, patterns: list[str]) -> bool:
    """Exclusion globs match the project name or its root path."""
    return any(fnmatch.fnmatchcase(project.name, p) or fnmatch.fnmatchcase(project.root, p) for p in patterns)
