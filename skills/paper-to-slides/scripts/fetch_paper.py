"""Fetch a paper's PDF from its arXiv id or DOI, so a journal-club deck can start from a reference.

arXiv ids (2006.11239, 2006.11239v2, hep-th/9901001, arXiv:…, arxiv.org/abs/… URLs and 10.48550/arXiv.… DOIs) come
from arXiv. Other DOIs are looked up in Unpaywall, which knows the legal open-access copy of a paper when there
is one (set UNPAYWALL_EMAIL or CROSSREF_MAILTO, or pass --email: Unpaywall asks for a contact address). A paywalled
paper has no such copy: the script says so instead of guessing, and the user provides the PDF.

    skillbox-python fetch_paper.py 2006.11239 -o paper.pdf
    skillbox-python fetch_paper.py 10.1038/s41586-020-2649-2 -o paper.pdf --email me@lab.org

Exit 0: saved (prints the path and where it came from). Exit 1: no PDF could be had (no open copy, no network,
not a PDF) with one line saying what to provide instead. Exit 2: the id is neither an arXiv id nor a DOI.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

# The plugin's own copy of the package first: the script and the helpers it uses are always the same version.
_TOOLS = Path(__file__).resolve().parents[3] / "tools"
if (_TOOLS / "skillbox" / "papers").is_dir():
    sys.path.insert(0, str(_TOOLS))
from skillbox.papers import doi as dois  # noqa: E402 (after the path line above)

Fetch = Callable[[str], tuple[int, bytes]]
ARXIV_NEW = re.compile(r"^(\d{4}\.\d{4,5})(v\d+)?$")
ARXIV_OLD = re.compile(r"^([a-z-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?$")
UNPAYWALL = "https://api.unpaywall.org/v2/"
ASK_USER = "ask the user for the PDF (or download it in a browser) and pass its path instead"


class Unavailable(RuntimeError):
    """No PDF could be had; the message says why and what to provide instead."""


def http_fetch(url: str, timeout: float = 30.0) -> tuple[int, bytes]:
    """GET `url`: (status, body); a network failure is status 0 with the reason as body."""
    request = urllib.request.Request(url, headers={"User-Agent": "skillbox-paper-to-slides/1.0"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()
    except (urllib.error.URLError, TimeoutError, OSError) as err:
        return 0, str(getattr(err, "reason", err)).encode()


def classify(raw: str) -> tuple[str, str]:
    """("arxiv", id) or ("doi", doi); raises ValueError for anything else."""
    text = dois.strip_prefixes(raw).removesuffix(".pdf")
    text = re.sub(r"^(https?://)?(www\.)?(arxiv\.org/(abs|pdf)/)", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^arxiv:\s*", "", text, flags=re.IGNORECASE)
    arxiv_doi = re.match(r"^10\.48550/arxiv\.(.+)$", text, flags=re.IGNORECASE)
    if arxiv_doi:
        text = arxiv_doi.group(1)
    for pattern in (ARXIV_NEW, ARXIV_OLD):
        if pattern.match(text):
            return "arxiv", text
    try:
        return "doi", dois.normalise(text)
    except ValueError:
        raise ValueError(f"not an arXiv id or a DOI: {raw!r}") from None


def _download(url: str, fetch: Fetch, where: str) -> bytes:
    status, body = fetch(url)
    if status == 0:
        raise Unavailable(f"cannot reach {where} ({body.decode(errors='replace')[:80]}): no network? {ASK_USER}")
    if status != 200:
        raise Unavailable(f"{where} answered HTTP {status} for {url}: {ASK_USER}")
    if not body.startswith(b"%PDF"):
        raise Unavailable(f"{url} did not return a PDF (a landing page or a login wall?): {ASK_USER}")
    return body


def open_access_pdf_urls(doi: str, fetch: Fetch, email: str | None) -> list[str]:
    """PDF links of the legal open-access copies Unpaywall knows, best first."""
    if not email:
        raise Unavailable("Unpaywall needs a contact e-mail: set UNPAYWALL_EMAIL (or pass --email), or " + ASK_USER)
    url = UNPAYWALL + urllib.parse.quote(doi, safe="/()") + "?" + urllib.parse.urlencode({"email": email})
    status, body = fetch(url)
    if status == 0:
        raise Unavailable(f"cannot reach Unpaywall ({body.decode(errors='replace')[:80]}): no network? {ASK_USER}")
    if status == 404:
        raise Unavailable(f"Unpaywall does not know DOI {doi} (check it with cite_tool.py verify); {ASK_USER}")
    if status != 200:
        raise Unavailable(f"Unpaywall answered HTTP {status}: {ASK_USER}")
    try:
        record = json.loads(body)
    except json.JSONDecodeError:
        raise Unavailable(f"Unpaywall answered something that is not JSON: {ASK_USER}") from None
    locations = [record.get("best_oa_location") or {}, *(record.get("oa_locations") or [])]
    urls = list(dict.fromkeys(loc["url_for_pdf"] for loc in locations if loc and loc.get("url_for_pdf")))
    if not urls:
        raise Unavailable(f"no open-access copy of {doi} is known (the paper is paywalled): {ASK_USER}")
    return urls


def fetch_paper(raw: str, out: Path, fetch: Fetch = http_fetch, email: str | None = None) -> str:
    """Save the PDF to `out`; returns where it came from."""
    kind, ident = classify(raw)
    if kind == "arxiv":
        url = f"https://arxiv.org/pdf/{ident}"
        body = _download(url, fetch, "arxiv.org")
    else:
        problem = None
        for url in open_access_pdf_urls(ident, fetch, email):  # a repository copy may work where the publisher's fails
            try:
                body = _download(url, fetch, urllib.parse.urlsplit(url).netloc or "the open-access host")
                break
            except Unavailable as err:
                problem = err
        else:
            raise problem
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(body)
    return url


def main(argv: list[str] | None = None, fetch: Fetch = http_fetch, env=os.environ) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paper", help="arXiv id, arXiv URL or DOI")
    parser.add_argument("-o", "--output", type=Path, default=Path("paper.pdf"), help="where to save (paper.pdf)")
    parser.add_argument("--email", default=env.get("UNPAYWALL_EMAIL") or env.get("CROSSREF_MAILTO"))
    args = parser.parse_args(argv)
    try:
        source = fetch_paper(args.paper, args.output, fetch, args.email)
    except ValueError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    except Unavailable as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    print(f"saved {args.output} from {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
