"""Secrets never reach a stored byte: the formats from issue 14 and the common credential files, redacted by
detect-secrets' maintained rules plus our few own ones, checked on every file memory writes (DB, WAL, logs,
export), with property tests (hypothesis) around the secrets."""

from __future__ import annotations

import json
import re
import string

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillbox.cli.root import cli
from skillbox.mem import secret_rules
from skillbox.mem.privacy import redact_secrets
from tests.mem.conftest import payload, run_hook_inprocess, run_hook_process, tool

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
STRIPE = "sk_live_51HxYzAbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdef"
NPM = "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"
PYPI = "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NTY3ODkwAAIqWzMsImFiYyJdAAAGIAbcdef"
PEM_BODY = "MIIEowIBAAKCAQEAy8Dbv8prpJ/0kKhlGeJYozo2t60EG8L0561g13R29LvMR5hy"

# (what, text as it appears in a tool output, the secret parts that must not survive)
CASES = [
    ("~/.aws/credentials",
     f"[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = {AWS_SECRET}\n",
     ["AKIAIOSFODNN7EXAMPLE", AWS_SECRET]),
    ("Stripe live key", f"stripe.api_key = '{STRIPE}'", [STRIPE[:20], STRIPE[-12:]]),
    (".env", "DB_PASS=s3cr3tPassw0rd\nDEBUG=true\nAPI_KEY=abc123def456ghi\n", ["s3cr3tPassw0rd", "abc123def456ghi"]),
    (".npmrc", f"//registry.npmjs.org/:_authToken={NPM}\n", [NPM]),
    ("npm token alone", f"export NPM_TOKEN={NPM}", [NPM]),
    ("Hugging Face", f"login with {HF} please", [HF]),
    (".pypirc", f"[pypi]\nusername = __token__\npassword = {PYPI}\n", [PYPI[:30]]),
    ("PEM block", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----", [PEM_BODY]),
    ("URL with a password", "DATABASE_URL=postgres://admin:Hunter2Pass@db.example.com:5432/app", ["Hunter2Pass"]),
    ("GitHub token", "token ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", ["ghp_A1b2C3d4E5f6"]),
    ("Slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", ["AbCdEfGhIjKlMnOp"]),
    ("Anthropic key", "ANTHROPIC=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz", ["AbCdEfGhIjKlMnOpQrSt"]),
]  # fmt: skip


def stored_bytes(home) -> bytes:
    """Everything memory wrote: database, WAL, logs, spool, and an export of the whole store."""
    out = CliRunner().invoke(cli, ["mem", "export"]).stdout.encode()
    blobs = [out]
    for path in home.rglob("*"):
        if path.is_file():
            blobs.append(path.read_bytes())
    return b"\n".join(blobs)


@pytest.mark.parametrize("what, text, secrets", CASES, ids=[c[0] for c in CASES])
def test_format_is_redacted(what, text, secrets):
    redacted = redact_secrets(text)
    assert "[REDACTED]" in redacted, what
    for secret in secrets:
        assert secret not in redacted, (what, redacted)


def test_ordinary_code_is_left_alone():
    code = "def login(user):\n    key = user.id\n    return cache.get(key)  # secret: x = 1\n"
    assert redact_secrets(code) == code


def test_the_maintained_rule_set_is_in_use():
    data = secret_rules.rule_set()
    assert data is not None, "detect-secrets is a dependency: its rules must load"
    sources = {rule["source"].split(".")[0] for rule in data["rules"]}
    assert {"AWSKeyDetector", "StripeDetector", "NpmDetector", "KeywordDetector", "BasicAuthDetector"} <= sources
    assert "IPPublicDetector" not in sources


def test_every_prefilter_needle_occurs_in_its_rules():
    patterns: dict[str, str] = {}
    for rule in secret_rules.rule_set()["rules"]:
        source = rule["source"].split(".")[0]
        patterns[source] = patterns.get(source, "") + rule["pattern"].lower()
    for source, needles in secret_rules.NEEDLES.items():
        assert source in patterns, source
        if source == "KeywordDetector":
            continue
        for needle in needles:
            assert needle in patterns[source], (source, needle)
    # Every keyword detect-secrets looks for holds a needle, in each spelling its regex allows (`db_?pass`).
    from detect_secrets.plugins import keyword

    for word in keyword.DENYLIST:
        for spelling in {word.replace("_?", "_"), word.replace("_?", "")}:
            assert any(n in spelling for n in secret_rules.NEEDLES["KeywordDetector"]), spelling


def test_secrets_reach_no_stored_byte_through_real_hooks(home, project_dir):
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="show config"))
    for i, (_what, text, _secrets) in enumerate(CASES):
        event, data = tool("Bash", {"command": f"cat cfg{i}"}, {"stdout": text}, use_id=f"s{i}", cwd=project_dir)
        run_hook_inprocess(event, data)
    broken = b'{"session_id": "x", "cwd": "/tmp", "tool_name": "Bash", "oops": "' + HF.encode()  # logged, not JSON
    assert run_hook_process("post-tool-use", broken).returncode == 0
    run_hook_inprocess("stop", payload("stop", cwd=project_dir, last_assistant_message=f"The key is {HF}."))
    blob = stored_bytes(home)
    for what, _text, secrets in CASES:
        for secret in secrets:
            assert secret.encode() not in blob, what


_SECRET_FORMATS = [
    ("ghp_", string.ascii_letters + string.digits, 36),
    ("sk_live_", string.ascii_letters + string.digits, 30),
    ("npm_", string.ascii_letters + string.digits, 36),
    ("hf_", string.ascii_letters + string.digits, 34),
    ("AKIA", string.ascii_uppercase + string.digits, 16),
    ("xoxp-1234-5678-", string.ascii_lowercase + string.digits, 24),
]
_WORDS = st.text(alphabet=string.ascii_letters + string.digits + " \n\t.,;()[]{}", max_size=80)


@st.composite
def texts_with_a_secret(draw):
    prefix, alphabet, length = draw(st.sampled_from(_SECRET_FORMATS))
    body = draw(st.text(alphabet=alphabet, min_size=length, max_size=length + 10))
    secret = prefix + body
    before, after = draw(_WORDS), draw(_WORDS)
    sep = draw(st.sampled_from([" ", "\n", "=", ": ", "='", '"']))
    return f"{before} x{sep}{secret} {after}", secret


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=texts_with_a_secret())
def test_property_no_secret_survives_redaction(case):
    text, secret = case
    out = redact_secrets(text)
    assert secret not in out
    if secret[-10:] not in text.replace(secret, " "):
        assert secret[-10:] not in out  # not even its tail (a rule matching only a prefix is widened to the token)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=texts_with_a_secret(), where=st.sampled_from(["prompt", "input", "output", "error", "summary"]))
def test_property_no_secret_in_any_stored_byte(home, project_dir, case, where, monkeypatch):
    text, secret = case
    session = f"p{abs(hash((text, where))) % 10**9}"
    # Each example gets a store of its own: hypothesis reuses one fixture for all examples, and an earlier
    # example's ordinary words may contain this secret's tail (its strategy draws both from one byte stream).
    monkeypatch.setenv("SKILLBOX_HOME", str(home / session))
    home = home / session
    home.mkdir(exist_ok=True)
    prompt = text if where == "prompt" else "run it"
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", session, project_dir, prompt=prompt))
    fields = {"input": {"command": text}, "output": {"stdout": text}}
    event, data = tool(
        "Bash",
        fields.get("input", {"command": "ls"}) if where == "input" else {"command": "ls"},
        fields["output"] if where == "output" else {"stdout": "ok"},
        use_id=f"{session}-t",
        session=session,
        cwd=project_dir,
        failed=where == "error",
        **({"error": text} if where == "error" else {}),
    )
    run_hook_inprocess(event, data)
    message = text if where == "summary" else "done"
    run_hook_inprocess("stop", payload("stop", session, project_dir, last_assistant_message=message))
    blob = stored_bytes(home)
    assert secret.encode() not in blob
    if secret[-12:] not in text.replace(secret, " "):
        assert not re.search(re.escape(secret[-12:]).encode(), blob)


def test_export_lines_are_json_and_redacted(home, project_dir):
    event, data = tool(
        "Read", {"file_path": "/x/.env"}, {"content": "DB_PASS=s3cr3tPassw0rd"}, use_id="e", cwd=project_dir
    )
    run_hook_inprocess(event, data)
    lines = [json.loads(line) for line in CliRunner().invoke(cli, ["mem", "export"]).stdout.splitlines()]
    assert lines and "s3cr3tPassw0rd" not in json.dumps(lines)


def test_spool_is_private_and_rejected_payloads_are_scrubbed(home, project_dir):
    import os
    import stat

    from skillbox.mem import spool

    path = spool.append(str(home), "post-tool-use", b'{"cwd": "/tmp", "tool_input": "' + HF.encode() + b'"}')
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(home / "spool").st_mode) == 0o700
    run_hook_inprocess("user-prompt-submit", payload("user-prompt-submit", cwd=project_dir, prompt="next"))
    (rejected,) = (home / "spool" / "rejected").iterdir()  # no session_id: cannot be stored
    assert HF not in rejected.read_text() and "[REDACTED]" in rejected.read_text()
    assert HF.encode() not in stored_bytes(home)
