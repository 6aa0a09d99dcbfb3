"""`skillbox mem viewer`: a local, read-only web page over the memory database.

One page, served by the standard library on 127.0.0.1 (a random free port unless one is given): the live feed of
recent observations (the page polls for new ones every two seconds), search, the sessions with each one's
timeline, and any record in full. Safety is the point of the design:
- loopback only, and requests whose Host header is not a loopback name are refused, so a web page elsewhere
  cannot reach it through DNS rebinding;
- the database is opened read-only (`mode=ro`), and only GET and HEAD are answered;
- the page makes no external request (inline script and style, pinned by a Content-Security-Policy nonce), and
  it writes stored text into the page only as text (`textContent`), never as HTML, so a stored
  `<script>` stays a string.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from skillbox.errors import SkillboxError
from skillbox.mem.i18n import MESSAGES, detect_language
from skillbox.mem.search import Filters, get_records, search, timeline

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
MAX_LIMIT = 200


class ReadOnlyStore:
    """What the search functions need (`conn`), opened with `mode=ro`: the viewer can never change memory."""

    def __init__(self, path: str):
        self.path = path
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA busy_timeout=5000")

    def close(self) -> None:
        self.conn.close()


def _int(params: dict, name: str, default: int, low: int = 0, high: int = MAX_LIMIT) -> int:
    try:
        value = int(params.get(name, [default])[0])
    except ValueError:
        value = default
    return max(low, min(value, high))


def recent(store: ReadOnlyStore, after: int = 0, limit: int = 50) -> list[dict]:
    rows = store.conn.execute(
        "SELECT id, session_id, project, type, title, subtitle, origin, created_at FROM observations WHERE id > ? "
        "ORDER BY id DESC LIMIT ?",
        (after, limit),
    ).fetchall()
    return [dict(row, ref=f"#{row['id']}") for row in rows]


def sessions(store: ReadOnlyStore, limit: int = 50) -> list[dict]:
    rows = store.conn.execute(
        "SELECT s.session_id, s.project, s.started_at, s.ended_at, s.prompt_count, "
        "(SELECT count(*) FROM observations o WHERE o.session_id = s.session_id) AS observations "
        "FROM sessions s ORDER BY s.started_at DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [dict(row) for row in rows]


def session_timeline(store: ReadOnlyStore, session_id: str, limit: int = 200) -> list[dict]:
    tl = timeline(store, session_id, before=0, after=limit)
    row = store.conn.execute("SELECT project FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
    items = [h.to_dict() for h in tl.items]
    if row is not None:  # the timeline walks on past the session's end; keep the session's own records
        own = {
            (kind, ident)
            for kind, table in (("observation", "observations"), ("summary", "summaries"), ("prompt", "prompts"))
            for (ident,) in store.conn.execute(f"SELECT id FROM {table} WHERE session_id = ?", (session_id,))
        }
        items = [item for item in items if (item["kind"], item["id"]) in own]
    return items


class _Handler(BaseHTTPRequestHandler):
    server_version = "skillbox-mem-viewer"
    store: ReadOnlyStore
    page: bytes
    lock: threading.Lock

    def log_message(self, *args) -> None:  # quiet: the terminal shows only the URL
        pass

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
        return name in LOOPBACK_NAMES

    def _send(self, status: int, body: bytes, content_type: str, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data, status: int = 200) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        if not self._host_ok():
            self._send(403, b"forbidden: not a loopback host\n", "text/plain; charset=utf-8")
            return
        url = urlsplit(self.path)
        params = parse_qs(url.query)
        try:
            with self.lock:
                self._route(url.path, params)
        except SkillboxError as err:
            self._json({"error": str(err)}, 400)
        except sqlite3.Error as err:
            self._json({"error": f"database: {err}"}, 503)

    def _route(self, path: str, params: dict) -> None:
        store = self.store
        if path == "/":
            nonce = self.server.nonce  # type: ignore[attr-defined]
            csp = (
                f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; "
                "img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            )
            self._send(200, self.page, "text/html; charset=utf-8", {"Content-Security-Policy": csp})
        elif path == "/api/recent":
            self._json({"observations": recent(store, _int(params, "after", 0, 0, 2**62), _int(params, "limit", 50))})
        elif path == "/api/search":
            query = (params.get("q") or [""])[0]
            result = search(store, query, Filters(), limit=_int(params, "limit", 30, 1))
            self._json(result.to_dict())
        elif path == "/api/sessions":
            self._json({"sessions": sessions(store, _int(params, "limit", 50, 1))})
        elif path == "/api/session":
            self._json({"items": session_timeline(store, (params.get("id") or [""])[0])})
        elif path == "/api/record":
            found, missing = get_records(store, [(params.get("ref") or [""])[0]])
            self._json({"records": found, "missing": missing}, 200 if found else 404)
        else:
            self._send(404, b"not found\n", "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        self._send(405, b"read-only\n", "text/plain; charset=utf-8", {"Allow": "GET, HEAD"})

    do_PUT = do_DELETE = do_PATCH = do_POST


def render_page(nonce: str, language: str) -> bytes:
    words = MESSAGES.get(language, MESSAGES["en"])
    labels = {k.split(".", 1)[1]: v for k, v in words.items() if k.startswith("viewer.")}
    # JSON inside a <script> element: `<` escaped so no stored or translated text can close the element.
    data = json.dumps({"labels": labels, "language": language}, ensure_ascii=False).replace("<", "\\u003c")
    html = _PAGE.replace("__NONCE__", nonce).replace("__DATA__", data).replace("__LANG__", language)
    return html.replace("__TITLE__", labels["title"]).encode("utf-8")


def make_server(db_path: str, port: int = 0, language: str | None = None, settings=None) -> ThreadingHTTPServer:
    """A server bound to 127.0.0.1:`port` (0 = a free one); call `serve_forever()` on it, `shutdown()` to stop."""
    store = ReadOnlyStore(db_path)
    lang = language or detect_language(store, None, settings)
    nonce = secrets.token_urlsafe(16)
    handler = type("Handler", (_Handler,), {"store": store, "page": render_page(nonce, lang), "lock": threading.Lock()})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    server.nonce = nonce  # type: ignore[attr-defined]
    return server


_PAGE = """<!doctype html>
<html lang="__LANG__">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style nonce="__NONCE__">
  :root { --bg: #fbfbfa; --fg: #1f2328; --muted: #6b7280; --line: #e5e7eb; --accent: #2563eb; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
  header { display: flex; gap: 16px; align-items: center; padding: 10px 16px; border-bottom: 1px solid var(--line); }
  header h1 { font-size: 16px; margin: 0; }
  header input { flex: 1; max-width: 520px; padding: 6px 10px; border: 1px solid var(--line); border-radius: 6px; }
  main { display: grid; grid-template-columns: 260px 1fr 420px; height: calc(100vh - 50px); }
  section { overflow: auto; border-right: 1px solid var(--line); padding: 8px 12px; }
  h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 8px 0; }
  ul { list-style: none; margin: 0; padding: 0; }
  li { padding: 6px 4px; border-bottom: 1px solid var(--line); cursor: pointer; }
  li:hover, li.active { background: #eef2ff; }
  .meta { color: var(--muted); font-size: 12px; }
  .type { display: inline-block; min-width: 64px; font-size: 11px; padding: 0 6px; border-radius: 4px;
          background: #eef2f7; margin-right: 6px; text-align: center; }
  .type.decision { background: #fde68a; } .type.bugfix { background: #fecaca; } .type.gotcha { background: #fbcfe8; }
  .type.change { background: #dbeafe; } .type.summary { background: #d1fae5; } .type.prompt { background: #e9d5ff; }
  pre { white-space: pre-wrap; word-break: break-word; font: 12px/1.5 ui-monospace, monospace; }
  dl { display: grid; grid-template-columns: 110px 1fr; gap: 4px 8px; margin: 0; }
  dt { color: var(--muted); } dd { margin: 0; white-space: pre-wrap; word-break: break-word; }
  .empty { color: var(--muted); padding: 8px 4px; }
</style>
</head>
<body data-ready="0">
<header><h1 id="title"></h1><input id="q" type="search" autocomplete="off"></header>
<main>
  <section><h2 id="h-sessions"></h2><ul id="sessions"></ul></section>
  <section><h2 id="h-list"></h2><ul id="list"></ul></section>
  <section><h2 id="h-record"></h2><div id="record"></div></section>
</main>
<script id="data" type="application/json">__DATA__</script>
<script nonce="__NONCE__">
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const L = DATA.labels;
const $ = (id) => document.getElementById(id);
let newest = 0, mode = "recent", timer = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
async function api(path) {
  const response = await fetch(path, {headers: {"Accept": "application/json"}});
  return response.json();
}
function item(hit) {
  const li = el("li");
  li.dataset.ref = hit.ref;
  li.append(el("span", "type " + hit.type, hit.type), el("span", "title", hit.title));
  li.append(el("div", "meta", hit.ref + "  " + String(hit.created_at).slice(0, 16).replace("T", " ") +
    (hit.project ? "  " + hit.project : "")));
  li.addEventListener("click", () => showRecord(hit.ref, li));
  return li;
}
function fill(list, hits, prepend) {
  if (!prepend) list.replaceChildren();
  if (!hits.length && !list.children.length) { list.append(el("li", "empty", L.empty)); return; }
  const nodes = hits.map(item);
  if (prepend) { list.querySelectorAll(".empty").forEach((n) => n.remove()); list.prepend(...nodes); }
  else list.append(...nodes);
}
async function showRecord(ref, li) {
  document.querySelectorAll("li.active").forEach((n) => n.classList.remove("active"));
  if (li) li.classList.add("active");
  const data = await api("/api/record?ref=" + encodeURIComponent(ref));
  const box = $("record");
  box.replaceChildren();
  for (const record of data.records || []) {
    const dl = el("dl");
    for (const [key, value] of Object.entries(record)) {
      if (value === null || value === "" || (Array.isArray(value) && !value.length)) continue;
      dl.append(el("dt", null, key), el("dd", null, Array.isArray(value) ? value.join("\\n") : value));
    }
    box.append(dl);
  }
  document.body.dataset.record = ref;
}
async function poll() {
  if (mode !== "recent") return;
  const data = await api("/api/recent?after=" + newest + "&limit=50");
  const hits = data.observations || [];
  if (hits.length) newest = Math.max(newest, ...hits.map((h) => h.id));
  fill($("list"), hits, newest && $("list").children.length > 0);
}
async function showRecent() {
  mode = "recent"; newest = 0; $("h-list").textContent = L.recent; $("list").replaceChildren();
  await poll();
}
async function runSearch(query) {
  if (!query.trim()) { await showRecent(); return; }
  mode = "search";
  $("h-list").textContent = L.search + ": " + query;
  const data = await api("/api/search?q=" + encodeURIComponent(query) + "&limit=50");
  fill($("list"), data.results || [], false);
  document.body.dataset.searched = query;
}
async function loadSessions() {
  const data = await api("/api/sessions");
  const list = $("sessions");
  list.replaceChildren();
  for (const s of data.sessions || []) {
    const li = el("li");
    li.append(el("div", "title", s.project + "  " + String(s.started_at).slice(0, 16).replace("T", " ")));
    li.append(el("div", "meta", s.session_id + " · " + s.observations + " obs · " + s.prompt_count + " prompts"));
    li.addEventListener("click", async () => {
      mode = "session";
      $("h-list").textContent = L.sessions + ": " + s.session_id;
      const tl = await api("/api/session?id=" + encodeURIComponent(s.session_id));
      fill($("list"), tl.items || [], false);
      document.body.dataset.session = s.session_id;
    });
    list.append(li);
  }
  if (!list.children.length) list.append(el("li", "empty", L.empty));
}
$("title").textContent = L.title;
$("q").placeholder = L.search;
$("h-sessions").textContent = L.sessions;
$("h-record").textContent = L.record;
$("q").addEventListener("keydown", (e) => { if (e.key === "Enter") runSearch($("q").value); });
Promise.all([loadSessions(), showRecent()]).then(() => {
  document.body.dataset.ready = "1";
  timer = setInterval(poll, 2000);
});
</script>
</body>
</html>
"""
