"""What `skillbox lint explain` shows for the media rules (lint/rules/media.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.samples import comp

DOCS: dict[str, dict] = {}
CLIP = "assets/clip.mp4"
VOICE = "assets/voice.mp3"
V_ATTRS = 'id="v" src="assets/clip.mp4" data-start="0" data-duration="4" data-track-index="0"'
GOOD_VIDEO = f"<video {V_ATTRS} muted playsinline></video>"
GOOD_AUDIO = '<audio id="vo" src="assets/voice.mp3" data-start="0" data-duration="4" data-track-index="2"></audio>'
DOCS["video_missing_muted"] = {
    "summary": 'A timed <video> is neither muted nor declares data-has-audio="true".',
    "explanation": """
Browsers refuse to autoplay unmuted video, so the preview freezes; and the renderer mixes sound from `<audio>`
clips. Mark silent video `muted`; if its soundtrack should be heard, declare `data-has-audio="true"` instead.
""",
    "bad": comp(f"<video {V_ATTRS} playsinline></video>", assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["video_muted_with_declared_audio"] = {
    "summary": 'A <video> is both muted and data-has-audio="true".',
    "explanation": "The two say opposite things. The renderer follows data-has-audio: an mp4 render of such a clip "
    "carries its sound (-21 dB mean for a sine test clip), while the browser preview plays it muted — the preview "
    "and the video disagree. A warning: decide which one you mean.",
    "bad": comp(f'<video {V_ATTRS} muted data-has-audio="true" playsinline></video>', assets=(CLIP,)),
    "good": comp(f'<video {V_ATTRS} data-has-audio="true" playsinline></video>', assets=(CLIP,)),
}
DOCS["media_missing_id"] = {
    "summary": "A timed <video>/<audio> has no id.",
    "explanation": "Studio and the media pipeline address clips by id. hyperframes 0.8.170 renders an id-less timed "
    "video frame-identical to one with an id (render case `media_missing_id`, bench/lint_render_cases.py), so this "
    "is a warning: it protects Studio editing and older renderers that paired media with decoded frames by id.",
    "bad": comp(
        '<video src="assets/clip.mp4" data-start="0" data-duration="4" data-track-index="0" muted playsinline></video>',
        assets=(CLIP,),
    ),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["media_missing_data_start"] = {
    "summary": "A <video>/<audio> with a src has no data-start.",
    "explanation": """
The renderer starts untimed media at 0: a `<video>` without data-start renders frame-identical to the same clip
with `data-start="0"` (render case `video_without_data_start`), and an `<audio>` without it is mixed at the same
level (-21.1 dB mean in both mp4 renders, case `audio_without_data_start`). So this is a warning. What it protects
is Studio editing and the timing checks: a clip without data-start has no place on the timeline, so it cannot be
moved or trimmed there and overlap checks cannot see it. Say when it starts.
""",
    "bad": comp(
        '<audio id="vo" src="assets/voice.mp3" data-duration="4" data-track-index="2"></audio>', assets=(VOICE,)
    ),
    "good": comp(GOOD_AUDIO, assets=(VOICE,)),
}
DOCS["media_missing_src"] = {
    "summary": "A timed <video>/<audio> has no src (and no <source>, no data-var-src).",
    "explanation": "A clip with nothing to play renders black or silent for its whole window (render case "
    "`video_without_src`: one blank frame for the whole clip, 8 of 8 differ from the clip with its src).",
    "bad": comp('<audio id="vo" data-start="0" data-duration="4" data-track-index="2"></audio>'),
    "good": comp(GOOD_AUDIO, assets=(VOICE,)),
}
DOCS["self_closing_media_tag"] = {
    "summary": "<video .../> or <audio .../> is written self-closing.",
    "explanation": "HTML has no self-closing media tags: `<video/>` stays open and swallows the following elements "
    "as fallback content, which never renders.",
    "bad": comp(f"<video {V_ATTRS} muted playsinline />", assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["placeholder_media_url"] = {
    "summary": "A media/image src points at a placeholder domain (example.com, placehold.co, ...).",
    "explanation": "Placeholder URLs 404 or return a stock image at render time; the clip is blank.",
    "bad": comp(
        '<video id="v" src="https://example.com/clip.mp4" data-start="0" data-duration="4" '
        'data-track-index="0" muted playsinline></video>'
    ),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["base64_media_prohibited"] = {
    "summary": "Audio or video is inlined as a base64 data: URI.",
    "explanation": "Inline media bloats the page the renderer loads in every worker and cannot be seeked reliably.",
    "bad": comp(
        '<audio id="vo" src="data:audio/mp3;base64,SUQzBAAAAAAAI1RTU0UAAAAPAAADTGF2ZjU4" data-start="0" '
        'data-duration="4" data-track-index="2"></audio>'
    ),
    "good": comp(GOOD_AUDIO, assets=(VOICE,)),
}
DOCS["media_preload_none"] = {
    "summary": 'preload="none" on a media element.',
    "explanation": "The renderer needs metadata (duration, dimensions) before the first seek; preload=none delays it "
    "and the first frames come out empty.",
    "bad": comp(f'<video {V_ATTRS} muted playsinline preload="none"></video>', assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["media_crossorigin_breaks_preview"] = {
    "summary": "A crossorigin attribute on a media element.",
    "explanation": "With crossorigin the browser demands CORS headers the local preview server and many CDNs do not "
    "send; the media fails to load in preview. The render itself is unaffected (bench/lint_render_sweep.py: the "
    "example renders frame-identical with and without it), so this is a warning that protects the preview.",
    "bad": comp(f'<video {V_ATTRS} muted playsinline crossorigin="anonymous"></video>', assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["duplicate_media_id"] = {
    "summary": "Two media elements share one id.",
    "explanation": "Media is matched to its decoded stream by id; with a duplicate, one clip plays the other's frames.",
    "bad": comp(
        f"{GOOD_VIDEO}\n"
        '<video id="v" src="assets/clip.mp4" data-start="4" data-duration="2" data-track-index="0" muted '
        "playsinline></video>",
        assets=(CLIP,),
        root_attrs='data-start="0" data-duration="6"',
    ),
    "good": comp(
        f"{GOOD_VIDEO}\n"
        '<video id="v2" src="assets/clip.mp4" data-start="4" data-duration="2" data-track-index="0" muted '
        "playsinline></video>",
        assets=(CLIP,),
        root_attrs='data-start="0" data-duration="6"',
    ),
}
DOCS["duplicate_media_discovery_risk"] = {
    "summary": "The same media (src, start, duration) is declared twice.",
    "explanation": "Two identical clips decode twice and play on top of each other (doubled audio, z-fighting video).",
    "bad": comp(
        f"{GOOD_AUDIO}\n"
        '<audio id="vo2" src="assets/voice.mp3" data-start="0" data-duration="4" data-track-index="3"></audio>',
        assets=(VOICE,),
    ),
    "good": comp(GOOD_AUDIO, assets=(VOICE,)),
}
DOCS["imperative_media_control"] = {
    "summary": "The script calls play()/pause() or sets currentTime/muted on a managed media element.",
    "explanation": "The renderer seeks media to each frame's time and wins: a script setting currentTime at load "
    "rendered frame-identical to none (render case `imperative_media_control`). What the call breaks is the preview "
    "and Studio, where it plays or moves the clip out of step with the scrub position.",
    "bad": comp(GOOD_VIDEO, js='document.getElementById("v").play();', assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["media_runtime_src_mutation"] = {
    "summary": "The script changes the src of a managed media element.",
    "explanation": "The renderer pre-decodes the src it finds in the HTML; a src swapped at runtime plays the old "
    "file in the render.",
    "bad": comp(GOOD_VIDEO, js='document.getElementById("v").src = "assets/other.mp4";', assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
DOCS["video_nested_in_timed_element"] = {
    "summary": "A timed <video> sits inside another element that has data-start.",
    "explanation": "Nested timing makes the video's data-start ambiguous (relative or absolute) and the runtime may "
    "hide its parent while the video should play. Put timed video directly under the composition root, or in a "
    "sub-composition.",
    "bad": comp(
        f'<div id="scene" class="clip" data-start="0" data-duration="4" data-track-index="1">\n  {GOOD_VIDEO}\n</div>',
        js='tl.from("#scene", { opacity: 0 }, 0);',
        assets=(CLIP,),
    ),
    "good": comp(
        f'<div id="scene" class="clip" data-start="0" data-duration="4" data-track-index="1"></div>\n{GOOD_VIDEO}',
        js='tl.from("#scene", { opacity: 0 }, 0);',
        assets=(CLIP,),
    ),
}
DOCS["color_grading_non_media"] = {
    "summary": "data-color-grading on an element that is not <video> or <img>.",
    "explanation": "Grading is applied by the media pipeline only; on other elements it is silently ignored.",
    "bad": comp('<div id="box" data-color-grading=\'{"adjust": {"exposure": 0.2}}\'></div>'),
    "good": comp(
        f'<video {V_ATTRS} muted playsinline data-color-grading=\'{{"adjust": {{"exposure": 0.2}}}}\'></video>',
        assets=(CLIP,),
    ),
}
DOCS["color_grading_invalid_json"] = {
    "summary": "data-color-grading is not valid JSON.",
    "explanation": "The grading attribute is parsed with JSON.parse; invalid JSON disables grading for the clip "
    "(render case `color_grading_unquoted_keys`: `{enabled: true, adjust: {saturation: -1}}` leaves the clip in "
    "colour, 8 of 8 frames differ from the quoted JSON, which renders it grey).",
    "bad": comp(
        f"<video {V_ATTRS} muted playsinline data-color-grading='{{adjust: {{exposure: 0.2}}}}'></video>",
        assets=(CLIP,),
    ),
    "good": comp(
        f'<video {V_ATTRS} muted playsinline data-color-grading=\'{{"adjust": {{"exposure": 0.2}}}}\'></video>',
        assets=(CLIP,),
    ),
}
DOCS["video_audio_double_source"] = {
    "summary": "An audible <video> and an <audio> play the same file (echo).",
    "explanation": "The video's own track and the separate audio clip both sound, slightly out of phase.",
    "bad": comp(
        f'<video {V_ATTRS} data-has-audio="true" playsinline></video>\n'
        '<audio id="a" src="assets/clip.mp4" data-start="0" data-duration="4" data-track-index="2"></audio>',
        assets=(CLIP,),
    ),
    "good": comp(
        f"{GOOD_VIDEO}\n"
        '<audio id="a" src="assets/clip.mp4" data-start="0" data-duration="4" data-track-index="2"></audio>',
        assets=(CLIP,),
    ),
}
DOCS["media_src_kind_mismatch"] = {
    "summary": "A <video>/<img>/<audio> src has the extension of another media kind.",
    "explanation": '`<video src="song.mp3">` or `<img src="clip.mp4">` loads nothing visible.',
    "bad": comp('<img id="logo" src="assets/clip.mp4" alt="">', assets=(CLIP,)),
    "good": comp('<img id="logo" src="assets/logo.png" alt="">', assets=("assets/logo.png",)),
}
DOCS["audio_volume_tween_overrides_gain"] = {
    "summary": "A media element has data-volume and a GSAP tween also animates its volume.",
    "explanation": "The tween overwrites the static gain from the first frame it touches; data-volume is lost.",
    "bad": comp(
        '<audio id="vo" src="assets/voice.mp3" data-start="0" data-duration="4" data-track-index="2" '
        'data-volume="0.5"></audio>',
        js='tl.to("#vo", { volume: 0 }, 3);',
        assets=(VOICE,),
    ),
    "good": comp(
        '<audio id="vo" src="assets/voice.mp3" data-start="0" data-duration="4" data-track-index="2" '
        'data-volume="0.5"></audio>',
        assets=(VOICE,),
    ),
}
DOCS["media_variable_src_no_fallback"] = {
    "summary": "Media bound with data-var-src has no fallback src.",
    "explanation": "When the variable is not supplied (preview, a render without values) the clip is empty.",
    "bad": comp(
        '<video id="v" data-var-src="clip" data-start="0" data-duration="4" data-track-index="0" muted '
        "playsinline></video>"
    ),
    "good": comp(f'<video {V_ATTRS} data-var-src="clip" muted playsinline></video>', assets=(CLIP,)),
}
DOCS["linked_clip_orphan"] = {
    "summary": "Only one clip carries a given data-link group.",
    "explanation": "data-link ties clips (a video and its audio) so edits move them together; a group of one is "
    "a leftover from a deleted partner.",
    "bad": comp(f'<video {V_ATTRS} muted playsinline data-link="take1"></video>', assets=(CLIP,)),
    "good": comp(
        f'<video {V_ATTRS} muted playsinline data-link="take1"></video>\n'
        '<audio id="vo" src="assets/voice.mp3" data-start="0" data-duration="4" data-track-index="2" '
        'data-link="take1"></audio>',
        assets=(CLIP, VOICE),
    ),
}
DOCS["video_autoplay"] = {
    "summary": "A <video> carries autoplay.",
    "explanation": """
The renderer drives video frames itself (it extracts and seeks them), so `autoplay` changes nothing in the
render (render case `video_autoplay` in bench/lint_render_cases.py). What it breaks is the preview: opened in a
browser or Studio, the clip starts playing on the wall clock at load, out of step with the scrub position.
""",
    "bad": comp(f"<video {V_ATTRS} muted playsinline autoplay></video>", assets=(CLIP,)),
    "good": comp(GOOD_VIDEO, assets=(CLIP,)),
}
