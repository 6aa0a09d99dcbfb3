"""Project identity: worktrees of one repository share memory; other folders go by path; overrides win."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from skillbox.mem.project import is_excluded, resolve_project


def test_git_repository_root_from_a_subfolder(tmp_path):
    (tmp_path / "app" / ".git").mkdir(parents=True)
    (tmp_path / "app" / "src" / "deep").mkdir(parents=True)
    project = resolve_project(tmp_path / "app" / "src" / "deep")
    assert (project.name, project.root) == ("app", str(tmp_path / "app"))


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_worktrees_share_the_main_repositorys_project(tmp_path):
    repo = tmp_path / "shop"
    repo.mkdir()
    env_git = ["git", "-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main"]
    subprocess.run([*env_git, "init", "-q", str(repo)], check=True)
    (repo / "a.txt").write_text("a")
    subprocess.run([*env_git, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*env_git, "-C", str(repo), "commit", "-qm", "a"], check=True)
    worktree = tmp_path / "elsewhere" / "shop-feature"
    subprocess.run([*env_git, "-C", str(repo), "worktree", "add", "-q", "-b", "feature", str(worktree)], check=True)
    (worktree / "sub").mkdir()
    assert resolve_project(worktree / "sub") == resolve_project(repo)
    assert resolve_project(worktree).name == "shop"


def test_submodule_checkout_is_its_own_project(tmp_path):
    parent_git = tmp_path / "parent" / ".git" / "modules" / "lib"
    parent_git.mkdir(parents=True)
    sub = tmp_path / "parent" / "lib"
    sub.mkdir()
    (sub / ".git").write_text("gitdir: ../.git/modules/lib\n")
    assert resolve_project(sub).name == "lib"


def test_non_git_folder_is_identified_by_path(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    assert resolve_project(folder).root == str(folder)


def test_overrides_match_the_longest_prefix(tmp_path):
    (tmp_path / "mono" / ".git").mkdir(parents=True)
    overrides = {str(tmp_path / "mono"): "monorepo", str(tmp_path / "mono" / "services" / "pay"): "payments"}
    assert resolve_project(tmp_path / "mono" / "services" / "pay" / "x", overrides).name == "payments"
    assert resolve_project(tmp_path / "mono" / "web", overrides).name == "monorepo"


def test_exclusion_globs_match_name_or_path(tmp_path):
    project = resolve_project(tmp_path)
    assert is_excluded(project, [project.name])
    assert is_excluded(project, [str(tmp_path.parent) + "/*"])
    assert not is_excluded(project, ["other*"])
