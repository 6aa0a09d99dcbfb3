"""paper-to-slides: the journal-club command fetches a paper's PDF from an arXiv id or an open-access DOI, and
says plainly what to provide when it cannot (no network here: the services answer from hand-written fixtures)."""

from __future__ import annotations

import pytest

from tests.skills.conftest import load_script

fetch_paper = load_script("paper-to-slides", "fetch_paper")
PDF = b"%PDF-1.7\n% a real PDF starts like this\n"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2006.11239", ("arxiv", "2006.11239")),
        ("arXiv:2006.11239v2", ("arxiv", "2006.11239v2")),
        ("https://arxiv.org/abs/2006.11239", ("arxiv", "2006.11239")),
        ("https://arxiv.org/pdf/2006.11239v1.pdf", ("arxiv", "2006.11239v1")),
        ("hep-th/9901001", ("arxiv", "hep-th/9901001")),
        ("10.48550/arXiv.2006.11239", ("arxiv", "2006.11239")),
        ("https://doi.org/10.1038/s41586-020-2649-2", ("doi", "10.1038/s41586-020-2649-2")),
    ],
)
def test_ids_are_recognised(raw, expected):
    assert fetch_paper.classify(raw) == expected


def test_arxiv_pdf_is_saved(tmp_path, capsys):
    asked = []

    def fetch(url):
        asked.append(url)
        return 200, PDF

    assert fetch_paper.main(["arXiv:2006.11239", "-o", str(tmp_path / "p.pdf")], fetch, {}) == 0
    assert asked == ["https://arxiv.org/pdf/2006.11239"]
    assert (tmp_path / "p.pdf").read_bytes() == PDF
    assert capsys.readouterr().out == f"saved {tmp_path / 'p.pdf'} from https://arxiv.org/pdf/2006.11239\n"


def test_open_access_doi_goes_through_unpaywall(fixtures_dir, tmp_path):
    record = (fixtures_dir / "unpaywall" / "open.json").read_bytes()
    asked = []

    def fetch(url):
        asked.append(url)
        return (200, record) if "unpaywall" in url else (200, PDF)

    code = fetch_paper.main(
        ["10.1038/s41586-020-2649-2", "-o", str(tmp_path / "p.pdf")], fetch, {"UNPAYWALL_EMAIL": "me@lab.org"}
    )
    assert code == 0
    assert asked == [
        "https://api.unpaywall.org/v2/10.1038/s41586-020-2649-2?email=me%40lab.org",
        "https://www.nature.com/articles/s41586-020-2649-2.pdf",
    ]


@pytest.mark.parametrize(
    ("answer", "env", "message"),
    [
        (lambda url: (0, b"Name or service not known"), {"UNPAYWALL_EMAIL": "a@b"}, "no network?"),
        (None, {"UNPAYWALL_EMAIL": "a@b"}, "paywalled"),
        (lambda url: (404, b'{"error": true}'), {"UNPAYWALL_EMAIL": "a@b"}, "does not know DOI"),
        (lambda url: (200, b"{}"), {}, "needs a contact e-mail"),
    ],
)
def test_when_no_pdf_can_be_had_it_says_what_to_provide(fixtures_dir, tmp_path, capsys, answer, env, message):
    closed = (fixtures_dir / "unpaywall" / "closed.json").read_bytes()
    fetch = answer or (lambda url: (200, closed))
    out = tmp_path / "p.pdf"
    assert fetch_paper.main(["10.5555/paywalled.2019.1", "-o", str(out)], fetch, env) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and message in err and "ask the user for the PDF" in err and err.count("\n") == 1
    assert not out.exists()


def test_a_landing_page_is_not_saved_as_a_pdf(tmp_path, capsys):
    out = tmp_path / "p.pdf"
    assert fetch_paper.main(["2006.11239", "-o", str(out)], lambda url: (200, b"<html>login</html>"), {}) == 1
    assert "did not return a PDF" in capsys.readouterr().err and not out.exists()


def test_something_that_is_no_id_is_a_usage_error(tmp_path, capsys):
    assert fetch_paper.main(["Lee et al. 2024", "-o", str(tmp_path / "p.pdf")], lambda url: (200, PDF), {}) == 2
    assert capsys.readouterr().err == "Error: not an arXiv id or a DOI: 'Lee et al. 2024'\n"


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("(10.1038/nature14539).", "10.1038/nature14539"),
        ("10.1016/S0140-6736(20)30183-5)", "10.1016/s0140-6736(20)30183-5"),
    ],
)
def test_doi_punctuation_from_prose_is_trimmed_as_in_cite_tool(raw, doi):
    assert fetch_paper.classify(raw) == ("doi", doi)


def test_a_failing_best_copy_falls_back_to_the_next_open_copy(fixtures_dir, tmp_path):
    import json

    record = json.loads((fixtures_dir / "unpaywall" / "open.json").read_text())
    record["oa_locations"] = [{"url_for_pdf": "https://europepmc.org/articles/pmc1/pdf"}]
    answers = {
        "unpaywall": (200, json.dumps(record).encode()),
        "nature.com": (403, b"forbidden"),
        "europepmc": (200, PDF),
    }

    def fetch(url):
        return next(answer for host, answer in answers.items() if host in url)

    out = tmp_path / "p.pdf"
    assert fetch_paper.main(["10.1038/s41586-020-2649-2", "-o", str(out), "--email", "a@b"], fetch, {}) == 0
    assert out.read_bytes() == PDF
