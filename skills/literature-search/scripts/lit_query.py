"""Query PubMed (NCBI E-utilities), Crossref and arXiv and print normalised records.

One small, dependency-free client for the three free scholarly APIs, with each service's rate limit built in,
so a search is reproducible: the exact query string, the date window and the hit count go into the search log.

    skillbox-python lit_query.py pubmed '"sepsis"[MeSH] AND procalcitonin[tiab]' --mindate 2020 --retmax 50
    skillbox-python lit_query.py crossref "procalcitonin antibiotic duration" --from-year 2020 --rows 20
    skillbox-python lit_query.py arxiv 'ti:"diffusion model" AND cat:cs.CV' --max 20
    skillbox-python lit_query.py merge pubmed.json crossref.json      # de-duplicate saved --json outputs

Every search prints the records (TSV, or --json) and a final "# source: N of TOTAL" line. PubMed searches also print
how PubMed translated the query ("# query translation: ...") and every warning or error it raised about it
("# warning: ..."): a phrase PubMed ignored or could not find changes what the hit count means. Records PubMed
marks as retracted (publication type "Retracted Publication") carry the flag "retracted". `merge` keeps one record
per work: the same DOI, a Crossref preprint/published `relation`, or the same title (in any script) with an
overlapping first author within three years; the published version wins over a preprint and the ids it absorbed
are listed in `duplicates`. Rate limits: PubMed 3
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
from pathlib import Path

# The plugin's own copy of the package first: the script and the helpers it uses are always the same version.
_TOOLS = Path(__file__).resolve().parents[3] / "tools"
if (_TOOLS / "skillbox" / "papers").is_dir():
    sys.path.insert(0, str(_TOOLS))
from skillbox.papers import titles  # noqa: E402 (after the path line above)

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
    kind: str = ""  # "preprint" for arXiv and Crossref posted-content, else the source's type
    related: list[str] = field(default_factory=list)  # DOIs of other versions (Crossref relation, arXiv's own DOI)
    flags: list[str] = field(default_factory=list)  # "retracted"
    duplicates: list[str] = field(default_factory=list)  # ids merged into this record by `merge`


@dataclass
class Search:
    """One service's answer: its records, its total hit count and what it said about the query."""

    records: list[Record]
    total: int
    translation: str = ""
    warnings: list[str] = field(default_factory=list)


clean_text = titles.clean_text


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


def parse_esearch(text: str) -> tuple[list[str], int, str, list[str]]:
    """ids, hit count, PubMed's translation of the query, and its warnings/errors about the query."""
    try:
        result = json.loads(text)["esearchresult"]
    except (json.JSONDecodeError, KeyError):
        raise ServiceError("PubMed esearch returned an unexpected body") from None
    if "ERROR" in result:
        raise ServiceError(f"PubMed rejected the query: {result['ERROR']}")
    warnings = []
    labels = {
        "phrasesnotfound": "phrase not found",
        "fieldsnotfound": "field not found",
        "phrasesignored": "phrase ignored",
        "quotedphrasesnotfound": "quoted phrase not found",
    }
    for group in ("errorlist", "warninglist"):
        for key, values in (result.get(group) or {}).items():
            for value in values or []:
                warnings.append(value if key == "outputmessages" else f"{labels.get(key, key)}: {value}")
    return result.get("idlist", []), int(result.get("count", 0)), result.get("querytranslation", ""), warnings


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
                title=clean_text(doc.get("title", "")).rstrip("."),
                authors=[a["name"] for a in doc.get("authors", []) if a.get("authtype", "Author") == "Author"],
                venue=doc.get("fulljournalname") or doc.get("source", ""),
                year=_year(doc.get("pubdate", "")),
                doi=(ids.get("doi") or "").lower(),
                url=f"https://pubmed.ncbi.nlm.nih.gov/{uid}/",
                kind="journal-article",
                flags=["retracted"] if "Retracted Publication" in (doc.get("pubtype") or []) else [],
            )
        )
    return records


def search_pubmed(query, retmax, mindate, maxdate, sort, fetch: Fetch, throttle: Throttle, env=os.environ) -> Search:
    base = pubmed_params(env.get("NCBI_API_KEY"), env.get("NCBI_EMAIL"))
    throttle.wait()
    ids, total, translation, warnings = parse_esearch(fetch(esearch_url(query, retmax, mindate, maxdate, sort, base)))
    if not ids:
        return Search([], total, translation, warnings)
    throttle.wait()
    summary = EUTILS + "esummary.fcgi?" + urllib.parse.urlencode({**base, "db": "pubmed", "id": ",".join(ids)})
    return Search(parse_esummary(fetch(summary)), total, translation, warnings)


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


RELATIONS = ("is-preprint-of", "has-preprint", "is-version-of", "has-version", "is-identical-to")


def _related_dois(item: dict) -> list[str]:
    relation = item.get("relation") or {}
    return sorted(
        {
            str(link.get("id", "")).lower()
            for name in RELATIONS
            for link in relation.get(name) or []
            if link.get("id-type") == "doi" and link.get("id")
        }
    )


def parse_crossref(text: str) -> Search:
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
                title=clean_text((item.get("title") or [""])[0]),
                authors=[f"{a.get('family', '')} {a.get('given', '')}".strip() for a in item.get("author", [])],
                venue=clean_text((item.get("container-title") or [""])[0]),
                year=parts[0][0] if parts and parts[0] else None,
                doi=item.get("DOI", "").lower(),
                url=item.get("URL", ""),
                kind="preprint" if item.get("type") == "posted-content" else item.get("type", ""),
                related=_related_dois(item),
            )
        )
    return Search(records, int(message.get("total-results", len(records))))


# --- arXiv ----------------------------------------------------------------------------------------------------


def arxiv_url(query: str, max_results: int, sort: str) -> str:
    params = {"search_query": query, "start": 0, "max_results": max_results, "sortBy": sort, "sortOrder": "descending"}
    return ARXIV + "?" + urllib.parse.urlencode(params)


def parse_arxiv(text: str) -> Search:
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
                title=clean_text(entry.findtext("a:title", "", ATOM)),
                authors=[a.findtext("a:name", "", ATOM) for a in entry.findall("a:author", ATOM)],
                venue=(entry.findtext("arxiv:journal_ref", "", ATOM) or "arXiv").strip(),
                year=_year(entry.findtext("a:published", "", ATOM)),
                doi=(entry.findtext("arxiv:doi", "", ATOM) or "").strip().lower(),
                url=abs_url,
                kind="preprint",
                # arXiv registers a DOI of its own for every paper (Crossref relations point at it)
                related=[f"10.48550/arxiv.{re.sub(r'v[0-9]+$', '', arxiv_id).lower()}"] if arxiv_id else [],
            )
        )
    return Search(records, int(total))


# --- merging --------------------------------------------------------------------------------------------------


def title_key(title: str) -> str:
    """A title in comparable form for any script (see skillbox.papers.titles)."""
    return titles.key(title)


def _name_tokens(record: Record) -> set[str]:
    """Words of the first author's name: sources order family and given names differently ("LeCun Y",
    "LeCun Yann", "Yann LeCun"), so two records share an author when they share a word longer than an initial.
    A name in an unspaced script (王伟) is one word as a whole."""
    if not record.authors:
        return set()
    name = record.authors[0]
    found = {w for w in titles.words(name) if len(w) > 1}
    unspaced = "".join(w for w in titles.words(name) if len(w) == 1 and not w.isascii())
    return found | ({unspaced} if unspaced else set())


def _same_work(a: Record, b: Record) -> bool:
    """Same title (compared by the caller): also the same work? Two published records with different DOIs never
    are (journals reuse titles such as "Correction" or "Editorial"); a preprint and a published version are when
    their first authors share a name and the years are within three."""
    if a.doi and b.doi and a.doi != b.doi and "preprint" not in {a.kind, b.kind}:
        return False
    if a.year and b.year and abs(a.year - b.year) > 3:
        return False
    names_a, names_b = _name_tokens(a), _name_tokens(b)
    if not names_a or not names_b:
        return False  # nobody to compare: a shared title alone is not enough
    return bool(names_a & names_b)


def merge(records: list[Record]) -> list[Record]:
    """One record per work across sources. Two records are the same work when they share a DOI (a record's own,
    or one Crossref lists as another version), or when their titles are equal in comparable form and
    `_same_work` agrees (a preprint and its journal version usually differ in year, so the year may differ by up to
    three). The published version wins over a preprint; otherwise the first record seen wins, so list the most
    authoritative source first. What a record absorbed is listed in its `duplicates`."""
    out: list[Record] = []
    by_doi: dict[str, int] = {}
    by_title: dict[str, list[int]] = {}
    for r in records:
        dois = {d for d in [r.doi, *r.related] if d}
        key = title_key(r.title)
        slot = next((by_doi[d] for d in dois if d in by_doi), None)
        if slot is None and key:
            slot = next((i for i in by_title.get(key, []) if _same_work(out[i], r)), None)
        if slot is None:
            slot = len(out)
            out.append(r)
        else:
            kept = out[slot]
            flags = sorted(set(kept.flags) | set(r.flags))  # a retraction found by any source stays
            if kept.kind == "preprint" and r.kind != "preprint":
                r.duplicates = [*kept.duplicates, kept.id, *r.duplicates]
                out[slot] = r
            else:
                kept.duplicates.append(r.id)
            out[slot].flags = flags
        for d in dois:
            by_doi.setdefault(d, slot)
        if key and slot not in by_title.setdefault(key, []):
            by_title[key].append(slot)
    return out


# --- command line ---------------------------------------------------------------------------------------------


def emit(search: Search, source: str, as_json: bool) -> None:
    records, total = search.records, search.total
    if as_json:
        payload = {"source": source, "total": total, "records": [asdict(r) for r in records]}
        if source == "pubmed":
            payload.update(querytranslation=search.translation, warnings=search.warnings)
        print(json.dumps(payload, indent=1, ensure_ascii=False))
        return
    for r in records:
        authors = ", ".join(r.authors[:3]) + (" et al." if len(r.authors) > 3 else "")
        print("\t".join([r.id, str(r.year or ""), r.title, authors, r.venue, r.doi, ",".join(r.flags)]).rstrip("\t"))
    if search.translation:
        print(f"# query translation: {search.translation}")
    for warning in search.warnings:
        print(f"# warning: {warning}")
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
            search = search_pubmed(args.query, args.retmax, args.mindate, args.maxdate, args.sort, fetch, throttle, env)
        elif args.command == "crossref":
            url = crossref_url(
                args.query, args.rows, args.from_year, args.until_year, args.kind, env.get("CROSSREF_MAILTO")
            )
            search = parse_crossref(fetch(url))
        elif args.command == "arxiv":
            search = parse_arxiv(fetch(arxiv_url(args.query, args.max, args.sort)))
        else:
            loaded = []
            for name in args.files:
                with open(name, encoding="utf-8") as handle:
                    loaded += [Record(**r) for r in json.load(handle)["records"]]
            search = Search(merge(loaded), len(loaded))
    except ServiceError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"Error: cannot read saved results: {err}", file=sys.stderr)
        return 2
    emit(search, args.command, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
