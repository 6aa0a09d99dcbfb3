"""Render cases: for a rule, the pattern it flags next to the intended pattern, rendered with the real renderer.

Each case renders two small projects (320x180, 2 s, 4 fps) and compares the frame hashes. The outcome decides the
rule's severity (bench/README.md, "Render oracle"): an error must show the failure it predicts (frames differ from
the intended render, or the render fails); a pattern that renders identically is at most a warning whose explain
page says what it protects instead (preview, distributed rendering, Studio editing).

    python bench/lint_render_cases.py [--workers 2] [NAME...]   # one JSON line per case
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lint_render import RenderError, available, frames_differ, render_frames

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


def run(case: Case, root: Path, workers: int = 1) -> dict:
    """Render both variants. With an intended variant the flagged one is rendered by `workers` browser processes
    (2 = chunked, like a distributed render); without one, the flagged variant is rendered by 1 and by
    `case.workers` processes."""
    from skillbox.lint.engine import Selection, lint_paths
    from skillbox.lint.registry import all_rules

    if case.assets and "assets/clip.mp4" in case.assets and not case.assets["assets/clip.mp4"]:
        case.assets["assets/clip.mp4"] = _clip()
    out = {"name": case.name, "code": case.code, "workers": workers if case.intended is not None else case.workers}
    renders = {}
    for label, files in (("flagged", case.flagged), ("intended", case.intended or case.flagged)):
        folder = root / case.name / label
        for rel, text in files.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text, encoding="utf-8")
        every = Selection(select=set(all_rules()))  # opt-in rules too
        out[f"{label}_lint"] = sorted({f.code for f in lint_paths([folder], every).findings if f.code == case.code})
        try:
            if case.intended is None:
                count = case.workers if label == "intended" else 1
            else:
                count = workers if label == "flagged" else 1
            for rel, data in (case.assets or {}).items():
                (folder / rel).parent.mkdir(parents=True, exist_ok=True)
                (folder / rel).write_bytes(data)
            localize = case.localize_flagged or label == "intended"
            renders[label] = render_frames(folder, workers=count, localize=localize)
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


def run_all(names: list[str] | None = None, workers: int = 1) -> int:
    import json
    import tempfile

    reason = available()
    if reason:
        print(f"skipped: {reason}")
        return 0
    with tempfile.TemporaryDirectory(prefix="skillbox-render-cases-") as tmp:
        for case in CASES:
            if names and case.name not in names:
                continue
            print(json.dumps(run(case, Path(tmp), workers)), flush=True)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    n = 1
    if "--workers" in args:
        i = args.index("--workers")
        n = int(args[i + 1])
        del args[i : i + 2]
    sys.exit(run_all(args, n))
