"""Render cases: for a rule, the pattern it flags next to the intended pattern, rendered with the real renderer.

Each case renders two small projects (320x180, 2 s, 4 fps) and compares the frame hashes. The outcome decides the
rule's severity (bench/README.md, "Render oracle"): an error must show the failure it predicts (frames differ from
the intended render, or the render fails); a pattern that renders identically is at most a warning whose explain
page says what it protects instead (preview, distributed rendering, Studio editing).

    python bench/lint_render_cases.py [--workers 2] [--keep DIR] [NAME...]   # one JSON line per case
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lint_render import RenderError, available, frames_differ, render_audio_db, render_frames

GSAP = '<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>'
BASE_CSS = (
    "html,body{margin:0;background:#000}"
    "#root{position:relative;width:320px;height:180px;overflow:hidden;background:#123}"
    ".box{position:absolute;width:40px;height:40px;background:#f80}"
)
BOX = '<div id="box" class="box clip" data-start="0" data-duration="2" data-track-index="1"></div>'


def scene(body: str = BOX, *, css: str = "", script: str = "", head: str = "", cid: str = "main") -> str:
    return (
        f'<!doctype html>\n<html><head><meta charset="utf-8">{GSAP}{head}<style>{BASE_CSS}{css}</style></head>\n'
        f'<body><div id="root" data-composition-id="{cid}" data-start="0" data-duration="2" data-width="320" '
        f'data-height="180">\n{body}\n</div>\n<script>\n{script}\n</script>\n</body></html>\n'
    )


def registered(build: str, *, timeline: str = "gsap.timeline({ paused: true })", key: str = "main") -> str:
    return (
        f"window.__timelines = window.__timelines || {{}};\nconst tl = {timeline};\n{build}\n"
        f'window.__timelines["{key}"] = tl;'
    )


MOVE = 'tl.fromTo("#box", { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);'


@dataclass
class Case:
    name: str
    code: str  # the lint code the flagged variant triggers (or must not trigger)
    flagged: dict[str, str]  # project files of the pattern the rule flags
    intended: dict[str, str] | None  # the pattern the author means; None = render `flagged` twice (determinism)
    predicts: str  # what the rule claims breaks
    workers: int = 1  # for the second render (2 = chunks seeked cold by two workers, like a distributed render)
    localize_flagged: bool = True  # False: keep the flagged variant's CDN scripts (an offline render)
    assets: dict[str, bytes] | None = None  # binary files both variants get (e.g. a clip made with ffmpeg)
    intended_assets: dict[str, bytes] | None = None  # binary files only the intended variant gets
    audio: bool = False  # compare the sound of an mp4 render (mean volume) instead of frames


def _sub(script_body: str) -> dict[str, str]:
    host = (
        '<div id="intro" data-composition-id="intro" data-composition-src="compositions/intro.html" '
        'data-start="0" data-duration="2" data-track-index="1" data-width="320" data-height="180"></div>'
    )
    sub = (
        '<template>\n<div data-composition-id="intro" data-width="320" data-height="180">\n'
        '<div id="ibox" class="box"></div>\n</div>\n<script>\n'
        f"{script_body}\n</script>\n</template>\n"
    )
    return {"index.html": scene(host, script=registered("")), "compositions/intro.html": sub}


SUB_REG = (
    "window.__timelines = window.__timelines || {};\nconst tl = gsap.timeline({ paused: true });\n"
    'tl.fromTo("#ibox", { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);\nwindow.__timelines["intro"] = tl;'
)
SUB_MOVE = 'tl.fromTo("#ibox", { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);'


@functools.cache
def _clip() -> bytes:
    """A 2 s 320x180 test clip without audio, made with ffmpeg (empty when ffmpeg is missing)."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("ffmpeg") is None:
        return b""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "clip.mp4"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=10",
                        "-t", "2", "-pix_fmt", "yuv420p", str(out)], check=False)  # fmt: skip
        return out.read_bytes() if out.is_file() else b""


def _png(spec: str) -> bytes:
    """A small PNG made with ffmpeg from a lavfi source, e.g. "color=white:s=40x40" (empty without ffmpeg)."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("ffmpeg") is None:
        return b""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "image.png"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", spec, "-frames:v", "1",
                        str(out)], check=False)  # fmt: skip
        return out.read_bytes() if out.is_file() else b""


FONT_FILE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")  # Debian fonts-dejavu-core


@functools.cache
def _tone() -> bytes:
    """A 2 s 440 Hz tone (AAC in .m4a), made with ffmpeg (empty when ffmpeg is missing)."""
    import shutil
    import subprocess
    import tempfile

    if shutil.which("ffmpeg") is None:
        return b""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tone.m4a"
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                        "-c:a", "aac", str(out)], check=False)  # fmt: skip
        return out.read_bytes() if out.is_file() else b""


def _asset(rel: str, data: bytes) -> bytes:
    """Asset bytes; an empty placeholder is made here: a clip, a font or a mask image (by name)."""
    if data:
        return data
    if rel.endswith(".mp4"):
        return _clip()
    if rel.endswith(".m4a"):
        return _tone()
    if rel.endswith(".ttf"):
        return FONT_FILE.read_bytes() if FONT_FILE.is_file() else b""
    if rel.endswith(".png"):
        return _png("color=white:s=40x40")
    return data


VIDEO = '<video id="v" src="assets/clip.mp4" muted playsinline data-start="0" data-duration="2" data-track-index="1"'
BOX2 = (
    '<div id="box2" class="box clip" style="top:120px;background:#0cf" data-start="1" data-duration="1" '
    'data-track-index="2"></div>'
)
FONT_TEXT = '<p id="t" style="color:#fff;font-size:28px;position:absolute;top:60px;margin:0">Typography</p>'
HOLD = "tl.set({}, {}, 2);"
SLOW = '{ %s: 3, duration: 2, ease: "none" }'
SVG_PATH = (
    '<svg width="320" height="180" style="position:absolute;left:0;top:0">'
    '<path id="wire" stroke="#fff" stroke-width="6" fill="none"></path></svg>'
)
SETD = 'wire.setAttribute("d", "M10 90 L310 90");\n'
DRAW_ON = (
    'const wire = document.getElementById("wire");\nSETD_BEFORE'
    "const len = wire.getTotalLength();\nSETD_AFTER"
    'wire.style.strokeDasharray = len + " " + len;\n'
    'tl.fromTo(wire, { strokeDashoffset: len }, { strokeDashoffset: 0, duration: 2, ease: "none" }, 0);'
)
CASES = [
    Case(
        "transform_conflict_translate_y",
        "gsap_css_transform_conflict",
        {
            "index.html": scene(
                css="#box{left:50%;top:50%;transform:translate(-50%,-50%)}",
                script=registered('tl.to("#box", { y: 40, duration: 2, ease: "none" }, 0);'),
            )
        },
        {
            "index.html": scene(
                css="#box{left:50%;top:50%}",
                script=registered(
                    'tl.set("#box", { xPercent: -50, yPercent: -50 }, 0);\n'
                    'tl.to("#box", { y: 40, duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        "the tween replaces the CSS translate, so the box jumps off centre",
    ),
    Case(
        "transform_conflict_scale",
        "gsap_css_transform_conflict",
        {
            "index.html": scene(
                css="#box{left:50%;top:50%;transform:translate(-50%,-50%)}",
                script=registered('tl.to("#box", { scale: 2, duration: 2, ease: "none" }, 0);'),
            )
        },
        {
            "index.html": scene(
                css="#box{left:50%;top:50%}",
                script=registered(
                    'tl.set("#box", { xPercent: -50, yPercent: -50 }, 0);\n'
                    'tl.to("#box", { scale: 2, duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        "the tween replaces the CSS translate, so the box jumps off centre",
    ),
    Case(
        "unpaused_registered_timeline",
        "timeline_not_paused",
        {"index.html": scene(script=registered(MOVE, timeline="gsap.timeline()"))},
        {"index.html": scene(script=registered(MOVE))},
        "a playing timeline fights the renderer's seeks",
    ),
    Case(
        "unpaused_timeline_and_play",
        "timeline_play_called",
        {"index.html": scene(script=registered(MOVE + "\ntl.play();", timeline="gsap.timeline()"))},
        {"index.html": scene(script=registered(MOVE))},
        "play() starts wall-clock playback that fights the seeks",
    ),
    Case(
        "built_in_fonts_ready",
        "timeline_created_async",
        {"index.html": scene(script="document.fonts.ready.then(() => {\n" + registered(MOVE) + "\n});")},
        {"index.html": scene(script=registered(MOVE))},
        "the renderer may read the registry before the callback runs",
    ),
    Case(
        "built_in_set_timeout",
        "timeline_created_async",
        {"index.html": scene(script="setTimeout(() => {\n" + registered(MOVE) + "\n}, 50);")},
        {"index.html": scene(script=registered(MOVE))},
        "the renderer may read the registry before the callback runs",
    ),
    Case(
        "sub_registered_before_fonts_ready_build",
        "gsap_timeline_registered_before_async_build",
        _sub(
            "window.__timelines = window.__timelines || {};\nconst tl = gsap.timeline({ paused: true });\n"
            'window.__timelines["intro"] = tl;\ndocument.fonts.ready.then(() => {\n' + SUB_MOVE + "\n});"
        ),
        _sub(
            "window.__timelines = window.__timelines || {};\nconst tl = gsap.timeline({ paused: true });\n"
            + SUB_MOVE
            + '\nwindow.__timelines["intro"] = tl;'
        ),
        "the host nests the sub-composition's timeline while it is still empty",
    ),
    Case(
        "paused_child_added_to_parent",
        "timeline_not_paused",
        {
            "index.html": scene(
                script=registered(
                    "const child = gsap.timeline({ paused: true });\n"
                    'child.fromTo("#box", { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);\ntl.add(child, 0);'
                )
            )
        },
        {
            "index.html": scene(
                script=registered(
                    "const child = gsap.timeline();\n"
                    'child.fromTo("#box", { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);\ntl.add(child, 0);'
                )
            )
        },
        "(fix safety) pausing a child that is added to the parent freezes it",
    ),
    Case(
        "global_tween_not_on_timeline",
        "gsap_tween_not_on_timeline",
        {
            "index.html": scene(
                script=registered(
                    'tl.set({}, {}, 2);\ngsap.fromTo("#box", { x: 0 }, { x: 200, duration: 2, ease: "none" });'
                )
            )
        },
        {"index.html": scene(script=registered(MOVE))},
        "a gsap.* tween runs on the wall clock, not the seeked timeline",
    ),
    Case(
        "from_opacity_zero_onto_css_zero",
        "gsap_from_opacity_noop",
        {
            "index.html": scene(
                css="#box{opacity:0}", script=registered('tl.from("#box", { opacity: 0, x: 100, duration: 1 }, 0.5);')
            )
        },
        {
            "index.html": scene(
                css="#box{opacity:0}",
                script=registered('tl.fromTo("#box", { opacity: 0, x: 100 }, { opacity: 1, x: 0, duration: 1 }, 0.5);'),
            )
        },
        "from() animates 0 -> the CSS 0: the element never shows",
    ),
    Case(
        "missing_three_script",
        "missing_three_script",
        {"index.html": scene(script=registered("const scene3d = new THREE.Scene();\n" + MOVE))},
        {"index.html": scene(script=registered(MOVE))},
        "THREE is undefined: the script stops at its first use, nothing after it runs",
    ),
    Case(
        "video_autoplay",
        "video_autoplay",
        {"index.html": scene(VIDEO + " autoplay></video>", script=registered("tl.set({}, {}, 2);"))},
        {"index.html": scene(VIDEO + "></video>", script=registered("tl.set({}, {}, 2);"))},
        "autoplay plays the clip on the wall clock",
        assets={"assets/clip.mp4": b""},  # filled in by run() with _clip()
    ),
    Case(
        "timed_element_missing_track_index",
        "timed_element_missing_track_index",
        {"index.html": scene(BOX.replace(' data-track-index="1"', ""), script=registered(MOVE))},
        {"index.html": scene(script=registered(MOVE))},
        "a clip without a lane",
    ),
    Case(
        "left_vs_x_slow_tween",
        "gsap_non_transform_motion",
        {
            "index.html": scene(
                css="#box{left:10px;top:70px}",
                script=registered('tl.to("#box", ' + SLOW % "left" + ", 0);").replace("left: 3", "left: 13"),
            )
        },
        {
            "index.html": scene(
                css="#box{left:10px;top:70px}", script=registered('tl.to("#box", ' + SLOW % "x" + ", 0);")
            )
        },
        "layout props snap to whole pixels: a slow tween steps (fewer distinct frames)",
    ),
    Case(
        "remote_gsap_offline",
        "remote_dependency_offline",
        {"index.html": scene(script=registered(MOVE))},
        {"index.html": scene(script=registered(MOVE))},
        "offline, a CDN script does not load: the render fails",
        localize_flagged=False,
    ),
    Case(
        "new_date_twice",
        "non_deterministic_code",
        {
            "index.html": scene(
                '<p id="t" style="color:#fff;font:20px monospace">x</p>',
                script=registered(
                    'document.getElementById("t").textContent = String(new Date().getTime());\ntl.set({}, {}, 2);'
                ),
            )
        },
        None,
        "wall-clock time: two renders show different text",
    ),
    Case(
        "math_random_twice",
        "non_deterministic_code",
        {"index.html": scene(script=registered('tl.set("#box", { x: Math.random() * 280 }, 0);\ntl.set({}, {}, 2);'))},
        None,
        "unseeded random: two renders place the box differently",
    ),
    Case(
        "svg_measure_before_path_d",
        "svg_measure_before_path_d",
        {
            "index.html": scene(
                SVG_PATH, script=registered(DRAW_ON.replace("SETD_AFTER", SETD).replace("SETD_BEFORE", ""))
            )
        },
        {
            "index.html": scene(
                SVG_PATH, script=registered(DRAW_ON.replace("SETD_BEFORE", SETD).replace("SETD_AFTER", ""))
            )
        },
        "the length of a d-less path is 0: the draw-on never draws",
    ),
    Case(
        "missing_timeline_registry",
        "missing_timeline_registry",
        {"index.html": scene(script="const tl = gsap.timeline({ paused: true });\n" + MOVE)},
        {"index.html": scene(script=registered(MOVE))},
        "no window.__timelines: nothing for the renderer to seek",
    ),
    Case(
        "timeline_id_mismatch",
        "timeline_id_mismatch",
        {"index.html": scene(script=registered(MOVE, key="other"))},
        {"index.html": scene(script=registered(MOVE))},
        "the key names no composition: the root timeline is never found",
    ),
    Case(
        "missing_gsap_plugin_text",
        "missing_gsap_plugin",
        {
            "index.html": scene(
                '<p id="t" style="color:#fff;font:20px monospace;position:absolute;top:60px">.</p>',
                script=registered('tl.to("#t", { text: "HELLO", duration: 1 }, 0.5);'),
            )
        },
        {
            "index.html": scene(
                '<p id="t" style="color:#fff;font:20px monospace;position:absolute;top:60px">.</p>',
                head='<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/TextPlugin.min.js"></script>',
                script="gsap.registerPlugin(TextPlugin);\n"
                + registered('tl.to("#t", { text: "HELLO", duration: 1 }, 0.5);'),
            )
        },
        "without TextPlugin the text never changes",
    ),
    Case(
        "invalid_inline_script_syntax",
        "invalid_inline_script_syntax",
        {"index.html": scene(script=registered(MOVE) + "\nconst broken = {;")},
        {"index.html": scene(script=registered(MOVE))},
        "a syntax error stops the whole script: no timeline",
    ),
    Case(
        "self_closing_video_swallows",
        "self_closing_media_tag",
        {"index.html": scene(VIDEO + "/>\n" + BOX, script=registered(MOVE))},
        {"index.html": scene(VIDEO + "></video>\n" + BOX, script=registered(MOVE))},
        "what follows <video/> becomes its child and is never painted",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "media_missing_id",
        "media_missing_id",
        {"index.html": scene(VIDEO.replace('id="v" ', "") + "></video>", script=registered("tl.set({}, {}, 2);"))},
        {"index.html": scene(VIDEO + "></video>", script=registered("tl.set({}, {}, 2);"))},
        "a timed video without an id is not driven: frozen or missing",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "track_clip_overlap",
        "track_clip_overlap",
        {
            "index.html": scene(
                BOX.replace('data-duration="2"', 'data-duration="1.5"')
                + "\n"
                + BOX2.replace('data-track-index="2"', 'data-track-index="1"'),
                script=registered(MOVE),
            )
        },
        {
            "index.html": scene(
                BOX.replace('data-duration="2"', 'data-duration="1.5"') + "\n" + BOX2, script=registered(MOVE)
            )
        },
        "two clips on one track at once: the runtime shows one of them",
    ),
    Case(
        "imperative_media_control",
        "imperative_media_control",
        {
            "index.html": scene(
                VIDEO + "></video>",
                script=registered("tl.set({}, {}, 2);") + '\ndocument.getElementById("v").currentTime = 1.5;',
            )
        },
        {"index.html": scene(VIDEO + "></video>", script=registered("tl.set({}, {}, 2);"))},
        "the script seeks the video itself, fighting the renderer",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "video_muted_with_declared_audio",
        "video_muted_with_declared_audio",
        {"index.html": scene(VIDEO + ' data-has-audio="true"></video>', script=registered("tl.set({}, {}, 2);"))},
        {"index.html": scene(VIDEO + "></video>", script=registered("tl.set({}, {}, 2);"))},
        "muted and declared audible at once",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "host_missing_composition_id",
        "host_missing_composition_id",
        {**_sub(SUB_REG), "index.html": _sub(SUB_REG)["index.html"].replace(' data-composition-id="intro"', "", 1)},
        _sub(SUB_REG),
        "a host without data-composition-id never mounts its sub-composition",
    ),
    Case(
        "timeline_not_registered",
        "gsap_timeline_not_registered",
        {
            "index.html": scene(
                script=registered("tl.set({}, {}, 2);")
                + "\nconst t2 = gsap.timeline({ paused: true });\n"
                + MOVE.replace("tl.", "t2.")
            )
        },
        {"index.html": scene(script=registered(MOVE))},
        "a timeline nobody registers or adds is never seeked",
    ),
    Case(
        "font_without_font_face_falls_back",
        "font_family_without_font_face",
        {"index.html": scene(FONT_TEXT, css="#t{font-family:'Brand Sans', serif}", script=registered(HOLD))},
        {"index.html": scene(FONT_TEXT, css="#t{font-family:serif}", script=registered(HOLD))},
        "the named family is not there: the text renders in a system fallback face",
    ),
    Case(
        "raf_loop_twice",
        "requestanimationframe_in_composition",
        {
            "index.html": scene(
                script=registered("tl.set({}, {}, 2);")
                + (
                    "\nlet x = 0;\nfunction tick() {\n  x = (x + 7) % 280;\n"
                    '  document.getElementById("box").style.transform = "translateX(" + x + "px)";\n'
                    "  requestAnimationFrame(tick);\n}\nrequestAnimationFrame(tick);"
                )
            )
        },
        None,
        "a rAF loop advances on the display clock: two renders differ",
    ),
    Case(
        "raf_loop_two_workers",
        "requestanimationframe_in_composition",
        {
            "index.html": scene(
                script=registered("tl.set({}, {}, 2);")
                + (
                    "\nlet x = 0;\nfunction tick() {\n  x = (x + 7) % 280;\n"
                    '  document.getElementById("box").style.transform = "translateX(" + x + "px)";\n'
                    "  requestAnimationFrame(tick);\n}\nrequestAnimationFrame(tick);"
                )
            )
        },
        None,
        "a rAF loop depends on how many frames this worker drew: chunked renders differ",
        workers=2,
    ),
]


# Session 5: the 21 error rules that had no render case (bench/README.md, "lint render cases, session 5").
CAPTION_CSS = (
    "#captions{position:absolute;left:10px;top:100px;width:300px;height:80px}"
    ".caption-group{POS;left:0;top:0;color:#fff;font:24px/30px sans-serif;opacity:0}"
)
CAPTION_GROUPS = (
    '<div id="captions" class="clip" data-start="0" data-duration="2" data-track-index="5" '
    'data-track-kind="captions">'
    '<div id="g1" class="caption-group">ONE one</div><div id="g2" class="caption-group">TWO two</div>'
    '<div id="g3" class="caption-group">THREE three</div></div>'
)
CAPTION_SWITCH = (
    'const GROUPS = [["#g1", 0, 0.7], ["#g2", 0.7, 1.4], ["#g3", 1.4, 2]];\n'
    "GROUPS.forEach(([el, start, end]) => {\n"
    "  tl.set(el, { opacity: 1 }, start);\n  if (end < 2) tl.set(el, { opacity: 0 }, end);\n});"
)
KARAOKE = """const GROUPS = [{ el: "#g1", start: 0, end: 1 }, { el: "#g2", start: 1, end: 2 }];
GROUPS.forEach((group) => {
  tl.fromTo(group.el, { opacity: 0 }, { opacity: 1, duration: 0.2 }, group.start);
  tl.to(group.el, { opacity: 1, scale: 1.15, duration: 0.5, overwrite: "auto" }, group.end - 0.45);
  tl.to(group.el, { opacity: 0, duration: 0.2 }, group.end - 0.2);KILL
});"""
CAPTION_SCALED = (
    '<div id="captions" class="clip" data-start="0" data-duration="2" data-track-index="5" '
    'data-track-kind="captions" style="position:absolute;left:40px;top:60px;width:240px;height:40px">'
    '<span id="w1" class="caption-word" style="display:inline-block;color:#fff;font:32px/40px sans-serif">'
    "HELLO</span></div>"
)
SCALE_WORD = 'tl.to("#w1", { scale: 1.6, duration: 1, ease: "none" }, 0.5);'
TRANSCRIPT = '[{"text": "HELLO", "start": 0.25, "end": 1}, {"text": "WORLD", "start": 1, "end": 1.75}]'
WORDS_BUILD = (
    "TRANSCRIPT.forEach((w, i) => {\n"
    '  const el = document.createElement("div");\n  el.className = "caption-word";\n  el.textContent = w.text;\n'
    '  el.style.cssText = "position:absolute;left:20px;top:60px;color:#fff;font:32px sans-serif;opacity:0";\n'
    '  document.getElementById("captions").appendChild(el);\n'
    "  tl.set(el, { opacity: 1 }, w.start);\n  tl.set(el, { opacity: 0 }, w.end);\n});"
)
CAPTION_HOST = (
    '<div id="captions" class="clip" data-start="0" data-duration="2" data-track-index="5" '
    'data-track-kind="captions"></div>'
)
GRADED = (
    '<video id="v" src="assets/clip.mp4" muted playsinline data-start="0" data-duration="2" data-track-index="1" '
    "data-color-grading='GRADING'></video>"
)
INLINE_SCENE = (
    '<div id="SID" data-composition-id="CID" data-start="START" data-duration="1" data-track-index="1" '
    'style="position:absolute;inset:0"><div id="BOX" class="box" style="top:TOPpx;background:COLOR"></div></div>'
)


def _inline_scenes(first: str, second: str) -> dict[str, str]:
    """Two inline scenes (0-1 s and 1-2 s), each with its own timeline registered under its composition id."""
    body = INLINE_SCENE.replace("SID", "sa").replace("CID", first).replace("START", "0").replace("BOX", "ba")
    body = body.replace("TOP", "30").replace("COLOR", "#f80") + "\n"
    body += INLINE_SCENE.replace("SID", "sb").replace("CID", second).replace("START", "1").replace("BOX", "bb")
    body = body.replace("TOP", "110").replace("COLOR", "#0cf")
    script = registered(HOLD)
    for key, box in ((first, "ba"), (second, "bb")):
        script += (
            f"\n{{\n  const t = gsap.timeline({{ paused: true }});\n"
            f'  t.fromTo("#{box}", {{ x: 0 }}, {{ x: 240, duration: 1, ease: "none" }}, 0);\n'
            f'  window.__timelines["{key}"] = t;\n}}'
        )
    return {"index.html": scene(body, script=script)}


SVG_GRADIENTS = (
    '<svg id="s1" width="140" height="140" style="position:absolute;left:10px;top:20px"><defs>'
    '<linearGradient id="G1"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#ff0"/>'
    '</linearGradient></defs><rect width="140" height="140" fill="url(#G1)"/></svg>'
    '<svg id="s2" width="140" height="140" style="position:absolute;left:170px;top:20px"><defs>'
    '<linearGradient id="G2"><stop offset="0" stop-color="#00f"/><stop offset="1" stop-color="#0ff"/>'
    '</linearGradient></defs><rect width="140" height="140" fill="url(#G2)"/></svg>'
)
BRAND_FONT = "@font-face{font-family:'Brand Sans';src:url('assets/brand.ttf')}#t{font-family:'Brand Sans',sans-serif}"
TEXT_P = '<p id="t" style="color:#fff;font:28px sans-serif;position:absolute;top:50px;left:20px;margin:0">TITLE</p>'
VAR_DECL = '[{"id": "title", "type": "TYPE", "label": "Title", "default": "HELLO"}]'
VAR_TEXT = (
    '<p id="t" data-var-text="title" style="color:#fff;font:28px sans-serif;position:absolute;top:50px;left:20px;'
    'margin:0"></p>'
)


def _variables(declaration: str) -> dict[str, str]:
    html = scene(VAR_TEXT, script=registered(HOLD))
    return {"index.html": html.replace("<html>", f"<html data-composition-variables='{declaration}'>", 1)}


def _host_values(values: str) -> dict[str, str]:
    host = (
        '<div id="card" data-composition-id="card" data-composition-src="compositions/card.html" '
        f'data-variable-values=\'{values}\' data-start="0" data-duration="2" data-track-index="1" '
        'data-width="320" data-height="180"></div>'
    )
    sub = (
        '<template>\n<div data-composition-id="card" data-width="320" data-height="180" '
        f"data-composition-variables='{VAR_DECL.replace('TYPE', 'string')}'>\n"
        '<p id="ct" data-var-text="title" style="color:#fff;font:28px sans-serif;position:absolute;top:50px;'
        'left:20px;margin:0">HELLO</p>\n</div>\n<script>\n'
        "window.__timelines = window.__timelines || {};\nconst tl = gsap.timeline({ paused: true });\n"
        'tl.set({}, {}, 2);\nwindow.__timelines["card"] = tl;\n</script>\n</template>\n'
    )
    return {"index.html": scene(host, script=registered(HOLD)), "compositions/card.html": sub}


def _bare_fragment() -> str:
    full = scene(script=registered(MOVE))
    body = full.split("<body>", 1)[1].split("</body>", 1)[0]
    return f"{GSAP}<style>{BASE_CSS}</style>\n{body}"


FLASH = '<div id="flash" style="position:absolute;inset:0;background:#fff%s"></div>'
FLASH_CUT = (
    'tl.to("#flash", { opacity: 1, duration: 0.1 }, 0.9);\ntl.to("#flash", { opacity: 0, duration: 0.25 }, 1);\n' + MOVE
)
DASHED_WIRE = (
    '<svg width="320" height="180" style="position:absolute;left:0;top:0"><path id="wire" d="M10 90 L310 90" '
    'stroke="#fff" stroke-width="6" fill="none"%s></path></svg>'
)
DRAW_300 = (
    'tl.set("#wire", { strokeDasharray: 300, strokeDashoffset: 300 }, 0);\n'
    'tl.to("#wire", { strokeDashoffset: 0, duration: 2, ease: "none" }, 0);'
)
TONE = '<audio id="vo" src="assets/tone.m4a" data-start="0" data-duration="2" data-track-index="2"></audio>'
MASKED = '<div id="m" class="box" style="left:140px;top:70px;width:40px;height:40px;background:#f80"></div>'
MASK_CSS = "#m{mask-image:url('assets/mask.png');-webkit-mask-image:url('assets/mask.png');mask-size:100% 100%}"

CASES += [
    Case(
        "caption_groups_relative",
        "caption_container_relative_position",
        {
            "index.html": scene(
                CAPTION_GROUPS, css=CAPTION_CSS.replace("POS", "position:relative"), script=registered(CAPTION_SWITCH)
            )
        },
        {
            "index.html": scene(
                CAPTION_GROUPS, css=CAPTION_CSS.replace("POS", "position:absolute"), script=registered(CAPTION_SWITCH)
            )
        },
        "relative groups stack below each other: later groups render lower, off the caption line",
    ),
    Case(
        "caption_exit_overwritten",
        "caption_exit_missing_hard_kill",
        {
            "index.html": scene(
                CAPTION_GROUPS,
                css=CAPTION_CSS.replace("POS", "position:absolute"),
                script=registered(KARAOKE.replace("KILL", "")),
            )
        },
        {
            "index.html": scene(
                CAPTION_GROUPS,
                css=CAPTION_CSS.replace("POS", "position:absolute"),
                script=registered(KARAOKE.replace("KILL", "\n  tl.set(group.el, { opacity: 0 }, group.end);")),
            )
        },
        "a word tween overlapping the exit fade keeps the group on screen",
        workers=2,
    ),
    Case(
        "caption_overflow_clips_scaled_word",
        "caption_overflow_clips_scaled_words",
        {"index.html": scene(CAPTION_SCALED, css="#captions{overflow:hidden}", script=registered(SCALE_WORD))},
        {"index.html": scene(CAPTION_SCALED, css="#captions{overflow:visible}", script=registered(SCALE_WORD))},
        "the scaled word grows past the container and is cut off",
    ),
    Case(
        "caption_transcript_fetched",
        "caption_transcript_not_inline",
        {
            "index.html": scene(
                CAPTION_HOST,
                script=(
                    "window.__timelines = window.__timelines || {};\nconst tl = gsap.timeline({ paused: true });\n"
                    'tl.set({}, {}, 2);\nwindow.__timelines["main"] = tl;\n'
                    'fetch("transcript.json").then((r) => r.json()).then((TRANSCRIPT) => {\n' + WORDS_BUILD + "\n});"
                ),
            ),
            "transcript.json": TRANSCRIPT,
        },
        {
            "index.html": scene(
                CAPTION_HOST,
                script=registered(f"const TRANSCRIPT = {TRANSCRIPT};\n" + WORDS_BUILD + "\ntl.set({}, {}, 2);"),
            )
        },
        "the fetch resolves after the timeline is built: caption tweens are missing",
    ),
    Case(
        "color_grading_unquoted_keys",
        "color_grading_invalid_json",
        {
            "index.html": scene(
                GRADED.replace("GRADING", "{enabled: true, adjust: {saturation: -1}}"), script=registered(HOLD)
            )
        },
        {
            "index.html": scene(
                GRADED.replace("GRADING", '{"enabled": true, "adjust": {"saturation": -1}}'), script=registered(HOLD)
            )
        },
        "JSON.parse fails: the clip is not graded",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "duplicate_inline_composition_id",
        "duplicate_composition_id",
        _inline_scenes("scene", "scene"),
        _inline_scenes("scene-a", "scene-b"),
        "two compositions share one timeline key: one of them loses its timeline",
    ),
    Case(
        "duplicate_svg_gradient_id",
        "duplicate_id",
        {"index.html": scene(SVG_GRADIENTS.replace("G1", "g").replace("G2", "g"), script=registered(HOLD))},
        {"index.html": scene(SVG_GRADIENTS, script=registered(HOLD))},
        "url(#g) binds to the first gradient: the second shape is painted with the first one's colours",
    ),
    Case(
        "font_file_missing",
        "font_file_not_found",
        {"index.html": scene(FONT_TEXT, css=BRAND_FONT, script=registered(HOLD))},
        {"index.html": scene(FONT_TEXT, css=BRAND_FONT, script=registered(HOLD))},
        "the font file is not there: the text renders in the fallback face",
        intended_assets={"assets/brand.ttf": b""},
    ),
    Case(
        "display_none_on_clip",
        "gsap_animates_clip_element",
        {
            "index.html": scene(
                BOX,
                script=registered(
                    MOVE + '\ntl.set("#box", { display: "none" }, 1);\ntl.set("#box", { display: "block" }, 1.5);'
                ),
            )
        },
        {
            "index.html": scene(
                BOX,
                script=registered(MOVE + '\ntl.set("#box", { opacity: 0 }, 1);\ntl.set("#box", { opacity: 1 }, 1.5);'),
            )
        },
        "display tweens fight the runtime's clip visibility",
        workers=2,
    ),
    Case(
        "visibility_hidden_on_clip",
        "gsap_animates_clip_element",
        {"index.html": scene(BOX, script=registered(MOVE + '\ntl.set("#box", { visibility: "hidden" }, 1);'))},
        {"index.html": scene(BOX, script=registered(MOVE + '\ntl.set("#box", { opacity: 0 }, 1);'))},
        "the runtime owns a clip's visibility: the tween's hide is overridden and the clip stays on screen",
    ),
    Case(
        "function_value_index_as_element",
        "gsap_function_value_hazard",
        {
            "index.html": scene(
                BOX.replace("<div ", '<div data-x="200" '),
                script=registered('tl.to("#box", { x: (el) => Number(el.dataset.x), duration: 2, ease: "none" }, 0);'),
            )
        },
        {
            "index.html": scene(
                BOX.replace("<div ", '<div data-x="200" '),
                script=registered(
                    'tl.to("#box", { x: (i, el) => Number(el.dataset.x), duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        "the first argument is the index: el.dataset throws and the tween never moves",
    ),
    Case(
        "function_value_measures_dom",
        "gsap_function_value_hazard",
        {
            "index.html": scene(
                BOX,
                script=registered(
                    'tl.to("#box", { x: () => document.getElementById("root").offsetWidth - 40, duration: 2, '
                    'ease: "none" }, 0);'
                ),
            )
        },
        None,
        "a measuring function value runs at the first seek of each worker: chunked renders differ",
        workers=2,
    ),
    Case(
        "repeat_refresh_relative_two_workers",
        "gsap_repeat_refresh_relative_value",
        {
            "index.html": scene(
                BOX,
                script=registered(
                    'tl.to("#box", { x: "+=60", duration: 0.5, ease: "none", repeat: 3, repeatRefresh: true }, 0);'
                ),
            )
        },
        None,
        "each repeat re-reads the relative start: a worker that seeks in cold lands elsewhere",
        workers=2,
    ),
    Case(
        "variables_declared_as_object",
        "invalid_composition_variables_declaration",
        _variables('{"title": {"type": "string", "label": "Title", "default": "HELLO"}}'),
        _variables(VAR_DECL.replace("TYPE", "string")),
        "the runtime reads only an array: the defaults are never applied",
    ),
    Case(
        "variables_unknown_type",
        "invalid_composition_variables_declaration",
        _variables(VAR_DECL.replace("TYPE", "text")),
        _variables(VAR_DECL.replace("TYPE", "string")),
        "an unknown variable type disables variables",
    ),
    Case(
        "variable_values_unquoted_keys",
        "invalid_variable_values_json",
        _host_values('{title: "WORLD"}'),
        _host_values('{"title": "WORLD"}'),
        "JSON.parse fails: every value the host passes is dropped, the defaults show",
    ),
    Case(
        "video_without_data_start",
        "media_missing_data_start",
        {"index.html": scene(VIDEO.replace(' data-start="0"', "") + "></video>", script=registered(HOLD))},
        {"index.html": scene(VIDEO + "></video>", script=registered(HOLD))},
        "untimed media is not driven by the runtime: it never plays in the render",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "audio_without_data_start",
        "media_missing_data_start",
        {"index.html": scene(BOX + "\n" + TONE.replace(' data-start="0"', ""), script=registered(MOVE))},
        {"index.html": scene(BOX + "\n" + TONE, script=registered(MOVE))},
        "untimed audio is not mixed: the render is silent",
        assets={"assets/tone.m4a": b""},
        audio=True,
    ),
    Case(
        "video_without_src",
        "media_missing_src",
        {"index.html": scene(VIDEO.replace(' src="assets/clip.mp4"', "") + "></video>", script=registered(HOLD))},
        {"index.html": scene(VIDEO + "></video>", script=registered(HOLD))},
        "a clip with nothing to play renders black for its window",
        assets={"assets/clip.mp4": b""},
    ),
    Case(
        "second_root_composition",
        "multiple_root_compositions",
        {
            "index.html": scene(script=registered(MOVE)),
            "outro.html": scene(TEXT_P, script=registered(HOLD, key="outro"), cid="outro"),
        },
        {"index.html": scene(script=registered(MOVE))},
        "the renderer takes index.html; a second root composition is dead or ambiguous",
    ),
    Case(
        "bare_fragment_root",
        "root_composition_missing_html_wrapper",
        {"index.html": _bare_fragment()},
        {"index.html": scene(script=registered(MOVE))},
        "a fragment renders in quirks mode and the runtime is not injected",
    ),
    Case(
        "body_zoom",
        "root_zoom_rescales_a_fixed_canvas",
        {"index.html": scene(script=registered(MOVE), css="body{zoom:0.5}")},
        {"index.html": scene(script=registered(MOVE))},
        "zoom rescales the fixed canvas: the content is shrunk or cropped",
    ),
    Case(
        "split_attribute_selector_css",
        "split_data_attribute_selector",
        {
            "index.html": scene(
                BOX.replace("<div ", '<div data-role="x" '),
                css='[data-composition-id="main" data-role="x"]{background:#f00}',
                script=registered(HOLD),
            )
        },
        {
            "index.html": scene(
                BOX.replace("<div ", '<div data-role="x" '),
                css='[data-composition-id="main"] [data-role="x"]{background:#f00}',
                script=registered(HOLD),
            )
        },
        "an invalid selector: CSS drops the rule",
    ),
    Case(
        "split_attribute_selector_query",
        "split_data_attribute_selector",
        {
            "index.html": scene(
                BOX.replace("<div ", '<div data-role="x" '),
                script=registered(
                    'const el = document.querySelector(\'[data-composition-id="main" data-role="x"]\');\n'
                    'tl.fromTo(el, { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        {
            "index.html": scene(
                BOX.replace("<div ", '<div data-role="x" '),
                script=registered(
                    'const el = document.querySelector(\'[data-composition-id="main"] [data-role="x"]\');\n'
                    'tl.fromTo(el, { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        "querySelector throws on the invalid selector: the script stops",
    ),
    Case(
        "template_literal_query",
        "template_literal_selector",
        {
            "index.html": scene(
                BOX.replace('id="box"', 'id="box1"'),
                script=registered(
                    "const n = 1;\n"
                    'tl.fromTo(document.querySelector(`#box${n}`), { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        {
            "index.html": scene(
                BOX.replace('id="box"', 'id="box1"'),
                script=registered(
                    'tl.fromTo(document.querySelector("#box1"), { x: 0 }, { x: 200, duration: 2, ease: "none" }, 0);'
                ),
            )
        },
        "a selector built at runtime may find nothing",
    ),
    Case(
        "mask_image_missing",
        "texture_mask_asset_not_found",
        {"index.html": scene(MASKED, css=MASK_CSS, script=registered(HOLD))},
        {"index.html": scene(MASKED, css=MASK_CSS, script=registered(HOLD))},
        "a missing mask makes the masked element transparent",
        intended_assets={"assets/mask.png": b""},
    ),
    Case(
        "fullscreen_flash_starts_visible",
        "gsap_fullscreen_overlay_starts_visible",
        {"index.html": scene(BOX + "\n" + FLASH % "", script=registered(FLASH_CUT))},
        {"index.html": scene(BOX + "\n" + FLASH % ";opacity:0", script=registered(FLASH_CUT))},
        "the flash covers every frame before its first tween: a white video until the cut",
    ),
    Case(
        "svg_drawon_over_css_dashes",
        "svg_drawon_css_dasharray_conflict",
        {
            "index.html": scene(
                DASHED_WIRE % ' class="dashed"', css=".dashed{stroke-dasharray:10 10}", script=registered(DRAW_300)
            )
        },
        {"index.html": scene(DASHED_WIRE % "", script=registered(DRAW_300))},
        "GSAP keeps the CSS gap: the line shows dashed from the first frame instead of drawing on",
    ),
]


def run(case: Case, root: Path, workers: int = 1, keep_frames: bool = False) -> dict:
    """Render both variants. With an intended variant the flagged one is rendered by `workers` browser processes
    (2 = chunked, like a distributed render; at least `case.workers`); without one, the flagged variant is rendered
    by 1 and by `case.workers` processes."""
    from skillbox.lint.engine import Selection, lint_paths
    from skillbox.lint.registry import all_rules

    flagged_workers = max(workers, case.workers) if case.intended is not None else case.workers
    out = {"name": case.name, "code": case.code, "workers": flagged_workers}
    renders = {}
    for label, files in (("flagged", case.flagged), ("intended", case.intended or case.flagged)):
        folder = root / case.name / label
        for rel, text in files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text, encoding="utf-8")
        extra = (case.intended_assets or {}) if label == "intended" else {}
        for rel, data in {**(case.assets or {}), **extra}.items():  # before linting: rules check that files exist
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_bytes(_asset(rel, data))
        every = Selection(select=set(all_rules()))  # opt-in rules too
        out[f"{label}_lint"] = sorted({f.code for f in lint_paths([folder], every).findings if f.code == case.code})
        try:
            if case.intended is None:
                count = case.workers if label == "intended" else 1
            else:
                count = flagged_workers if label == "flagged" else 1
            localize = case.localize_flagged or label == "intended"
            if case.audio:
                out[f"{label}_db"] = render_audio_db(folder)
                renders[label] = [str(out[f"{label}_db"])]
            else:
                frames_dir = root / case.name / f"{label}_frames" if keep_frames else None
                renders[label] = render_frames(folder, workers=count, localize=localize, keep=frames_dir)
        except RenderError as exc:
            renders[label] = None
            out[f"{label}_error"] = str(exc)
    a, b = renders["flagged"], renders["intended"]
    out["frames"] = len(b or a or [])
    out["differ"] = None if a is None or b is None else frames_differ(a, b)
    out["render_failed"] = a is None
    out["intended_distinct_frames"] = len(set(b or []))  # >1: the intended render really moves
    out["flagged_distinct_frames"] = len(set(a or []))
    return out


def run_all(names: list[str] | None = None, workers: int = 1, keep: Path | None = None) -> int:
    """Run the named cases (all without names); `keep` leaves each variant's project and frames in that folder."""
    import json
    import tempfile

    reason = available()
    if reason:
        print(f"skipped: {reason}")
        return 0
    unknown = sorted(set(names or []) - {c.name for c in CASES})
    if unknown:
        print(f"unknown case: {', '.join(unknown)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="skillbox-render-cases-") as tmp:
        for case in CASES:
            if names and case.name not in names:
                continue
            print(json.dumps(run(case, keep or Path(tmp), workers, keep_frames=keep is not None)), flush=True)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    n, keep_dir = 1, None
    if "--workers" in args:
        i = args.index("--workers")
        n = int(args[i + 1])
        del args[i : i + 2]
    if "--keep" in args:
        i = args.index("--keep")
        keep_dir = Path(args[i + 1])
        del args[i : i + 2]
    sys.exit(run_all(args, n, keep_dir))
