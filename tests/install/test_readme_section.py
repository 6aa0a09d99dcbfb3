"""README's "Use with other agents" table is generated from the installer's platform table and kept in sync."""

from __future__ import annotations

import dataclasses

import pytest

from skillbox import docs
from skillbox.install import platforms
from tests.install.conftest import REPO


def test_every_platform_is_in_the_readme_as_the_installer_sees_it():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for platform in platforms.PLATFORMS.values():
        (row,) = [line for line in readme.splitlines() if line.startswith(f"| {platform.label} | `{platform.name}` |")]
        assert f"`~/{platform.skills.user}`" in row
        if platform.mcp and platform.mcp.file.user:
            assert f"`~/{platform.mcp.file.user}`" in row
        for gap in platform.gaps:
            assert f"- {platform.label}: {gap}" in readme


def test_a_change_to_the_platform_table_makes_the_readme_stale(monkeypatch):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert docs.sync_text(readme, REPO) == readme
    moved = dataclasses.replace(platforms.PLATFORMS["cursor"], skills=platforms.Location(".cursor/x", ".cursor/x"))
    monkeypatch.setitem(platforms.PLATFORMS, "cursor", moved)
    assert docs.sync_text(readme, REPO) != readme


@pytest.mark.parametrize("name", list(platforms.PLATFORMS))
def test_every_platform_names_its_sources(name):
    platform = platforms.PLATFORMS[name]
    assert platform.sources and all(url.startswith("https://") for url in platform.sources)
    doc = (REPO / "docs" / "platforms.md").read_text(encoding="utf-8")
    for url in platform.sources:
        assert url in doc, f"docs/platforms.md does not record {url}"
