"""What `skillbox lint explain` shows for the project rules (lint/rules/project.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.samples import HOST, SUB, comp, composition, mp4_bytes, project

DOCS: dict[str, dict] = {}
LOGO = '<img id="logo" src="assets/logo.png" alt="">'
DOCS["missing_local_asset"] = {
    "summary": "An img/video/source/poster/stylesheet/script path points at a local file that does not exist.",
    "explanation": "The renderer loads assets from the project folder; a missing file renders as an empty box, a "
    "black clip or unstyled text.",
    "bad": comp(LOGO),
    "good": comp(LOGO, assets=("assets/logo.png",)),
}
DOCS["texture_mask_asset_not_found"] = {
    "summary": "A CSS mask-image url() points at a local file that does not exist.",
    "explanation": "A missing mask makes the masked element fully transparent: it disappears from the render (render "
    "case `mask_image_missing`: the masked box is absent in 8 of 8 frames; with the mask file present it shows).",
    "bad": comp('<div id="m"></div>', css='#m { mask-image: url("assets/mask.png"); }'),
    "good": comp('<div id="m"></div>', css='#m { mask-image: url("assets/mask.png"); }', assets=("assets/mask.png",)),
}
AUDIO = '<audio id="music" src="assets/music.mp3" data-start="0" data-duration="4" data-track-index="3"></audio>'
AUDIBLE_VIDEO = (
    '<video id="talk" src="assets/talk.mp4" data-has-audio="true" playsinline data-start="0" data-duration="2" '
    'data-track-index="1"></video>'
)
DOCS["video_declared_audio_missing_track"] = {
    "summary": 'A <video data-has-audio="true"> plays a local file that has no audio track.',
    "explanation": """
`data-has-audio="true"` tells the renderer to extract and mix the clip's sound. When the file has no audio track
the render fails ("composition asset(s) do not match their authored media element type (expected: audio)";
render case: a 2 s testsrc clip without audio fails, the same clip with a sine track renders with sound).
Agents often add the attribute to silence `video_missing_muted`; for a silent clip the answer is `muted`.
The track kinds are read from the MP4/MOV container (`moov/trak/mdia/hdlr`); other containers use ffprobe when
it is installed and are skipped otherwise.
""",
    "bad": project(
        {"index.html": composition(AUDIBLE_VIDEO), "assets/talk.mp4": mp4_bytes("vide")},
        AUDIBLE_VIDEO + "\n<!-- assets/talk.mp4 has a video track only -->",
    ),
    "good": project(
        {"index.html": composition(AUDIBLE_VIDEO), "assets/talk.mp4": mp4_bytes("vide", "soun")},
        AUDIBLE_VIDEO + "\n<!-- assets/talk.mp4 has video and audio tracks -->",
    ),
}
DOCS["audio_src_not_found"] = {
    "summary": "An <audio> src points at a local file that does not exist.",
    "explanation": "The track is silent in the render; nothing in the preview warns you.",
    "bad": comp(AUDIO),
    "good": comp(AUDIO, assets=("assets/music.mp3",)),
}
DOCS["missing_or_empty_sub_composition"] = {
    "summary": "A data-composition-src file is missing, empty or has no composition in it.",
    "explanation": "The host mounts nothing: its window renders empty.",
    "bad": project({"index.html": composition(HOST)}, HOST),
    "good": project(
        {"index.html": composition(HOST), "compositions/intro.html": SUB},
        HOST + "\n<!-- + " + "compositions/intro.html with a <template>-wrapped composition -->",
    ),
}
DOCS["multiple_root_compositions"] = {
    "summary": "Several HTML files at the project root carry a composition.",
    "explanation": """
The renderer takes index.html as the entry and never reads the other file: a project with an extra
outro.html renders frame-identical to the same project without it (render case `second_root_composition`), so
nothing in the video breaks. What this protects is the project's structure for preview and Studio editing: a
scene meant to play belongs under compositions/ and is mounted from index.html with data-composition-src;
a second root composition is either dead or a sub-composition in the wrong place.
""",
    "bad": project(
        {"index.html": composition(""), "outro.html": composition("", composition_id="outro")},
        "index.html + outro.html, both with data-composition-id",
    ),
    "good": project({"index.html": composition("")}, "index.html only; scenes live in compositions/"),
}
DOCS["audio_file_without_element"] = {
    "summary": "The project contains audio files but no <audio> element uses any of them.",
    "explanation": "Usually the soundtrack was added to the folder but never placed on the timeline.",
    "bad": project({"index.html": composition(""), "assets/music.mp3": b"\x00"}, "assets/music.mp3, no <audio>"),
    "good": comp(AUDIO, assets=("assets/music.mp3",)),
}
DOCS["blank_root_with_standalone_composition"] = {
    "summary": "index.html has no composition while a file in compositions/ is a complete standalone one.",
    "explanation": "The render starts at index.html and produces an empty video; the real composition is never "
    "mounted.",
    "bad": project(
        {"index.html": "<!doctype html>\n<html><body></body></html>\n", "compositions/main.html": composition("")},
        "index.html empty; compositions/main.html complete",
    ),
    "good": project({"index.html": composition("")}, "index.html holds the root composition"),
}
DOCS["duplicate_audio_track"] = {
    "summary": "Two audible clips (<audio>, or <video> that is not muted) overlap in time on one data-track-index.",
    "explanation": """
Audio on one track is meant to play one clip at a time; overlaps double the sound or get cut. Clips are compared
within one composition: a sub-composition's tracks are lanes of its own timeline (the whole sub-composition sits
on one track of its host), and the renderer mixes every audible clip whatever its track, so a sound effect in a
scene over the host's music is intended layering, not a clash.
""",
    "bad": comp(
        AUDIO + '\n<audio id="music2" src="assets/music.mp3" data-start="2" data-duration="2" '
        'data-track-index="3"></audio>',
        assets=("assets/music.mp3",),
    ),
    "good": comp(
        AUDIO + '\n<audio id="music2" src="assets/music.mp3" data-start="2" data-duration="2" '
        'data-track-index="4"></audio>',
        assets=("assets/music.mp3",),
    ),
}
DOCS["subcomposition_missing_template"] = {
    "summary": "A file under compositions/ keeps its composition outside <template>.",
    "explanation": "A host clones only the `<template>` content of a data-composition-src file; markup, styles and "
    "scripts outside it are dropped when the sub-composition is mounted.",
    "bad": project(
        {
            "index.html": composition(HOST),
            "compositions/intro.html": SUB.replace("<template>\n", "").replace("</template>\n", ""),
        },
        'compositions/intro.html:\n<div data-composition-id="intro" ...>...</div>\n<script>...</script>',
    ),
    "good": project(
        {"index.html": composition(HOST), "compositions/intro.html": SUB},
        'compositions/intro.html:\n<template>\n  <div data-composition-id="intro" ...>...</div>\n'
        "  <script>...</script>\n</template>",
    ),
}
DOCS["unused_sub_composition"] = {
    "summary": "A file in compositions/ is not mounted by any data-composition-src.",
    "explanation": "Dead scenes are still linted and shipped; usually a host was deleted or its path misspelt.",
    "bad": project({"index.html": composition(""), "compositions/intro.html": SUB}, "compositions/intro.html, no host"),
    "good": project({"index.html": composition(HOST), "compositions/intro.html": SUB}, HOST),
}
