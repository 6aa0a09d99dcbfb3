"""Captions: one inline transcript, absolutely positioned groups, hard exits, one caption track."""

from __future__ import annotations

from skillbox.lint import patterns as rx
from skillbox.lint.document import Document, Element
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Hit, rule

G = "captions"
_CAPTION_SELECTOR = lazy_compile(r"\.caption[-_]?(?:group|word|line|block)", needs=(".caption",))
CAPTION_NAME = lazy_compile(
    r"caption", rx.IGNORECASE, needs=("caption",)
)  # not "subtitle": charts and title cards have subtitles


# Containers that stack caption groups; words inside a group may be positioned relatively.
CAPTION_CONTAINER = lazy_compile(r"[.#]caption[-_]?(?:group|container|text|line)\b", rx.IGNORECASE, needs=("caption",))


def _caption_selector(selector: str) -> bool:
    """Does the rule style a caption element? Judged on each selector's subject (its last compound): a scope such
    as `[data-composition-id="captions"] .word` names the composition, not the element styled."""
    for part in selector.split(","):
        if not CAPTION_NAME.search(part):
            continue  # the subject is a piece of the part: no "caption" in the part, none in the subject
        compounds = rx.split(r"\s*[>+~]\s*|\s+", part.strip())
        if compounds and CAPTION_NAME.search(compounds[-1]):
            return True
    return False


def _is_caption_doc(doc: Document) -> bool:
    return any(e.attrs.get("data-track-kind") == "captions" for e in doc.elements) or "TRANSCRIPT" in " ".join(
        s.text for s in doc.scripts
    )


@rule(
    "caption_transcript_not_inline",
    "warning",
    G,
    fix_hint='Inline it: const TRANSCRIPT = [{"text": "...", "start": 0, "end": 1}, ...];',
    peer=True,
)
def caption_transcript_not_inline(doc: Document):
    caption_doc = _is_caption_doc(doc)
    for model in doc.script_models:
        for call in model.calls:
            if call.name != "fetch" or not call.args:
                continue
            url = call.args[0].literal if isinstance(call.args[0].literal, str) else call.args[0].text
            if caption_doc or rx.search(r"transcript|caption|subtitle|\.srt|\.vtt", url, rx.IGNORECASE):
                yield Hit(call.offset, f"transcript loaded with fetch({call.args[0].text})")


@rule(
    "caption_container_relative_position",
    "error",
    G,
    fix_hint="Use position: absolute for caption groups/words inside a positioned container.",
    peer=True,
)
def caption_container_relative_position(doc: Document):
    for css_rule in doc.all_css_rules:
        if CAPTION_CONTAINER.search(css_rule.selector):
            for decl in css_rule.declarations:
                if decl.name == "position" and decl.value == "relative":
                    yield Hit(decl.offset, f"`{css_rule.selector}` uses position: relative", selector=css_rule.selector)


@rule(
    "caption_text_overflow_risk",
    "warning",
    G,
    fix_hint="Add a max-width (e.g. 80% of the frame) or allow wrapping.",
    peer=True,
)
def caption_text_overflow_risk(doc: Document):
    for css_rule in doc.all_css_rules:
        if not _caption_selector(css_rule.selector):
            continue
        names = {d.name: d for d in css_rule.declarations}
        if names.get("white-space") and names["white-space"].value == "nowrap" and "max-width" not in names:
            yield Hit(
                names["white-space"].offset,
                f"`{css_rule.selector}` is nowrap with no max-width",
                selector=css_rule.selector,
            )


@rule(
    "caption_overflow_clips_scaled_words",
    "error",
    G,
    fix_hint="Use overflow: visible on caption containers.",
    peer=True,
)
def caption_overflow_clips_scaled_words(doc: Document):
    scaled = False
    for call in doc.gsap_calls:
        for key in ("scale", "scaleX", "scaleY"):
            value = (call.vars or {}).get(key)
            if value is not None and isinstance(value.literal, int | float) and value.literal > 1:
                scaled = True
    if not scaled:
        return
    for element in doc.elements:
        is_caption = element.attrs.get("data-track-kind") == "captions" or CAPTION_NAME.search(
            element.attrs.get("id", "") + " " + element.attrs.get("class", "")
        )
        if not is_caption:
            continue
        from skillbox.lint.timing import css_declarations_for

        for selector, decl in css_declarations_for(doc, element):
            if decl.name == "overflow" and decl.value == "hidden":
                yield Hit(
                    decl.offset,
                    f"overflow: hidden on caption {element.label()} ({selector}) clips scaled words",
                    element,
                )


def _looks_like_caption(element: Element) -> bool:
    return bool(CAPTION_NAME.search(element.attrs.get("id", "") + " " + element.attrs.get("class", "")))


def _caption_track(element: Element) -> bool:
    """A caption track: a host mounting a captions composition (named so in its id, class, composition id or
    source file), or an element named caption that holds caption-named groups or words. A lone timed label that
    happens to be called "caption" (a figure caption such as "FOOTAGE") is not a caption track."""
    attrs = element.attrs
    if "data-composition-src" in attrs or "data-composition-id" in attrs:
        names = " ".join(attrs.get(a, "") for a in ("id", "class", "data-composition-id", "data-composition-src"))
        return bool(CAPTION_NAME.search(names))
    return _looks_like_caption(element) and any(_looks_like_caption(d) for d in element.descendants())


@rule(
    "caption_track_kind_missing",
    "warning",
    G,
    fix_hint='Add data-track-kind="captions" to the caption track element.',
    peer=True,
)
def caption_track_kind_missing(doc: Document):
    for element in doc.elements:
        if (
            "data-track-index" in element.attrs
            and _caption_track(element)
            and element.attrs.get("data-track-kind") != "captions"
            and not any(a.attrs.get("data-track-kind") == "captions" for a in element.ancestors())
        ):
            yield Hit(
                element.start, f'{element.label()} looks like captions but has no data-track-kind="captions"', element
            )


@rule(
    "multiple_caption_tracks",
    "warning",
    G,
    fix_hint="Put every caption group on the same data-track-index.",
    peer=True,
)
def multiple_caption_tracks(doc: Document):
    tracks: dict[str, Element] = {}
    for element in doc.elements:
        if element.attrs.get("data-track-kind") == "captions" and "data-track-index" in element.attrs:
            tracks.setdefault(element.attrs["data-track-index"], element)
    if len(tracks) > 1:
        elements = list(tracks.values())
        yield Hit(elements[1].start, f"captions on tracks {', '.join(sorted(tracks))}", elements[1])


@rule(
    "caption_textshadow_on_group_container",
    "warning",
    G,
    fix_hint="Tween textShadow on the word elements (or set it statically in CSS).",
    peer=True,
)
def caption_textshadow_on_group_container(doc: Document):
    from skillbox.lint.timing import tween_targets

    for call in doc.gsap_calls:
        if call.vars and "textShadow" in call.vars:
            for element in tween_targets(doc, call) or []:
                if element.attrs.get("data-track-kind") == "captions" or element.children:
                    yield Hit(call.offset, f"textShadow tweened on container {element.label()}", element)
                    break


LOOP_NODES = {"for_statement", "for_in_statement", "while_statement", "do_statement"}
LOOP_CALLEES = {"forEach", "map", "each"}
FUNCTION_NODES = {"arrow_function", "function_expression", "function"}


def _in_loop(node) -> bool:
    """Is this syntax node run once per item (a for/while body, or a forEach/map callback)?"""
    current = node
    while current is not None:
        if current.type in LOOP_NODES:
            return True
        parent = current.parent
        if current.type in FUNCTION_NODES and parent is not None and parent.type == "arguments":
            call = parent.parent
            callee = call.child_by_field_name("function") if call is not None else None
            if callee is not None and callee.type == "member_expression":
                prop = callee.child_by_field_name("property")
                if prop is not None and prop.text.decode("utf-8", "replace") in LOOP_CALLEES:
                    return True
        current = parent
    return False


@rule(
    "caption_exit_missing_hard_kill",
    "warning",
    G,
    fix_hint='Add tl.set(group, { opacity: 0 }, groupEnd) after the fade (plus visibility: "hidden" only on '
    "groups that are not .clip elements, see gsap_animates_clip_element).",
    peer=True,
)
def caption_exit_missing_hard_kill(doc: Document):
    if not _is_caption_composition(doc):
        return
    exits, kills = [], []
    for call in doc.gsap_calls:
        opacity = (call.vars or {}).get("opacity")
        visibility = (call.vars or {}).get("visibility")
        if call.method == "to" and opacity is not None and opacity.literal in (0, 0.0, "0") and _in_loop(opacity.node):
            exits.append(call)
        if call.method == "set" and (
            (opacity is not None and opacity.literal in (0, 0.0, "0"))
            or (visibility is not None and visibility.literal == "hidden")
        ):
            kills.append(call)
    if exits and not kills:
        yield Hit(
            exits[0].offset, f"caption fade-out {exits[0].receiver}.to(…, {{ opacity: 0 }}) has no tl.set hard kill"
        )


def _is_caption_composition(doc: Document) -> bool:
    root_id = doc.root.attrs.get("data-composition-id") if doc.root is not None else None
    return (
        bool(CAPTION_NAME.search(doc.path))
        or root_id == "captions"
        or any(_CAPTION_SELECTOR.search(r.selector) for r in doc.all_css_rules)
        or any(e.attrs.get("data-track-kind") == "captions" for e in doc.elements)
    )
