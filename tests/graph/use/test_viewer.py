"""graph.html in a real headless Chromium: offline, draws, search, details, and hostile names stay text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from graph_use_data import HOSTILE, small_graph
from synthetic import synthetic_graph

from skillbox.graph.code_graph import from_node_link
from skillbox.graph.outputs import write_use_outputs

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason="Debian chromium is not installed (.ci/system-deps installs it)",
)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


def _built(tmp_path: Path, data: dict) -> Path:
    graph_path = tmp_path / "skillbox-out" / "graph.json"
    graph_path.parent.mkdir(parents=True)
    graph_path.write_text(json.dumps(data))
    graph = from_node_link(data, graph_path)
    return write_use_outputs(graph, graph_path).html


def _open(browser, html: Path):
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    events = {"failed": [], "requests": [], "errors": [], "dialogs": []}
    page.on("request", lambda r: events["requests"].append(r.url))
    page.on("requestfailed", lambda r: events["failed"].append(r.url))
    page.on("pageerror", lambda e: events["errors"].append(str(e)))

    def on_dialog(dialog):
        events["dialogs"].append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-drawn='1']", timeout=30_000)
    return page, events


def _canvas_is_drawn(page) -> bool:
    return page.evaluate(
        """() => {
        const c = document.getElementById('canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const bg = [d[0], d[1], d[2]];
        let differing = 0;
        for (let i = 0; i < d.length; i += 16) {
          if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 30) differing++;
        }
        return differing > 50;
      }"""
    )


def test_viewer_offline_draw_search_click_and_escaping(browser, tmp_path):
    data = small_graph()
    for link in data["links"]:
        if link["confidence"] == "INFERRED" and link["target"].endswith("::redirect"):
            link["reason"] = "the only redirect in scope"
    html = _built(tmp_path, data)
    page, events = _open(browser, html)
    assert events["failed"] == []
    assert all(url.startswith("file://") for url in events["requests"])
    assert events["errors"] == []
    assert _canvas_is_drawn(page)

    page.fill("#search", "redirect")
    page.wait_for_selector("#results .result")
    assert "redirect" in page.text_content("#results .result")
    page.click("#results .result")
    assert page.text_content("#selected-name") == "redirect"
    details = page.text_content("#details")
    assert "src/app/helpers.py:2" in details
    assert "id src/app/helpers.py::redirect" in details  # rebuilt from the file-relative id in the payload
    assert "url_for" in details  # its callee is listed
    items = page.eval_on_selector_all("#details li", "els => els.map(e => e.textContent)")
    callee = next(t for t in items if t.startswith("[EXTRACTED] url_for"))
    assert callee and any(t.startswith("[INFERRED: the only redirect in scope] ") for t in items)  # and its reason
    link = page.get_attribute("#details a[href^='file://']", "href")
    assert link.endswith("/src/app/helpers.py#L2")

    # the hostile name is found and shown as text, and nothing ran
    page.fill("#search", "alert(1)")
    page.wait_for_selector("#results .result")
    page.click("#results .result")
    assert page.text_content("#selected-name") == HOSTILE
    assert events["dialogs"] == []
    assert page.evaluate("document.querySelectorAll('script').length") == 3  # data, viewer, bulk data
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    page.screenshot(path=str(tmp_path / "viewer-small.png"))
    assert (tmp_path / "viewer-small.png").stat().st_size > 1000
    page.close()


def test_viewer_overview_and_drill_down_on_a_large_graph(browser, tmp_path):
    html = _built(tmp_path, synthetic_graph(files=600, seed=11))
    page, events = _open(browser, html)
    assert events["failed"] == [] and events["errors"] == []
    assert _canvas_is_drawn(page)
    crumb = page.text_content("#crumb")
    assert "communities" in crumb
    # the nodes and edges arrive in a second block, parsed right after the first draw without any interaction
    page.wait_for_selector("body[data-ready='1']", timeout=30_000)
    assert page.evaluate("window.__readyMs >= window.__firstDrawMs")
    # clicking a community disc (the largest sits at the centre of the overview) opens it
    box = page.locator("#canvas").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + (box["height"] + 40) / 2)
    page.wait_for_function("document.getElementById('crumb').textContent.startsWith('community')")
    assert _canvas_is_drawn(page)
    # filter a relation off and on again without errors
    page.uncheck("#f-relation input[data-value='calls']")
    page.check("#f-relation input[data-value='calls']")
    assert events["errors"] == []
    page.screenshot(path=str(tmp_path / "viewer-large.png"))
    page.close()
