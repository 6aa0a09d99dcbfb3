"""literature-search: URL building, rate limits and parsing of recorded PubMed, Crossref and arXiv answers."""

from __future__ import annotations

import json
import urllib.parse

import pytest

from tests.skills.conftest import load_script

lit = load_script("literature-search", "lit_query")


@pytest.fixture
def replay(fixtures_dir):
    """Answer each service URL with a recorded body; remember what was asked."""
    folder = fixtures_dir / "litsearch"

    def make(esearch="esearch.json", esummary="esummary.json"):
        asked: list[str] = []

        def fetch(url: str) -> str:
            asked.append(url)
            if "esearch.fcgi" in url:
                return (folder / esearch).read_text()
            if "esummary.fcgi" in url:
                return (folder / esummary).read_text()
            if url.startswith(lit.CROSSREF):
                return (folder / "crossref_works.json").read_text()
            if url.startswith(lit.ARXIV):
                return (folder / "arxiv.xml").read_text()
            raise AssertionError(url)

        fetch.asked = asked
        return fetch

    return make


def query_of(url: str) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def test_pubmed_search_runs_esearch_then_esummary_with_key_and_dates(replay, capsys):
    fetch, sleeps = replay(), []
    env = {"NCBI_API_KEY": "k123", "NCBI_EMAIL": "me@lab.org"}
    code = lit.main(
        ["pubmed", "deep learning[tiab]", "--mindate", "2015", "--retmax", "2", "--json"], fetch, env, sleeps.append
    )
    assert code == 0
    search, summary = (query_of(u) for u in fetch.asked)
    assert search["term"] == "deep learning[tiab]"
    assert (search["datetype"], search["mindate"], search["maxdate"]) == ("pdat", "2015", "3000")
    assert (search["api_key"], search["email"], search["tool"]) == ("k123", "me@lab.org", "skillbox")
    assert summary["id"] == "26017442,28555635"
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 1843
    first, second = out["records"]
    assert first == {
        "source": "pubmed",
        "id": "PMID:26017442",
        "title": "Deep learning",
        "authors": ["LeCun Y", "Bengio Y", "Hinton G"],
        "venue": "Nature",
        "year": 2015,
        "doi": "10.1038/nature14539",
        "url": "https://pubmed.ncbi.nlm.nih.gov/26017442/",
        "kind": "journal-article",
        "related": [],
        "flags": [],
        "duplicates": [],
    }
    assert out["querytranslation"] == '"deep learning"[MeSH Terms] OR "deep learning"[All Fields]'
    assert out["warnings"] == []
    assert second["doi"] == "" and second["authors"] == ["Example A"]  # collective names are not people


def test_pubmed_rate_limit_depends_on_api_key():
    assert lit.pubmed_interval(None) == pytest.approx(1 / 3, abs=0.01)
    assert lit.pubmed_interval("key") == pytest.approx(0.1)


def test_throttle_sleeps_only_the_remaining_gap():
    now, slept = [100.0], []
    throttle = lit.Throttle(
        0.34, clock=lambda: now[0], sleep=lambda s: (slept.append(round(s, 2)), now.__setitem__(0, now[0] + s))
    )
    throttle.wait()
    now[0] += 0.1
    throttle.wait()
    now[0] += 1.0
    throttle.wait()
    assert slept == [0.24]


def test_pubmed_without_hits_skips_esummary(replay, capsys):
    fetch = replay("esearch_empty.json")
    assert lit.main(["pubmed", "zzzqqq"], fetch, {}, lambda s: None) == 0
    assert len(fetch.asked) == 1
    assert capsys.readouterr().out == (
        "# query translation: zzzqqq[All Fields]\n# warning: No items found.\n# pubmed: 0 of 0\n"
    )


def test_pubmed_query_error_is_one_line_exit_1(replay, capsys):
    assert lit.main(["pubmed", "(bad"], replay("esearch_error.json"), {}, lambda s: None) == 1
    assert capsys.readouterr().err == "Error: PubMed rejected the query: Invalid query: unbalanced parentheses\n"


def test_crossref_search_filters_and_parses(replay, capsys):
    fetch = replay()
    code = lit.main(
        ["crossref", "deep learning", "--from-year", "2015", "--type", "journal-article"],
        fetch,
        {"CROSSREF_MAILTO": "me@lab.org"},
        lambda s: None,
    )
    assert code == 0
    params = query_of(fetch.asked[0])
    assert params == {
        "query.bibliographic": "deep learning",
        "rows": "20",
        "filter": "from-pub-date:2015,type:journal-article",
        "mailto": "me@lab.org",
    }
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:3] == ["DOI:10.1038/nature14539", "2015", "Deep learning"]
    assert lines[-1] == "# crossref: 2 of 52177"


def test_arxiv_atom_is_parsed_with_dois_and_journal_refs(replay, capsys):
    fetch = replay()
    assert lit.main(["arxiv", 'ti:"attention"', "--max", "2", "--json"], fetch, {}, lambda s: None) == 0
    assert query_of(fetch.asked[0])["search_query"] == 'ti:"attention"'
    records = json.loads(capsys.readouterr().out)["records"]
    assert records[0]["id"] == "arXiv:1706.03762v7" and records[0]["year"] == 2017
    assert records[1]["title"] == "Deep Residual Learning for Image Recognition"
    assert (records[1]["doi"], records[1]["venue"]) == ("10.1109/cvpr.2016.90", "CVPR 2016")


def test_merge_drops_the_preprint_of_a_published_paper(replay, tmp_path, capsys):
    saved = []
    for source, query in (("crossref", "x"), ("arxiv", "y")):
        assert lit.main([source, query, "--json"], replay(), {}, lambda s: None) == 0
        path = tmp_path / f"{source}.json"
        path.write_text(capsys.readouterr().out)
        saved.append(str(path))
    assert lit.main(["merge", *saved, "--json"], replay(), {}, lambda s: None) == 0
    merged = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in merged["records"]] == [
        "DOI:10.1038/nature14539",
        "DOI:10.1109/cvpr.2016.90",
        "arXiv:1706.03762v7",
    ]
    assert merged["total"] == 4


def test_pubmed_translation_and_every_warning_are_printed(replay, capsys):
    fetch = replay("esearch_warnings.json", "esummary_retracted.json")
    assert (
        lit.main(["pubmed", 'covid and hydroxychloroquine "registry analysys" zzqxv[tiabx]'], fetch, {}, lambda s: None)
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[-7:] == [
        '# query translation: ("covid 19"[MeSH Terms] OR "covid"[All Fields]) AND "hydroxychloroquine"[All Fields]',
        "# warning: phrase not found: zzqxv",
        "# warning: field not found: [tiabx]",
        "# warning: phrase ignored: and",
        '# warning: quoted phrase not found: "registry analysys"',
        "# warning: Quoted phrase not found.",
        "# pubmed: 1 of 12",
    ]


def test_pubmed_retracted_publications_are_flagged(replay, capsys):
    fetch = replay("esearch_warnings.json", "esummary_retracted.json")
    assert lit.main(["pubmed", "x", "--json"], fetch, {}, lambda s: None) == 0
    (record,) = json.loads(capsys.readouterr().out)["records"]
    assert record["flags"] == ["retracted"] and record["doi"] == "10.1016/s0140-6736(20)31180-6"
    assert lit.main(["pubmed", "x"], fetch, {}, lambda s: None) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("\tretracted")


def test_entities_in_titles_are_decoded():
    (record,) = lit.parse_crossref(
        '{"message": {"total-results": 1, "items": [{"DOI": "10.1/x", "title": ["R&amp;D in <i>E. coli</i>"],'
        ' "container-title": ["Cells &amp; Systems"]}]}}'
    ).records
    assert (record.title, record.venue) == ("R&D in E. coli", "Cells & Systems")


def test_crossref_relation_links_versions():
    (record,) = lit.parse_crossref(
        '{"message": {"items": [{"DOI": "10.1101/2020.01.01.1", "type": "posted-content", "title": ["T"],'
        ' "relation": {"is-preprint-of": [{"id-type": "doi", "id": "10.1038/S41586-020-1", "asserted-by": "subject"}],'
        ' "cites": [{"id-type": "doi", "id": "10.1/other"}]}}]}}'
    ).records
    assert (record.kind, record.related) == ("preprint", ["10.1038/s41586-020-1"])


def test_merge_keeps_one_record_per_work_across_years_and_prefers_the_published_one(fixtures_dir, capsys):
    saved = str(fixtures_dir / "litsearch" / "versions.json")
    assert lit.main(["merge", saved, "--json"], None, {}, lambda s: None) == 0
    merged = {r["id"]: r for r in json.loads(capsys.readouterr().out)["records"]}
    # an arXiv preprint (2020) and its proceedings version (2021): same title, same first author
    assert merged["DOI:10.5555/neurips.2021.ddpm"]["duplicates"] == ["arXiv:2006.11239v2"]
    # a bioRxiv preprint (2019) retitled on publication (2022), linked only by Crossref's relation
    assert merged["DOI:10.5555/journal.2022.99"]["duplicates"] == ["DOI:10.5555/biorxiv.2019.01"]
    # different works are never merged: two Chinese titles, two "Introduction"s by different authors
    assert {"DOI:10.5555/zh.1", "DOI:10.5555/zh.2", "DOI:10.5555/intro.a", "DOI:10.5555/intro.b"} <= set(merged)
    assert len(merged) == 6


def _record(**fields):
    base = {"source": "crossref", "id": "x", "title": "t", "authors": [], "year": 2020, "kind": "journal-article"}
    return lit.Record(**{**base, **fields})


def test_merge_never_joins_distinct_works_that_share_a_title():
    records = [
        _record(id="DOI:10.1/a", doi="10.1/a", title="Correction"),
        _record(id="DOI:10.2/b", doi="10.2/b", title="Correction"),
        _record(id="DOI:10.1/c", doi="10.1/c", title="Editorial", authors=["Smith J"]),
        _record(id="DOI:10.2/d", doi="10.2/d", title="Editorial", authors=["Smith A"]),
        _record(id="PMID:1", title="肠道菌群与免疫治疗", authors=["王伟"]),
        _record(id="PMID:2", title="肠道菌群与免疫治疗", authors=["李娜"]),
    ]
    assert len(lit.merge(records)) == 6


def test_merge_keeps_a_retraction_flag_whichever_record_wins():
    crossref = _record(id="DOI:10.1/x", doi="10.1/x", title="A finding", authors=["Lee Ann"])
    pubmed = _record(
        source="pubmed", id="PMID:9", doi="10.1/x", title="A finding", authors=["Lee A"], flags=["retracted"]
    )
    (merged,) = lit.merge([crossref, pubmed])
    assert merged.flags == ["retracted"] and merged.duplicates == ["PMID:9"]
    preprint = _record(
        source="arxiv", id="arXiv:1", title="A finding", authors=["Ann Lee"], kind="preprint", flags=["retracted"]
    )
    published = _record(id="DOI:10.1/y", doi="10.1/y", title="A finding", authors=["Lee Ann"], year=2021)
    (merged,) = lit.merge([preprint, published])
    assert merged.id == "DOI:10.1/y" and merged.flags == ["retracted"]
