"""False-error classes found on upstream's registry (code its authors ship as correct), pinned at their root cause.

Each case is the smallest shape of a real registry item (bench/lint_registry.py finds them) next to the broken
variant the rule exists for, so a fix that silences the rule altogether fails here."""

from __future__ import annotations

from skillbox.lint.css import font_families
from skillbox.lint.engine import lint_paths
from skillbox.lint.samples import HOST, SUB, composition

from .test_real_world_shapes import write


def codes(path, code):
    return [f for f in lint_paths([path]).findings if f.code == code]


def test_font_family_values_go_through_the_css_tokenizer():
    assert font_families('var(--f, "Caveat", cursive)') == ["caveat", "cursive"]
    assert font_families("var(--a, var(--b, Inter, monospace))") == ["inter", "monospace"]
    assert font_families('"Brand Sans", Arial !important') == ["brand sans", "arial"]
    assert font_families("var(--only)") == []


def test_var_fallback_font_is_not_a_font_named_cursive_paren(tmp_path):
    ok = composition('<h1 id="t">Hi</h1>', css='#t { font-family: var(--font, "Inter", cursive); }')
    bad = composition('<h1 id="t">Hi</h1>', css='#t { font-family: var(--font, "Caveat", cursive); }')
    assert not codes(write(tmp_path / "ok", {"index.html": ok}), "font_family_without_font_face")
    [hit] = codes(write(tmp_path / "bad", {"index.html": bad}), "font_family_without_font_face")
    assert '"caveat"' in hit.message and "cursive" not in hit.message


def test_fallbacks_after_a_loaded_family_are_never_shown(tmp_path):
    css = '@font-face { font-family: "Big"; src: url("assets/big.woff2"); }\n#t { font-family: "Big", Impact, serif; }'
    files = {"index.html": composition('<h1 id="t">Hi</h1>', css=css), "assets/big.woff2": "x"}
    assert not codes(write(tmp_path / "p", files), "font_family_without_font_face")
    missing_first = composition('<h1 id="t">Hi</h1>', css='#t { font-family: "Brand", Inter, serif; }')
    assert codes(write(tmp_path / "q", {"index.html": missing_first}), "font_family_without_font_face")


def test_layout_props_under_canvas_layoutsubtree_are_exempt(tmp_path):
    body = '<canvas id="c" layoutsubtree><div id="pill">x</div></canvas><div id="plain">y</div>'
    exempt = composition(body, js='tl.to("#pill", { top: 40, duration: 1 }, 0);')
    plain = composition(body, js='tl.to("#plain", { top: 40, duration: 1 }, 0);')
    assert not codes(write(tmp_path / "a", {"index.html": exempt}), "gsap_non_transform_motion")
    assert codes(write(tmp_path / "b", {"index.html": plain}), "gsap_non_transform_motion")


def test_html_element_composition_id_and_a_twice_mounted_sub_composition(tmp_path):
    sub_html = SUB.replace("<template>", '<html data-composition-id="intro"><body><template>', 1)
    twice = HOST + "\n" + HOST.replace('id="intro"', 'id="intro-2"').replace('data-start="0"', 'data-start="2"')
    files = {"index.html": composition(twice), "compositions/intro.html": sub_html}
    assert not codes(write(tmp_path / "p", files), "duplicate_composition_id")
    clash = (
        HOST
        + '\n<div id="other" data-composition-id="intro" data-start="2" data-duration="2" data-track-index="1"></div>'
    )
    files = {"index.html": composition(clash), "compositions/intro.html": SUB}
    assert codes(write(tmp_path / "q", files), "duplicate_composition_id")


def test_plugins_loaded_by_the_host_page_count_for_its_sub_compositions(tmp_path):
    plugin = '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/TextPlugin.min.js"></script>\n'
    sub = SUB.replace('tl.from("#intro-title", { opacity: 0 }, 0);', 'tl.to("#intro-title", { text: "Hi" }, 0);')
    with_host = {"index.html": composition(HOST, head=plugin), "compositions/intro.html": sub}
    without = {"index.html": composition(HOST), "compositions/intro.html": sub}
    assert not codes(write(tmp_path / "a", with_host), "missing_gsap_plugin")
    assert codes(write(tmp_path / "b", without), "missing_gsap_plugin")


def test_register_plugin_alone_does_not_load_it(tmp_path):
    js = 'gsap.registerPlugin(MotionPathPlugin);\ntl.to("#t", { motionPath: "#p", duration: 1 }, 0);'
    [hit] = codes(write(tmp_path / "p", {"index.html": composition('<h1 id="t">x</h1>', js=js)}), "missing_gsap_plugin")
    assert "registerPlugin" in hit.message


def test_clearing_text_without_textplugin_is_a_noop(tmp_path):
    js = 'tl.set("#t", { text: "" }, 0);\ntl.call(() => { document.querySelector("#t").textContent = "ls"; }, [], 1);'
    assert not codes(
        write(tmp_path / "p", {"index.html": composition('<h1 id="t"></h1>', js=js)}), "missing_gsap_plugin"
    )


def test_plugin_script_order_decides_loaded(tmp_path):
    cdn = '<script defer src="https://cdn.jsdelivr.net/npm/gsap@3/dist/MotionPathPlugin.min.js"></script>\n'
    inline_first = composition('<h1 id="t">x</h1>', head=cdn, js='tl.to("#t", { motionPath: "#p" }, 0);')
    # a deferred plugin runs after parse; the blocking inline timeline script runs before it
    assert codes(write(tmp_path / "a", {"index.html": inline_first}), "missing_gsap_plugin")
    blocking = inline_first.replace("<script defer src", "<script src")
    assert not codes(write(tmp_path / "b", {"index.html": blocking}), "missing_gsap_plugin")


def test_unquoted_attribute_values_keep_their_equals_signs(tmp_path):
    link = "<link rel=stylesheet href=https://fonts.googleapis.com/css2?family=Geist:wght@400;700&display=swap>\n"
    html = composition('<h1 id="t">x</h1>', head=link, css="#t { font-family: 'Geist', sans-serif; }")
    assert not codes(write(tmp_path / "p", {"index.html": html}), "font_family_without_font_face")


def test_function_value_treating_the_index_as_the_element(tmp_path):
    bad = composition('<h1 class="c">x</h1>', js='tl.to(".c", { x: (el) => el.getAttribute("data-x") }, 0);')
    good = composition('<h1 class="c">x</h1>', js='tl.to(".c", { x: (i, el) => el.getAttribute("data-x") }, 0);')
    [hit] = codes(write(tmp_path / "a", {"index.html": bad}), "gsap_function_value_hazard")
    assert "index" in hit.message
    assert not codes(write(tmp_path / "b", {"index.html": good}), "gsap_function_value_hazard")


def test_raf_loop_is_an_error_and_a_one_shot_deferral_a_warning(tmp_path):
    loop = composition('<h1 id="t">x</h1>', js="function f() { requestAnimationFrame(f); }\nrequestAnimationFrame(f);")
    once = composition('<h1 id="t">x</h1>', js="requestAnimationFrame(() => { document.title = 'ready'; });")
    [a] = codes(write(tmp_path / "a", {"index.html": loop}), "requestanimationframe_in_composition")
    [b] = codes(write(tmp_path / "b", {"index.html": once}), "requestanimationframe_in_composition")
    assert (a.severity, b.severity) == ("error", "warning")


def test_descendant_selectors_match_through_ancestors(tmp_path):
    body = '<div class="headline"><span id="a">A</span></div><div class="other"><span id="b">B</span></div>'
    css = ".other span { opacity: 0; }"
    fine = composition(body, css=css, js='tl.from(".headline span", { opacity: 0 }, 0);')
    noop = composition(body, css=css, js='tl.from(".other span", { opacity: 0 }, 0);')
    assert not codes(write(tmp_path / "a", {"index.html": fine}), "gsap_from_opacity_noop")
    assert codes(write(tmp_path / "b", {"index.html": noop}), "gsap_from_opacity_noop")


def test_from_opacity_zero_is_fine_when_a_later_tween_reveals(tmp_path):
    js = 'tl.from(".c", { opacity: 0, scale: 0.7 }, 0.4);\ntl.to(".c", { opacity: 0.72 }, 1.2);'
    html = composition('<i class="c"></i>', css=".c { opacity: 0; }", js=js)
    assert not codes(write(tmp_path / "p", {"index.html": html}), "gsap_from_opacity_noop")


def test_upstream_intent_shapes(tmp_path):
    """Shapes from the upstream linter's unit tests (bench/lint_upstream_tests.py scores all of them)."""
    cases = {
        "plus_random": (composition('<i class="c"></i>', js='tl.to(".c", { x: "+=random(-10, 10)" }, 0);'),
                        "non_deterministic_code", True),
        "inlined_gsap": (composition("").replace(
            '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>',
            "<script>/* inlined: https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js */ var gsap = {};</script>"),
            "missing_gsap_script", False),
        "canvas_font_size": (composition('<canvas layoutsubtree><div id="g">t</div></canvas>',
                                         js='tl.to("#g", { fontSize: 40 }, 0);'), "gsap_non_transform_motion", True),
        "two_hop_measure": (composition('<i id="p"></i>', js=(
            "function center(el) { return el.getBoundingClientRect().left; }\n"
            "function setup() { return center(document.querySelector('#p')); }\ntl.add(() => setup(), 1);")),
            "gsap_callback_dom_measurement", True),
    }  # fmt: skip
    for name, (html, code, present) in cases.items():
        found = codes(write(tmp_path / name, {"index.html": html}), code)
        assert bool(found) == present, name


def test_css_variable_with_a_fallback_is_defined_enough(tmp_path):
    js = 'tl.to("#b", { backgroundColor: "var(--accent, #f80)" }, 0);\ntl.to("#b", { color: "var(--nope)" }, 0);'
    found = codes(
        write(tmp_path / "p", {"index.html": composition('<i id="b"></i>', js=js)}), "gsap_undefined_css_variable"
    )
    assert [f.message.split(")")[0] for f in found] == ["var(--nope"]


def test_svg_measure_before_path_d(tmp_path):
    svg = '<svg><path id="w"></path></svg>'
    head = 'const w = document.getElementById("w");\n'
    cases = {
        "none": (head + "const n = w.getTotalLength();", "error"),
        "after": (head + 'const n = w.getTotalLength();\nw.setAttribute("d", "M0 0 L9 9");', "error"),
        "callback": (head + 'const n = w.getTotalLength();\ntl.call(() => w.setAttribute("d", "M0 0 L9 9"), [], 1);',
                     "warning"),
        "before": (head + 'w.setAttribute("d", "M0 0 L9 9");\nconst n = w.getTotalLength();', None),
        "by_lookup": ('document.getElementById("w").setAttribute("d", "M0 0 L9 9");\n' + head
                      + "const n = w.getTotalLength();", None),
    }  # fmt: skip
    for name, (js, severity) in cases.items():
        found = codes(write(tmp_path / name, {"index.html": composition(svg, js=js)}), "svg_measure_before_path_d")
        assert [f.severity for f in found] == ([severity] if severity else []), name
