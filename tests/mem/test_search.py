"""Search, timeline and get: the three-step workflow the skill and the MCP server teach."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from skillbox.cli.root import cli
from skillbox.mem.capture import record_observation
from skillbox.mem.search import Filters, build_filters, get_records, search, timeline
from skillbox.mem.settings import load_settings
from skillbox.mem.store import open_store
from tests.mem.conftest import replay_session, rows


def add(store, title, type="note", narrative="", project="alpha", files=(), concepts=(), subtitle="", facts=()):
    return record_observation(
        store,
        type=type,
        title=title,
        narrative=narrative,
        subtitle=subtitle,
        facts=list(facts),
        files=list(files),
        concepts=list(concepts),
        project=project,
        settings=load_settings(),
    )


@pytest.fixture
def store(home):
    with open_store() as store:
        yield store


@pytest.fixture
def without_context(monkeypatch):
    """Records stored without the words of the records before them (store.NEW_OBSERVATION_CONTEXT), as
    `mem_locomo.py --without context --without next` stores them: the rules that work at search time, tested alone."""
    from skillbox.mem import capture
    from skillbox.mem import store as store_module

    monkeypatch.setattr(capture, "NEW_OBSERVATION_CONTEXT", "substr(? || ?, 1, 0)")  # binds both, yields ''
    monkeypatch.setattr(store_module, "CONTEXT_AFTER", 0)


def refs(result):
    return [h.ref for h in result.hits]


def test_words_match_in_any_order(store):
    a = add(store, "Token refresh fails after expiry")
    assert refs(search(store, "refresh token")) == [f"#{a}"]
    assert refs(search(store, "token refresh")) == [f"#{a}"]


def test_every_word_ranks_before_some_words(store):
    some = add(store, "Token cache warmed on start")
    every = add(store, "Refresh of the token moved to middleware")
    result = search(store, "refresh token")
    assert refs(result)[:2] == [f"#{every}", f"#{some}"]
    assert [h.match for h in result.hits[:2]] == ["all", "any"]


def test_prefixes_match(store):
    a = add(store, "Authentication middleware rewritten")
    assert refs(search(store, "auth")) == [f"#{a}"]


def test_title_outweighs_narrative(store):
    in_narrative = add(store, "Cleanup of helpers", narrative="mentions the scheduler once among many other words")
    in_title = add(store, "Scheduler rewritten")
    assert refs(search(store, "scheduler")) == [f"#{in_title}", f"#{in_narrative}"]


def test_fts_syntax_in_queries_is_harmless(store):
    a = add(store, "Quote handling in the NEAR parser")
    for query in ['"quote', "NEAR(parser", "parser*", "quote AND OR NOT", "parser -x", "(quote)"]:
        assert f"#{a}" in refs(search(store, query)), query


def test_filters(store):
    d = add(
        store, "Use argon2 for hashing", type="decision", project="alpha", files=["src/auth.py"], concepts=["security"]
    )
    n = add(store, "Hashing benchmark notes", type="note", project="alpha", files=["bench/hash.py"])
    other = add(store, "Hashing in the other project", type="decision", project="beta")
    assert set(refs(search(store, "hashing", build_filters(kinds=["decision"])))) == {f"#{d}", f"#{other}"}
    assert set(refs(search(store, "hashing", Filters(project="alpha")))) == {f"#{d}", f"#{n}"}
    assert refs(search(store, "hashing", Filters(file="auth.py"))) == [f"#{d}"]
    assert refs(search(store, "hashing", Filters(concept="security"))) == [f"#{d}"]
    assert refs(search(store, "hashing", build_filters(since="2000-01-01", until="1d"))) == []
    assert len(search(store, "hashing", build_filters(since="1d")).hits) == 3
    assert refs(search(store, "", build_filters(kinds=["decision"], project="beta"))) == [f"#{other}"]


def test_summaries_and_prompts_are_searched_and_told_apart(home, project_dir):
    replay_session(project_dir)
    with open_store() as store:
        result = search(store, "login bug")
        kinds = {h.kind for h in result.hits}
        assert {"summary", "prompt"} <= kinds
        assert all(h.ref[0] in "#SP" for h in result.hits)
        only_prompts = search(store, "login", build_filters(kinds=["prompts"]))
        assert {h.kind for h in only_prompts.hits} == {"prompt"}


def test_timeline_around_an_observation(home, project_dir):
    replay_session(project_dir)
    with open_store() as store:
        edit = rows(home, "SELECT id FROM observations WHERE title = 'Edited auth.py'")[0][0]
        tl = timeline(store, f"#{edit}", before=2, after=2)
        assert tl.items[tl.anchor_index].ref == f"#{edit}"
        assert len(tl.items) == 5
        assert [h.created_at for h in tl.items] == sorted(h.created_at for h in tl.items)
        # A session id anchors at the session's start: its prompt comes first.
        by_session = timeline(store, "sess-1", before=0, after=3)
        assert by_session.items[0].ref == "P1"
        assert timeline(store, "2000-01-01", before=0, after=2).items[0].ref == "P1"


def test_get_returns_full_records_and_names_missing_ones(home, project_dir):
    replay_session(project_dir)
    with open_store() as store:
        found, missing = get_records(store, ["1", "S1", "P1", "#999"])
    assert [r["ref"] for r in found] == ["#1", "S1", "P1"]
    assert missing == ["#999"]
    assert found[1]["request"] == "Fix the login bug"
    assert isinstance(found[0]["facts"], list)


def test_cli_search_prints_compact_index_and_json(home, project_dir):
    replay_session(project_dir)
    runner = CliRunner()
    result = runner.invoke(cli, ["mem", "search", "auth"])
    assert result.exit_code == 0
    line = result.stdout.splitlines()[0]
    assert line.startswith("#") and "~" in line and "auth.py" in line
    data = json.loads(runner.invoke(cli, ["mem", "search", "auth", "--json"]).stdout)
    assert data["count"] == len(data["results"]) > 0
    assert set(data["results"][0]) >= {"ref", "kind", "id", "created_at", "type", "title", "project", "tokens"}


def test_cli_errors_are_one_line_with_exit_codes(home, project_dir):
    replay_session(project_dir)
    runner = CliRunner()
    result = runner.invoke(cli, ["mem", "get", "1", "77"])
    assert result.exit_code == 1
    assert "Error: not in memory: #77" in result.stderr
    assert "Edited" in result.stdout or "Tests" in result.stdout
    assert runner.invoke(cli, ["mem", "get", "banana"]).exit_code == 2
    bad_date = runner.invoke(cli, ["mem", "search", "x", "--since", "someday"])
    assert bad_date.exit_code == 2 and "not a date" in bad_date.stderr
    assert runner.invoke(cli, ["mem", "timeline", "#999"]).exit_code == 1
    assert runner.invoke(cli, ["mem", "search", "!!!"]).exit_code == 2


def test_cli_timeline_marks_the_anchor(home, project_dir):
    replay_session(project_dir)
    result = CliRunner().invoke(cli, ["mem", "timeline", "S1", "--before", "2", "--after", "0"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].endswith("<- anchor")


def test_some_word_hits_fill_only_the_missing_slots(store):
    every = [add(store, f"Token refresh race number {i}") for i in range(3)]
    some = [add(store, f"Token cache entry number {i}") for i in range(5)]
    result = search(store, "refresh token", limit=5)
    assert [h.match for h in result.hits] == ["all"] * 3 + ["any"] * 2
    assert set(refs(result)[:3]) == {f"#{i}" for i in every}
    assert set(refs(result)[3:]) <= {f"#{i}" for i in some}
    assert len(set(refs(result))) == 5
    # Each group is in bm25 order (lower is better), across record kinds alike.
    for group in (result.hits[:3], result.hits[3:]):
        assert [h.score for h in group] == sorted(h.score for h in group)


def test_no_some_word_hits_when_every_word_fills_the_page(store):
    for i in range(4):
        add(store, f"Token refresh race number {i}")
    add(store, "Token cache entry")
    result = search(store, "refresh token", limit=3)
    assert [h.match for h in result.hits] == ["all"] * 3


def test_a_page_lists_each_record_once(store):
    ids = [add(store, f"Refresh the token store, pass {i}", narrative="token token refresh") for i in range(6)]
    ids += [add(store, f"Token only, pass {i}") for i in range(6)]
    result = search(store, "token refresh", limit=50)
    assert sorted(refs(result)) == sorted(f"#{i}" for i in ids)


def test_a_selective_filter_reaches_past_the_newest_matches(store, monkeypatch):
    monkeypatch.setattr("skillbox.mem.search.RANK_WINDOW", 3)
    old = add(store, "Cache eviction in the beta project", project="beta")
    for i in range(8):
        add(store, f"Cache warmup step {i}", project="alpha")
    assert refs(search(store, "cache", Filters(project="beta"))) == [f"#{old}"]
    assert refs(search(store, "cache", Filters(file="nowhere.py"))) == []


def test_a_page_larger_than_the_rank_window_keeps_every_full_match_first(store, monkeypatch):
    monkeypatch.setattr("skillbox.mem.search.RANK_WINDOW", 3)
    every = [add(store, f"Token refresh race number {i}") for i in range(6)]
    add(store, "Token cache entry")
    result = search(store, "refresh token", limit=7)
    assert set(refs(result)[:6]) == {f"#{i}" for i in every}
    assert [h.match for h in result.hits] == ["all"] * 6 + ["any"]


def test_many_shown_ids_are_still_excluded(store, monkeypatch):
    monkeypatch.setattr("skillbox.mem.search.MAX_SQL_EXCLUDE", 2)
    every = [add(store, f"Token refresh race number {i}") for i in range(4)]
    some = [add(store, f"Token cache entry number {i}") for i in range(3)]
    result = search(store, "refresh token", limit=6)
    assert set(refs(result)[:4]) == {f"#{i}" for i in every}
    assert set(refs(result)[4:]) <= {f"#{i}" for i in some}
    assert len(set(refs(result))) == 6


def test_question_words_do_not_have_to_match(store):
    a = add(store, "Token refresh fails after expiry")
    result = search(store, "why did the token refresh fail?")
    assert refs(result) == [f"#{a}"]
    assert result.hits[0].match == "all"


def test_a_query_of_only_common_words_still_searches(store):
    a = add(store, "What it is about")
    assert refs(search(store, "what is it")) == [f"#{a}"]


def test_inflections_of_a_word_match(store):
    hike = add(store, "Went on a hike with the dog")
    study = add(store, "Two studies of cache misses")
    stop = add(store, "The worker stopped after the deploy")
    assert refs(search(store, "hiking trip")) == [f"#{hike}"]
    assert refs(search(store, "study results")) == [f"#{study}"]
    assert refs(search(store, "stops worker")) == [f"#{stop}"]


def test_rare_words_reach_past_the_rank_window(store, monkeypatch):
    old = add(store, "Deadlock in the zanzibar loader")
    newer = [add(store, f"Importer cleanup pass {i}") for i in range(8)]
    full = refs(search(store, "zanzibar importer", limit=5))
    monkeypatch.setattr("skillbox.mem.search.RANK_WINDOW", 3)
    windowed = search(store, "zanzibar importer", limit=5)
    assert refs(windowed)[0] == f"#{old}"
    # Rows reached through a rare word are scored exactly as a window holding everything would score them.
    assert refs(windowed) == full
    assert set(refs(windowed)[1:]) <= {f"#{i}" for i in newer}


def test_messages_in_chinese_by_setting_or_from_the_prompts(home, project_dir, monkeypatch):
    from skillbox.mem.search import format_search

    with open_store() as store:
        assert format_search(search(store, "nothing")) == "No memory matches 'nothing'."
        monkeypatch.setenv("SKILLBOX_MEM_LANGUAGE", "zh")
        assert format_search(search(store, "nothing")) == "没有与 'nothing' 匹配的记忆。"
        assert format_search(search(store, "")) == "还没有记忆。"
    monkeypatch.setenv("SKILLBOX_MEM_LANGUAGE", "auto")
    replay_session(project_dir, session="zh", prompt="请修复登录页面的错误")
    monkeypatch.chdir(project_dir)
    out = CliRunner().invoke(cli, ["mem", "search", "不存在的词"]).output
    assert out.strip() == "没有与 '不存在的词' 匹配的记忆。"


def test_a_date_in_the_query_favours_records_from_then(store):
    from skillbox.mem import capture
    from skillbox.mem.observe import Observation
    from skillbox.mem.store import now_iso

    def at(title, day):
        def write():
            return capture.insert_observation(
                store.conn,
                Observation("note", title),
                session_id=None,
                project="alpha",
                prompt_number=None,
                origin="test",
                created_at=now_iso(day),
            )

        return store.write(write)

    november = at("Rotated the signing key of the auth service, as the yearly audit asked", 1793664000)  # 2026-11-03
    newer = at("Auth signing key rotated again", 1796342400)  # 2026-12-04
    assert refs(search(store, "auth signing key"))[0] == f"#{newer}"  # without a date: the better match
    assert refs(search(store, "auth signing key on 3 November 2026"))[0] == f"#{november}"
    assert refs(search(store, "auth signing key 2026-11-04"))[0] == f"#{november}"  # within the padding
    assert set(refs(search(store, "auth signing key 2026-11-04"))) == {f"#{november}", f"#{newer}"}  # none lost
    # A --since/--until filter outside the date's span still filters; the date then only adds nothing.
    late = Filters(since="2026-12-01")
    assert refs(search(store, "auth signing key on 3 November 2026", late)) == [f"#{newer}"]


def _session_turns(store, texts, session="chat-1", project="alpha"):
    from skillbox.mem import capture
    from skillbox.mem.observe import Observation
    from skillbox.mem.store import now_iso

    def write():
        store.conn.execute(
            "INSERT INTO sessions (session_id, project, started_at) VALUES (?, ?, ?)", (session, project, now_iso())
        )
        return [
            capture.insert_observation(
                store.conn,
                Observation(kind, text),
                session_id=session,
                project=project,
                prompt_number=None,
                origin="test",
                created_at=now_iso(1793664000 + i * 30),
            )
            for i, (kind, text) in enumerate(texts)
        ]

    return store.write(write)


def test_a_hit_that_asks_a_question_brings_the_next_record_of_its_session(store, without_context):
    asked, answer, _later = _session_turns(
        store,
        [
            ("note", "How long have you been doing yoga?"),
            ("note", "Three years now, it keeps me calm."),
            ("note", "Unrelated: the parser release is out."),
        ],
    )
    result = search(store, "how long yoga")
    assert refs(result) == [f"#{asked}", f"#{answer}"]
    assert [h.match for h in result.hits] == ["all", "reply"]
    assert search(store, "how long yoga").to_dict()["results"][1]["match"] == "reply"
    assert refs(search(store, "how long yoga", limit=1)) == [f"#{asked}"]  # the page size holds
    # The reply must pass the same filters: a type filter that excludes it leaves the question alone.
    assert refs(search(store, "how long yoga", Filters(kinds=("observation",), obs_types=("note",)))) == refs(result)
    assert refs(search(store, "how long yoga", Filters(kinds=("observation",), until="2026-11-02"))) == []


def test_a_question_mark_inside_a_record_is_not_a_question(store, without_context):
    fetched, _next = _session_turns(
        store,
        [("fetch", "Fetched https://docs.example/search?q=yoga for the retry docs"), ("note", "Retry docs read.")],
    )
    assert refs(search(store, "yoga")) == [f"#{fetched}"]


def test_a_reply_further_down_the_page_moves_up_behind_its_question(store, without_context):
    asked, answer, other = _session_turns(
        store,
        [
            ("note", "Which queue does the worker read, redis or sqs?"),
            ("note", "Redis, as decided in review; sqs was dropped for its cost."),
            ("note", "Worker restarted after the deploy of the worker queue."),
        ],
    )
    result = search(store, "worker queue sqs")
    assert refs(result) == [f"#{asked}", f"#{answer}", f"#{other}"]  # by score alone: asked, other, answer
    assert [h.match for h in result.hits] == ["all", "any", "any"]  # moved, not re-labelled: it matched a word


def test_the_records_of_the_session_about_the_question_rank_before_a_stray_match(store, without_context):
    """Session evidence: the lockout task's session holds every word of the question, the other session one."""
    counter, decision = _session_turns(
        store,
        [
            ("note", "Lockout counter moved into the auth middleware"),
            ("note", "Decided against Redis here: a single process keeps the state, as the design notes explain"),
        ],
        session="fix-lockout",
    )
    (restart,) = _session_turns(store, [("note", "Redis restarted")], session="ops")
    from skillbox.mem import search as search_module

    assert refs(search(store, "lockout counter redis")) == [f"#{counter}", f"#{decision}", f"#{restart}"]
    # By each record's own score the short stray match would come second; a single word has no session evidence.
    own = search_module._by_session
    try:
        search_module._by_session = lambda store, hits, terms: hits
        assert refs(search(store, "lockout counter redis")) == [f"#{counter}", f"#{restart}", f"#{decision}"]
    finally:
        search_module._by_session = own
    assert refs(search(store, "redis")) == [f"#{restart}", f"#{decision}"]
    assert refs(search(store, "lockout counter redis", limit=2)) == [f"#{counter}", f"#{decision}"]


def test_near_equal_matches_are_ordered_by_what_their_sessions_cover(store, without_context):
    """Scores, not ranks: the short note holding "counter" scores a little better than the refresh session's two
    records, which hold "token" and "redis" between them. Fused by rank, first place alone outweighed the session
    covering two of the three words; fused by score, the near-equal records go by their sessions."""
    from skillbox.mem import search as search_module

    token, redis = _session_turns(
        store, [("note", "Token lockout after expiry"), ("note", "Auth state kept in redis, decided against a file")]
    )
    (counter,) = _session_turns(store, [("note", "Counter notes")], session="metrics")
    _session_turns(store, [("note", f"Unrelated note {i} about the build") for i in range(12)], session="misc")
    assert refs(search(store, "token redis counter")) == [f"#{token}", f"#{redis}", f"#{counter}"]
    own = search_module._by_session
    try:
        search_module._by_session = lambda store, hits, terms: hits
        assert refs(search(store, "token redis counter"))[0] == f"#{counter}"  # by its own score alone
    finally:
        search_module._by_session = own


def test_a_record_holding_the_rarest_word_comes_before_a_second_record_of_a_covered_word(store, without_context):
    """Coverage: the lockout note holds the question's rarest word; the auth-docs session's second note holds only
    "auth", which its first note already brings. Without coverage the session's evidence lifted that second note."""
    from skillbox.mem import sessions_rank

    docs, notes = _session_turns(store, [("note", "Token auth docs rewritten"), ("note", "Auth counter notes added")])
    (lockout,) = _session_turns(store, [("note", "Lockout moved into the middleware")], session="lockout")
    _session_turns(store, [("note", f"Unrelated note {i} about the build") for i in range(12)], session="misc")
    assert refs(search(store, "token lockout auth")) == [f"#{docs}", f"#{lockout}", f"#{notes}"]
    weight = sessions_rank.COVERAGE_WEIGHT
    try:
        sessions_rank.COVERAGE_WEIGHT = 0.0
        assert refs(search(store, "token lockout auth")) == [f"#{docs}", f"#{notes}", f"#{lockout}"]
    finally:
        sessions_rank.COVERAGE_WEIGHT = weight


def test_records_without_a_session_do_not_vouch_for_each_other(store):
    """Notes stored outside any session (`mem add`) are unrelated: each is a session of its own."""
    counter = add(store, "Lockout counter moved into the auth middleware")
    decision = add(store, "Decided against Redis here: a single process keeps the state, as the design notes explain")
    (restart,) = _session_turns(store, [("note", "Redis restarted")], session="ops")
    assert refs(search(store, "lockout counter redis")) == [f"#{counter}", f"#{restart}", f"#{decision}"]


def test_a_larger_limit_keeps_the_top_of_a_smaller_one(store):
    """The session evidence reorders a pool of candidates that must not depend on --limit: when it took rows with
    some words only while the rows with every word were fewer than --limit, `--limit 4` showed the four rows with
    both words and `--limit 8` only two of them in its top four (a record with every word fell off the page)."""
    for s in range(4):
        _session_turns(store, [("note", f"Redis lockout fix number {s}")], session=f"s{s}")
    _session_turns(
        store,
        [("note", f"redis note {i}") for i in range(8)] + [("note", f"lockout note {i}") for i in range(8)],
        session="busy",
    )
    tops = {limit: refs(search(store, "redis lockout", limit=limit)) for limit in range(1, 21)}
    assert all(tops[limit + 1][:limit] == tops[limit] for limit in range(1, 20))


def test_the_text_output_marks_each_line_that_matched_only_some_words(store, without_context):
    """Session evidence can put a row with some words before one with every word: the count line can no longer
    mean "the first N lines", so each such line is marked where it stands and the count line says so."""
    _session_turns(
        store,
        [
            ("note", "Lockout counter moved into the auth middleware"),
            ("note", "Redis dropped: one process keeps the lockout counter"),
            ("note", "Lockout counter reset on login"),
        ],
        session="fix-lockout",
    )
    long_note = (
        "Redis lockout counter benchmark notes for the cache layer, the queue, the worker pool and every other "
        "service we run in staging and in production this quarter"
    )
    _session_turns(store, [("note", long_note)], "bench")
    _session_turns(store, [("note", "Redis upgraded")], session="ops")
    # "redis" is in most of the memory, so it says little: the lockout session's short records, which hold the two
    # telling words, come before the long note that also holds "redis".
    _session_turns(store, [("note", f"Redis note {i} about the build") for i in range(12)], session="misc")
    runner = CliRunner()
    text = runner.invoke(cli, ["mem", "search", "lockout counter redis"])
    data = runner.invoke(cli, ["mem", "search", "lockout counter redis", "--json"])
    assert text.exit_code == 0 and data.exit_code == 0, text.stderr
    matches = [r["match"] for r in json.loads(data.stdout)["results"]]
    assert matches.index("any") < max(i for i, m in enumerate(matches) if m == "all")  # the case that needs marks
    *lines, summary = text.stdout.strip().splitlines()
    assert [line.endswith("(some words)") for line in lines] == [m == "any" for m in matches]
    full, some = matches.count("all"), matches.count("any")
    assert summary == f"({full} matched every word; the {some} marked (some words) matched only some)"
