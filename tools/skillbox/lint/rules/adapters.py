"""Runtime adapters: a composition that drives Three.js or Lottie must load the library before using it."""

from __future__ import annotations

from skillbox.lint import patterns as rx
from skillbox.lint.document import Document
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Hit, rule

G = "adapters"
THREE_USE = lazy_compile(r"\bTHREE\.", needs=("THREE.",))
THREE_IMPORT = lazy_compile(r"""\b(?:import|from)\s*[^;\n]*['"][^'"]*three[^'"]*['"]""", rx.IGNORECASE)
LOTTIE_USE = lazy_compile(r"\blottie\.(?:loadAnimation|setSpeed|play|stop|destroy)\b", needs=("lottie.",))


def _scripts(doc: Document):
    """The document's scripts and, for a sub-composition, its host page's (one window)."""
    return [*doc.scripts, *(doc.host_scripts or [])]


def _host_unknown(doc: Document) -> bool:
    return doc.host_scripts is None and (doc.is_subcomposition or doc.root_in_template)


def _first_use(doc: Document, pattern: rx.LazyPattern) -> int | None:
    for script in doc.scripts:
        if script.src is None and (m := pattern.search(script.text)):
            return script.start + len(script.text[: m.start()].encode("utf-8", "surrogatepass"))
    return None


@rule(
    "missing_three_script",
    "error",
    G,
    fix_hint='Load Three.js before the script: <script src=".../three.min.js"></script>, an import map, or an ES '
    "module import.",
    peer=True,
)
def missing_three_script(doc: Document):
    if _host_unknown(doc):
        return
    offset = _first_use(doc, THREE_USE)
    if offset is None:
        return
    for script in _scripts(doc):
        if script.src is not None and "three" in script.src.lower():
            return
        if script.src is None and (
            THREE_IMPORT.search(script.text)
            or (script.element.attrs.get("type") == "importmap" and rx.search(r"""["']three["']""", script.text))
        ):
            return
    yield Hit(offset, "THREE is used but no Three.js script is loaded")


@rule(
    "missing_lottie_script",
    "error",
    G,
    fix_hint='Add <script src="https://cdn.jsdelivr.net/npm/lottie-web@5/build/player/lottie.min.js"></script> '
    "before your Lottie code.",
    peer=True,
)
def missing_lottie_script(doc: Document):
    if _host_unknown(doc):
        return
    attr = next((e for e in doc.elements if "data-lottie-src" in e.attrs), None)
    offset = attr.start if attr is not None else _first_use(doc, LOTTIE_USE)
    if offset is None:
        return
    if any(s.src is not None and "lottie" in s.src.lower() for s in _scripts(doc)):
        return
    yield Hit(offset, "Lottie is used but no lottie-web script is loaded", attr)
