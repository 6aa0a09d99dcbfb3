"""Run the rules over files and projects and return findings.

A PATH is a composition file or a folder. A folder holding `index.html` is a HyperFrames project: its
`index.html` plus every `compositions/**/*.html` (sub-compositions; `compositions/components/`, `._*` files and
`data-hf-snippet` snippets are skipped, as the HyperFrames CLI does) are linted, then the project rules run once.
Any other folder is searched for projects and loose `.html` files.

Suppression: `<!-- skillbox-lint: ignore[code_a, code_b] -->` silences those codes on the next element and
everything inside it (`ignore` without a list silences every code there); `<!-- skillbox-lint: ignore-file[code] -->`
anywhere in a file silences a code for the whole file.
"""

from __future__ import annotations

import os

from skillbox.errors import NotFoundError, UsageError
from skillbox.lint import paths as fs
from skillbox.lint import patterns as rx
from skillbox.lint.document import Document, parse_document
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.records import dataclass, field
from skillbox.lint.registry import Hit, Rule, all_rules

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
IGNORE_COMMENT = lazy_compile(r"^\s*skillbox-lint:\s*(ignore-file|ignore)\s*(?:\[([^\]]*)\])?\s*$")


@dataclass
class Finding:
    code: str
    severity: str
    message: str
    file: str
    line: int
    column: int
    fix_hint: str
    element_id: str | None = None
    selector: str | None = None
    fixable: bool = False
    offset: int = 0
    hit: Hit | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        data = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "fixHint": self.fix_hint,
            "fixable": self.fixable,
        }
        if self.element_id:
            data["elementId"] = self.element_id
        if self.selector:
            data["selector"] = self.selector
        return data


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    files_scanned: int = 0
    documents: list[Document] = field(default_factory=list)

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def ok(self) -> bool:
        return self.count("error") == 0


@dataclass
class Selection:
    """Which rules run and at what severity."""

    select: set[str] | None = None
    ignore: set[str] = field(default_factory=set)
    severity: dict[str, str] = field(default_factory=dict)

    def active(self, rules: dict[str, Rule]) -> list[Rule]:
        chosen = [r for r in rules.values() if self._wanted(r)]
        return chosen

    def _wanted(self, r: Rule) -> bool:
        if r.code in self.ignore or r.group in self.ignore:
            return False
        if r.opt_in:
            return self.select is not None and r.code in self.select
        return self.select is None or r.code in self.select or r.group in self.select


def validate_codes(codes: set[str]) -> None:
    rules = all_rules()
    known = set(rules) | {r.group for r in rules.values()}
    unknown = sorted(codes - known)
    if unknown:
        raise UsageError(f"unknown rule code(s): {', '.join(unknown)}", hint="see `skillbox lint rules`")


@dataclass
class Project:
    """A HyperFrames project folder: the entry document and its sub-compositions."""

    root: str
    index: Document | None
    compositions: list[Document]

    @property
    def documents(self) -> list[Document]:
        return ([self.index] if self.index is not None else []) + self.compositions


def _display(path: str) -> str:
    shown = fs.relative(fs.resolve(path), fs.resolve(os.getcwd()))
    return path if shown is None else shown


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(64 * 1024 * 1024 + 1)


def load_document(
    path: str, project_dir: str | None, *, is_subcomposition: bool = False, overrides: dict | None = None
) -> Document:
    try:
        source = overrides[path] if overrides and path in overrides else _read_bytes(path)
    except OSError as err:
        raise NotFoundError(f"cannot read {path}: {err.strerror or err}") from None
    doc = parse_document(source, _display(path), is_subcomposition=is_subcomposition)
    doc.file_path = path
    doc.project_dir = project_dir
    return doc


def _is_snippet(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read()[:4096].decode("utf-8", "replace")
    except OSError:
        return False
    match = rx.search(r"<(?!!|\?|/)[a-zA-Z][^>]*>", head)
    return bool(match and "data-hf-snippet" in match.group(0))


def _rglob_html(folder: str) -> list[str]:
    """`sorted(Path(folder).rglob("*.html"))`: every entry named *.html below folder, hidden ones included, not
    descending into symlinked folders (as pathlib 3.11 does not)."""
    return sorted((path for path in fs.walk(folder) if fs.name(path).endswith(".html")), key=fs.sort_key)


def composition_files(root) -> list[str]:
    folder = fs.join(fs.clean(root), "compositions")
    if not os.path.isdir(folder):
        return []
    found = []
    for path in _rglob_html(folder):
        rel = fs.parts(fs.relative(path, folder))
        if rel[0] == "components" or fs.name(path).startswith("._") or _is_snippet(path):
            continue
        found.append(path)
    return found


def load_project(root: str, overrides: dict | None = None) -> Project:
    index_path = fs.join(root, "index.html")
    index = load_document(index_path, root, overrides=overrides) if os.path.isfile(index_path) else None
    comps = [load_document(p, root, is_subcomposition=True, overrides=overrides) for p in composition_files(root)]
    project = Project(root, index, comps)
    if index is not None:
        for doc in comps:
            doc.host_scripts = index.scripts
    _link_hosts(project)
    return project


def _link_hosts(project: Project) -> None:
    """Tell each sub-composition which host ids load it (for the nested timeline_id_mismatch check)."""
    by_path = {fs.resolve(doc.file_path): doc for doc in project.compositions if doc.file_path}
    for doc in project.documents:
        for element in doc.elements:
            src = element.attrs.get("data-composition-src")
            host_id = element.attrs.get("data-composition-id")
            if not src or not host_id:
                continue
            target = by_path.get(fs.resolve(fs.join(project.root, src.split("?")[0].split("#")[0])))
            if target is not None:
                target.host_ids.add(host_id)


def _project_dir_for(file: str) -> str:
    for parent in fs.parents(fs.resolve(file)):
        if os.path.isfile(fs.join(parent, "index.html")):
            return parent
        if fs.name(parent) == "compositions":
            return fs.parent(parent)
    return fs.parent(fs.resolve(file))


SKIP_DIRS = {"node_modules", ".git", "skillbox-out", "__pycache__", ".venv"}


def _html_files(folder: str) -> list[str]:
    """Every .html file below `folder`, following symlinked folders once (corpora are often symlink farms)."""
    found: list[str] = []
    seen: set[str] = set()
    for current, dirs, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(current)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        found.extend(fs.join(current, name) for name in sorted(files) if name.endswith(".html"))
    return sorted(found, key=fs.sort_key)


def discover(paths: list) -> tuple[list[str], list[str]]:
    """Split PATHs (str or os.PathLike) into project folders and loose files, as cleaned strings."""
    projects: list[str] = []
    files: list[str] = []
    for path in map(fs.clean, paths):
        if os.path.isfile(path):
            files.append(path)
        elif os.path.isdir(path):
            if os.path.isfile(fs.join(path, "index.html")):
                projects.append(path)
                continue
            html_files = _html_files(path)
            roots = sorted(
                {fs.parent(p) for p in html_files if fs.name(p) == "index.html"},
                key=lambda p: (len(fs.parts(p)), p),
            )
            chosen: list[str] = []
            for candidate in roots:
                if not any(fs.is_under(candidate, c) for c in chosen):
                    chosen.append(candidate)
            projects.extend(chosen)
            for html_file in html_files:
                if not any(fs.is_under(html_file, c) for c in chosen):
                    files.append(html_file)
        else:
            raise UsageError(f"no such file or directory: {path}")
    return projects, files


def lint_paths(paths: list, selection: Selection | None = None, overrides: dict | None = None) -> LintResult:
    """Lint files and project folders. `overrides` maps a path to bytes to lint instead of the file's content
    (used by `--fix --diff`, which never writes). Paths may be str or os.PathLike."""
    selection = selection or Selection()
    if overrides:
        overrides = {fs.clean(p): data for p, data in overrides.items()}
    rules = selection.active(all_rules())
    result = LintResult()
    projects, files = discover(paths)
    for root in projects:
        _lint_project(load_project(root, overrides), rules, selection, result)
    for file in files:
        is_sub = "compositions" in fs.parts(fs.resolve(file))[:-1]
        doc = load_document(file, _project_dir_for(file), is_subcomposition=is_sub, overrides=overrides)
        _lint_documents([doc], rules, selection, result)
    result.findings.sort(key=lambda f: (f.file, f.line, f.column, SEVERITY_ORDER[f.severity], f.code))
    return result


def lint_document(doc: Document, selection: Selection | None = None) -> list[Finding]:
    """Lint one parsed document with the file rules (no project rules)."""
    selection = selection or Selection()
    result = LintResult()
    _lint_documents([doc], selection.active(all_rules()), selection, result)
    return result.findings


def _lint_project(project: Project, rules: list[Rule], selection: Selection, result: LintResult) -> None:
    docs = project.documents
    _lint_documents(docs, rules, selection, result)
    project_rules = [r for r in rules if r.scope == "project"]
    default_doc = project.index or (docs[0] if docs else None)
    for r in project_rules:
        for hit in r.check(project) or ():
            doc = hit.doc or default_doc
            if doc is None or (doc.parse_error and r.code != "parse_error"):
                continue
            _emit(r, hit, doc, selection, result)


def _lint_documents(docs: list[Document], rules: list[Rule], selection: Selection, result: LintResult) -> None:
    file_rules = [r for r in rules if r.scope == "file"]
    parse_rule = all_rules()["parse_error"]
    wants_parse = any(r is parse_rule for r in rules)
    for doc in docs:
        result.files_scanned += 1
        result.documents.append(doc)
        if doc.parse_error:
            if wants_parse:
                _emit(parse_rule, Hit(doc.parse_error_offset, doc.parse_error), doc, selection, result)
            continue
        for r in file_rules:
            for hit in r.check(doc) or ():
                _emit(r, hit, doc, selection, result)


def _suppressions(doc: Document) -> tuple[list[tuple[int, int, set[str] | None]], set[str] | None]:
    cached = getattr(doc, "_suppressions", None)
    if cached is not None:
        return cached
    spans: list[tuple[int, int, set[str] | None]] = []
    file_codes: set[str] | None = set()
    for comment in doc.comments:
        match = IGNORE_COMMENT.match(comment.text)
        if not match:
            continue
        codes = {c.strip() for c in (match.group(2) or "").split(",") if c.strip()} or None
        if match.group(1) == "ignore-file":
            file_codes = None if codes is None or file_codes is None else file_codes | codes
            continue
        following = next((e for e in doc.elements if e.start >= comment.end), None)
        if following is not None:
            spans.append((following.start, following.end, codes))
    value = (spans, file_codes)
    doc._suppressions = value
    return value


def _suppressed(doc: Document, code: str, offset: int) -> bool:
    if not doc.comments:
        return False
    spans, file_codes = _suppressions(doc)
    if file_codes is None or code in file_codes:
        return True
    return any(start <= offset < end and (codes is None or code in codes) for start, end, codes in spans)


def _emit(r: Rule, hit: Hit, doc: Document, selection: Selection, result: LintResult) -> None:
    if _suppressed(doc, r.code, hit.offset):
        return
    line, column = doc.position(hit.offset)
    severity = selection.severity.get(r.code) or hit.severity or r.severity
    element = hit.element
    element_id = hit.element_id or (element.id if element is not None else None)
    hit.doc = doc
    result.findings.append(
        Finding(
            code=r.code,
            severity=severity,
            message=hit.message,
            file=doc.path,
            line=line,
            column=column,
            fix_hint=r.fix_hint,
            element_id=element_id,
            selector=hit.selector,
            fixable=r.autofix is not None and hit.fix is not False,
            offset=hit.offset,
            hit=hit,
        )
    )
