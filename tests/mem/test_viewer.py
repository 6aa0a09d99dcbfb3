"""`skillbox mem viewer` in a real headless Chromium: feed, search, sessions, records; loopback-only, read-only,
no external requests, and stored markup stays text (an XSS probe through a stored observation)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from skillbox.mem.capture import record_observation
from skillbox.mem.settings import db_path, load_settings
from skillbox.mem.store import open_store
from skillbox.mem.viewer import make_server
from tests.mem.conftest import TOOLS, replay_session

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PROBE = '<img src=x onerror="alert(1)"><script>alert(2)</script>"\'&'


@pytest.fixture
def memory(home, project_dir):
    replay_session(project_dir, session="sess-one", prompt="Fix the login bug")
    with open_store() as store:
        record_observation(
            store,
            type="decision",
            title="Lockout counter kept in an in-memory dict",
            narrative="Single process; Redis is not worth it yet.",
            files=["auth.py"],
            project="demo",
            settings=load_settings(),
            session_id="sess-one",
        )
        record_observation(store, type="note", title=PROBE, narrative=PROBE, project="demo", settings=load_settings())
    return home


@pytest.fixture
def server(memory):
    srv = make_server(db_path(), 0, "en")
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _get(port: int, path: str, host: str | None = None, method: str = "GET"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers={"Host": host or f"127.0.0.1:{port}"})
    response = conn.getresponse()
    return response.status, response.read(), dict(response.getheaders())


def test_loopback_host_only_read_only_and_a_strict_policy(server):
    port = server.server_address[1]
    assert server.server_address[0] == "127.0.0.1"
    status, body, headers = _get(port, "/")
    assert status == 200 and b"<html" in body
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert _get(port, "/", host=f"localhost:{port}")[0] == 200
    assert _get(port, "/", host="evil.example:80")[0] == 403  # DNS rebinding
    assert _get(port, "/api/recent", host="127.0.0.1.evil.example")[0] == 403
    assert _get(port, "/api/recent", method="POST")[0] == 405
    status, body, _ = _get(port, "/api/recent")
    titles = [o["title"] for o in json.loads(body)["observations"]]
    assert PROBE in titles and "Lockout counter kept in an in-memory dict" in titles
    assert _get(port, "/api/record?ref=%23999999")[0] == 404
    assert _get(port, "/api/search?q=%20%21")[0] == 400


pytestmark_browser = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason="Debian chromium is not installed (.ci/system-deps installs it)",
)


@pytestmark_browser
def test_the_page_in_chromium(server, memory, tmp_path):
    from playwright.sync_api import sync_playwright

    port = server.server_address[1]
    base = f"http://127.0.0.1:{port}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1300, "height": 760})
        seen = {"requests": [], "errors": [], "dialogs": [], "console": []}
        page.on("request", lambda r: seen["requests"].append(r.url))
        page.on("pageerror", lambda e: seen["errors"].append(str(e)))
        page.on("console", lambda m: seen["console"].append(m.text) if m.type == "error" else None)
        page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
        page.goto(base)
        page.wait_for_selector("body[data-ready='1']", timeout=20_000)

        # The feed: newest first, stored markup shown as text, never run.
        feed = page.locator("#list li .title").all_text_contents()  # newest first
        assert feed[0] == PROBE
        assert "Lockout counter kept in an in-memory dict" in feed
        assert page.locator("#list img").count() == 0 and page.locator("#list script").count() == 0

        # Live: a record stored while the page is open shows up at the top of the feed.
        with open_store() as store:
            record_observation(
                store, type="gotcha", title="Live one: WAL needs -shm", project="demo", settings=load_settings()
            )
        page.wait_for_selector("#list li:first-child .title:has-text('Live one')", timeout=15_000)

        # A full record.
        page.locator("#list li", has_text="Lockout counter").first.click()
        page.wait_for_selector("body[data-record]")
        record = page.locator("#record").inner_text()
        assert "Redis is not worth it yet." in record and "auth.py" in record

        # Search.
        page.fill("#q", "lockout redis")
        page.press("#q", "Enter")
        page.wait_for_selector("body[data-searched]")
        assert "Lockout counter" in page.locator("#list").inner_text()

        # A session's timeline: its prompt, observations and summary.
        page.locator("#sessions li", has_text="sess-one").click()
        page.wait_for_selector("body[data-session='sess-one']")
        timeline = page.locator("#list").inner_text()
        assert "Fix the login bug" in timeline and "Edited auth.py" in timeline

        # The XSS probe through the record pane too.
        page.locator("#list li", has_text="Lockout").first.click()
        page.fill("#q", "")
        page.press("#q", "Enter")
        page.locator("#list li .title", has_text="<script>").first.click()
        page.wait_for_selector("#record dd:has-text('onerror')")
        assert page.locator("#record img").count() == 0

        shot = Path(os.environ.get("SKILLBOX_TEST_SHOTS", tmp_path)) / "mem-viewer.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 5000
        browser.close()
    assert seen["dialogs"] == [] and seen["errors"] == [] and seen["console"] == []
    assert all(url.startswith(base) for url in seen["requests"]), seen["requests"]


def test_cli_prints_the_url_and_serves(memory):
    env = {"SKILLBOX_HOME": str(memory), "PYTHONPATH": str(TOOLS), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "skillbox", "mem", "viewer"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        line = proc.stdout.readline().decode()
        assert line.startswith("skillbox memory viewer: http://127.0.0.1:")
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        assert _get(port, "/api/sessions")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_page_speaks_chinese(memory):
    srv = make_server(db_path(), 0, "zh")
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        body = _get(srv.server_address[1], "/")[1].decode()
        assert "<title>skillbox 记忆</title>" in body and "搜索记忆" in body and 'lang="zh"' in body
    finally:
        srv.shutdown()
        srv.server_close()
