"""Query construction: which words of a question count, and which forms of them match."""

from __future__ import annotations

from skillbox.mem.query import expression, inflections, query_terms


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
