"""Project: files on disk — local assets, sub-composition files, audio, several roots.

Paths in a HyperFrames project are relative to the project root (the folder with index.html); for files linted
outside a project, the file's own folder is the root.
"""

from __future__ import annotations

import os

from skillbox.lint import paths as fs
from skillbox.lint import patterns as rx
from skillbox.lint.document import Document, Element
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Hit, rule
from skillbox.lint.timing import number, resolve_starts

G = "project"
# Remote, data, fragment and template-placeholder URLs (`{{src}}`, `${src}`, `__VIDEO_SRC__`) are not files.
REMOTE = lazy_compile(
    r"^(?:[a-z][a-z0-9+.-]*:|//|#|\{|\$|__[A-Z0-9_]+__$)", rx.IGNORECASE, needs=(":", "//", "#", "{", "$", "__")
)
AUDIO_EXT = {".mp3", ".wav", ".m4a", ".aac", ".ogg", ".oga", ".flac", ".opus"}


def unquote(text: str) -> str:
    """`urllib.parse.unquote`, importing urllib only for text that has a %-escape (unquote returns the rest as is)."""
    if "%" not in text:
        return text
    from urllib.parse import unquote as decode

    return decode(text)


_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_PLACEHOLDER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def is_remote(url: str) -> bool:
    """`bool(REMOTE.match(url))` without compiling REMOTE for ASCII text (a case-insensitive pattern is among the
    costliest to compile); tests/lint/test_patterns.py compares the two."""
    if not url.isascii():
        return bool(REMOTE.match(url))
    if url.startswith(("//", "#", "{", "$")):
        return True
    scheme, colon, _rest = url.partition(":")
    if colon and scheme[:1].isalpha() and all(c in _SCHEME_CHARS for c in scheme):
        return True
    body = url[:-1] if url.endswith("\n") else url  # `$` also matches before a final newline
    return (
        len(body) >= 5 and body.startswith("__") and body.endswith("__") and all(c in _PLACEHOLDER_CHARS for c in body)
    )


def local_target(doc: Document, url: str) -> str | None:
    """The file a local URL names, or None for remote/data/template URLs."""
    url = url.strip()
    if not url or is_remote(url):
        return None
    clean = unquote(url.split("#")[0].split("?")[0])
    if not clean:
        return None
    base = doc.project_dir or (fs.parent(doc.file_path) if doc.file_path else None)
    if base is None:
        return None
    return fs.join(base, clean.lstrip("/"))


def local_path_missing(doc: Document, url: str) -> bool:
    if url.strip().startswith("../"):
        from skillbox.lint.rules.composition import escapes_project

        if escapes_project(doc, url) or doc.file_path is None:
            return False  # invalid_parent_traversal_in_asset_path reports these
        return not os.path.exists(fs.join(fs.parent(doc.file_path), url.split("?")[0].split("#")[0]))
    target = local_target(doc, url)
    if target is None or os.path.exists(target):
        return False
    # Resolved relative to the file itself (not the project root): tolerated.
    return not (
        doc.file_path is not None and os.path.exists(fs.join(fs.parent(doc.file_path), url.split("?")[0].split("#")[0]))
    )


ASSET_ELEMENTS = {"img": "src", "video": "src", "source": "src", "track": "src", "image": "href"}


@rule(
    "missing_local_asset",
    "error",
    G,
    fix_hint="Add the file to the project or fix the path (relative to the project root).",
    peer=True,
)
def missing_local_asset(doc: Document):
    for element in doc.elements:
        attrs = []
        if element.tag in ASSET_ELEMENTS:
            attrs.append(ASSET_ELEMENTS[element.tag])
        if element.tag == "video":
            attrs.append("poster")
        if element.tag == "link" and "stylesheet" in element.attrs.get("rel", ""):
            attrs.append("href")
        if element.tag == "script":
            attrs.append("src")
        if element.tag == "image":
            attrs.append("xlink:href")
        for attr in attrs:
            url = element.attrs.get(attr)
            if url and local_path_missing(doc, url):
                yield Hit(element.attr_spans[attr][0], f"{element.label()} {attr}={url} does not exist", element)
    for style in doc.styles:
        for prop, url, offset in style.sheet.urls:
            if prop not in ("@font-face", "mask-image", "-webkit-mask-image", "mask") and local_path_missing(doc, url):
                yield Hit(offset, f"{prop}: url({url}) does not exist")


@rule(
    "texture_mask_asset_not_found",
    "error",
    G,
    fix_hint="Add the mask image to the project or fix the path.",
    peer=True,
)
def texture_mask_asset_not_found(doc: Document):
    for style in doc.styles:
        for prop, url, offset in style.sheet.urls:
            if prop in ("mask-image", "-webkit-mask-image", "mask") and local_path_missing(doc, url):
                yield Hit(offset, f"{prop}: url({url}) does not exist")


@rule(
    "video_declared_audio_missing_track",
    "error",
    G,
    fix_hint="Mark the clip muted (and drop data-has-audio) or use the file that carries the sound.",
)
def video_declared_audio_missing_track(doc: Document):
    for element in doc.elements:
        if element.tag != "video" or element.attrs.get("data-has-audio", "").lower() != "true":
            continue
        if "muted" in element.attrs:
            continue  # video_muted_with_declared_audio reports the contradiction
        target = local_target(doc, element.attrs.get("src", ""))
        if target is None or not os.path.isfile(target):
            continue
        from skillbox.lint.media_probe import track_kinds

        kinds = track_kinds(target)
        if kinds is not None and "video" in kinds and "audio" not in kinds:
            yield Hit(element.start, f"{element.attrs['src']} has no audio track, but the clip declares data-has-audio",
                      element)  # fmt: skip


@rule(
    "audio_src_not_found",
    "error",
    G,
    fix_hint="Add the audio file to the project or fix the path.",
    peer=True,
)
def audio_src_not_found(doc: Document):
    for element in doc.elements:
        if element.tag == "audio" and element.attrs.get("src") and local_path_missing(doc, element.attrs["src"]):
            yield Hit(
                element.attr_spans["src"][0], f"{element.label()} src={element.attrs['src']} does not exist", element
            )


def _hosts(doc: Document) -> list[Element]:
    return [e for e in doc.elements if e.attrs.get("data-composition-src")]


@rule(
    "missing_or_empty_sub_composition",
    "error",
    G,
    fix_hint="Create the file (a <template> holding the composition root with the same data-composition-id).",
    peer=True,
)
def missing_or_empty_sub_composition(doc: Document):
    for host in _hosts(doc):
        src = host.attrs["data-composition-src"]
        target = local_target(doc, src)
        if target is None:
            continue
        if not os.path.isfile(target):
            yield Hit(host.attr_spans["data-composition-src"][0], f"{src} does not exist", host)
            continue
        try:
            text = _read_text(target)
        except OSError:
            continue
        if "data-composition-id" not in text:
            yield Hit(host.attr_spans["data-composition-src"][0], f"{src} has no data-composition-id element", host)


def _read_text(path: str) -> str:
    """`Path.read_text(encoding="utf-8", errors="replace")`, universal newlines included."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def _root_html_files(root: str) -> list[str]:
    """`sorted(p for p in Path(root).glob("*.html") if p.is_file())`."""
    try:
        names = [e.name for e in os.scandir(root) if e.name.endswith(".html")]
    except OSError:
        return []
    return sorted(p for p in (fs.join(root, n) for n in names) if os.path.isfile(p))


@rule(
    "multiple_root_compositions",
    "warning",
    G,
    fix_hint="Move extra compositions into compositions/ and mount them with data-composition-src.",
    scope="project",
    peer=True,
)
def multiple_root_compositions(project_):
    if project_.index is None:
        return
    others = []
    for path in _root_html_files(project_.root):
        if fs.name(path) == "index.html":
            continue
        try:
            head = _read_text(path)[:200_000]
        except OSError:
            continue
        if "data-composition-id" in head:
            others.append(fs.name(path))
    if others:
        yield Hit(0, f"root-level compositions besides index.html: {', '.join(others)}")


REFERENCE_EXT = {".html", ".htm", ".js", ".mjs", ".json", ".css"}


def _unreferenced(root: str, files: list[str]) -> list[str]:
    """Audio files no page, script or manifest of the project names. A file another page plays (a presenter demo
    with `new Audio("sfx/advance.mp3")`) is in use, just not on the render timeline; it is not a forgotten track."""
    texts = []
    for path in sorted(fs.walk(root), key=fs.sort_key):
        if fs.suffix(path).lower() in REFERENCE_EXT and "node_modules" not in fs.parts(path) and os.path.isfile(path):
            try:
                if os.stat(path).st_size <= 4 * 1024 * 1024:
                    with open(path, "rb") as handle:
                        texts.append(handle.read().decode("utf-8", "replace"))
            except OSError:
                continue
    corpus = "\n".join(texts)
    return [p for p in files if fs.relative(p, root) not in corpus and fs.name(p) not in corpus]


@rule(
    "audio_file_without_element",
    "warning",
    G,
    fix_hint='Add <audio id="music" src="assets/music.mp3" data-start="0" data-duration="..." data-track-index="..">.',
    scope="project",
    peer=True,
)
def audio_file_without_element(project_):
    for doc in project_.documents:
        for e in doc.elements:
            audible_video = e.tag == "video" and (
                "muted" not in e.attrs or e.attrs.get("data-has-audio", "").lower() == "true"
            )
            if e.tag == "audio" or audible_video:
                return
    everything = fs.walk(project_.root)
    files = sorted(
        (p for p in everything if fs.suffix(p).lower() in AUDIO_EXT and "node_modules" not in fs.parts(p)),
        key=fs.sort_key,
    )
    if files:
        files = _unreferenced(project_.root, files)
    if files:
        names = ", ".join(fs.relative(p, project_.root) for p in files[:3])
        yield Hit(0, f"audio files but no <audio> element: {names}")


@rule(
    "blank_root_with_standalone_composition",
    "error",
    G,
    fix_hint="Make index.html the root composition (or mount compositions/x.html from it).",
    scope="project",
    peer=True,
)
def blank_root_with_standalone_composition(project_):
    index = project_.index
    if index is None or (index.root is not None and "data-composition-id" in index.root.attrs):
        return
    for doc in project_.compositions:
        if doc.root is not None and not doc.root_in_template and "data-composition-id" in doc.root.attrs:
            yield Hit(0, f"index.html is blank but {doc.path} is a standalone composition", doc=index)
            return


@rule(
    "duplicate_audio_track",
    "warning",
    G,
    fix_hint="Move one clip to another data-track-index or make the windows consecutive.",
    peer=True,
)
def duplicate_audio_track(doc: Document):
    starts = resolve_starts(doc)
    tracks: dict[str, list] = {}
    for element in doc.elements:
        audible_video = element.tag == "video" and (
            element.attrs.get("data-has-audio", "").lower() == "true" or "muted" not in element.attrs
        )
        if (element.tag == "audio" or audible_video) and "data-track-index" in element.attrs:
            start = starts.get(element.index)
            duration = number(element.attrs.get("data-duration"))
            if start is not None:  # no data-duration: plays until the composition ends
                end = start + duration if duration is not None else float("inf")
                tracks.setdefault(element.attrs["data-track-index"], []).append((start, end, element))
    for track, windows in tracks.items():
        windows.sort(key=lambda w: (w[0], w[1]))
        for i, (s2, _e2, b) in enumerate(windows):  # every overlapping pair: each is a separate double-sound
            for _s1, e1, a in windows[:i]:
                if s2 < e1 - 1e-6:
                    yield Hit(b.start, f"{b.label()} overlaps {a.label()} on audio track {track}", b)


@rule(
    "subcomposition_missing_template",
    "warning",
    G,
    fix_hint="Wrap the sub-composition's markup, <style> and <script> in one <template> element.",
)
def subcomposition_missing_template(doc: Document):
    if not doc.is_subcomposition or doc.root is None or doc.root_in_template:
        return
    if doc.html_element is not None and doc.has_doctype:
        return  # a full document under compositions/: blank_root_with_standalone_composition territory
    yield Hit(
        doc.root.start, f"{doc.root.label()} is not inside <template>; a host clones only template content", doc.root
    )


@rule(
    "unused_sub_composition",
    "warning",
    G,
    fix_hint="Mount it with a host element (data-composition-src) or delete the file.",
    scope="project",
)
def unused_sub_composition(project_):
    used = set()
    for doc in project_.documents:
        for host in _hosts(doc):
            target = local_target(doc, host.attrs["data-composition-src"])
            if target is not None:
                used.add(fs.resolve(target))
    for doc in project_.compositions:
        if not doc.root_in_template:
            continue  # standalone files are blank_root_with_standalone_composition / subcomposition_missing_template
        if doc.file_path is not None and fs.resolve(doc.file_path) not in used:
            yield Hit(0, f"{doc.path} is not mounted by any data-composition-src", doc=doc)
