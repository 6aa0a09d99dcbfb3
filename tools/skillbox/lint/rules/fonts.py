"""Fonts: every family the composition names must be loadable by the renderer, the same on every worker."""

from __future__ import annotations

from skillbox.lint.css import font_families
from skillbox.lint.document import Document
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Hit, rule

G = "fonts"
GENERIC = {
    "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-sans-serif", "ui-serif",
    "ui-monospace", "ui-rounded", "emoji", "math", "fangsong", "inherit", "initial", "unset", "revert", "var",
}  # fmt: skip
# Families the HyperFrames renderer resolves itself (bundled web fonts, and system fonts it maps to a bundled
# look-alike), so they need no @font-face. Names as the renderer's alias table lists them (hyperframes 0.8.170).
AUTO_RESOLVED = {
    "inter", "montserrat", "outfit", "nunito", "oswald", "league gothic", "archivo black", "space mono",
    "ibm plex mono", "jetbrains mono", "eb garamond", "playfair display", "source code pro", "noto sans jp",
    "roboto", "open sans", "lato", "poppins", "bebas neue", "garamond", "noto sans japanese", "futura",
    "din alternate", "arial black", "helvetica bold", "avenir", "avenir next", "lucida grande", "geneva", "optima",
    "candara", "corbel", "lucida sans", "lucida sans unicode", "noto sans", "dejavu sans", "liberation sans",
    "sf mono", "menlo", "monaco", "consolas", "lucida console", "lucida sans typewriter", "andale mono",
    "dejavu sans mono", "liberation mono", "palatino", "palatino linotype", "book antiqua", "dejavu serif",
    "liberation serif", "sf pro rounded",
}  # fmt: skip
SYSTEM_ALIASED = {
    "arial", "helvetica", "helvetica neue", "times", "times new roman", "georgia", "verdana", "tahoma",
    "trebuchet ms", "courier", "courier new", "segoe ui", "-apple-system", "blinkmacsystemfont", "sf pro",
    "sf pro display", "sf pro text", "calibri", "cambria",
}  # fmt: skip
GOOGLE_FONTS_URL = lazy_compile(r"""https?://fonts\.googleapis\.com/[^"')\s]+""", needs=("://fonts.googleapis.com/",))
# `font: [style] [weight] SIZE[/LINE-HEIGHT] FAMILY, ...` — the family list follows the size.
FONT_SHORTHAND = lazy_compile(r"(?:^|\s)[\d.]+(?:px|em|rem|pt|%|vw|vh|vmin|vmax|ex|ch)(?:\s*/\s*[\w.%]+)?\s+(.+)$")


def _families(value: str) -> list[str]:
    return font_families(value)


def _font_declarations(doc: Document):
    for css_rule in doc.all_css_rules:
        for decl in css_rule.declarations:
            if decl.name == "font-family":
                yield css_rule.selector, decl
            elif decl.name == "font":
                match = FONT_SHORTHAND.search(decl.value)
                if match:
                    yield css_rule.selector, type(decl)("font-family", match.group(1), decl.important, decl.offset)


def _loaded_families(doc: Document) -> set[str]:
    loaded = {f for style in doc.styles for f in style.sheet.font_faces}
    urls = [e.attrs.get("href", "") for e in doc.elements if e.tag == "link"]
    urls += [m.group(0) for style in doc.styles for m in GOOGLE_FONTS_URL.finditer(style.text)]  # @import
    for url in urls:
        if "fonts.googleapis.com" in url:
            for part in url.split("family=")[1:]:
                from skillbox.lint.rules.project import unquote

                loaded.add(unquote(part.split(":")[0].split("&")[0]).replace("+", " ").lower())
    return loaded


@rule(
    "font_family_without_font_face",
    "error",
    G,
    fix_hint="Add an @font-face with a local font file, load it from Google Fonts, or use a bundled family.",
    peer=True,
)
def font_family_without_font_face(doc: Document):
    loaded = _loaded_families(doc)
    missing: list[str] = []
    first_offset, first_selector = None, None
    for selector, decl in _font_declarations(doc):
        for family in _families(decl.value):
            # The browser takes the first family it has; later ones only serve glyphs the first lacks. So stop at
            # the first resolvable family (`"Brand", Impact, sans-serif` with Brand loaded never shows Impact).
            # Emoji families are glyph fallbacks by nature; the renderer's Chromium uses its system emoji font.
            spaced = family.replace("+", " ")  # `'DM+Mono'`: the URL spelling, which the renderer also accepts
            if {family, spaced} & (GENERIC | AUTO_RESOLVED | loaded | SYSTEM_ALIASED):
                break
            if family.endswith(" emoji") or family in missing:
                continue
            missing.append(family)
            if first_offset is None:
                first_offset, first_selector = decl.offset, selector
    if missing:
        names = ", ".join(f'"{m}"' for m in missing)
        yield Hit(
            first_offset,
            f"font families without @font-face that the renderer does not bundle: {names}",
            selector=first_selector,
        )


@rule(
    "system_font_will_alias",
    "info",
    G,
    fix_hint="Use a bundled family (e.g. Inter) or ship the font with @font-face.",
    peer=True,
    opt_in=True,
)
def system_font_will_alias(doc: Document):
    loaded = _loaded_families(doc)
    for selector, decl in _font_declarations(doc):
        families = _families(decl.value)
        if families and families[0] in SYSTEM_ALIASED and families[0] not in loaded:
            yield Hit(decl.offset, f'"{families[0]}" in `{selector}` is aliased on render workers', selector=selector)


@rule(
    "font_file_not_found",
    "error",
    G,
    fix_hint="Add the font file to the project or fix the path (project-root relative).",
)
def font_file_not_found(doc: Document):
    from skillbox.lint.rules.project import local_path_missing

    for style in doc.styles:
        for prop, url, offset in style.sheet.urls:
            if prop == "@font-face" and local_path_missing(doc, url):
                yield Hit(offset, f"font file {url} does not exist")
