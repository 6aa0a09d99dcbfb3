"""Shapes met in real HyperFrames projects where skillbox and `hyperframes lint` disagree, pinned to the
behaviour we chose (bench/README.md, lint section, explains each): a bad and a good case per rule."""

from __future__ import annotations

from skillbox.lint.engine import lint_paths
from skillbox.lint.samples import composition


def write(root, files):
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def codes(path, code):
    return [f for f in lint_paths([path]).findings if f.code == code]


def scenes(wrap_as_composition: bool) -> str:
    """Four sequential 2 s scenes on track 1, either plain clips or each its own inline composition."""
    out = []
    for i in range(4):
        cid = f' data-composition-id="scene{i}"' if wrap_as_composition else ""
        out.append(
            f'<div id="s{i}" class="clip"{cid} data-start="{2 * i}" data-duration="2" data-track-index="1">'
            f'<p id="t{i}">{i}</p></div>'
        )
    return "\n".join(out)


def tweens() -> str:
    return "\n".join(f'tl.from("#t{i}", {{ opacity: 0 }}, {2 * i});' for i in range(4))


def test_dense_track_of_plain_clips_is_reported(tmp_path):
    project = write(tmp_path / "p", {"index.html": composition(scenes(False), js=tweens())})
    assert len(codes(project, "timeline_track_too_dense")) == 1


def test_sequential_scene_compositions_on_one_track_are_not_dense(tmp_path):
    # A deck whose scenes are inline compositions: each scene already is the grouping the rule asks for.
    project = write(tmp_path / "p", {"index.html": composition(scenes(True), js=tweens())})
    assert codes(project, "timeline_track_too_dense") == []


NEGATIVE_Z_CSS = """
.stack {{ position: relative; {parent} }}
.stack .under {{ position: absolute; inset: 0; z-index: -1; background: #05f; }}
"""
NEGATIVE_Z_BODY = '<div id="s" class="stack"><div id="u" class="under"></div><p id="c">47%</p></div>'
JS = 'tl.from("#s", { opacity: 0 }, 0);'


def test_negative_z_index_without_stacking_context_on_the_parent(tmp_path):
    css = NEGATIVE_Z_CSS.format(parent="")
    project = write(tmp_path / "p", {"index.html": composition(NEGATIVE_Z_BODY, css=css, js=JS)})
    assert len(codes(project, "negative_z_index")) == 1


def test_negative_z_index_under_a_filtered_parent_written_with_a_scoped_selector(tmp_path):
    # The peer only sees stacking contexts declared by a bare `.class`/`#id` rule; a scoped or descendant selector
    # (as sub-compositions write them) creates one just the same, so the child paints above the parent background.
    css = NEGATIVE_Z_CSS.format(parent="filter: drop-shadow(0 15px 0 rgba(0, 0, 0, 0.2));").replace(
        ".stack {", '[data-composition-id="main"] .stack {'
    )
    project = write(tmp_path / "p", {"index.html": composition(NEGATIVE_Z_BODY, css=css, js=JS)})
    assert codes(project, "negative_z_index") == []


def test_negative_z_index_under_a_parent_made_a_context_by_inline_opacity_and_transform(tmp_path):
    body = NEGATIVE_Z_BODY.replace('class="stack"', 'class="stack" style="opacity: 0; transform: scale(0)"')
    css = NEGATIVE_Z_CSS.format(parent="")
    project = write(tmp_path / "p", {"index.html": composition(body, css=css, js=JS)})
    assert codes(project, "negative_z_index") == []


def host(start: str) -> str:
    return (
        '<video id="aroll" src="a.mp4" data-start="0" data-duration="8" data-track-index="1" '
        'data-has-audio="true"></video>\n'
        f'<div id="intro" data-composition-id="intro" data-composition-src="compositions/intro.html" '
        f'data-start="{start}" data-duration="2" data-track-index="2" data-width="1920" data-height="1080"></div>'
    )


SUB_WITH_SFX = (
    '<template>\n<div data-composition-id="intro" data-width="1920" data-height="1080">\n'
    '  <h1 id="intro-title">Intro</h1>\n'
    '  <audio id="snap" src="snap.mp3" data-start="0.5" data-duration="1" data-track-index="1"></audio>\n'
    "</div>\n<script>\nwindow.__timelines = window.__timelines || {};\n"
    "const tl = gsap.timeline({ paused: true });\n"
    'tl.from("#intro-title", { opacity: 0 }, 0);\nwindow.__timelines["intro"] = tl;\n</script>\n</template>\n'
)


def test_two_audible_clips_overlapping_on_one_track_of_one_composition(tmp_path):
    body = (
        '<audio id="a" src="a.mp3" data-start="0" data-duration="4" data-track-index="3"></audio>\n'
        '<audio id="b" src="b.mp3" data-start="2" data-duration="4" data-track-index="3"></audio>'
    )
    project = write(tmp_path / "p", {"index.html": composition(body, js="")})
    for name in ("a.mp3", "b.mp3"):
        (project / name).write_bytes(b"\x00")
    assert len(codes(project, "duplicate_audio_track")) == 1


def test_sub_composition_sfx_over_host_audio_is_not_a_track_clash(tmp_path):
    # The sub-composition's track 1 is a lane of its own timeline (it sits on the host's track 2), and the
    # renderer mixes every audible clip whatever its track: a sound effect over the A-roll is intended layering.
    project = write(
        tmp_path / "p", {"index.html": composition(host("0"), js=""), "compositions/intro.html": SUB_WITH_SFX}
    )
    for name in ("a.mp4", "snap.mp3"):
        (project / name).write_bytes(b"\x00")
    assert codes(project, "duplicate_audio_track") == []


CAPTION_TRACK = (
    '<div id="captions" class="clip" data-start="0" data-duration="4" data-track-index="5" '
    'data-track-kind="captions"><span id="w1" class="caption-word">Hello</span></div>'
)


def caption_project(tmp_path, js):
    body_js = 'tl.from("#captions", { opacity: 0 }, 0);\n' + js
    return write(tmp_path / "p", {"index.html": composition(CAPTION_TRACK, js=body_js)})


def test_caption_exits_generated_per_line_without_a_hard_kill(tmp_path):
    # One caption box re-faded per transcript line: the generated tweens compete on one element's opacity.
    js = (
        "const lines = [{ start: 0.2, end: 1.5 }, { start: 1.6, end: 3.5 }];\n"
        "for (const line of lines) {\n"
        '  tl.to("#captions", { opacity: 1, duration: 0.1 }, line.start);\n'
        '  tl.to("#captions", { opacity: 0, duration: 0.1 }, line.end);\n'
        "}"
    )
    assert len(codes(caption_project(tmp_path, js), "caption_exit_missing_hard_kill")) == 1


def test_single_hand_written_caption_fade_out_needs_no_hard_kill(tmp_path):
    # The whole track fading once at the end: nothing generated competes with the fade.
    js = 'tl.to("#captions", { opacity: 0, duration: 0.5 }, 3.5);'
    assert codes(caption_project(tmp_path, js), "caption_exit_missing_hard_kill") == []


def overflow_project(tmp_path, selector):
    css = f"{selector} {{ white-space: nowrap; }}"
    return write(tmp_path / "p", {"index.html": composition(CAPTION_TRACK, css=css, js=JS_CAPTIONS_IN)})


JS_CAPTIONS_IN = 'tl.from("#captions", { opacity: 0 }, 0);'


def test_nowrap_caption_box_without_max_width(tmp_path):
    project = overflow_project(tmp_path, '[data-composition-id="main"] .caption-word')
    assert len(codes(project, "caption_text_overflow_risk")) == 1


def test_nowrap_word_inside_a_captions_scope_is_not_a_caption_line(tmp_path):
    # `captions` here names the composition the rule is scoped to; the element styled is a single word.
    project = overflow_project(tmp_path, '[data-composition-id="captions"] .word')
    assert codes(project, "caption_text_overflow_risk") == []


def test_host_mounting_a_captions_composition_needs_the_track_kind(tmp_path):
    host = (
        '<div id="captions-layer" data-composition-id="captions-comp" data-composition-src="compositions/captions.html"'
        ' data-start="0" data-duration="4" data-track-index="3"></div>'
    )
    project = write(tmp_path / "p", {"index.html": composition(host, js="")})
    assert len(codes(project, "caption_track_kind_missing")) == 1


def test_timed_label_called_caption_is_not_a_caption_track(tmp_path):
    label = '<div id="caption" class="label clip" data-start="0" data-duration="2" data-track-index="4">FOOTAGE</div>'
    project = write(tmp_path / "p", {"index.html": composition(label, js='tl.from("#caption", { opacity: 0 }, 0);')})
    assert codes(project, "caption_track_kind_missing") == []


LINKED_ROOT = (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>\n</head>\n<body>\n'
    '<div id="root" data-composition-id="main" data-width="1920" data-height="1080" data-start="0" '
    'data-duration="4">\n<h1 id="title">Hi</h1>\n</div>\n<script src="script.js"></script>\n</body>\n</html>\n'
)
LINKED_SCRIPT = 'const tl = gsap.timeline({ paused: true });\ntl.from("#title", { opacity: 0 }, 0);\n'


def registry_codes(project):
    found = lint_paths([project]).findings
    return sorted(f.code for f in found if f.code in ("missing_timeline_registry", "missing_data_no_timeline"))


def test_linked_local_script_without_registration_is_still_unregistered(tmp_path):
    project = write(tmp_path / "p", {"index.html": LINKED_ROOT, "script.js": LINKED_SCRIPT})
    assert registry_codes(project) == ["missing_data_no_timeline", "missing_timeline_registry"]


def test_timeline_registered_in_a_linked_local_script_counts(tmp_path):
    script = LINKED_SCRIPT + 'window.__timelines["main"] = tl;\n'
    project = write(tmp_path / "p", {"index.html": LINKED_ROOT, "script.js": script})
    assert registry_codes(project) == []


def test_audio_file_nothing_uses_is_reported(tmp_path):
    project = write(tmp_path / "p", {"index.html": composition("", js="")})
    (project / "sfx").mkdir()
    (project / "sfx" / "advance.mp3").write_bytes(b"\x00")
    assert len(codes(project, "audio_file_without_element")) == 1


def test_audio_file_another_page_plays_is_not_forgotten(tmp_path):
    # A presenter demo page next to the composition plays the deck's click sounds; the render never needed them.
    demo = '<!doctype html><html><body><script>const s = new Audio("sfx/advance.mp3");</script></body></html>'
    project = write(tmp_path / "p", {"index.html": composition("", js=""), "demo.html": demo})
    (project / "sfx").mkdir()
    (project / "sfx" / "advance.mp3").write_bytes(b"\x00")
    assert codes(project, "audio_file_without_element") == []


def test_z_index_on_a_static_parent_is_no_stacking_context(tmp_path):
    # z-index only takes effect on a positioned box (or a flex/grid item); on a static parent it contains nothing.
    css = ".stack { z-index: 1; }\n.stack .under { position: absolute; inset: 0; z-index: -1; background: #05f; }"
    project = write(tmp_path / "p", {"index.html": composition(NEGATIVE_Z_BODY, css=css, js=JS)})
    assert len(codes(project, "negative_z_index")) == 1


def test_z_index_on_a_positioned_parent_contains_the_child(tmp_path):
    css = NEGATIVE_Z_CSS.format(parent="z-index: 1;")
    project = write(tmp_path / "p", {"index.html": composition(NEGATIVE_Z_BODY, css=css, js=JS)})
    assert codes(project, "negative_z_index") == []
