"""A scripted stand-in for the Anthropic Messages API on loopback, so `claude -p` runs real sessions offline.

Each POST to /v1/messages takes the next scripted reply (default: the text "Done.") and answers with the same
server-sent-event stream the real API sends; every request body is kept in `requests` so a test can see exactly
what reached the model (e.g. context injected by a SessionStart hook). Other paths get an empty JSON object.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Text:
    text: str = "Done."


@dataclass
class ToolUse:
    name: str
    input: dict
    id: str = "toolu_fake_1"


@dataclass
class Recorded:
    path: str
    body: dict


@dataclass
class FakeAnthropicAPI:
    replies: deque = field(default_factory=deque)
    requests: list = field(default_factory=list)
    url: str = ""

    def script(self, *replies: Text | ToolUse) -> None:
        self.replies.extend(replies)

    def message_requests(self) -> list[dict]:
        return [r.body for r in self.requests if r.path.startswith("/v1/messages") and "count_tokens" not in r.path]

    def next_reply(self) -> Text | ToolUse:
        return self.replies.popleft() if self.replies else Text()


def _events(reply: Text | ToolUse, model: str) -> list[tuple[str, dict]]:
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    if isinstance(reply, ToolUse):
        block = {"type": "tool_use", "id": reply.id, "name": reply.name, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(reply.input)}
        stop_reason = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": reply.text}
        stop_reason = "end_turn"
    return [
        ("message_start", start),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


def _message(reply: Text | ToolUse, model: str) -> dict:
    if isinstance(reply, ToolUse):
        content = [{"type": "tool_use", "id": reply.id, "name": reply.name, "input": reply.input}]
        stop_reason = "tool_use"
    else:
        content = [{"type": "text", "text": reply.text}]
        stop_reason = "end_turn"
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def start_fake_api() -> tuple[FakeAnthropicAPI, ThreadingHTTPServer]:
    api = FakeAnthropicAPI()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # keep pytest output clean
            pass

        def _send_json(self, payload: dict) -> None:
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._send_json({})

        def do_HEAD(self):
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"raw": raw.decode(errors="replace")}
            path = self.path.split("?")[0]
            with lock:
                api.requests.append(Recorded(path, body))
                is_message = path == "/v1/messages"
                reply = api.next_reply() if is_message else None
            if reply is None:
                self._send_json({"input_tokens": 10} if path.endswith("count_tokens") else {})
                return
            model = body.get("model", "claude-fake")
            if not body.get("stream"):
                self._send_json(_message(reply, model))
                return
            stream = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _events(reply, model))
            data = stream.encode()
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return api, server
