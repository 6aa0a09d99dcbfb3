"""Rule examples: a compact snippet for the docs, a whole project for the tests.

Most rules are about one fragment of a composition (a tag, a CSS rule, a tween). `comp(...)` writes only that
fragment and embeds it in a minimal composition that passes every rule, so `lint explain` shows the lines that
matter while the tests lint a real, complete file. Project rules (missing files, several roots) give the files
themselves with `project(...)`.
"""

from __future__ import annotations

from skillbox.lint.libraries import GSAP_CDN

# A host element and the template-wrapped sub-composition file it mounts (compositions/intro.html).
HOST = (
    '<div id="intro" data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" '
    'data-duration="2" data-track-index="1" data-width="1920" data-height="1080"></div>'
)
SUB = (
    '<template>\n<div data-composition-id="intro" data-width="1920" data-height="1080">\n'
    '  <h1 id="intro-title">Intro</h1>\n</div>\n<script>\n'
    "window.__timelines = window.__timelines || {};\n"
    "const tl = gsap.timeline({ paused: true });\n"
    'tl.from("#intro-title", { opacity: 0 }, 0);\n'
    'window.__timelines["intro"] = tl;\n</script>\n</template>\n'
)


class Sample:
    """One rule example: `files` (project-relative path -> content; "index.html" is the entry), the `snippet` the
    docs show, and `lint_path` (what to lint: "" = the project folder, else a file inside it).

    Examples made by `comp`, `raw` and `project` are built on first use: `lint explain` and the tests read them,
    a lint run never does, and building some two hundred of them at import was a few percent of every
    per-project `skillbox lint` process. Immutable and compared by value, as the frozen dataclass it replaces.
    """

    __slots__ = ("_build", "_value")

    def __init__(self, files: dict[str, str | bytes], snippet: str, lint_path: str = "") -> None:
        object.__setattr__(self, "_value", (files, snippet, lint_path))
        object.__setattr__(self, "_build", None)

    @classmethod
    def later(cls, build) -> Sample:
        """A sample whose `(files, snippet, lint_path)` `build()` returns when first needed."""
        sample = cls.__new__(cls)
        object.__setattr__(sample, "_value", None)
        object.__setattr__(sample, "_build", build)
        return sample

    def _parts(self) -> tuple[dict[str, str | bytes], str, str]:
        value = self._value
        if value is None:
            value = self._build()
            object.__setattr__(self, "_value", value)
            object.__setattr__(self, "_build", None)
        return value

    @property
    def files(self) -> dict[str, str | bytes]:
        return self._parts()[0]

    @property
    def snippet(self) -> str:
        return self._parts()[1]

    @property
    def lint_path(self) -> str:
        return self._parts()[2]

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._parts() == other._parts()
        return NotImplemented

    __hash__ = None  # its files are a dict, so unhashable, as the frozen dataclass was

    def __repr__(self) -> str:
        files, snippet, lint_path = self._parts()
        return f"Sample(files={files!r}, snippet={snippet!r}, lint_path={lint_path!r})"

    def render(self) -> str:
        content = self.files.get("index.html")
        return content if isinstance(content, str) else ""


def composition(
    body: str = "",
    *,
    css: str = "",
    js: str = "",
    head: str = "",
    root_attrs: str = 'data-start="0" data-duration="4"',
    composition_id: str = "main",
    timeline: bool = True,
) -> str:
    """A complete, lint-clean composition with the given fragments spliced in."""
    script = ""
    if timeline:
        script = (
            "<script>\n"
            "window.__timelines = window.__timelines || {};\n"
            "const tl = gsap.timeline({ paused: true });\n"
            f"{js.strip()}\n"
            f'window.__timelines["{composition_id}"] = tl;\n'
            "</script>\n"
        )
    elif js.strip():
        script = f"<script>\n{js.strip()}\n</script>\n"
    style = f"<style>\n{css.strip()}\n</style>\n" if css.strip() else ""
    no_timeline = "" if timeline else " data-no-timeline"
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<script src="{GSAP_CDN}"></script>\n'
        f"{head}{style}</head>\n<body>\n"
        f'<div id="root" data-composition-id="{composition_id}" data-width="1920" data-height="1080" '
        f"{root_attrs}{no_timeline}>\n"
        f"{body.strip()}\n"
        "</div>\n"
        f"{script}"
        "</body>\n</html>\n"
    )


def comp(
    body: str = "", *, css: str = "", js: str = "", head: str = "", assets: tuple[str, ...] = (), **kwargs
) -> Sample:
    return Sample.later(lambda: _comp(body, css, js, head, assets, kwargs))


def _comp(body: str, css: str, js: str, head: str, assets: tuple[str, ...], kwargs: dict):
    parts = []
    if head.strip():
        parts.append(head.strip())
    if css.strip():
        parts.append(f"<style>\n{css.strip()}\n</style>")
    if body.strip():
        parts.append(body.strip())
    if js.strip():
        parts.append(f"<script>\n{js.strip()}\n</script>")
    document = composition(body, css=css, js=js, head=head, **kwargs)
    files: dict[str, str | bytes] = {"index.html": document}
    files.update({asset: b"\x00" for asset in assets})
    return files, "\n".join(parts) or document, ""


def raw(html: str, snippet: str | None = None) -> Sample:
    return Sample.later(lambda: ({"index.html": html}, (snippet or html).strip(), ""))


def project(files: dict[str, str | bytes], snippet: str, lint_path: str = "") -> Sample:
    return Sample(dict(files), snippet.strip(), lint_path)


def mp4_bytes(*handlers: str) -> bytes:
    """The container skeleton of an MP4 whose tracks have these handler kinds ("vide", "soun"): what a
    `moov/trak/mdia/hdlr` reader (lint/media_probe.py) sees. Not playable; examples only."""

    def box(kind: bytes, payload: bytes) -> bytes:
        return (8 + len(payload)).to_bytes(4, "big") + kind + payload  # size, 4-byte kind, payload

    traks = b"".join(
        box(b"trak", box(b"mdia", box(b"hdlr", b"\0" * 8 + h.encode() + b"\0" * 12 + b"\0"))) for h in handlers
    )
    return box(b"ftyp", b"isom\0\0\0\0isom") + box(b"moov", traks) + box(b"mdat", b"")
