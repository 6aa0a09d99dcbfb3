"""Local scripts a composition links with `<script src="script.js">`.

They run in the same page as the inline ones, so a timeline registered there is registered: rules that ask "does
this composition register a timeline?" must look at them too, or a project that keeps its code in script.js gets
told to add what it already has. Remote scripts (CDN libraries) are not read; they never register a timeline.
"""

from __future__ import annotations

import os

from skillbox.lint import paths as fs
from skillbox.lint.document import Document
from skillbox.lint.script import ScriptModel, parse_script

MAX_SCRIPT_BYTES = 2 * 1024 * 1024  # a linked file larger than this is a library, not composition code


def _local_path(doc: Document, src: str) -> str | None:
    src = src.strip().split("?")[0].split("#")[0]
    if not src or src.startswith(("http:", "https:", "//", "data:", "blob:")) or doc.file_path is None:
        return None
    base = doc.project_dir if src.startswith("/") and doc.project_dir else fs.parent(doc.file_path)
    candidate = fs.resolve(fs.join(base, src.lstrip("/")))
    if doc.project_dir is not None and not fs.is_under(candidate, fs.resolve(doc.project_dir)):
        return None  # outside the project: the renderer does not serve it
    return candidate


def linked_script_models(doc: Document) -> list[ScriptModel]:
    """Parsed models of the composition's local linked scripts (read once per document)."""
    if "linked_scripts" in doc.cache:
        return doc.cache["linked_scripts"]
    models = []
    for script in doc.scripts:
        path = _local_path(doc, script.src) if script.src else None
        if path is None or not os.path.isfile(path):
            continue
        try:
            if os.stat(path).st_size > MAX_SCRIPT_BYTES:
                continue
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            continue
        models.append(parse_script(text, script.element.start))  # findings from it point at the <script> tag
    doc.cache["linked_scripts"] = models
    return models


def registers_in_linked_script(doc: Document) -> bool:
    return any(m.registrations for m in linked_script_models(doc))
