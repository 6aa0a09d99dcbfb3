"""Query PubMed (NCBI E-utilities), Crossref and arXiv and print normalised records.

One small, dependency-free client for the three free scholarly APIs, with each service's rate limit built in,
so a search is reproducible: the exact query string, the date window and the hit count go into the search log.

    skillbox-python lit_query.py pubmed '"sepsis"[MeSH] AND procalcitonin[tiab]' --mindate 2020 --retmax 50
    skillbox-python lit_query.py crossref "procalcitonin antibiotic duration" --from-year 2020 --rows 20
    skillbox-python lit_query.py arxiv 'ti:"diffusion model" AND cat:cs.CV' --max 20
    skillbox-python lit_query.py merge pubmed.json crossref.json      # de-duplicate saved --json outputs

Every search prints the records (TSV, or --json) and a final "# source: N of TOTAL" line. Rate limits: PubMed 3
requests/s, or 10/s with NCBI_API_KEY set; arXiv one request every 3 s; Crossref is polite with CROSSREF_MAILTO.
Exit 0 on success, 1 when a service fails, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

EUTILS = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/"
CROSSREF = "https://api.crossref.org/works"
ARXIV = "https://export.arxiv.org/api/query"
ATOM = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
Fetch = Callable[[str], str]


class ServiceError(RuntimeError):
    """A search service failed or answered with something unusable."""


@dataclass
class Record:
    source: str
    id: str
    title: str
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    doi: str = ""
    url: str = ""


class Throttle:
    """Keeps at least `interval` seconds between calls (services block clients that go faster)."""

    def __init__(self, interval: float, clock=time.monotonic, sleep=time.sleep):
        self.interval, self.clock, self.sleep = interval, clock, sleep
        self.last: float | None = None

    def wait(self) -> None:
        now = self.clock()
        if self.last is not None and now - self.last < self.interval:
            self.sleep(self.interval - (now - self.last))
            now = self.clock()
        self.last = now


def http_get(url: str, timeout: float = 30.0) -> str:
    request = urllib.request.Request(url, headers={"User-Agent": "skillbox-literature-search/1.0"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        raise ServiceError(f"{urllib.parse.urlsplit(url).netloc} answered HTTP {err.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as err:
        raise ServiceError(f"cannot reach {urllib.parse.urlsplit(url).netloc}: {getattr(err, 'reason', err)}") from None


def _year(text: str) -> int | None:
    match = re.search(r"(19|20)\d{2}", text or "")
    return int(match.group()) if match else None


# --- PubMed ---------------------------------------------------------------------------------------------------


def pubmed_params(api_key: str | None, email: str | None) -> dict:
    params = {"tool": "skillbox", "retmode": "json"}
    if api_key:
        params["api_key"] = api_key
    if email:
        params["email"] = email
    return params


def pubmed_interval(api_key: str | None) -> float:
    return 0.1 if api_key else 0.34


def esearch_url(query: str, retmax: int, mindate: str | None, maxdate: str | None, sort: str, base: dict) -> str:
    params = {**base, "db": "pubmed", "term": query, "retmax": retmax, "sort": sort}
    if mindate or maxdate:
        params.update(datetype="pdat", mindate=mindate or "1800", maxdate=maxdate or "3000")
    return EUTILS + "esearch.fcgi?" + urllib.parse.urlencode(params)


def parse_esearch(text: str) -> tuple[list[str], int]:
    try:
        result = json.loads(text)["esearchresult"]
    except (json.JSONDecodeError, KeyError):
        raise ServiceError("PubMed esearch returned an unexpected body") from None
    if "ERROR" in result:
        raise ServiceError(f"PubMed rejected the query: {result['ERROR']}")
    return result.get("idlist", []), int(result.get("count", 0))


def parse_esummary(text: str) -> list[Record]:
    try:
        result = json.loads(text)["result"]
    except (json.JSONDecodeError, KeyError):
        raise ServiceError("PubMed esummary returned an unexpected body") from None
    records = []
    for uid in result.get("uids", []):
        doc = result[uid]
        ids = {a.get("idtype"): a.get("value") for a in doc.get("articleids", [])}
        records.append(
            Record(
                source="pubmed",
                id=f"PMID:{uid}",
                title=doc.get("title", "").rstrip("."),
                authors=[a["name"] for a in doc.get("authors", []) if a.get("authtype", "Author") == "Author"],
                venue=doc.get("fulljournalname") or doc.get("source", ""),
                year=_year(doc.get("pubdate", "")),
                doi=(ids.get("doi") or "").lower(),
                url=f"https://pubmed.ncbi.nlm.nih.gov/{uid}/",
            )
        )
    return records


def search_pubmed(query, retmax, mindate, maxdate, sort, fetch: Fetch, throttle: Throttle, env=os.environ):
    base = pubmed_params(env.get("NCBI_API_KEY"), env.get("NCBI_EMAIL"))
    throttle.wait()
    ids, total = parse_esearch(fetch(esearch_url(query, retmax, mindate, maxdate, sort, base)))
    if not ids:
        return [], total
    throttle.wait()
    summary = EUTILS + "esummary.fcgi?" + urllib.parse.urlencode({**base, "db": "pubmed", "id": ",".join(ids)})
    return parse_esummary(fetch(summary)), total


# --- Crossref -------------------------------------------------------------------------------------------------


def crossref_url(query: str, rows: int, from_year: int | None, until_year: int | None, kind: str | None, mailto):
    filters = []
    if from_year:
        filters.append(f"from-pub-date:{from_year}")
    if until_year:
        filters.append(f"until-pub-date:{until_year}")
    if kind:
        filters.append(f"type:{kind}")
    params = {"query.bibliographic": query, "rows": rows}
    if filters:
        params["filter"] = ",".join(filters)
    if mailto:
        params["mailto"] = mailto
    return CROSSREF + "?" + urllib.parse.urlencode(params)


def parse_crossref(text: str) -> tuple[list[Record], int]:
    try:
        message = json.loads(text)["message"]
        items = message["items"]
    except (json.JSONDecodeError, KeyError):
        raise ServiceError("Crossref returned an unexpected body") from None
    records = []
    for item in items:
        parts = (item.get("issued") or {}).get("date-parts") or [[None]]
        records.append(
            Record(
                source="crossref",
                id=f"DOI:{item.get('DOI', '').lower()}",
                title=re.sub(r"<[^>]+>", "", (item.get("title") or [""])[0]),
                authors=[f"{a.get('family', '')} {a.get('given', '')}".strip() for a in item.get("author", [])],
                venue=(item.get("container-title") or [""])[0],
                year=parts[0][0] if parts and parts[0] else None,
                doi=item.get("DOI", "").lower(),
                url=item.get("URL", ""),
            )
        )
    return records, int(message.get("total-results", len(records)))


# --- arXiv ----------------------------------------------------------------------------------------------------


def arxiv_url(query: str, max_results: int, sort: str) -> str:
    params = {"search_query": query, "start": 0, "max_results": max_results, "sortBy": sort, "sortOrder": "descending"}
    return ARXIV + "?" + urllib.parse.urlencode(params)


def parse_arxiv(text: str) -> tuple[list[Record], int]:
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        raise ServiceError("arXiv returned something that is not Atom XML") from None
    total = root.findtext("{http://a9.com/-/spec/opensearch/1.1/}totalResults") or "0"
    records = []
    for entry in root.findall("a:entry", ATOM):
        abs_url = entry.findtext("a:id", "", ATOM).strip()
        arxiv_id = re.sub(r"^https?://arxiv\.org/abs/", "", abs_url)
        records.append(
            Record(
                source="arxiv",
                id=f"arXiv:{arxiv_id}",
                title=" ".join(entry.findtext("a:title", "", ATOM).split()),
                authors=[a.findtext("a:name", "", ATOM) for a in entry.findall("a:author", ATOM)],
                venue=(entry.findtext("arxiv:journal_ref", "", ATOM) or "arXiv").strip(),
                year=_year(entry.findtext("a:published", "", ATOM)),
                doi=(entry.findtext("arxiv:doi", "", ATOM) or "").strip().lower(),
                url=abs_url,
            )
        )
    return records, int(total)


# --- merging --------------------------------------------------------------------------------------------------


def _title_key(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.lower()))


def merge(records: list[Record]) -> list[Record]:
    """Drop duplicates across sources: same DOI, or same normalised title and year. The first record seen wins,
    so list the most authoritative source first (PubMed/Crossref before arXiv)."""
    seen: set[str] = set()
    out = []
    for r in records:
        keys = {f"doi:{r.doi}"} if r.doi else set()
        keys.add(f"title:{_title_key(r.title)}:{r.year}")
        if keys & seen:
            continue
        seen |= keys
        out.append(r)
    return out


# --- command line ---------------------------------------------------------------------------------------------


def emit(records: list[Record], total: int, source: str, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"source": source, "total": total, "records": [asdict(r) for r in records]}, indent=1))
        return
    for r in records:
        authors = ", ".join(r.authors[:3]) + (" et al." if len(r.authors) > 3 else "")
        print("\t".join([r.id, str(r.year or ""), r.title, authors, r.venue, r.doi]))
    print(f"# {source}: {len(records)} of {total}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pm = sub.add_parser("pubmed", help="PubMed via E-utilities (esearch + esummary)")
    pm.add_argument("query", help="PubMed query, field tags allowed: [MeSH], [tiab], [au], [dp]")
    pm.add_argument("--retmax", type=int, default=20)
    pm.add_argument("--mindate", help="YYYY or YYYY/MM/DD (publication date)")
    pm.add_argument("--maxdate", help="YYYY or YYYY/MM/DD")
    pm.add_argument("--sort", choices=["relevance", "pub_date"], default="relevance")
    cr = sub.add_parser("crossref", help="Crossref works search (bibliographic query)")
    cr.add_argument("query")
    cr.add_argument("--rows", type=int, default=20)
    cr.add_argument("--from-year", type=int)
    cr.add_argument("--until-year", type=int)
    cr.add_argument("--type", dest="kind", help="Crossref type, e.g. journal-article")
    ax = sub.add_parser("arxiv", help="arXiv API (prefixes ti: au: abs: cat: all:)")
    ax.add_argument("query")
    ax.add_argument("--max", type=int, default=20)
    ax.add_argument("--sort", choices=["relevance", "submittedDate", "lastUpdatedDate"], default="relevance")
    mg = sub.add_parser("merge", help="de-duplicate saved --json outputs by DOI and title")
    mg.add_argument("files", nargs="+")
    for p in (pm, cr, ax, mg):
        p.add_argument("--json", action="store_true", help="print JSON instead of TSV")
    return parser


def main(argv: list[str] | None = None, fetch: Fetch = http_get, env=os.environ, sleep=time.sleep) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "pubmed":
            throttle = Throttle(pubmed_interval(env.get("NCBI_API_KEY")), sleep=sleep)
            records, total = search_pubmed(
                args.query, args.retmax, args.mindate, args.maxdate, args.sort, fetch, throttle, env
            )
        elif args.command == "crossref":
            url = crossref_url(
                args.query, args.rows, args.from_year, args.until_year, args.kind, env.get("CROSSREF_MAILTO")
            )
            records, total = parse_crossref(fetch(url))
        elif args.command == "arxiv":
            records, total = parse_arxiv(fetch(arxiv_url(args.query, args.max, args.sort)))
        else:
            loaded = []
            for name in args.files:
                with open(name, encoding="utf-8") as handle:
                    loaded += [Record(**r) for r in json.load(handle)["records"]]
            records = merge(loaded)
            total = len(loaded)
    except ServiceError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"Error: cannot read saved results: {err}", file=sys.stderr)
        return 2
    emit(records, total, args.command, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
