"""Privacy at the write boundary: private regions and secrets never reach the database, FTS or logs."""

from __future__ import annotations

import json
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from skillbox.mem.privacy import Scrubber, redact_secrets, scrub_text
from tests.mem.conftest import payload, rows, run_hook_inprocess, tool


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Fix the bug <private>my password</private> please", "Fix the bug  please"),
        ("a <PRIVATE reason='x'>b</Private> c", "a  c"),
        ("a <private>b <private>c</private> still hidden</private> d", "a  d"),
        ("open <private>never closed and long", "open "),
        ("stray </private> closing", "stray  closing"),
        ("self <private/> closing", "self  closing"),
        ("<private>x</system-reminder> still inside</private>after", "after"),
        ("ctx <skillbox-memory project='p'>old memory</skillbox-memory> new", "ctx  new"),
        ("<system-reminder>harness</system-reminder>real", "real"),
        ("<claude-mem-context>theirs</claude-mem-context>ok", "ok"),
        ("no tags at all", "no tags at all"),
        ("a < b and <privateer> is not a tag", "a < b and <privateer> is not a tag"),
    ],
)
def test_private_regions_are_removed(text, expected):
    assert scrub_text(text) == expected


def test_region_split_across_fields_hides_everything_between():
    scrubber = Scrubber()
    value = {"old_string": "keep <private>hide", "middle": "hide too", "new_string": "hide</private> keep2"}
    assert scrubber.value(value) == {"old_string": "keep ", "middle": "", "new_string": " keep2"}
    assert scrubber.removed


@pytest.mark.parametrize(
    "secret",
    [
        "sk-ant-api03-abcdefghijklmnop",
        "sk-proj-abcdefghijklmnopqrstuvwx",
        "ghp_abcdefghijklmnopqrstuvwxyz0123",
        "github_pat_11ABCDEFG0123456789_abcdef",
        "xoxb-1234567890-abcdefghij",
        "AKIAIOSFODNN7EXAMPLE",
        "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "glpat-abcdefghijklmnopqrst",
    ],
)
def test_token_shapes_are_redacted(secret):
    out = redact_secrets(f"use {secret} here")
    assert secret not in out and "[REDACTED]" in out


def test_contextual_secrets_are_redacted_keeping_their_labels():
    text = (
        "export DATABASE_PASSWORD=hunter22\n"
        "curl https://alice:s3cretpw@example.com/x\n"
        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz\n"
        '{"password": "swordfish", "user": "bob"}\n'
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n"
    )
    out = redact_secrets(text)
    for secret in ("hunter22", "s3cretpw", "abcdefghijklmnopqrstuvwxyz", "swordfish", "MIIEowIBAAKCAQEA"):
        assert secret not in out
    assert "DATABASE_PASSWORD=[REDACTED]" in out
    assert "https://alice:[REDACTED]@example.com" in out
    assert '"user": "bob"' in out


def test_ordinary_code_is_left_alone():
    code = "def token_count(text):\n    return len(text) // 4  # tokens\nurl = 'https://example.com/a:b'"
    assert redact_secrets(code) == code


def test_secrets_and_private_text_never_reach_logs(home):
    from skillbox.mem.logs import log_line

    log_line(str(home), "stop", "failed on <private>topsecret</private> with key sk-ant-api03-zzzzzzzzzzzzzzzz")
    text = (home / "logs" / "mem-hooks.log").read_text()
    assert "topsecret" not in text and "zzzzzzzzzzzzzzzz" not in text


def _db_bytes(home: Path) -> bytes:
    data = b""
    for name in ("memory.db", "memory.db-wal", "memory.db-shm"):
        path = home / name
        if path.exists():
            data += path.read_bytes()
    for log in (home / "logs").glob("*") if (home / "logs").exists() else []:
        data += log.read_bytes()
    return data


_public = st.text(alphabet=string.ascii_letters + string.digits + " .,:;!?-_/\n\"'{}[]()=", max_size=60)
_secret = st.text(alphabet=string.ascii_letters + string.digits, min_size=6, max_size=24).map(lambda s: f"QZX{s}JQV")
_tag = st.sampled_from(["private", "PRIVATE", "Private", "private reason='pii'"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    before=_public,
    after=_public,
    secret=_secret,
    tag=_tag,
    closed=st.booleans(),
    where=st.sampled_from(["prompt", "tool_input", "tool_response", "split", "stop", "add"]),
)
def test_no_private_string_ever_reaches_the_database_file(monkeypatch, before, after, secret, tag, closed, where):
    assume(secret not in before and secret not in after)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        monkeypatch.setenv("SKILLBOX_HOME", str(home))
        monkeypatch.setenv("SKILLBOX_MEM_AUTO_PRUNE", "0")
        close = "</private>" if closed else ""
        region = f"<{tag}>{secret}{close}"
        text = f"{before}{region}{after}"
        run_hook_inprocess(
            "user-prompt-submit", payload("user-prompt-submit", prompt=text if where == "prompt" else "go")
        )
        if where in ("tool_input", "tool_response", "split"):
            if where == "tool_input":
                inp, resp = {"file_path": "/a.py", "old_string": "x", "new_string": text}, {"ok": True}
            elif where == "tool_response":
                inp, resp = {"file_path": "/a.py"}, {"type": "text", "file": {"content": text}}
            else:
                inp = {
                    "file_path": "/a.py",
                    "old_string": f"{before}<{tag}>{secret[:3]}",
                    "new_string": f"{secret[3:]}",
                }
                resp = {"note": f"{secret}</private>{after}"}
            event, data = tool("Edit", inp, resp, use_id="e1")
            run_hook_inprocess(event, data)
        if where == "stop":
            run_hook_inprocess("stop", payload("stop", last_assistant_message=text))
        if where == "add":
            from skillbox.mem.capture import record_observation
            from skillbox.mem.settings import load_settings
            from skillbox.mem.store import open_store

            with open_store() as store:
                record_observation(
                    store, type="note", title=f"t {text}", narrative=text, project="p", settings=load_settings()
                )
        run_hook_inprocess("stop", payload("stop", last_assistant_message="done"))
        blob = _db_bytes(home)
        half = len(secret) // 2
        for piece in (secret, secret[:half], secret[half:]):
            assert piece.encode() not in blob


def test_private_prompt_text_is_not_searchable(home, project_dir):
    run_hook_inprocess(
        "user-prompt-submit",
        payload("user-prompt-submit", cwd=project_dir, prompt="deploy <private>zebracorn</private> now"),
    )
    assert rows(home, "SELECT prompt_text FROM prompts") == [("deploy  now",)]
    assert rows(home, "SELECT count(*) FROM prompts_fts WHERE prompts_fts MATCH 'zebracorn'") == [(0,)]
    assert json.dumps(rows(home, "SELECT * FROM prompts")).count("zebracorn") == 0
