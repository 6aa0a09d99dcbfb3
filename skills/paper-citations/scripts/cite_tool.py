"""Verify DOIs against Crossref and export verified records as BibTeX, RIS or EndNote.

A reference is only as good as its DOI check: a model can write a plausible title, authors and DOI that do not
belong together. `verify` looks each DOI up in the Crossref REST API and compares it with what the draft claims;
`export` turns the Crossref records it saved into the formats reference managers import.

    skillbox-python cite_tool.py verify 10.1038/nature14539 --expect-title "Deep learning" --expect-year 2015 \
        --save-dir refs/                       # stores refs/<doi>.json for export
    skillbox-python cite_tool.py verify --from-file claims.tsv --save-dir refs/   # TSV: doi<TAB>title<TAB>year
    skillbox-python cite_tool.py export refs/*.json --format bibtex|ris|enw [-o refs.bib]

verify prints one status per DOI: VERIFIED, CORRECTED (verified, and a correction/erratum is on record),
RETRACTED, CONCERN (expression of concern), WITHDRAWN, NOTICE (the DOI is a retraction/correction notice, not a
paper), DOI_ONLY (the DOI exists but no title was given to compare), TITLE_MISMATCH (including titles that differ
in a number, numeral or word however alike they look), YEAR_MISMATCH, NOT_FOUND or UNCHECKED (network failure;
never treat it as verified). Retraction status comes from Crossref (`updated-by` on the work,
`update-to` when the DOI is itself a notice) and from PubMed (publication type "Retracted Publication"; skip with
--no-pubmed). Exit 0 when every DOI is VERIFIED or CORRECTED, 1 otherwise, 2 on usage errors. Only VERIFIED and
CORRECTED records are saved by --save-dir, and export refuses any other record unless --force is given, so a
mismatched DOI can never reach refs.bib by accident.
Set CROSSREF_MAILTO (or --mailto) to join Crossref's polite pool; requests are spaced by --delay seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import unicodedata
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
from skillbox.papers import doi as dois  # noqa: E402 (after the path line above)
from skillbox.papers import titles  # noqa: E402 (after the path line above)

API = "https://api.crossref.org/works/"
EUTILS = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/"
Fetch = Callable[[str], tuple[int, str]]


# --- DOI handling ---------------------------------------------------------------------------------------------


def normalise_doi(raw: str) -> str:
    """Bare lower-case DOI from a DOI, doi: form or doi.org URL; raises ValueError when it is not a DOI."""
    return dois.normalise(raw)


def crossref_url(doi: str, mailto: str | None = None) -> str:
    url = API + urllib.parse.quote(doi, safe="/:;()")
    return url + ("?" + urllib.parse.urlencode({"mailto": mailto}) if mailto else "")


def http_fetch(url: str, timeout: float = 20.0) -> tuple[int, str]:
    """GET `url`; returns (status, body). Network failures come back as status 0 with the reason as body."""
    request = urllib.request.Request(url, headers={"User-Agent": "skillbox-paper-citations/1.0"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8", "replace")
    except (urllib.error.URLError, TimeoutError, OSError) as err:
        return 0, str(getattr(err, "reason", err))


# --- verification ---------------------------------------------------------------------------------------------

clean_text = titles.clean_text
normalise_title = titles.key
title_similarity = titles.similarity


def crossref_titles(message: dict) -> list[str]:
    """Every title Crossref holds for the work: main, main + subtitle, original-language and short titles, so a
    claim written as "Title: Subtitle" or in the original language still matches."""
    main = [t for t in message.get("title") or [] if t]
    subtitles = [t for t in message.get("subtitle") or [] if t]
    combined = [f"{t}: {s}" for t in main[:1] for s in subtitles[:1]]
    others = [t for key in ("original-title", "short-title") for t in message.get(key) or [] if t]
    return main + combined + others


def issued_year(message: dict) -> int | None:
    for key in ("issued", "published-print", "published-online", "published"):
        parts = (message.get(key) or {}).get("date-parts") or [[None]]
        if parts and parts[0] and parts[0][0]:
            return int(parts[0][0])
    return None


@dataclass
class Verdict:
    doi: str
    status: str
    detail: str
    title: str | None = None
    year: int | None = None
    journal: str | None = None
    updates: list[dict] = field(default_factory=list)


# Crossref update types (and PubMed publication types) -> the verdict they give the cited work, worst first.
UPDATE_VERDICTS = {
    "retraction": "RETRACTED",
    "partial_retraction": "RETRACTED",
    "removal": "RETRACTED",
    "withdrawal": "WITHDRAWN",
    "expression_of_concern": "CONCERN",
    "correction": "CORRECTED",
    "erratum": "CORRECTED",
    "corrigendum": "CORRECTED",
}
SEVERITY = ["RETRACTED", "WITHDRAWN", "CONCERN", "CORRECTED"]
CITABLE = {"VERIFIED", "CORRECTED"}
# A DOI checked without a claimed title only proves that the DOI exists, not that it is the paper the draft means.


def crossref_updates(message: dict) -> list[dict]:
    """Notices that change the standing of this work: Crossref's `updated-by` list (publisher deposits and the
    Retraction Watch data Crossref merged in), plus the notice's own `update-to` when the DOI given IS a
    retraction notice rather than the paper."""
    updates = []
    for item in message.get("updated-by") or []:
        kind = str(item.get("type", "")).lower().replace("-", "_").replace(" ", "_")
        updates.append({"type": kind, "doi": str(item.get("DOI", "")).lower(), "source": item.get("source", "")})
    for item in message.get("update-to") or []:
        kind = str(item.get("type", "")).lower().replace("-", "_").replace(" ", "_")
        if kind in UPDATE_VERDICTS:
            updates.append({"type": "notice_of_" + kind, "doi": str(item.get("DOI", "")).lower(), "source": "self"})
    return updates


def pubmed_updates(doi: str, fetch: Fetch) -> tuple[list[dict], str | None]:
    """Retraction/correction flags PubMed holds for the DOI: efetch's PublicationType "Retracted Publication" and
    its CommentsCorrections (RetractionIn, ErratumIn, ExpressionOfConcernIn). Returns (updates, problem)."""
    term = urllib.parse.urlencode({"db": "pubmed", "term": f"{doi}[doi]", "retmode": "json", "tool": "skillbox"})
    status, body = fetch(EUTILS + "esearch.fcgi?" + term)
    if status != 200:
        return [], f"PubMed not checked ({status or 'network'})"
    try:
        ids = json.loads(body)["esearchresult"].get("idlist", [])
    except (json.JSONDecodeError, KeyError, AttributeError):
        return [], "PubMed not checked (unexpected esearch body)"
    if not ids:
        return [], None
    query = urllib.parse.urlencode({"db": "pubmed", "id": ids[0], "retmode": "xml", "tool": "skillbox"})
    status, body = fetch(EUTILS + "efetch.fcgi?" + query)
    if status != 200:
        return [], f"PubMed not checked ({status or 'network'})"
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        return [], "PubMed not checked (efetch is not XML)"
    updates = []
    types = {(t.text or "").strip() for t in root.iter("PublicationType")}
    if "Retracted Publication" in types:
        updates.append({"type": "retraction", "doi": "", "source": f"pubmed:{ids[0]}"})
    if "Retraction of Publication" in types:
        updates.append({"type": "notice_of_retraction", "doi": "", "source": f"pubmed:{ids[0]}"})
    kinds = {"RetractionIn": "retraction", "ErratumIn": "erratum", "ExpressionOfConcernIn": "expression_of_concern"}
    for item in root.iter("CommentsCorrections"):
        kind = kinds.get(item.get("RefType", ""))
        if kind and not (kind == "retraction" and "Retracted Publication" in types):
            updates.append({"type": kind, "doi": "", "source": f"pubmed:{ids[0]}", "note": item.findtext("RefSource")})
    return updates, None


def standing(updates: list[dict]) -> str | None:
    """The worst verdict the updates give; a DOI that is itself a retraction notice is not the paper."""
    if any(u["type"].startswith("notice_of_") for u in updates):
        return "NOTICE"
    found = {UPDATE_VERDICTS[u["type"]] for u in updates if u["type"] in UPDATE_VERDICTS}
    return next((v for v in SEVERITY if v in found), None)


def verify_doi(
    raw_doi: str,
    fetch: Fetch,
    expect_title: str | None = None,
    expect_year: int | None = None,
    mailto: str | None = None,
    pubmed: bool = False,
) -> tuple[Verdict, dict | None]:
    """Look the DOI up and compare it with the claimed title/year; returns the verdict and the Crossref record."""
    doi = normalise_doi(raw_doi)
    status, body = fetch(crossref_url(doi, mailto))
    if status == 404:
        return Verdict(doi, "NOT_FOUND", "Crossref has no record of this DOI"), None
    if status != 200:
        return Verdict(doi, "UNCHECKED", f"Crossref lookup failed ({status or 'network'}: {body[:80]})"), None
    try:
        message = json.loads(body)["message"]
    except (json.JSONDecodeError, KeyError, TypeError):
        return Verdict(doi, "UNCHECKED", "Crossref answered with something that is not a work record"), None
    all_titles = crossref_titles(message)
    title = clean_text(all_titles[0]) if all_titles else ""
    year = issued_year(message)
    journal = clean_text((message.get("container-title") or [""])[0]) or None
    verdict = Verdict(doi, "VERIFIED", "DOI resolves", title, year, journal)
    if expect_title is not None:
        if not normalise_title(expect_title):
            verdict.status, verdict.detail = "TITLE_MISMATCH", f"claimed title {expect_title!r} has no words to compare"
            return verdict, message
        if not all_titles:
            verdict.status, verdict.detail = "TITLE_MISMATCH", "Crossref holds no title for this DOI to compare with"
            return verdict, message
        checks = [titles.same_title(expect_title, t) for t in all_titles]
        if not any(ok for ok, _, _ in checks):
            _, ratio, differ = max(checks, key=lambda c: c[1])
            words = ", ".join(repr(w) for w, _ in differ[:4])
            verdict.status = "TITLE_MISMATCH"
            verdict.detail = f"DOI belongs to {title!r} (similarity {ratio:.2f}" + (
                f"; differs in {words})" if differ else ")"
            )
            return verdict, message
        verdict.detail = "DOI resolves; title matches"
    if expect_year is not None and year is not None and abs(year - expect_year) > 1:
        verdict.status = "YEAR_MISMATCH"
        verdict.detail = f"Crossref year {year}, claimed {expect_year}"
        return verdict, message
    if expect_year is not None and year is None:
        verdict.detail += " (Crossref gives no year to compare)"
    elif expect_year is not None and year != expect_year:
        verdict.detail += f" (online/print year differ: Crossref {year})"
    verdict.updates = crossref_updates(message)
    if pubmed:
        found, problem = pubmed_updates(doi, fetch)
        verdict.updates += found
        if problem:
            verdict.detail += f"; {problem}"
    worst = standing(verdict.updates)
    if worst == "NOTICE":
        kinds = sorted(
            {u["type"].removeprefix("notice_of_") for u in verdict.updates if u["type"].startswith("notice_")}
        )
        verdict.status = "NOTICE"
        verdict.detail = f"this DOI is a {'/'.join(kinds)} notice, not the paper: cite the paper it updates instead"
    elif worst:
        verdict.status = worst
        notices = ", ".join(sorted({u["doi"] or u["source"] for u in verdict.updates if u["type"] in UPDATE_VERDICTS}))
        verdict.detail += f"; {worst.lower()} per {notices}"
    elif expect_title is None:
        verdict.status = "DOI_ONLY"
        verdict.detail += "; no title given, so it is not known to be the paper meant (pass --expect-title)"
    return verdict, message


# --- export ---------------------------------------------------------------------------------------------------

KINDS = {
    # crossref type: (bibtex entry, RIS TY, EndNote %0)
    "journal-article": ("article", "JOUR", "Journal Article"),
    "proceedings-article": ("inproceedings", "CPAPER", "Conference Proceedings"),
    "book-chapter": ("incollection", "CHAP", "Book Section"),
    "book": ("book", "BOOK", "Book"),
    "monograph": ("book", "BOOK", "Book"),
    "posted-content": ("misc", "UNPB", "Electronic Article"),
    "dataset": ("misc", "DATA", "Dataset"),
}
DEFAULT_KIND = ("misc", "GEN", "Generic")


@dataclass
class Record:
    kind: str
    authors: list[tuple[str, str]]  # (family, given)
    title: str
    container: str
    year: int | None
    volume: str
    issue: str
    pages: str
    doi: str
    url: str
    publisher: str
    issn: str


def record_from_crossref(message: dict) -> Record:
    authors = []
    for person in message.get("author") or []:
        if person.get("family"):
            authors.append((person["family"], person.get("given", "")))
        elif person.get("name"):  # consortium authors
            authors.append((person["name"], ""))
    return Record(
        kind=message.get("type", ""),
        authors=authors,
        title=clean_text((message.get("title") or [""])[0]),
        container=clean_text((message.get("container-title") or [""])[0]),
        year=issued_year(message),
        volume=str(message.get("volume", "")),
        issue=str(message.get("issue", "")),
        pages=str(message.get("page", "")),
        doi=message.get("DOI", "").lower(),
        url=message.get("URL", "") or (f"https://doi.org/{message.get('DOI', '')}" if message.get("DOI") else ""),
        publisher=clean_text(message.get("publisher", "")),
        issn=(message.get("ISSN") or [""])[0],
    )


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def bibtex_key(record: Record, taken: set[str]) -> str:
    family = re.sub(r"[^A-Za-z]", "", _ascii(record.authors[0][0])) if record.authors else "Anon"
    words = [w for w in re.findall(r"[A-Za-z]+", _ascii(record.title)) if w.lower() not in {"a", "an", "the", "on"}]
    key = f"{family}{record.year or ''}{words[0].capitalize() if words else ''}"
    candidate, suffix = key, ord("a")
    while candidate in taken:
        candidate, suffix = key + chr(suffix), suffix + 1
    taken.add(candidate)
    return candidate


def _bib_escape(text: str) -> str:
    return re.sub(r"([&%$#_])", r"\\\1", text)


def to_bibtex(records: list[Record]) -> str:
    taken: set[str] = set()
    out = []
    for r in records:
        entry = KINDS.get(r.kind, DEFAULT_KIND)[0]
        container_field = {"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle"}
        fields = [
            ("author", " and ".join(f"{f}, {g}" if g else f"{{{f}}}" for f, g in r.authors)),
            ("title", "{" + _bib_escape(r.title) + "}"),
            (container_field.get(entry, "howpublished"), _bib_escape(r.container)),
            ("year", str(r.year or "")),
            ("volume", r.volume),
            ("number", r.issue),
            ("pages", r.pages.replace("-", "--")),
            ("publisher", _bib_escape(r.publisher) if entry in {"book", "incollection"} else ""),
            ("doi", r.doi),
            ("url", r.url),
        ]
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
        out.append(f"@{entry}{{{bibtex_key(r, taken)},\n{body}\n}}\n")
    return "\n".join(out)


def _split_pages(pages: str) -> tuple[str, str]:
    start, _, end = pages.partition("-")
    return start, end


def to_ris(records: list[Record]) -> str:
    out = []
    for r in records:
        start, end = _split_pages(r.pages)
        lines = [("TY", KINDS.get(r.kind, DEFAULT_KIND)[1])]
        lines += [("AU", f"{f}, {g}" if g else f) for f, g in r.authors]
        lines += [("TI", r.title), ("T2", r.container), ("PY", str(r.year or "")), ("VL", r.volume)]
        lines += [("IS", r.issue), ("SP", start), ("EP", end), ("PB", r.publisher), ("SN", r.issn)]
        lines += [("DO", r.doi), ("UR", r.url)]
        out.append("\n".join(f"{tag}  - {value}" for tag, value in lines if value) + "\nER  - \n")
    return "\n".join(out)


def to_endnote(records: list[Record]) -> str:
    out = []
    for r in records:
        lines = [("%0", KINDS.get(r.kind, DEFAULT_KIND)[2])]
        lines += [("%A", f"{f}, {g}" if g else f) for f, g in r.authors]
        container_tag = "%J" if r.kind == "journal-article" else "%B"
        lines += [("%T", r.title), (container_tag, r.container), ("%D", str(r.year or "")), ("%V", r.volume)]
        lines += [("%N", r.issue), ("%P", r.pages), ("%I", r.publisher), ("%@", r.issn), ("%R", r.doi)]
        lines += [("%U", r.url)]
        out.append("\n".join(f"{tag} {value}" for tag, value in lines if value) + "\n")
    return "\n".join(out)


FORMATS = {"bibtex": to_bibtex, "ris": to_ris, "enw": to_endnote}


VERIFICATION_KEY = "skillbox-verification"


class Unverified(ValueError):
    """A record that `verify` did not pass (or never saw): exporting it could put the wrong paper in refs.bib."""


def load_records(paths: list[Path], force: bool = False) -> list[Record]:
    """Crossref records from files saved by `verify --save-dir`. A file without a passing verification (a raw
    Crossref response, or one saved before its DOI failed) is refused unless `force`, with the reason."""
    records = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data if isinstance(data, list) else [data]:
            message = item.get("message", item) if isinstance(item, dict) else None
            if not isinstance(message, dict) or "DOI" not in message:
                raise ValueError(f"{path}: not a Crossref work record (no DOI field)")
            check = item.get(VERIFICATION_KEY) if isinstance(item, dict) else None
            status = check.get("status") if isinstance(check, dict) else None
            if status not in CITABLE and not force:
                why = f"its verification says {status}" if status else "it was not saved by `cite_tool.py verify`"
                raise Unverified(f"{path}: refusing to export {message['DOI']}: {why} (re-run verify, or --force)")
            records.append(record_from_crossref(message))
    return records


# --- command line ---------------------------------------------------------------------------------------------


def read_claims(path: Path) -> list[tuple[str, str | None, int | None]]:
    claims = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        title = cells[1].strip() if len(cells) > 1 and cells[1].strip() else None
        year = int(cells[2]) if len(cells) > 2 and cells[2].strip().isdigit() else None
        claims.append((cells[0].strip(), title, year))
    return claims


class PoliteFetch:
    """Spaces requests to NCBI E-utilities (3/s without an API key, 10/s with NCBI_API_KEY) and adds the key;
    other URLs pass straight through."""

    def __init__(self, fetch: Fetch, api_key: str | None, sleep=time.sleep, clock=time.monotonic):
        self.fetch, self.api_key, self.sleep, self.clock = fetch, api_key, sleep, clock
        self.interval = 0.1 if api_key else 0.34
        self.last: float | None = None

    def __call__(self, url: str) -> tuple[int, str]:
        if url.startswith(EUTILS):
            now = self.clock()
            if self.last is not None and now - self.last < self.interval:
                self.sleep(self.interval - (now - self.last))
            self.last = self.clock()
            if self.api_key:
                url += "&" + urllib.parse.urlencode({"api_key": self.api_key})
        return self.fetch(url)


def save_record(folder: Path, verdict: Verdict, message: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^a-z0-9._-]+", "_", verdict.doi) + ".json"
    check = {"status": verdict.status, "detail": verdict.detail, "checked": time.strftime("%Y-%m-%d")}
    if verdict.updates:
        check["updates"] = verdict.updates
    payload = {VERIFICATION_KEY: check, "message": message}
    (folder / name).write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")


def cmd_verify(args, fetch: Fetch) -> int:
    claims = [(d, args.expect_title, args.expect_year) for d in args.dois]
    if args.from_file:
        claims += read_claims(args.from_file)
    if not claims:
        print("Error: give DOIs or --from-file", file=sys.stderr)
        return 2
    fetch = PoliteFetch(fetch, os.environ.get("NCBI_API_KEY"))
    verdicts = []
    for n, (doi, title, year) in enumerate(claims):
        if n and args.delay:
            time.sleep(args.delay)
        try:
            verdict, message = verify_doi(doi, fetch, title, year, args.mailto, pubmed=args.pubmed)
        except ValueError as err:
            verdict, message = Verdict(doi, "NOT_FOUND", str(err)), None
        verdicts.append(verdict)
        # Only a citable record is kept: a saved mismatch would be exported as if it were the claimed paper.
        if message is not None and args.save_dir and verdict.status in CITABLE:
            save_record(args.save_dir, verdict, message)
    if args.json:
        print(json.dumps([asdict(v) for v in verdicts], ensure_ascii=False, indent=2))
    else:
        for v in verdicts:
            print(f"{v.status}\t{v.doi}\t{v.detail}")
    return 0 if all(v.status in CITABLE for v in verdicts) else 1


def cmd_export(args) -> int:
    try:
        records = load_records(args.records, force=args.force)
    except Unverified as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    text = FORMATS[args.format](records)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {len(records)} record(s) to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    verify = sub.add_parser("verify", help="check DOIs against Crossref")
    verify.add_argument("dois", nargs="*", help="DOIs, doi: forms or doi.org URLs")
    verify.add_argument("--expect-title", help="title the draft gives for the DOI")
    verify.add_argument("--expect-year", type=int, help="year the draft gives for the DOI")
    verify.add_argument("--from-file", type=Path, help="TSV lines: doi<TAB>claimed title<TAB>claimed year")
    verify.add_argument("--save-dir", type=Path, help="save each Crossref record as <doi>.json for export")
    verify.add_argument("--mailto", default=os.environ.get("CROSSREF_MAILTO"), help="contact e-mail (polite pool)")
    verify.add_argument("--delay", type=float, default=0.2, help="seconds between requests (default 0.2)")
    verify.add_argument(
        "--no-pubmed", dest="pubmed", action="store_false", help="skip PubMed's retraction/erratum flags"
    )
    verify.add_argument("--json", action="store_true")
    export = sub.add_parser("export", help="convert saved Crossref records")
    export.add_argument("records", nargs="+", type=Path, help="JSON files saved by verify --save-dir")
    export.add_argument("--format", choices=sorted(FORMATS), required=True)
    export.add_argument("-o", "--output", type=Path)
    export.add_argument("--force", action="store_true", help="also export records verify did not pass")
    return parser


def main(argv: list[str] | None = None, fetch: Fetch = http_fetch) -> int:
    args = build_parser().parse_args(argv)
    return cmd_verify(args, fetch) if args.command == "verify" else cmd_export(args)


if __name__ == "__main__":
    sys.exit(main())
