"""Hostile or wrong input never produces a traceback or a hang: a `parse_error` finding or a one-line error."""

from __future__ import annotations

import json
import time

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillbox.cli.root import cli
from skillbox.lint.document import parse_document
from skillbox.lint.engine import lint_document


def lint_file(tmp_path, content: bytes, name: str = "index.html"):
    path = tmp_path / name
    path.write_bytes(content)
    result = CliRunner().invoke(cli, ["lint", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result, json.loads(result.stdout)


def only_parse_error(data) -> str:
    assert [f["code"] for f in data["findings"]] == ["parse_error"]
    return data["findings"][0]["message"]


def test_plain_text(tmp_path):
    result, data = lint_file(tmp_path, b"just some notes\nabout a video\n")
    assert result.exit_code == 1 and "no HTML elements" in only_parse_error(data)


def test_json_file(tmp_path):
    _result, data = lint_file(tmp_path, b'{"title": "not html"}', name="data.html")
    assert "no HTML elements" in only_parse_error(data)


def test_git_lfs_pointer_says_what_it_is(tmp_path):
    pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"ab" * 32 + b"\nsize 5120\n"
    _result, data = lint_file(tmp_path, pointer)
    assert "git lfs pull" in only_parse_error(data)


def test_empty_and_whitespace(tmp_path):
    for content in (b"", b"  \n\t\n"):
        _result, data = lint_file(tmp_path, content)
        assert only_parse_error(data) == "empty file"


def test_binary(tmp_path):
    _result, data = lint_file(tmp_path, bytes(range(256)) * 64)
    assert "binary" in only_parse_error(data)


def test_invalid_utf8(tmp_path):
    _result, data = lint_file(tmp_path, b"<div id='a'>caf\xe9</div>")
    assert "UTF-8" in only_parse_error(data)


def test_fifty_megabytes_is_refused_quickly(tmp_path):
    started = time.perf_counter()
    _result, data = lint_file(tmp_path, b"<div>" + b"a" * (50 * 1024 * 1024) + b"</div>")
    assert "50.0 MB" in only_parse_error(data)
    assert time.perf_counter() - started < 10


def test_deep_nesting_is_bounded(tmp_path):
    depth = 30_000
    started = time.perf_counter()
    _result, data = lint_file(tmp_path, b"<body>" + b"<div>" * depth + b"x" + b"</div>" * depth + b"</body>")
    assert "too deeply nested" in only_parse_error(data)
    assert time.perf_counter() - started < 15


def test_moderate_nesting_is_linted(tmp_path):
    depth = 500
    _result, data = lint_file(tmp_path, b"<body>" + b"<div>" * depth + b"x" + b"</div>" * depth + b"</body>")
    assert "root_missing_composition_id" in [f["code"] for f in data["findings"]]


def test_malformed_markup_still_lints(tmp_path):
    content = b'<!doctype html><html><body><div id="root" data-composition-id="m"<p>x</div></span></body>'
    result, data = lint_file(tmp_path, content)
    codes = {f["code"] for f in data["findings"]}
    assert "parse_error" not in codes and result.exit_code == 1


def test_broken_script_and_css(tmp_path):
    content = b"<body><div id='r' data-composition-id='m' data-width='1' data-height='1'></div><style>{{{</style>"
    content += b"<script>const tl = gsap.timeline({paused: true; ((</script></body>"
    _result, data = lint_file(tmp_path, content)
    codes = {f["code"] for f in data["findings"]}
    assert {"css_parse_error", "invalid_inline_script_syntax"} <= codes


HTMLISH = st.lists(
    st.sampled_from(
        [
            "<div",
            "<video",
            "<script>",
            "</script>",
            "<style>",
            "</style>",
            "<template>",
            "</template>",
            ">",
            "/>",
            "</div>",
            ' id="a"',
            " data-start=",
            '"1"',
            "'x + 1'",
            " data-composition-id=main",
            "<!--",
            "-->",
            "gsap.timeline(",
            "{paused:",
            "tl.to(",
            '"#a"',
            ",",
            ")",
            "}",
            "window.__timelines[",
            "]",
            "=",
            ";",
            "&amp;",
            "\u00e9",
            "\x00",
            "\r\n",
            "<svg><defs>",
            "url(#g)",
            "{",
            "@font-face",
            "@media",
            "/*",
            "*/",
        ]
    )
    | st.text(max_size=8),
    max_size=60,
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HTMLISH)
def test_fuzz_parser_and_rules_never_crash(text):
    doc = parse_document(text.encode("utf-8", "surrogatepass"))
    findings = lint_document(doc)
    for finding in findings:
        assert finding.line >= 1 and finding.column >= 1


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_raw_bytes(data):
    doc = parse_document(data)
    lint_document(doc)
