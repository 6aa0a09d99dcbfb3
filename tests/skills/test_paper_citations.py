"""paper-citations: DOI verification against recorded Crossref responses, and BibTeX/RIS/EndNote export."""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

import pytest

from tests.skills.conftest import load_script

cite = load_script("paper-citations", "cite_tool")


def _key(doi: str) -> str:
    return re.sub(r"[^a-z0-9._-]+", "_", doi.lower())


@pytest.fixture
def crossref(fixtures_dir):
    """A fetcher that answers from recorded (and labelled hand-written) Crossref and E-utilities responses and
    remembers the URLs asked for."""
    asked: list[str] = []

    def fetch(url: str):
        asked.append(url)
        if url.startswith(cite.EUTILS):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
            if "esearch.fcgi" in url:
                doi = query["term"][0].removesuffix("[doi]")
                path = fixtures_dir / "pubmed" / f"esearch_{_key(doi)}.json"
                return 200, (path if path.exists() else fixtures_dir / "pubmed" / "esearch_none.json").read_text()
            path = fixtures_dir / "pubmed" / f"efetch_{query['id'][0]}.xml"
            return (200, path.read_text()) if path.exists() else (400, "no such id")
        doi = urllib.parse.unquote(re.sub(r"\?.*$", "", url.removeprefix(cite.API)))
        path = fixtures_dir / "crossref" / (_key(doi) + ".json")
        if path.exists():
            return 200, path.read_text()
        return 404, (fixtures_dir / "crossref" / "not_found.txt").read_text()

    fetch.asked = asked
    return fetch


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("10.1038/nature14539", "10.1038/nature14539"),
        ("https://doi.org/10.1038/NATURE14539", "10.1038/nature14539"),
        ("doi: 10.1109/CVPR.2016.90.", "10.1109/cvpr.2016.90"),
        ("http://dx.doi.org/10.1145%2F3065386", "10.1145/3065386"),
        # prose punctuation around a DOI is not part of it ...
        ("(doi:10.1038/nature14539).", "10.1038/nature14539"),
        ("10.1038/nature14539),", "10.1038/nature14539"),
        ("“10.1038/nature14539”;", "10.1038/nature14539"),
        ("[10.1145/3065386]", "10.1145/3065386"),
        # ... but brackets inside a DOI are
        ("10.1016/S0140-6736(20)31180-6", "10.1016/s0140-6736(20)31180-6"),
        ("(https://doi.org/10.1016/S0140-6736(20)31180-6)", "10.1016/s0140-6736(20)31180-6"),
    ],
)
def test_doi_forms_normalise_to_one_key(raw, doi):
    assert cite.normalise_doi(raw) == doi


def test_not_a_doi_is_rejected():
    with pytest.raises(ValueError, match="not a DOI"):
        cite.normalise_doi("Nature 521, 436")


def test_matching_title_and_year_is_verified(crossref):
    verdict, record = cite.verify_doi("10.1038/nature14539", crossref, "Deep Learning.", 2015, mailto="me@lab.org")
    assert verdict.status == "VERIFIED"
    assert (verdict.title, verdict.year, verdict.journal) == ("Deep learning", 2015, "Nature")
    assert record["volume"] == "521"
    assert crossref.asked == ["https://api.crossref.org/works/10.1038/nature14539?mailto=me%40lab.org"]


def test_real_doi_attached_to_another_papers_title_is_a_mismatch(crossref):
    verdict, _ = cite.verify_doi("10.1145/3065386", crossref, "Deep residual learning for image recognition", 2016)
    assert verdict.status == "TITLE_MISMATCH"
    assert "ImageNet classification" in verdict.detail


def test_year_off_by_more_than_one_is_a_mismatch_and_off_by_one_is_noted(crossref):
    title = "ImageNet classification with deep convolutional neural networks"
    wrong, _ = cite.verify_doi("10.1145/3065386", crossref, title, 2012)
    assert wrong.status == "YEAR_MISMATCH"
    close, _ = cite.verify_doi("10.1145/3065386", crossref, title, 2016)
    assert close.status == "VERIFIED"
    assert "Crossref 2017" in close.detail


def test_invented_doi_is_not_found(crossref):
    verdict, record = cite.verify_doi("10.1038/s41586-099-99999-9", crossref)
    assert (verdict.status, record) == ("NOT_FOUND", None)


def test_network_failure_is_unchecked_never_verified():
    verdict, _ = cite.verify_doi("10.1038/nature14539", lambda url: (0, "Name or service not known"))
    assert verdict.status == "UNCHECKED"


def test_verify_cli_saves_records_and_exits_1_on_any_failure(crossref, tmp_path, capsys):
    claims = tmp_path / "claims.tsv"
    claims.write_text("10.1038/nature14539\tDeep learning\t2015\n10.9999/made-up\tA plausible title\t2020\n")
    code = cite.main(
        ["verify", "--from-file", str(claims), "--save-dir", str(tmp_path / "refs"), "--delay", "0"], crossref
    )
    assert code == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["VERIFIED", "NOT_FOUND"]
    assert [p.name for p in (tmp_path / "refs").iterdir()] == ["10.1038_nature14539.json"]


def test_export_bibtex_ris_endnote(crossref, tmp_path, capsys):
    refs = tmp_path / "refs"
    claims = tmp_path / "claims.tsv"
    claims.write_text(
        "10.1038/nature14539\tDeep learning\t2015\n"
        "10.1109/CVPR.2016.90\tDeep residual learning for image recognition\t2016\n"
    )
    assert cite.main(["verify", "--from-file", str(claims), "--save-dir", str(refs), "--delay", "0"], crossref) == 0
    capsys.readouterr()
    files = [str(refs / n) for n in ("10.1038_nature14539.json", "10.1109_cvpr.2016.90.json")]
    assert cite.main(["export", *files, "--format", "bibtex"]) == 0
    bib = capsys.readouterr().out
    assert "@article{LeCun2015Deep," in bib
    assert "author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey}" in bib
    assert "pages = {436--444}" in bib and "journal = {Nature}" in bib
    assert "@inproceedings{He2016Deep," in bib
    assert "booktitle = {2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)}" in bib

    out = tmp_path / "refs.ris"
    assert cite.main(["export", *files, "--format", "ris", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote 2 record(s) to {out}\n"
    ris = out.read_text()
    first = ris.split("ER  - ")[0].splitlines()
    assert first[0] == "TY  - JOUR"
    assert first[1:4] == ["AU  - LeCun, Yann", "AU  - Bengio, Yoshua", "AU  - Hinton, Geoffrey"]
    assert {"SP  - 436", "EP  - 444", "DO  - 10.1038/nature14539", "PY  - 2015"} <= set(first)
    assert "TY  - CPAPER" in ris

    assert cite.main(["export", files[0], "--format", "enw"]) == 0
    enw = capsys.readouterr().out.splitlines()
    assert enw[0] == "%0 Journal Article"
    assert {
        "%A LeCun, Yann",
        "%T Deep learning",
        "%J Nature",
        "%D 2015",
        "%P 436-444",
        "%R 10.1038/nature14539",
    } <= set(enw)


def test_bibtex_keys_stay_unique_and_specials_are_escaped():
    message = json.loads(
        '{"DOI": "10.1/x", "type": "journal-article", "title": ["R&D at 100% _scale_"],'
        '"author": [{"family": "Müller", "given": "Jörg"}], "issued": {"date-parts": [[2020]]}}'
    )
    records = [cite.record_from_crossref(message)] * 2
    bib = cite.to_bibtex(records)
    assert "@article{Muller2020R," in bib and "@article{Muller2020Ra," in bib
    assert r"title = {{R\&D at 100\% \_scale\_}}" in bib


def test_export_rejects_files_that_are_not_crossref_records(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text('{"title": "no doi"}')
    assert cite.main(["export", str(bad), "--format", "ris"]) == 2
    assert capsys.readouterr().err.startswith("Error: ")


# --- titles in every script -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doi", "right", "wrong"),
    [
        ("10.5555/zh.2019.0042", "深度学习在医学影像诊断中的应用进展", "基于区块链技术的供应链金融风险研究"),
        ("10.5555/zh.2019.0042", "深度学习在医学影像诊断中的应用进展。", "深度学习在自然语言处理中的应用综述"),
        ("10.5555/ja.2020.11", "深層学習による画像認識の基礎", "強化学習によるロボット制御の応用"),
    ],
)
def test_non_latin_titles_are_compared_character_by_character(crossref, doi, right, wrong):
    assert cite.verify_doi(doi, crossref, right, pubmed=False)[0].status == "VERIFIED"
    verdict, _ = cite.verify_doi(doi, crossref, wrong, pubmed=False)
    assert verdict.status == "TITLE_MISMATCH", verdict.detail


def test_a_claimed_title_with_nothing_to_compare_is_never_verified(crossref):
    verdict, _ = cite.verify_doi("10.1038/nature14539", crossref, "???", pubmed=False)
    assert verdict.status == "TITLE_MISMATCH"
    assert cite.title_similarity("🙂", "🙂") == 0.0


def test_title_plus_subtitle_and_entities_match_and_are_decoded(crossref):
    verdict, message = cite.verify_doi(
        "10.5555/corrected.2021.7", crossref, "Sleep duration & memory consolidation in adolescents: a cohort study"
    )
    assert verdict.title == "Sleep duration & memory consolidation in adolescents"
    assert verdict.journal == "Journal of Examples & Tests"
    record = cite.record_from_crossref(message)
    assert "&amp;" not in cite.to_ris([record]) and "T2  - Journal of Examples & Tests" in cite.to_ris([record])
    assert r"title = {{Sleep duration \& memory" in cite.to_bibtex([record])


# --- retractions and corrections ---------------------------------------------------------------------------


def test_retracted_work_is_its_own_verdict_from_crossref_and_pubmed(crossref):
    verdict, _ = cite.verify_doi("10.1016/S0140-6736(20)31180-6", crossref, pubmed=False)
    assert verdict.status == "RETRACTED"
    assert "10.1016/s0140-6736(20)31324-6" in verdict.detail
    with_pubmed, _ = cite.verify_doi("10.1016/S0140-6736(20)31180-6", crossref, pubmed=True)
    assert with_pubmed.status == "RETRACTED"
    assert {u["source"] for u in with_pubmed.updates} == {"publisher", "pubmed:32450107"}


def test_pubmed_alone_flags_a_retraction_crossref_does_not_know(crossref, fixtures_dir):
    message = json.loads((fixtures_dir / "crossref" / "10.1016_s0140-6736_20_31180-6.json").read_text())
    del message["message"]["updated-by"]

    def fetch(url):
        return (200, json.dumps(message)) if url.startswith(cite.API) else crossref(url)

    title = "Hydroxychloroquine or chloroquine with or without a macrolide for treatment of COVID-19"
    title += ": a multinational registry analysis"
    assert cite.verify_doi("10.1016/S0140-6736(20)31180-6", fetch, "RETRACTED: " + title)[0].status == "VERIFIED"
    verdict, _ = cite.verify_doi("10.1016/S0140-6736(20)31180-6", fetch, "RETRACTED: " + title, pubmed=True)
    assert verdict.status == "RETRACTED" and "pubmed:32450107" in verdict.detail


def test_a_retraction_notice_is_not_the_paper(crossref):
    verdict, _ = cite.verify_doi("10.1016/S0140-6736(20)31324-6", crossref, pubmed=False)
    assert verdict.status == "NOTICE"
    assert "retraction notice" in verdict.detail and verdict.status not in cite.CITABLE


def test_corrected_work_is_citable_and_says_so(crossref, tmp_path, capsys):
    code = cite.main(["verify", "10.5555/corrected.2021.7", "--save-dir", str(tmp_path), "--delay", "0"], crossref)
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("CORRECTED\t10.5555/corrected.2021.7\t") and "10.5555/corrected.2021.7e" in out
    saved = json.loads((tmp_path / "10.5555_corrected.2021.7.json").read_text())
    assert saved["skillbox-verification"]["status"] == "CORRECTED"


def test_pubmed_outage_is_reported_not_hidden(crossref):
    def fetch(url):
        return (0, "Name or service not known") if url.startswith(cite.EUTILS) else crossref(url)

    verdict, _ = cite.verify_doi("10.1038/nature14539", fetch, "Deep learning", pubmed=True)
    assert verdict.status == "VERIFIED" and "PubMed not checked" in verdict.detail


# --- only verified records are saved and exported ----------------------------------------------------------


def test_mismatched_or_retracted_records_are_never_saved(crossref, tmp_path, capsys):
    claims = tmp_path / "claims.tsv"
    claims.write_text(
        "10.1145/3065386\tDeep residual learning for image recognition\t2016\n"
        "10.1016/S0140-6736(20)31180-6\t\t2020\n"
        "10.1038/nature14539\tDeep learning\t2015\n"
    )
    refs = tmp_path / "refs"
    assert cite.main(["verify", "--from-file", str(claims), "--save-dir", str(refs), "--delay", "0"], crossref) == 1
    statuses = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    assert statuses == ["TITLE_MISMATCH", "RETRACTED", "VERIFIED"]
    assert sorted(p.name for p in refs.iterdir()) == ["10.1038_nature14539.json"]


def test_export_refuses_unverified_records_unless_forced(fixtures_dir, tmp_path, capsys):
    raw = str(fixtures_dir / "crossref" / "10.1145_3065386.json")
    assert cite.main(["export", raw, "--format", "bibtex"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and "10.1145/3065386" in err and "--force" in err and len(err.splitlines()) == 1
    failed = tmp_path / "failed.json"
    failed.write_text(
        json.dumps({"skillbox-verification": {"status": "TITLE_MISMATCH"}, **json.loads(Path(raw).read_text())})
    )
    assert cite.main(["export", str(failed), "--format", "ris"]) == 1
    assert "TITLE_MISMATCH" in capsys.readouterr().err
    assert cite.main(["export", raw, "--format", "bibtex", "--force"]) == 0
    assert "@article{Krizhevsky2017Imagenet," in capsys.readouterr().out


@pytest.mark.parametrize(
    ("claimed", "actual"),
    [
        ("Mortality after surgery in men", "Mortality after surgery in women"),
        ("Sepsis management, part I", "Sepsis management, part II"),
        ("A phase 2 trial of drug X", "A phase 3 trial of drug X"),
        ("基于深度学习的医学图像分割方法研究", "基于深度学习的医学图像识别方法研究"),
        ("गहन शिक्षा का परिचय", "गहन शक्ति का परिचय"),
    ],
)
def test_titles_alike_but_for_one_word_or_number_are_different_works(claimed, actual):
    ok, ratio, differ = cite.titles.same_title(claimed, actual)
    assert ratio > 0.85 and not ok and differ


def test_a_typo_in_the_claimed_title_still_matches():
    assert cite.titles.same_title(
        "Deep residual lerning for image recognition", "Deep Residual Learning for Image Recognition"
    )[0]


def test_a_doi_checked_without_a_title_is_not_verified_nor_saved(crossref, tmp_path, capsys):
    assert (
        cite.main(["verify", "10.1038/nature14539", "--save-dir", str(tmp_path / "refs"), "--no-pubmed"], crossref) == 1
    )
    assert capsys.readouterr().out.startswith("DOI_ONLY\t10.1038/nature14539\t")
    assert not (tmp_path / "refs").exists()
