"""Every HyperFrames composition a skill shows as an example lints clean with `skillbox lint`.

A skill that teaches the composition contract with an example the linter rejects teaches the wrong thing. Full
documents are linted as a project's index.html; `<template>` sub-compositions are mounted by a minimal host page,
as a project would. Bare fragments (a host element, a snippet of markup) are partial on purpose and skipped.
"""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
from click.testing import CliRunner

from skillbox.cli.root import COMMANDS, cli
from tests.skills.conftest import SKILLS

pytestmark = pytest.mark.skipif(
    "lint" not in COMMANDS or importlib.util.find_spec("skillbox.lint") is None,
    reason="`skillbox lint` has not landed on this branch yet",
)

HOST = """<!doctype html>
<html><head><script src="https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js"></script>
<style>#main {{ position: relative; width: 1920px; height: 1080px; overflow: hidden; }}</style></head>
<body>
  <div id="main" data-composition-id="main" data-width="1920" data-height="1080" data-start="0" data-duration="5">
    <div id="{cid}-host" data-composition-id="{cid}" data-composition-src="compositions/{cid}.html"{kind}
         data-start="0" data-duration="5" data-track-index="5" data-width="1920" data-height="1080"></div>
  </div>
  <script>
    const tl = gsap.timeline({{ paused: true }});
    window.__timelines = window.__timelines || {{}};
    window.__timelines["main"] = tl;
  </script>
</body></html>
"""


def examples():
    for path in sorted(SKILLS.glob("*/**/*.md")):
        if not path.relative_to(SKILLS).parts[0].startswith(("hyperframes", "gsap")):
            continue
        for number, block in enumerate(re.findall(r"```html\n(.*?)```", path.read_text(encoding="utf-8"), re.S)):
            if "data-composition-id" in block and ("<!doctype html>" in block.lower() or "<template>" in block):
                yield pytest.param(block, id=f"{path.relative_to(SKILLS)}#{number}")


@pytest.mark.parametrize("html", list(examples()))
def test_example_composition_lints_clean(html, tmp_path):
    if "<template>" in html:
        cid = re.search(r'data-composition-id="([^"]+)"', html).group(1)
        (tmp_path / "compositions").mkdir()
        (tmp_path / "compositions" / f"{cid}.html").write_text(html)
        kind = ' data-track-kind="captions"' if "caption" in cid else ""
        (tmp_path / "index.html").write_text(HOST.format(cid=cid, kind=kind))
    else:
        (tmp_path / "index.html").write_text(html)
    result = CliRunner().invoke(cli, ["lint", str(tmp_path), "--format", "json"])
    report = json.loads(result.output)
    assert report["findings"] == [], report["findings"]
    assert result.exit_code == 0


def test_the_examples_are_found():
    assert len(list(examples())) >= 3


def test_every_lint_code_a_skill_cites_is_a_rule_of_skillbox_lint():
    from tests.skills.test_skill_bundle import LINT_CODES

    result = CliRunner().invoke(cli, ["lint", "rules", "--json"])
    assert result.exit_code == 0
    codes = {row["code"] for row in json.loads(result.output)}
    cited = set()
    for path in SKILLS.glob("*/**/*.md"):
        if path.relative_to(SKILLS).parts[0].startswith(("hyperframes", "gsap")):
            cited |= set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", path.read_text(encoding="utf-8")))
    assert cited <= codes, cited - codes
    assert codes >= LINT_CODES, LINT_CODES - codes
