"""What `skillbox lint explain` shows for the captions rules (lint/rules/captions.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.samples import comp

DOCS: dict[str, dict] = {}
TRACK = (
    '<div id="captions" class="clip" data-start="0" data-duration="4" data-track-index="5" '
    'data-track-kind="captions"><span id="w1" class="caption-word">Hello</span></div>'
)
TRACK_IN = 'tl.from("#captions", { opacity: 0 }, 0);'
DOCS["caption_transcript_not_inline"] = {
    "summary": "A captions composition loads its transcript with fetch().",
    "explanation": """
The renderer waits for it: a caption track whose words are fetched from transcript.json and added to the
registered timeline in the `then` callback renders frame-identical to the inline transcript (render case
`caption_transcript_fetched`, hyperframes 0.8.170), so this is not an error. What it protects is Studio editing:
the caption editor parses an inline `const TRANSCRIPT = [...]` and cannot show or edit a fetched one, and tools
that read the timeline before the fetch resolves (preview, checks) see no caption tweens. Inline the transcript.
""",
    "bad": comp(TRACK, js=TRACK_IN + '\nfetch("transcript.json").then((r) => r.json());'),
    "good": comp(TRACK, js='const TRANSCRIPT = [{ "text": "Hello", "start": 0, "end": 1 }];\n' + TRACK_IN),
}
DOCS["caption_container_relative_position"] = {
    "summary": "A caption element is styled position: relative.",
    "explanation": "Caption groups are stacked in one place and switched on the timeline; relative positioning puts "
    "them below each other, so later groups render lower, off the caption line and off-screen (render case "
    "`caption_groups_relative`: 5 of 8 frames differ from absolute groups; the third group is cut by the frame's "
    "bottom edge).",
    "bad": comp(TRACK, css=".caption-group { position: relative; }", js=TRACK_IN),
    "good": comp(TRACK, css=".caption-group { position: absolute; }", js=TRACK_IN),
}
DOCS["caption_text_overflow_risk"] = {
    "summary": "A caption style uses white-space: nowrap without a max-width.",
    "explanation": "Long caption lines then run off the frame edge.",
    "bad": comp(TRACK, css=".caption-word { white-space: nowrap; }", js=TRACK_IN),
    "good": comp(TRACK, css=".caption-word { white-space: nowrap; max-width: 1600px; }", js=TRACK_IN),
}
DOCS["caption_overflow_clips_scaled_words"] = {
    "summary": "overflow: hidden on a caption container whose words are scaled above 1.",
    "explanation": "Emphasis scaling (scale 1.2 on the active word) grows the word past the container box and "
    "overflow: hidden cuts it off (render case `caption_overflow_clips_scaled_word`: 5 of 8 frames show the "
    "word clipped where overflow: visible shows it whole).",
    "bad": comp(TRACK, css="#captions { overflow: hidden; }", js=TRACK_IN + '\ntl.to("#w1", { scale: 1.3 }, 1);'),
    "good": comp(TRACK, css="#captions { overflow: visible; }", js=TRACK_IN + '\ntl.to("#w1", { scale: 1.3 }, 1);'),
}
DOCS["caption_track_kind_missing"] = {
    "summary": 'A timed caption-like element lacks data-track-kind="captions".',
    "explanation": "Editors find the caption track by data-track-kind; without it captions are edited as ordinary "
    "clips and caption styling tools do not apply.",
    "bad": comp(TRACK.replace(' data-track-kind="captions"', ""), js=TRACK_IN),
    "good": comp(TRACK, js=TRACK_IN),
}
DOCS["multiple_caption_tracks"] = {
    "summary": "Caption elements are spread over several track indices.",
    "explanation": "One composition has one caption track; several make captions overlap and confuse the editor.",
    "bad": comp(
        TRACK + '\n<div id="captions2" class="clip" data-start="0" data-duration="4" data-track-index="6" '
        'data-track-kind="captions"></div>',
        js=TRACK_IN + '\ntl.from("#captions2", { opacity: 0 }, 0);',
    ),
    "good": comp(TRACK, js=TRACK_IN),
}
DOCS["caption_textshadow_on_group_container"] = {
    "summary": "textShadow is tweened on the caption group container.",
    "explanation": "A text-shadow on the container re-rasterises every word each frame; tween it on the words.",
    "bad": comp(TRACK, js=TRACK_IN + '\ntl.to("#captions", { textShadow: "0 0 8px #fff" }, 1);'),
    "good": comp(TRACK, js=TRACK_IN + '\ntl.to("#w1", { textShadow: "0 0 8px #fff" }, 1);'),
}
EXIT_LOOP = """const groups = [{ el: "#captions", end: 4 }];
groups.forEach((group) => {
  tl.to(group.el, { opacity: 0, duration: 0.2 }, group.end - 0.2);%s
});"""
DOCS["caption_exit_missing_hard_kill"] = {
    "summary": "Caption groups generated in a loop fade out with tl.to(opacity: 0) but are never hard-hidden "
    "with tl.set.",
    "explanation": """
A caption track built in a loop writes, per group, an exit fade next to the word-level (karaoke) tweens of the same
group. Where those tweens meet on one element, the exit loses: an `overwrite` kills its overlapping part, or a later
word tween re-reveals the group, and the caption stays on screen into the next one. A zero-duration
`tl.set(group, { opacity: 0 }, group.end)` after the fade is an exact state that every seek past the end lands on.
A single hand-written fade (no loop) is not reported: nothing generated competes with it.

The renderer did not show the failure: loop-built groups whose word-level `overwrite: "auto"` tween overlaps the
exit fade render frame-identical with and without the hard kill, with one worker and with two (render case
`caption_exit_overwritten`), because a render seeks forward through the timeline. So this is a warning. What it
protects is preview and Studio editing, which scrub backwards and jump: there the exit state depends on the seek
order, and an exact `tl.set` is the state every seek lands on.
""",
    "bad": comp(TRACK, js=TRACK_IN + "\n" + EXIT_LOOP % ""),
    "good": comp(TRACK, js=TRACK_IN + "\n" + EXIT_LOOP % "\n  tl.set(group.el, { opacity: 0 }, group.end);"),
}
