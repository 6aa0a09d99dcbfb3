"""Query construction: which words of a question count, and which forms of them match."""

from __future__ import annotations

from skillbox.mem.query import dated, expression, inflections, query_terms


def words(text):
    return [t.word for t in query_terms(text)]


def test_function_words_are_dropped_unless_nothing_else_is_left():
    assert words("When did Calvin first travel to Tokyo?") == ["calvin", "first", "travel", "tokyo"]
    assert words("what is it") == ["what", "is", "it"]
    assert words("not the error") == ["not", "error"]


def test_inflections_cover_a_root_and_its_regular_forms():
    assert {"hike", "hiked", "hikes", "hiking"} <= set(inflections("hiking"))
    assert {"study", "studies", "studied", "studying"} <= set(inflections("studies"))
    assert {"stop", "stopped", "stopping", "stops"} <= set(inflections("stopped"))
    assert {"box", "boxes"} <= set(inflections("boxes"))
    assert inflections("2023") == ("2023",)
    assert inflections("数据库") == ("数据库",)


def test_the_last_word_stays_a_prefix_and_every_form_is_quoted():
    text = expression(query_terms('auth "NEAR(x'), "OR")
    assert '"auth"' in text and '"x"*' in text
    assert text.count('"') % 2 == 0


def test_a_calendar_date_leaves_the_words_and_becomes_a_padded_span():
    assert dated("What did we change in auth on 3 November 2026?") == (
        "What did we change in auth on ?",
        "2026-10-31",
        "2026-11-06T23:59:59.999Z",
    )
    assert dated("deploy on October 13, 2023")[1:] == ("2023-10-10", "2023-10-16T23:59:59.999Z")
    assert dated("2026-11-29 login")[1:] == ("2026-11-26", "2026-12-02T23:59:59.999Z")
    assert dated("the Dec 2025 release")[1:] == ("2025-11-28", "2026-01-03T23:59:59.999Z")  # a whole month


def test_what_is_not_a_calendar_date_stays_a_word():
    for text in ("build 2026-02-30", "v2023-11-02-rc", "port 8080-12", "3 May 0001", "in 2023"):
        assert dated(text) == (text, None, None)
