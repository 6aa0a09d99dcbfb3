"""The tour step replays the bundled sample through the real hook code and shows search and context."""

from __future__ import annotations

import sqlite3

from skillbox.mem.tour import run, sample_events
from skillbox.tour import TOUR_STEPS, load_step


def test_tour_step_is_registered():
    assert load_step(TOUR_STEPS["mem"]) is run


def test_tour_replays_the_sample_and_finds_it_again(tmp_path, home):
    report = run(tmp_path)
    assert report.ok
    text = "\n".join(report.lines)
    assert "Fixed failing tests: pytest -q tests/test_tokens.py" in text
    assert "<- anchor" in text
    assert '<skillbox-memory project="shop">' in text
    db = report.outputs[0]
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == sum(
        1 for e in sample_events() if e["event"].startswith("post-tool-use")
    )
    assert "jane@example.com" not in db.read_bytes().decode("latin-1")
    assert not (home / "memory.db").exists()  # the user's memory is untouched
