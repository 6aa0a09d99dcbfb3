"""Media: <video>/<audio> clips the renderer drives itself (muted, ids, sources, no imperative control)."""

from __future__ import annotations

from skillbox.lint import paths as fs
from skillbox.lint import patterns as rx
from skillbox.lint.document import Document, Element
from skillbox.lint.patterns import lazy_compile
from skillbox.lint.registry import Edit, Hit, rule
from skillbox.lint.timing import add_attribute_edit, elements_matching, remove_attribute_edit, selector_for_object

G = "media"
VIDEO_EXT = {".mp4", ".webm", ".mov", ".m4v", ".mkv", ".ogv"}
AUDIO_EXT = {".mp3", ".wav", ".m4a", ".aac", ".ogg", ".oga", ".flac", ".opus"}
IMAGE_EXT = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".avif", ".bmp"}
PLACEHOLDER_HOSTS = lazy_compile(
    r"^(?:https?:)?//(?:[\w-]+\.)*(?:example\.(?:com|org|net)|placeholder\.com|placehold\.co|via\.placeholder\.com"
    r"|dummyimage\.com|your-?domain\.com|foo\.com|bar\.com|test\.com)(?:[:/]|$)",
    rx.IGNORECASE,
)


def media(doc: Document, tags=("video", "audio")) -> list[Element]:
    return [e for e in doc.elements if e.tag in tags]


def timed_media(doc: Document) -> list[Element]:
    return [e for e in media(doc) if "data-start" in e.attrs]


def _ext(url: str) -> str:
    return fs.suffix(fs.clean(url.split("?")[0].split("#")[0])).lower()


@rule(
    "video_missing_muted",
    "error",
    G,
    fix_hint='Add the muted attribute (or data-has-audio="true" if the video\'s own sound must play).',
    peer=True,
)
def video_missing_muted(doc: Document):
    for element in media(doc, ("video",)):
        declares_audio = element.attrs.get("data-has-audio", "").lower() == "true"
        if "data-start" in element.attrs and "muted" not in element.attrs and not declares_audio:
            yield Hit(element.start, f"{element.label()} is not muted and declares no audio", element, fix=element)


@video_missing_muted.fixer
def _fix_muted(doc: Document, hit: Hit) -> list[Edit]:
    return [add_attribute_edit(hit.fix, "muted", doc.source)]


@rule(
    "video_muted_with_declared_audio",
    "warning",
    G,
    fix_hint='Remove muted if the sound should play, else remove data-has-audio="true".',
    peer=True,
)
def video_muted_with_declared_audio(doc: Document):
    for element in media(doc, ("video",)):
        if "muted" in element.attrs and element.attrs.get("data-has-audio", "").lower() == "true":
            yield Hit(element.start, f'{element.label()} is muted but declares data-has-audio="true"', element)


@rule(
    "media_missing_id",
    "warning",
    G,
    fix_hint='Give the media element a unique id, e.g. id="bg-video".',
    peer=True,
    bad_also=("studio_missing_editable_id",),
)
def media_missing_id(doc: Document):
    for element in timed_media(doc):
        if not element.id:
            yield Hit(element.start, f"timed <{element.tag}> has no id", element)


@rule(
    "media_missing_data_start",
    "warning",
    G,
    fix_hint='Add data-start="<seconds>" (and data-duration) to the media element.',
    peer=True,
)
def media_missing_data_start(doc: Document):
    for element in media(doc):
        if ("src" in element.attrs or any(c.tag == "source" for c in element.children)) and (
            "data-start" not in element.attrs
        ):
            yield Hit(element.start, f"{element.label()} has a source but no data-start", element)


def _has_source(element: Element) -> bool:
    return bool(element.attrs.get("src", "").strip()) or any(
        c.tag == "source" and c.attrs.get("src") for c in element.children
    )


@rule(
    "media_missing_src",
    "error",
    G,
    fix_hint='Add src="assets/<file>" to the media element.',
    peer=True,
)
def media_missing_src(doc: Document):
    for element in timed_media(doc):
        if element.id and not _has_source(element) and "data-var-src" not in element.attrs:
            yield Hit(element.start, f"{element.label()} has no src", element)


@rule(
    "self_closing_media_tag",
    "error",
    G,
    fix_hint="Write an explicit closing tag: <video ...></video>.",
    peer=True,
)
def self_closing_media_tag(doc: Document):
    for element in media(doc):
        if element.self_closing:
            yield Hit(element.start, f"<{element.tag} ... /> is not closed in HTML", element, fix=element)


@self_closing_media_tag.fixer
def _fix_self_closing(doc: Document, hit: Hit) -> list[Edit]:
    element = hit.fix
    end = element.start_tag_end
    slash = doc.source.rfind(b"/", element.start, end)
    start = slash
    while start > 0 and doc.source[start - 1 : start] in (b" ", b"\t"):
        start -= 1
    return [Edit(start, end, f"></{element.tag}>")]


@rule(
    "placeholder_media_url",
    "error",
    G,
    fix_hint="Use a real local file under the project (e.g. assets/clip.mp4).",
    peer=True,
)
def placeholder_media_url(doc: Document):
    for element in doc.elements:
        if element.tag in ("video", "audio", "img", "source"):
            src = element.attrs.get("src", "")
            if PLACEHOLDER_HOSTS.match(src.strip()):
                yield Hit(element.start, f"{element.label()} src {src} is a placeholder URL", element)


@rule(
    "base64_media_prohibited",
    "error",
    G,
    fix_hint="Save the media as a file in the project and reference it by path.",
    peer=True,
)
def base64_media_prohibited(doc: Document):
    for element in doc.elements:
        if element.tag in ("video", "audio", "source"):
            src = element.attrs.get("src", "").strip().lower()
            if src.startswith(("data:audio/", "data:video/")) and ";base64," in src:
                yield Hit(element.start, f"{element.label()} inlines base64 media", element)


@rule(
    "media_preload_none",
    "warning",
    G,
    fix_hint='Remove preload="none" (or use preload="auto").',
    peer=True,
)
def media_preload_none(doc: Document):
    for element in media(doc):
        if element.attrs.get("preload", "").strip().lower() == "none":
            yield Hit(element.attr_spans["preload"][0], f'{element.label()} has preload="none"', element, fix=element)


@media_preload_none.fixer
def _fix_preload(doc: Document, hit: Hit) -> list[Edit]:
    return [remove_attribute_edit(doc, hit.fix, "preload")]


@rule(
    "media_crossorigin_breaks_preview",
    "warning",
    G,
    fix_hint="Remove the crossorigin attribute.",
    peer=True,
)
def media_crossorigin_breaks_preview(doc: Document):
    for element in media(doc):
        if "crossorigin" in element.attrs:
            yield Hit(element.attr_spans["crossorigin"][0], f"{element.label()} has crossorigin", element, fix=element)


@media_crossorigin_breaks_preview.fixer
def _fix_crossorigin(doc: Document, hit: Hit) -> list[Edit]:
    return [remove_attribute_edit(doc, hit.fix, "crossorigin")]


@rule(
    "duplicate_media_id",
    "error",
    G,
    fix_hint="Give each media element its own id.",
    peer=True,
)
def duplicate_media_id(doc: Document):
    seen: dict[str, Element] = {}
    for element in media(doc):
        if element.id:
            if element.id in seen:
                yield Hit(element.start, f'media id "{element.id}" is already used by another media element', element)
            else:
                seen[element.id] = element


@rule(
    "duplicate_media_discovery_risk",
    "warning",
    G,
    fix_hint="Delete the duplicate media element.",
    peer=True,
)
def duplicate_media_discovery_risk(doc: Document):
    seen: dict[tuple, Element] = {}
    for element in timed_media(doc):
        key = (
            element.tag,
            element.attrs.get("src"),
            element.attrs.get("data-start"),
            element.attrs.get("data-duration"),
        )
        if key[1] and key in seen:
            yield Hit(
                element.start, f"{element.label()} duplicates {seen[key].label()} (same src/start/duration)", element
            )
        else:
            seen.setdefault(key, element)


def _media_by_selector(doc: Document, text: str) -> list[Element]:
    selector = selector_for_object(doc, text)
    if selector is None:
        return []
    return [e for e in elements_matching(doc, selector) if e.tag in ("video", "audio")]


@rule(
    "imperative_media_control",
    "warning",
    G,
    fix_hint="Delete the call; control timing with data-start / data-media-start / data-playback-rate.",
    peer=True,
)
def imperative_media_control(doc: Document):
    for model in doc.script_models:
        for call in model.calls:
            media_call = call.name in ("play", "pause", "load", "fastSeek") and call.object_text
            if media_call and _media_by_selector(doc, call.object_text):
                yield Hit(call.offset, f"{call.object_text}.{call.name}() controls managed media")
        for assignment in model.assignments:
            obj, _, prop = assignment.left.rpartition(".")
            if prop in ("currentTime", "muted", "playbackRate", "volume") and obj and _media_by_selector(doc, obj):
                yield Hit(assignment.offset, f"{assignment.left} = … controls managed media")


@rule(
    "media_runtime_src_mutation",
    "warning",
    G,
    fix_hint="Put the final src in the HTML (or use data-var-src with a variable).",
    peer=True,
)
def media_runtime_src_mutation(doc: Document):
    for model in doc.script_models:
        for assignment in model.assignments:
            obj, _, prop = assignment.left.rpartition(".")
            if prop == "src" and obj and _media_by_selector(doc, obj):
                yield Hit(assignment.offset, f"{assignment.left} = … swaps the media source at runtime")
        for call in model.calls:
            sets_src = call.name == "setAttribute" and call.args and call.args[0].literal == "src"
            if sets_src and call.object_text and _media_by_selector(doc, call.object_text):
                yield Hit(call.offset, f"{call.object_text}.setAttribute('src', …) swaps the media source")


@rule(
    "video_nested_in_timed_element",
    "error",
    G,
    fix_hint="Move the <video> out of the timed parent (or into its own sub-composition).",
    peer=True,
)
def video_nested_in_timed_element(doc: Document):
    for element in media(doc, ("video",)):
        if "data-start" not in element.attrs:
            continue
        for ancestor in element.ancestors():
            if ancestor is doc.root or "data-composition-id" in ancestor.attrs:
                break
            if "data-start" in ancestor.attrs:
                yield Hit(element.start, f"{element.label()} is inside timed {ancestor.label()}", element)
                break


@rule(
    "color_grading_non_media",
    "error",
    G,
    fix_hint="Move data-color-grading onto the <video> or <img> it should grade.",
    peer=True,
)
def color_grading_non_media(doc: Document):
    for element in doc.elements:
        if "data-color-grading" in element.attrs and element.tag not in ("video", "img"):
            yield Hit(element.start, f"data-color-grading on {element.label()} has no effect", element)


@rule(
    "color_grading_invalid_json",
    "error",
    G,
    fix_hint='Write strict JSON: double-quoted keys, e.g. {"adjust": {"exposure": 0.2}}.',
    peer=True,
)
def color_grading_invalid_json(doc: Document):
    for element in doc.elements:
        value = element.attrs.get("data-color-grading")
        if value is not None and value.strip():
            import json  # here, not at the top: most compositions have no JSON attribute (start-up cost)

            try:
                json.loads(value)
            except ValueError as err:
                yield Hit(
                    element.attr_spans["data-color-grading"][0], f"data-color-grading is not JSON: {err}", element
                )


@rule(
    "video_audio_double_source",
    "error",
    G,
    fix_hint="Mute the video (add muted, drop data-has-audio) and keep the <audio> clip.",
    peer=True,
)
def video_audio_double_source(doc: Document):
    audio_srcs = {e.attrs.get("src"): e for e in media(doc, ("audio",)) if e.attrs.get("src")}
    for element in media(doc, ("video",)):
        src = element.attrs.get("src")
        if src in audio_srcs and "muted" not in element.attrs:
            yield Hit(element.start, f"{element.label()} and {audio_srcs[src].label()} both play {src}", element)


@rule(
    "media_src_kind_mismatch",
    "error",
    G,
    fix_hint="Use the element that matches the file (<video> for .mp4, <audio> for .mp3, <img> for images).",
    peer=True,
)
def media_src_kind_mismatch(doc: Document):
    wrong = {"video": AUDIO_EXT | IMAGE_EXT, "img": VIDEO_EXT | AUDIO_EXT, "audio": IMAGE_EXT}
    for element in doc.elements:
        if element.tag in wrong and element.attrs.get("src"):
            ext = _ext(element.attrs["src"])
            if ext in wrong[element.tag]:
                yield Hit(element.start, f"<{element.tag}> cannot show a {ext} file", element)


@rule(
    "audio_volume_tween_overrides_gain",
    "warning",
    G,
    fix_hint="Keep one volume control: either data-volume or the tween (start the tween from the data-volume).",
    peer=True,
)
def audio_volume_tween_overrides_gain(doc: Document):
    for call in doc.gsap_calls:
        if call.vars and "volume" in call.vars and call.target_selector:
            for element in elements_matching(doc, call.target_selector):
                volume = element.attrs.get("data-volume")
                if element.tag in ("audio", "video") and volume not in (None, "1", "1.0"):
                    yield Hit(call.offset, f"tween on {element.label()} volume overrides data-volume={volume}", element)


@rule(
    "media_variable_src_no_fallback",
    "warning",
    G,
    fix_hint="Add a src with the default file next to data-var-src.",
    peer=True,
)
def media_variable_src_no_fallback(doc: Document):
    for element in media(doc):
        if "data-var-src" in element.attrs and not _has_source(element):
            yield Hit(element.start, f"{element.label()} has data-var-src but no fallback src", element)


@rule(
    "linked_clip_orphan",
    "warning",
    G,
    fix_hint="Remove data-link from the lone clip, or link its partner with the same value.",
    peer=True,
)
def linked_clip_orphan(doc: Document):
    groups: dict[str, list[Element]] = {}
    for element in doc.elements:
        if element.attrs.get("data-link"):
            groups.setdefault(element.attrs["data-link"], []).append(element)
    for name, members in groups.items():
        if len(members) == 1:
            yield Hit(members[0].start, f'data-link="{name}" has no partner clip', members[0])


@rule(
    "video_autoplay",
    "warning",
    G,
    fix_hint="Remove autoplay; HyperFrames starts the clip at its data-start.",
)
def video_autoplay(doc: Document):
    for element in media(doc, ("video",)):
        if "autoplay" in element.attrs:
            yield Hit(element.attr_spans["autoplay"][0], f"{element.label()} has autoplay", element, fix=element)


@video_autoplay.fixer
def _fix_autoplay(doc: Document, hit: Hit) -> list[Edit]:
    return [remove_attribute_edit(doc, hit.fix, "autoplay")]
