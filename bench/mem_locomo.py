"""Retrieval recall of `skillbox mem search` on LoCoMo, beside plain SQLite FTS5 baselines.

LoCoMo (snap-research/locomo) has 10 long conversations and 1,986 questions, each with the ids of the dialog turns
that hold its evidence, so recall@k needs no language model: every turn is stored as one memory record (an
observation: text as title, speaker as subtitle, a shared image's caption as a fact, the session's date as its
time; each of LoCoMo's sessions is one memory session), every question is asked with the conversation as the
project filter, and a question is a hit when one of its evidence turns is among the top k results. The
baselines index the same turns one row each in an FTS5 table with the porter stemmer and query it the three ways
a naive memory does: terms OR-ed, AND-ed, and the whole question as one phrase (claude-mem's multi-word bug);
shared/oracles.md quotes 0.680 / 0.082 / 0.001 at k=10.

The search code under test is the product's, with its general rules; the rules with constants picked on LoCoMo
(session evidence, sessions_rank.py; the records' context, store.CONTEXT_RECORDS / CONTEXT_WEIGHT) had them
picked on conversations 0-4 only, and `--half dev|test` prints either half so the other can be checked.
The data set's licence is not stated, so it is read at bench time from a cache folder and never committed.

Run: python bench/mem_locomo.py [--data DIR] [--conversations N] [--half dev|test [--store-all]] [--without RULE ...]
[--json]
`--without` switches one of search's general rules off for an ablation (see ABLATIONS); the baselines are
unaffected. `--store-all` keeps the other half's conversations in the store (other projects, a larger memory, as
in a run without `--half`) and asks only the half's questions.
DIR holds LoCoMo's unpacked zip (default $SKILLBOX_LOCOMO or /work/cache/locomo); get it with
`git --git-dir=<mirror of snap-research/locomo> show HEAD:data/locomo10.zip > locomo10.zip && unzip locomo10.zip`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import glob
import json
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

from skillbox.mem import capture, query, sessions_rank  # noqa: E402
from skillbox.mem import search as search_module  # noqa: E402
from skillbox.mem import store as store_module  # noqa: E402
from skillbox.mem.observe import Observation  # noqa: E402
from skillbox.mem.search import Filters, search  # noqa: E402
from skillbox.mem.store import Store, now_iso  # noqa: E402

ORACLE = {"fts5 OR (porter)": 0.680, "fts5 AND (porter)": 0.082, "fts5 phrase (porter)": 0.001}
KS = (5, 10)
# Each rule of the product's search that an ablation can switch off, and how (module attributes patched for the run).
ABLATIONS = {
    "context": "each record also indexes the titles of the 2 records before it in its session (store.context_sql)",
    "next": "each record also indexes the title of the record after it in its session (store.note_successor)",
    "sessions": "a hit's session's share of the query's terms counts toward its rank (sessions_rank.by_session)",
    "scores": "bm25 relative to the pool's best is fused with session evidence, not ranks (sessions_rank.by_session)",
    "coverage": "the IDF-weighted share of the query a record holds itself counts too (sessions_rank.COVERAGE_WEIGHT)",
    "replies": "a hit that asks (its title ends in ?) brings the next record of its session (search._with_replies)",
    "dates": "a calendar date in the question favours records from about then (query.dated, search.DATE_BOOST)",
    "rare-rows": "every row of a rare term is ranked, not only the newest window (search.RARE_TERM_MATCHES)",
    "inflections": "each word also matches the regular inflections of its root (query.inflections)",
    "function-words": "English function words are dropped from the question (query.STOP_WORDS)",
}
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
_SESSION = re.compile(r"session_(\d+)")
_WORD = re.compile(r"\w+")


def load(data: Path) -> list[dict]:
    files = sorted(glob.glob(str(data / "**" / "*.json"), recursive=True))
    conversations = []
    for name in files:
        with open(name, encoding="utf-8") as handle:
            doc = json.load(handle)
        if isinstance(doc, list):  # data/locomo10.json: a list of samples with "conversation" and "qa"
            conversations += [dict(c["conversation"], qa=c["qa"], sample_id=c.get("sample_id")) for c in doc]
        elif isinstance(doc, dict) and "qa" in doc:
            conversations.append(dict(doc, sample_id=Path(name).stem))
    if not conversations:
        sys.exit(f"no LoCoMo conversations under {data} (see this script's docstring)")
    return conversations


def turn_id(text: str) -> str | None:
    match = _EVIDENCE.search(text)
    return f"D{int(match.group(1))}:{int(match.group(2))}" if match else None


def session_time(text: str | None) -> float:
    """`1:56 pm on 8 May, 2023` -> epoch seconds (UTC); unknown formats sort as 2000-01-01."""
    try:
        return dt.datetime.strptime(text or "", "%I:%M %p on %d %B, %Y").replace(tzinfo=dt.UTC).timestamp()
    except ValueError:
        return 946684800.0


def turns_of(conversation: dict):
    """(dia_id, speaker, text, caption, epoch) for every turn, in order."""
    sessions = sorted(
        (int(m.group(1)), key) for key in conversation if (m := _SESSION.fullmatch(key)) and conversation[key]
    )
    for _number, key in sessions:
        start = session_time(conversation.get(f"{key}_date_time"))
        for index, turn in enumerate(conversation[key]):
            ident = turn_id(str(turn.get("dia_id") or ""))
            if ident:
                yield (
                    ident,
                    str(turn.get("speaker") or ""),
                    str(turn.get("text") or ""),
                    turn.get("blip_caption"),
                    (start + index * 30),
                )


def questions_of(conversation: dict) -> list[tuple[str, set[str], object]]:
    out = []
    for qa in conversation["qa"]:
        evidence = {f"D{int(a)}:{int(b)}" for item in qa.get("evidence") or [] for a, b in _EVIDENCE.findall(item)}
        if evidence:
            out.append((str(qa["question"]), evidence, qa.get("category")))
    return out


def build(conversations: list[dict], path: Path) -> tuple[dict[int, str], sqlite3.Connection]:
    """The memory store (one project per conversation) and the FTS5 porter baseline over the same turns."""
    ids: dict[int, str] = {}
    baseline = sqlite3.connect(":memory:")
    baseline.execute("CREATE VIRTUAL TABLE turns USING fts5(conv UNINDEXED, dia UNINDEXED, body, tokenize='porter')")
    with Store(path) as store:

        def fill() -> None:
            conn = store.conn
            started: set[str] = set()
            for conv in conversations:
                project = f"locomo-{conv['sample_id']}"
                for ident, speaker, text, caption, epoch in turns_of(conv):
                    session = f"{project}-{ident.split(':')[0]}"  # each of LoCoMo's sessions is one of ours
                    if session not in started:
                        started.add(session)
                        conn.execute(
                            "INSERT INTO sessions (session_id, project, started_at) VALUES (?, ?, ?)",
                            (session, project, now_iso(epoch)),
                        )
                    obs = Observation(
                        "note",
                        text,
                        subtitle=speaker,
                        facts=[f"shared a photo: {caption}"] if caption else [],
                    )
                    row = capture.insert_observation(
                        conn,
                        obs,
                        session_id=session,
                        project=project,
                        prompt_number=None,
                        origin="locomo",
                        created_at=now_iso(epoch),
                    )
                    ids[row] = f"{project}/{ident}"
                    body = " ".join(filter(None, [speaker, text, caption]))
                    baseline.execute("INSERT INTO turns VALUES (?, ?, ?)", (project, ident, body))

        store.write(fill)
    return ids, baseline


def baseline_hits(baseline: sqlite3.Connection, project: str, question: str, mode: str, k: int) -> list[str]:
    words = [w for w in _WORD.findall(question.lower()) if w]
    if not words:
        return []
    quoted = [f'"{w}"' for w in words]
    expression = '"' + " ".join(words) + '"' if mode == "phrase" else f" {mode} ".join(quoted)
    rows = baseline.execute(
        "SELECT dia FROM turns WHERE turns MATCH ? AND conv = ? ORDER BY rank LIMIT ?", (expression, project, k)
    ).fetchall()
    return [f"{project}/{r[0]}" for r in rows]


def by_ranks(store, hits: list, terms: list) -> list:
    """Session evidence as sessions 6-9 fused it: reciprocal ranks, 1 / (3 + own rank) + 1 / (3 + session rank)."""
    if len(hits) < 2 or len(terms) < 2:
        return hits
    sessions, _coverage = sessions_rank.evidence(store, hits, terms)
    ordered = sorted(set(sessions), reverse=True)
    fused = [1 / (3 + i) + 1 / (3 + ordered.index(value)) for i, value in enumerate(sessions)]
    return [hits[i] for i in sorted(range(len(hits)), key=lambda i: (-fused[i], i))]


def ablate(rules: list[str]) -> None:
    """Switch the named rules off in this process (the bench's own copy of the search code)."""
    for rule in rules:
        if rule == "context":
            # binds both parameters, yields ''
            capture.NEW_OBSERVATION_CONTEXT = "substr(? || ?, 1, 0)"
        elif rule == "next":
            store_module.CONTEXT_AFTER = 0
        elif rule == "sessions":
            search_module._by_session = lambda store, hits, terms: hits
            search_module.SESSION_POOL = 0
        elif rule == "scores":
            search_module._by_session = by_ranks
        elif rule == "coverage":
            sessions_rank.COVERAGE_WEIGHT = 0.0
        elif rule == "replies":
            search_module._with_replies = lambda store, hits, filters, limit: hits
        elif rule == "dates":
            search_module.dated = lambda text: (text, None, None)
        elif rule == "rare-rows":
            search_module.RARE_TERM_MATCHES = 0
        elif rule == "inflections":
            query.inflections = lambda word: (word,)
        elif rule == "function-words":
            query.STOP_WORDS = frozenset()


def miss_kind(evidence: list[str], top: list[str | None]) -> str:
    """Why a question was missed, read off the top 10: the turn next to an evidence turn made it, the evidence is
    spread over several turns, or neither."""

    def beside(ident: str, step: int) -> str:
        project, turn = ident.rsplit("/", 1)
        session, index = turn[1:].split(":")
        return f"{project}/D{session}:{int(index) + step}"

    if any(beside(e, -1) in top or beside(e, 1) in top for e in evidence):
        return "adjacent turn ranked"
    return "several evidence turns" if len(evidence) > 1 else "other"


def print_misses(missed: list[tuple], text: dict[str, str], n: int) -> None:
    """Counts of the missed questions by kind, then a seeded random sample of n (read from the data at bench time)."""
    import random

    kinds = [miss_kind(evidence, found[:10]) for _p, _n, _c, _q, evidence, found in missed]
    print(f"missed at k=10: {len(missed)}; " + ", ".join(f"{k}: {kinds.count(k)}" for k in dict.fromkeys(kinds)))
    for (project, number, category, question, evidence, found), kind in random.Random(7).sample(
        list(zip(missed, kinds, strict=True)), min(n, len(missed))
    ):
        print(f"- {project} q{number} (category {category}, {kind}): {question}")
        print(f"    evidence: {text.get(evidence[0], '')[:110]}")
        print(f"    first:    {text.get(found[0], '') if found and found[0] else '-'}"[:124])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("SKILLBOX_LOCOMO", "/work/cache/locomo"))
    parser.add_argument("--conversations", type=int, default=0, help="only the first N conversations")
    parser.add_argument("--without", action="append", default=[], choices=sorted(ABLATIONS), help="ablate a rule")
    parser.add_argument("--half", choices=("dev", "test"), help="only conversations 0-4 (dev) or 5-9 (test)")
    parser.add_argument(
        "--store-all",
        action="store_true",
        help="with --half: store all conversations (a larger memory), ask only the half's questions",
    )
    parser.add_argument("--misses", type=int, default=0, metavar="N", help="print N missed questions, sorted by kind")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    ablate(args.without)
    conversations = load(Path(args.data))
    if args.conversations:
        conversations = conversations[: args.conversations]
    stored = conversations
    if args.half:  # the dev half (conversations 0-4) is where tuned constants were picked; test is 5-9
        conversations = conversations[:5] if args.half == "dev" else conversations[5:]
        # --store-all: the other half's turns stay in memory (other projects, stored in the same order as without
        # --half); its questions are not asked.
        stored = stored if args.store_all else conversations
    k_max = max(KS)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "memory.db"
        ids, baseline = build(stored, path)
        methods = ["skillbox mem search", *ORACLE]
        hits = {m: dict.fromkeys(KS, 0) for m in methods}
        by_category: dict[object, list[int]] = {}
        latencies: list[float] = []
        missed: list[tuple] = []
        total = 0
        with Store(path) as store:
            for conv in conversations:
                project = f"locomo-{conv['sample_id']}"
                filters = Filters(kinds=("observation",), project=project)
                for number, (question, evidence, category) in enumerate(questions_of(conv)):
                    total += 1
                    wanted = {f"{project}/{e}" for e in evidence}
                    started = time.perf_counter()
                    result = search(store, question, filters, limit=k_max)
                    latencies.append((time.perf_counter() - started) * 1000)
                    ranked = {"skillbox mem search": [ids.get(h.id) for h in result.hits]}
                    for name, mode in zip(ORACLE, ("OR", "AND", "phrase"), strict=True):
                        ranked[name] = baseline_hits(baseline, project, question, mode, k_max)
                    for name, found in ranked.items():
                        for k in KS:
                            hits[name][k] += bool(wanted & set(found[:k]))
                    cat = by_category.setdefault(category, [0, 0])
                    cat[0] += 1
                    cat[1] += bool(wanted & set(ranked["skillbox mem search"][:10]))
                    ours = ranked["skillbox mem search"]
                    if not wanted & set(ours[:10]):
                        missed.append((project, number, category, question, sorted(wanted), ours))
            texts = dict(store.conn.execute("SELECT id, subtitle || ': ' || title FROM observations"))
    recall = {m: {k: hits[m][k] / total for k in KS} for m in methods}
    if args.json:
        figures = {"questions": total, "without": args.without, "recall": recall, "oracle_at_10": ORACLE}
        print(json.dumps(figures, indent=2))
        return
    print(f"LoCoMo retrieval: {len(conversations)} conversations, {len(ids):,} turns, {total:,} questions")
    if args.without:
        print("ablated: " + "; ".join(f"{rule} ({ABLATIONS[rule]})" for rule in args.without))
    print(f"{'method':<26} {'recall@5':>9} {'recall@10':>10}  {'oracle @10':>10}  ratio @10 vs FTS5 OR")
    base = recall["fts5 OR (porter)"][10] or 1.0
    for m in methods:
        quoted = f"{ORACLE[m]:.3f}" if m in ORACLE else "target ≥0.85"
        print(f"{m:<26} {recall[m][5]:>9.3f} {recall[m][10]:>10.3f}  {quoted:>10}  {recall[m][10] / base:.2f}x")
    print(
        "recall@10 by LoCoMo category: "
        + ", ".join(
            f"{c}: {h / n:.3f} (n={n})" for c, (n, h) in sorted(by_category.items(), key=lambda item: str(item[0]))
        )
    )
    if args.misses:
        print_misses(missed, {ident: texts.get(row, "") for row, ident in ids.items()}, args.misses)
    print(
        f"search latency in-process: p50 {statistics.median(latencies):.1f} ms, "
        f"p95 {sorted(latencies)[int(len(latencies) * 0.95)]:.1f} ms"
    )


if __name__ == "__main__":
    main()
