"""One atomic write for every output: the old file or the whole new one, and never a temporary file left behind."""

from __future__ import annotations

import os

import pytest

from skillbox.atomic import atomic_open, atomic_path, atomic_write


def _leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_write_replaces_the_file_whole_and_readable(tmp_path):
    target = tmp_path / "sub" / "out.json"
    atomic_write(target, b"old")
    atomic_write(target, "new é")
    assert target.read_text(encoding="utf-8") == "new é"
    assert _leftovers(target.parent) == []


@pytest.mark.parametrize(("umask", "expected"), [(0o077, 0o600), (0o022, 0o644), (0o002, 0o664)])
def test_a_new_file_gets_the_umasks_mode_like_a_plain_open(tmp_path, umask, expected):
    """`mem export FILE` under umask 077 gives a private file, as `open(FILE, "w")` would."""
    old = os.umask(umask)
    try:
        atomic_write(tmp_path / "export.jsonl", b"x")
        with open(tmp_path / "plain", "w"):
            pass
    finally:
        os.umask(old)
    assert oct((tmp_path / "export.jsonl").stat().st_mode & 0o777) == oct(expected)
    assert (tmp_path / "export.jsonl").stat().st_mode & 0o777 == (tmp_path / "plain").stat().st_mode & 0o777


def test_a_replaced_file_keeps_its_mode_unless_one_is_given(tmp_path):
    target = tmp_path / "config.toml"
    target.write_bytes(b"secret")
    target.chmod(0o600)
    atomic_write(target, b"new")
    assert oct(target.stat().st_mode & 0o777) == oct(0o600)
    atomic_write(target, b"newer", mode=0o640)
    assert oct(target.stat().st_mode & 0o777) == oct(0o640)


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    real = tmp_path / "dots" / "config.toml"
    real.parent.mkdir()
    real.write_bytes(b"old")
    real.chmod(0o600)
    link = tmp_path / "codex" / "config.toml"
    link.parent.mkdir()
    link.symlink_to("../dots/config.toml")
    atomic_write(link, b"new")
    assert link.is_symlink() and os.readlink(link) == "../dots/config.toml"
    assert real.read_bytes() == b"new" and oct(real.stat().st_mode & 0o777) == oct(0o600)
    assert _leftovers(link.parent) == [] and _leftovers(real.parent) == []


@pytest.mark.parametrize("failure", [OSError("disk full"), KeyboardInterrupt()])
def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary_one(tmp_path, failure):
    target = tmp_path / "graph.json"
    target.write_bytes(b"previous")
    with pytest.raises(type(failure)), atomic_open(target, fsync=True) as handle:
        handle.write(b"half of the new")
        raise failure
    assert target.read_bytes() == b"previous"
    assert _leftovers(tmp_path) == []


def test_a_rename_that_fails_removes_the_temporary_file(tmp_path):
    target = tmp_path / "index.sqlite"
    target.mkdir()  # a folder in the way: the final rename fails
    with pytest.raises(OSError), atomic_path(target) as tmp:
        tmp.write_bytes(b"x")
    assert _leftovers(tmp_path) == []


def test_the_viewer_leaves_no_temporary_file_when_its_write_fails(tmp_path):
    from skillbox.graph.cluster import detect_communities
    from skillbox.graph.code_graph import from_node_link
    from skillbox.graph.viewer.render import write_html

    graph = from_node_link({"nodes": [{"id": "a.py", "kind": "file", "name": "a.py", "file": "a.py"}], "links": []})
    target = tmp_path / "graph.html"
    target.mkdir()
    with pytest.raises(OSError):
        write_html(graph, detect_communities(graph, {}), target)
    assert _leftovers(tmp_path) == []
    write_html(graph, detect_communities(graph, {}), tmp_path / "ok.html")
    assert (tmp_path / "ok.html").read_bytes().startswith(b"<!")
    assert not any(name.startswith(".") for name in os.listdir(tmp_path))


def test_mem_export_under_umask_077_gives_a_private_file_and_keeps_an_existing_mode(tmp_path):
    """Exported memory can hold private notes: under umask 077 the file is 0600, as a plain `open` gives."""
    import subprocess
    import sys

    env = {**os.environ, "SKILLBOX_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    out = tmp_path / "memory.jsonl"

    def export():
        done = subprocess.run(
            [sys.executable, "-m", "skillbox", "mem", "export", str(out)],
            env=env, capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.umask(0o077),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    export()
    assert oct(out.stat().st_mode & 0o777) == oct(0o600)
    out.chmod(0o640)
    export()
    assert oct(out.stat().st_mode & 0o777) == oct(0o640)
