"""paper-citations: DOI verification against recorded Crossref responses, and BibTeX/RIS/EndNote export."""

from __future__ import annotations

import json
import re

import pytest

from tests.skills.conftest import load_script

cite = load_script("paper-citations", "cite_tool")


@pytest.fixture
def crossref(fixtures_dir):
    """A fetcher that answers from recorded Crossref responses and remembers the URLs asked for."""
    folder = fixtures_dir / "crossref"
    asked: list[str] = []

    def fetch(url: str):
        asked.append(url)
        doi = re.sub(r"\?.*$", "", url.removeprefix(cite.API))
        path = folder / (doi.replace("/", "_") + ".json")
        if path.exists():
            return 200, path.read_text()
        return 404, (folder / "not_found.txt").read_text()

    fetch.asked = asked
    return fetch


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("10.1038/nature14539", "10.1038/nature14539"),
        ("https://doi.org/10.1038/NATURE14539", "10.1038/nature14539"),
        ("doi: 10.1109/CVPR.2016.90.", "10.1109/cvpr.2016.90"),
        ("http://dx.doi.org/10.1145%2F3065386", "10.1145/3065386"),
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
    wrong, _ = cite.verify_doi("10.1145/3065386", crossref, None, 2012)
    assert wrong.status == "YEAR_MISMATCH"
    close, _ = cite.verify_doi("10.1145/3065386", crossref, None, 2016)
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


def test_export_bibtex_ris_endnote(fixtures_dir, tmp_path, capsys):
    files = [str(fixtures_dir / "crossref" / n) for n in ("10.1038_nature14539.json", "10.1109_cvpr.2016.90.json")]
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
