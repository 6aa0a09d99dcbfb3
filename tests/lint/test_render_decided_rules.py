"""Rules whose severity or existence a render case decided (bench/lint_render_cases.py, bench/README.md "lint
render cases, session 5"): the two codes added from upstream, and the rules split into an error shape the
renderer breaks on and a warning shape it renders correctly. Each test pins both sides, so a change that silences
a rule, or raises its harmless shape back to an error, fails here."""

from __future__ import annotations

from skillbox.lint.samples import composition

from .test_real_world_shapes import codes, write

FLASH = '<div id="flash" style="position: fixed; inset: 0; background: #fff{extra}"></div>'
CUT = 'tl.to("#flash", { opacity: 1, duration: 0.1 }, 1.9);\ntl.to("#flash", { opacity: 0, duration: 0.2 }, 2);'


def overlay(tmp_path, name, *, extra="", js=CUT, css=""):
    html = composition(FLASH.format(extra=extra), js=js, css=css)
    return codes(write(tmp_path / name, {"index.html": html}), "gsap_fullscreen_overlay_starts_visible")


def test_full_frame_flash_that_starts_visible_is_an_error(tmp_path):
    [hit] = overlay(tmp_path, "bad")
    assert hit.severity == "error" and '"#flash"' in hit.message and "1.90s" in hit.message


def test_flash_hidden_by_css_or_at_frame_zero_is_fine(tmp_path):
    assert not overlay(tmp_path, "css", extra="; opacity: 0")
    assert not overlay(tmp_path, "set0", js='tl.set("#flash", { opacity: 0 }, 0);\n' + CUT)
    assert not overlay(tmp_path, "gsapset", js='gsap.set("#flash", { opacity: 0 });\n' + CUT)


def test_from_reveal_is_not_reported(tmp_path):
    """from() seats opacity 0 at build time: the overlay is hidden at t = 0 (upstream's fix-loop exception)."""
    assert not overlay(tmp_path, "from", js='tl.from("#flash", { opacity: 0, duration: 1 }, 2);')
    assert not overlay(
        tmp_path, "from_then_hide", js='tl.from("#flash", { opacity: 0 }, 2);\ntl.to("#flash", { opacity: 0 }, 5);'
    )


def test_overlay_needs_full_frame_and_opaque_background(tmp_path):
    partial = composition('<div id="flash" style="position: fixed; top: 0; left: 0; background: #fff"></div>', js=CUT)
    assert not codes(write(tmp_path / "partial", {"index.html": partial}), "gsap_fullscreen_overlay_starts_visible")
    clear = FLASH.format(extra="").replace("#fff", "transparent")
    html = composition(clear, js=CUT)
    assert not codes(write(tmp_path / "clear", {"index.html": html}), "gsap_fullscreen_overlay_starts_visible")
    by_class = composition(
        '<div id="f" class="tr-flash"></div>', css=".tr-flash { position: absolute; inset: 0; background: #000; }",
        js=CUT.replace("#flash", ".tr-flash"),
    )  # fmt: skip
    [hit] = codes(write(tmp_path / "cls", {"index.html": by_class}), "gsap_fullscreen_overlay_starts_visible")
    assert hit.selector == ".tr-flash"


def test_unknown_positions_are_not_guessed(tmp_path):
    js = 'tl.to("#flash", { opacity: 1, duration: 0.1 }, "+=1");\ntl.to("#flash", { opacity: 0 }, 2);'
    assert not overlay(tmp_path, "relative", js=js)


PATH = '<svg width="320" height="180"><path id="wire" class="{cls}" d="M0 0 L300 0" stroke="#fff"{style}></path></svg>'
DRAW = 'tl.set("#wire", {{ strokeDasharray: {value}, strokeDashoffset: 300 }}, 0);'


def dash(tmp_path, name, *, css="", cls="w", style="", value="300", js=None):
    html = composition(PATH.format(cls=cls, style=style), css=css, js=js or DRAW.format(value=value))
    return codes(write(tmp_path / name, {"index.html": html}), "svg_drawon_css_dasharray_conflict")


def test_draw_on_over_two_component_css_dash_is_an_error(tmp_path):
    [hit] = dash(tmp_path, "css", css=".w { stroke-dasharray: 10 10; }")
    assert hit.severity == "error" and ".w" in hit.message
    assert dash(tmp_path, "inline", style=' style="stroke-dasharray: 8 8"')


def test_dash_rule_exemptions(tmp_path):
    assert not dash(tmp_path, "single", css=".w { stroke-dasharray: 12; }")
    assert not dash(tmp_path, "scoped", css=".frame .w { stroke-dasharray: 10 10; }")
    assert not dash(tmp_path, "two_in_gsap", css=".w { stroke-dasharray: 10 10; }", value='"300 300"')
    assert not dash(tmp_path, "template", css=".w { stroke-dasharray: 10 10; }", value="`${300} ${300}`")


def test_script_created_path_gets_its_class_tokens(tmp_path):
    js = (
        'const path = document.createElementNS("http://www.w3.org/2000/svg", "path");\n'
        'path.setAttribute("class", "sync-line");\nconst n = 300;\n'
        "tl.set(path, { strokeDasharray: n, strokeDashoffset: n }, 0);"
    )
    assert dash(tmp_path, "created", css=".sync-line { stroke-dasharray: 10 10; }", cls="x", js=js)


BOX = '<div id="box" data-x="200"></div>'


def test_function_value_index_as_element_is_an_error_dom_measure_a_warning(tmp_path):
    """The render fails on `(el) => el.dataset.x` (a TypeError); a measuring function renders identically with
    one and two workers."""
    cases = {
        "index": ('tl.to("#box", { x: (el) => Number(el.dataset.x) }, 0);', ["error"]),
        "measure": ('tl.to("#box", { x: () => document.getElementById("box").offsetWidth }, 0);', ["warning"]),
        "two_args": ('tl.to("#box", { x: (i, el) => Number(el.dataset.x) }, 0);', []),
    }
    for name, (js, severities) in cases.items():
        found = codes(write(tmp_path / name, {"index.html": composition(BOX, js=js)}), "gsap_function_value_hazard")
        assert [f.severity for f in found] == severities, name


def test_variables_declaration_error_only_when_the_runtime_drops_it(tmp_path):
    def declared(name, value):
        html = composition('<h1 id="t" data-var-text="title">Hi</h1>').replace(
            '<html lang="en">', f"<html lang=\"en\" data-composition-variables='{value}'>"
        )
        return codes(write(tmp_path / name, {"index.html": html}), "invalid_composition_variables_declaration")

    assert [f.severity for f in declared("object", '{"title": {"type": "string"}}')] == ["error"]
    assert [f.severity for f in declared("not_json", "[{id: 1}]")] == ["error"]
    assert [f.severity for f in declared("type", '[{"id": "title", "type": "text", "default": "A"}]')] == ["warning"]
    assert not declared("ok", '[{"id": "title", "type": "string", "label": "T", "default": "A"}]')


def test_clip_visibility_tween_is_an_error_display_a_warning(tmp_path):
    """The runtime writes a clip's style.visibility every frame (a visibility hide is lost); display renders as
    the author meant."""
    clip = '<div id="c" class="clip" data-start="0" data-duration="4" data-track-index="1"></div>'
    cases = {
        "visibility": ('tl.set("#c", { visibility: "hidden" }, 1);', ["error"]),
        "display": ('tl.set("#c", { display: "none" }, 1);', ["warning"]),
        "opacity": ('tl.set("#c", { opacity: 0 }, 1);', []),
    }
    for name, (js, severities) in cases.items():
        found = codes(write(tmp_path / name, {"index.html": composition(clip, js=js)}), "gsap_animates_clip_element")
        assert [f.severity for f in found] == severities, name


def test_every_render_case_an_explain_page_cites_exists():
    """`lint explain` pages cite render cases by name; each must be a case in bench/lint_render_cases.py, so a
    renamed or dropped case cannot leave a page pointing at evidence that is gone."""
    import re
    import sys
    from pathlib import Path

    from skillbox.lint.registry import all_rules

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import lint_render_cases

    names = {c.name for c in lint_render_cases.CASES}
    cited = {
        (code, name)
        for code, r in all_rules().items()
        for name in re.findall(r"\bcases?\s+`([a-z][a-z0-9_]+)`", r.explanation)
    }
    assert len(cited) >= 45
    assert sorted(c for c in cited if c[1] not in names) == []


def test_scene_shown_from_the_first_frame_is_not_an_overlay_defect(tmp_path):
    """A full-frame scene revealed at t = 0 and faded out later covers no earlier frame (upstream's producer test
    pip-video-late-host has this shape; the peer reports it, we do not)."""
    js = 'tl.fromTo("#flash", { opacity: 1 }, { opacity: 1, duration: 3 }, 0);\ntl.to("#flash", { opacity: 0 }, 2.7);'
    assert not overlay(tmp_path, "scene", js=js)
    late = 'tl.fromTo("#flash", { opacity: 1 }, { opacity: 1, duration: 1 }, 1);\ntl.to("#flash", { opacity: 0 }, 2.7);'
    assert overlay(tmp_path, "late", js=late)


def test_only_a_real_hide_counts_as_the_later_hide(tmp_path):
    """A later tween that does not hide (opacity 1, no display key) is not the hide that makes the shape."""
    js = 'tl.to("#flash", { opacity: 0.5 }, 1);\ntl.to("#flash", { opacity: 1 }, 2);'
    assert not overlay(tmp_path, "brighten", js=js)
    assert overlay(
        tmp_path, "display_none", js='tl.to("#flash", { opacity: 0.5 }, 1);\ntl.set("#flash", { display: "none" }, 2);'
    )
