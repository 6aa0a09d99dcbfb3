"""Verify DOIs against Crossref and export verified records as BibTeX, RIS or EndNote.

A reference is only as good as its DOI check: a model can write a plausible title, authors and DOI that do not
belong together. `verify` looks each DOI up in the Crossref REST API and compares it with what the draft claims;
`export` turns the Crossref records it saved into the formats reference managers import.

    skillbox-python cite_tool.py verify 10.1038/nature14539 --expect-title "Deep learning" --expect-year 2015 \
        --save-dir refs/                       # stores refs/<doi>.json for export
    skillbox-python cite_tool.py verify --from-file claims.tsv --save-dir refs/   # TSV: doi<TAB>title<TAB>year
    skillbox-python cite_tool.py export refs/*.json --format bibtex|ris|enw [-o refs.bib]

verify prints one status per DOI: VERIFIED, TITLE_MISMATCH, YEAR_MISMATCH, NOT_FOUND or UNCHECKED (network
failure; never treat it as verified). Exit 0 when every DOI is VERIFIED, 1 otherwise, 2 on usage errors.
Set CROSSREF_MAILTO (or --mailto) to join Crossref's polite pool; requests are spaced by --delay seconds.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import time
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

API = "https://api.crossref.org/works/"
TITLE_MATCH = 0.9  # similarity ratio of normalised titles counted as the same work
Fetch = Callable[[str], tuple[int, str]]


# --- DOI handling ---------------------------------------------------------------------------------------------


def normalise_doi(raw: str) -> str:
    """Bare lower-case DOI from a DOI, doi: form or doi.org URL; raises ValueError when it is not a DOI."""
    doi = raw.strip()
    doi = re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", doi, flags=re.IGNORECASE)
    doi = re.sub(r"^doi:\s*", "", doi, flags=re.IGNORECASE)
    doi = urllib.parse.unquote(doi).strip().rstrip(".")
    if not re.fullmatch(r"10\.\d{4,9}/\S+", doi):
        raise ValueError(f"not a DOI: {raw!r}")
    return doi.lower()


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


def normalise_title(title: str) -> str:
    text = unicodedata.normalize("NFKD", re.sub(r"<[^>]+>", "", title)).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def title_similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, normalise_title(a), normalise_title(b)).ratio()


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


def verify_doi(
    raw_doi: str,
    fetch: Fetch,
    expect_title: str | None = None,
    expect_year: int | None = None,
    mailto: str | None = None,
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
    except (json.JSONDecodeError, KeyError):
        return Verdict(doi, "UNCHECKED", "Crossref answered with something that is not a work record"), None
    title = (message.get("title") or [""])[0]
    year = issued_year(message)
    journal = (message.get("container-title") or [None])[0]
    verdict = Verdict(doi, "VERIFIED", "DOI resolves", title, year, journal)
    if expect_title is not None:
        ratio = title_similarity(expect_title, title)
        if ratio < TITLE_MATCH:
            verdict.status = "TITLE_MISMATCH"
            verdict.detail = f"DOI belongs to {title!r} (similarity {ratio:.2f})"
            return verdict, message
        verdict.detail = "DOI resolves; title matches"
    if expect_year is not None and year is not None and abs(year - expect_year) > 1:
        verdict.status = "YEAR_MISMATCH"
        verdict.detail = f"Crossref year {year}, claimed {expect_year}"
    elif expect_year is not None and year != expect_year:
        verdict.detail += f" (online/print year differ: Crossref {year})"
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
        title=re.sub(r"<[^>]+>", "", (message.get("title") or [""])[0]),
        container=(message.get("container-title") or [""])[0],
        year=issued_year(message),
        volume=str(message.get("volume", "")),
        issue=str(message.get("issue", "")),
        pages=str(message.get("page", "")),
        doi=message.get("DOI", "").lower(),
        url=message.get("URL", "") or (f"https://doi.org/{message.get('DOI', '')}" if message.get("DOI") else ""),
        publisher=message.get("publisher", ""),
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


def load_records(paths: list[Path]) -> list[Record]:
    """Crossref records from saved files: one work message, a full API response, or a JSON list of either."""
    records = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data if isinstance(data, list) else [data]:
            message = item.get("message", item) if isinstance(item, dict) else None
            if not isinstance(message, dict) or "DOI" not in message:
                raise ValueError(f"{path}: not a Crossref work record (no DOI field)")
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


def cmd_verify(args, fetch: Fetch) -> int:
    claims = [(d, args.expect_title, args.expect_year) for d in args.dois]
    if args.from_file:
        claims += read_claims(args.from_file)
    if not claims:
        print("Error: give DOIs or --from-file", file=sys.stderr)
        return 2
    verdicts = []
    for n, (doi, title, year) in enumerate(claims):
        if n and args.delay:
            time.sleep(args.delay)
        try:
            verdict, message = verify_doi(doi, fetch, title, year, args.mailto)
        except ValueError as err:
            verdict, message = Verdict(doi, "NOT_FOUND", str(err)), None
        verdicts.append(verdict)
        if message is not None and args.save_dir:
            args.save_dir.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^a-z0-9._-]+", "_", verdict.doi) + ".json"
            (args.save_dir / name).write_text(json.dumps(message, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.json:
        print(json.dumps([asdict(v) for v in verdicts], ensure_ascii=False, indent=2))
    else:
        for v in verdicts:
            print(f"{v.status}\t{v.doi}\t{v.detail}")
    return 0 if all(v.status == "VERIFIED" for v in verdicts) else 1


def cmd_export(args) -> int:
    try:
        records = load_records(args.records)
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
    verify.add_argument("--json", action="store_true")
    export = sub.add_parser("export", help="convert saved Crossref records")
    export.add_argument("records", nargs="+", type=Path, help="JSON files saved by verify --save-dir")
    export.add_argument("--format", choices=sorted(FORMATS), required=True)
    export.add_argument("-o", "--output", type=Path)
    return parser


def main(argv: list[str] | None = None, fetch: Fetch = http_fetch) -> int:
    args = build_parser().parse_args(argv)
    return cmd_verify(args, fetch) if args.command == "verify" else cmd_export(args)


if __name__ == "__main__":
    sys.exit(main())
