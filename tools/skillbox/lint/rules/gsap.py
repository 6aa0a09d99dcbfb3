"""GSAP: timelines that seek deterministically — registration, repeats, transforms, plugins, tween targets."""

from __future__ import annotations

from skillbox.lint import patterns as rx
from skillbox.lint.css import var_names_without_fallback
from skillbox.lint.document import Document
from skillbox.lint.libraries import GSAP_CDN
from skillbox.lint.patterns import has_word, lazy_compile
from skillbox.lint.registry import Hit, rule
from skillbox.lint.script import GsapCall
from skillbox.lint.timing import css_declarations_for, elements_matching, selector_for_object, tween_targets

G = "gsap"
_CSS_PATH_D = lazy_compile(r"\bd\s*:\s*path\(", needs=("path(",))  # CSS `d: path(...)`
TWEENS = ("to", "from", "fromTo")
TRANSLATE_KEYS = {"x", "y"}
SCALE_KEYS = {"scale", "scaleX", "scaleY"}


def _tweens(doc: Document, methods=("to", "from", "fromTo", "set")):
    return [c for c in doc.gsap_calls if c.method in methods]


def _all_vars(call: GsapCall):
    for source in (call.vars or {}, call.from_vars or {}):
        yield from source.items()


def _gsap_loaded(doc: Document) -> bool:
    for script in doc.scripts:
        if script.src and "gsap" in script.src.lower():
            return True
        if script.src is None and len(script.text) > 20000 and "GreenSock" in script.text:
            return True
        if script.src is None and rx.search(r"/\*\s*inlined:[^*]*gsap", script.text, rx.IGNORECASE):
            return True  # the producer's CDN-inlining marker
    return False


@rule(
    "missing_gsap_script",
    "error",
    G,
    fix_hint=f'Load GSAP in <head>: <script src="{GSAP_CDN}"></script>.',
    peer=True,
)
def missing_gsap_script(doc: Document):
    if doc.is_subcomposition or doc.root_in_template:
        return
    uses = [c for m in doc.script_models for c in m.calls if c.callee.startswith("gsap.")]
    if uses and not _gsap_loaded(doc):
        yield Hit(uses[0].offset, "gsap is used but no GSAP script is loaded")


@rule(
    "gsap_infinite_repeat",
    "error",
    G,
    fix_hint="Use a finite count: repeat: Math.max(0, Math.floor(duration / cycle) - 1).",
    peer=True,
)
def gsap_infinite_repeat(doc: Document):
    has_duration = doc.root is not None and "data-duration" in doc.root.attrs
    severity = "warning" if has_duration else "error"
    for model in doc.script_models:
        for timeline in model.timelines:
            repeat = timeline.vars.get("repeat")
            if repeat is not None and repeat.literal == -1:
                yield Hit(repeat.offset, "timeline has repeat: -1", severity=severity)
    for call in _tweens(doc):
        repeat = (call.vars or {}).get("repeat")
        if repeat is not None and repeat.literal == -1:
            yield Hit(repeat.offset, f"{call.receiver}.{call.method}() has repeat: -1", severity=severity)


def _repeat_values(doc: Document):
    for model in doc.script_models:
        for timeline in model.timelines:
            if "repeat" in timeline.vars:
                yield timeline.vars["repeat"]
    for call in _tweens(doc):
        if call.vars and "repeat" in call.vars:
            yield call.vars["repeat"]


@rule(
    "gsap_repeat_ceil_overshoot",
    "warning",
    G,
    fix_hint="repeat: Math.max(0, Math.floor(duration / cycle) - 1).",
    peer=True,
)
def gsap_repeat_ceil_overshoot(doc: Document):
    for value in _repeat_values(doc):
        if "Math.ceil" in value.text:
            yield Hit(value.offset, f"repeat: {value.text} overshoots the clip")


@rule(
    "gsap_repeat_floor_unclamped",
    "warning",
    G,
    fix_hint="Wrap it: repeat: Math.max(0, Math.floor(duration / cycle) - 1).",
    peer=True,
)
def gsap_repeat_floor_unclamped(doc: Document):
    for value in _repeat_values(doc):
        if "Math.floor" in value.text and rx.search(r"-\s*1\b", value.text) and "Math.max" not in value.text:
            yield Hit(value.offset, f"repeat: {value.text} can become -1 (infinite)")


@rule(
    "gsap_timeline_not_registered",
    "error",
    G,
    fix_hint='Register it (window.__timelines["<id>"] = tl) or nest it in the registered one with tl.add(child, 0).',
    peer=True,
)
def gsap_timeline_not_registered(doc: Document):
    if doc.root_in_template:
        return  # a template sub-composition: the host's runtime registers and seeks it (upstream: same)
    registered_values = " ".join(r.value_text for m in doc.script_models for r in m.registrations)
    added = {a.text for m in doc.script_models for c in m.calls if c.name == "add" for a in c.args}
    for model in doc.script_models:
        for timeline in model.timelines:
            name = timeline.name
            if name is None or name.replace(" ", "").startswith(("window.__timelines", "__timelines")):
                continue  # created inline in an add() call, or assigned straight into the registry
            if has_word(registered_values, name) or name in added:
                continue
            yield Hit(timeline.offset, f"timeline {name} is never registered in window.__timelines")


@rule(
    "gsap_animates_clip_element",
    "error",
    G,
    fix_hint="Animate opacity (or autoAlpha on a wrapper that is not .clip) instead of display/visibility.",
    peer=True,
)
def gsap_animates_clip_element(doc: Document):
    for call in _tweens(doc):
        keys = {k for k, _ in _all_vars(call)} & {"display", "visibility"}
        if not keys:
            continue
        targets = tween_targets(doc, call) or []
        clips = [t for t in targets if "clip" in t.classes]
        if clips:
            severity = None if "visibility" in keys else "warning"  # the runtime overwrites visibility per frame
            text = f"tween sets {', '.join(sorted(keys))} on clip {clips[0].label()}"
            if severity is None:
                text += " (the runtime overwrites a clip's visibility on every frame)"
            yield Hit(call.offset, text, clips[0], severity=severity)


LAYOUT_KEYS = {
    "left", "top", "right", "bottom", "margin", "marginLeft", "marginTop", "marginRight", "marginBottom",
    "fontSize", "letterSpacing", "roundProps",
}  # fmt: skip


@rule(
    "gsap_non_transform_motion",
    "error",
    G,
    fix_hint="Use x/y/scale (transforms) instead of left/top/margin/fontSize.",
    peer=True,
)
def gsap_non_transform_motion(doc: Document):
    for call in _tweens(doc, TWEENS):
        keys = sorted({k for k, _ in _all_vars(call)} & LAYOUT_KEYS)
        if keys and _all_in_layout_subtree_canvas(doc, call):
            keys = [k for k in keys if k not in CANVAS_EXEMPT_KEYS]  # text reflow and rounding still snap
        if keys:
            yield Hit(call.offset, f"{call.receiver}.{call.method}() animates {', '.join(keys)}")


# Position props the html-in-canvas library reads sub-pixel; fontSize/letterSpacing reflow text and roundProps
# rounds, inside a canvas too.
CANVAS_EXEMPT_KEYS = {
    "left",
    "top",
    "right",
    "bottom",
    "margin",
    "marginLeft",
    "marginTop",
    "marginRight",
    "marginBottom",
}


def _all_in_layout_subtree_canvas(doc: Document, call: GsapCall) -> bool:
    """Elements under `<canvas layoutsubtree>` are drawn into the canvas bitmap by script (html-in-canvas) from
    their sub-pixel computed left/top: no layout snapping, so the upstream linter exempts them. Only when every
    resolved target is such an element."""
    targets = tween_targets(doc, call) or []
    return bool(targets) and all(
        any(a.tag == "canvas" and "layoutsubtree" in a.attrs for a in el.ancestors()) for el in targets
    )


def _css_value(doc: Document, element, prop: str) -> str | None:
    value = None
    for _selector, decl in css_declarations_for(doc, element):
        if decl.name == prop:
            value = decl.value
    return value


@rule(
    "gsap_from_opacity_noop",
    "error",
    G,
    fix_hint="Use fromTo(target, { opacity: 0 }, { opacity: 1 }) or drop the CSS opacity: 0.",
    peer=True,
)
def gsap_from_opacity_noop(doc: Document):
    revealed = {  # targets some other tween raises to a visible opacity (`tl.to(".corner", {opacity: 0.72})`)
        c.targets.text
        for c in _tweens(doc, ("to", "fromTo", "set"))
        if c.targets is not None
        and (v := (c.vars or {}).get("opacity")) is not None
        and not (isinstance(v.literal, (int, float)) and v.literal == 0)
    }
    for call in _tweens(doc, ("from",)):
        value = (call.vars or {}).get("opacity")
        if value is None or value.literal not in (0, 0.0):
            continue
        if call.targets is not None and call.targets.text in revealed:
            continue
        for element in tween_targets(doc, call) or []:
            css = _css_value(doc, element, "opacity")
            if css is not None and css.strip() in ("0", "0.0"):
                yield Hit(call.offset, f"from opacity 0 to CSS opacity 0 on {element.label()}: never visible", element)
                break


# Pattern strings, compiled on first use by re's own cache (nothing compiles at import).
_CSS_ZERO = r"(?i)0(?:\.0+)?(?:px|%|vw|vh|rem|em)?"
_TRANSPARENT = r"(?i)transparent|none|(?:rgba|hsla?)\([^)]*[,/]\s*0(?:\.0+)?\s*\)"
OVERLAY_AT_ZERO = 0.05  # seconds; upstream's scene-boundary epsilon


def _full_frame_overlay(doc: Document, element) -> bool:
    """Absolutely/fixed positioned at inset 0 with an opaque background, and not hidden by its own CSS."""
    css: dict[str, str] = {}
    for _selector, decl in css_declarations_for(doc, element):
        css[decl.name] = decl.value.strip()
    if css.get("position", "").lower() not in ("absolute", "fixed"):
        return False
    inset = css.get("inset")
    sides = [css.get(side) for side in ("top", "right", "bottom", "left")]
    covers = (inset is not None and rx.fullmatch(_CSS_ZERO, inset)) or all(
        v is not None and rx.fullmatch(_CSS_ZERO, v) for v in sides
    )
    background = css.get("background-color") or css.get("background")
    if not covers or not background or rx.fullmatch(_TRANSPARENT, background):
        return False
    opacity = css.get("opacity")
    hidden = (opacity is not None and _number(opacity) == 0) or css.get("visibility") == "hidden"
    return not (hidden or css.get("display") == "none")


def _number(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _hidden_state(values: dict) -> bool:
    def literal(key):
        v = values.get(key)
        return None if v is None else v.literal

    visibility, display = literal("visibility"), literal("display")
    return (
        _number(literal("opacity")) == 0
        or _number(literal("autoAlpha")) == 0
        or (isinstance(visibility, str) and visibility.lower() == "hidden")
        or (isinstance(display, str) and display.lower() == "none")
    )


def _visible_state(values: dict) -> bool:
    for key in ("opacity", "autoAlpha"):
        if key in values:
            n = _number(values[key].literal)
            return n is not None and n > 0
    visibility = values.get("visibility")
    if visibility is not None and str(visibility.literal).lower() in ("visible", "inherit"):
        return True
    display = values.get("display")
    return display is not None and isinstance(display.literal, str) and display.literal.lower() != "none"


def _timeline_position(call: GsapCall) -> float | None:
    """Seconds on the timeline; `gsap.*` calls run at build time (before t = 0); None when not a literal."""
    if not call.on_timeline:
        return -1.0
    if call.position is None:
        return None
    return _number(call.position.literal) if not isinstance(call.position.literal, bool) else None


@rule(
    "gsap_fullscreen_overlay_starts_visible",
    "error",
    G,
    fix_hint='Start it hidden: add opacity: 0 to the overlay\'s CSS (or gsap.set("#flash", { opacity: 0 }) before '
    "building the timeline).",
    peer=True,
)
def gsap_fullscreen_overlay_starts_visible(doc: Document):
    windows: dict[int, list[tuple[GsapCall, float | None]]] = {}
    elements = {}
    for call in _tweens(doc):
        keys = {k for k, _ in _all_vars(call)}
        if not keys & {"opacity", "autoAlpha", "visibility", "display"}:
            continue
        for element in tween_targets(doc, call) or []:
            windows.setdefault(element.start, []).append((call, _timeline_position(call)))
            elements[element.start] = element
    for start, calls in windows.items():
        element = elements[start]
        if any(pos is None for _c, pos in calls):
            continue  # an appended or label-relative position: the order is not known statically
        calls.sort(key=lambda item: item[1])
        hidden_at_zero = any(
            (pos <= OVERLAY_AT_ZERO and _hidden_state(c.vars or {}) and c.method != "from")
            or (c.method in ("from", "fromTo") and _hidden_state((c.vars if c.method == "from" else c.from_vars) or {}))
            for c, pos in calls
        )
        if hidden_at_zero:
            continue  # hidden at t = 0 (a from/fromTo seats its hidden start values at build time)
        reveal = next(((c, pos) for c, pos in calls if _visible_state(c.vars or {})), None)
        if reveal is None or reveal[1] <= OVERLAY_AT_ZERO:
            continue  # revealed at t = 0: a scene shown from the first frame covers nothing before it
        hides_later = any(
            c is not reveal[0] and c.method != "from" and pos >= reveal[1] and _hidden_state(c.vars or {})
            for c, pos in calls
        )
        if not hides_later or not _full_frame_overlay(doc, element):  # the CSS cascade last: it is the costly part
            continue
        target = reveal[0].targets.text if reveal[0].targets is not None else ""
        tokens = [f"#{element.id}"] if element.id else []
        tokens += [f".{c}" for c in element.classes]
        selector = next((t for t in tokens if t in target), tokens[0] if tokens else element.tag)
        yield Hit(
            element.start,
            f'full-frame overlay "{selector}" starts visible before its first opacity tween at {reveal[1]:.2f}s: '
            "it covers every earlier frame (a blank/white video)",
            element,
            selector=selector,
        )


@rule(
    "gsap_css_transform_conflict",
    "warning",
    G,
    fix_hint="Move the CSS transform into GSAP (xPercent: -50, yPercent: -50) or onto a wrapper element.",
    peer=True,
)
def gsap_css_transform_conflict(doc: Document):
    reported: set[str] = set()  # one finding per tween target (selector or variable), as the fix is per target
    for call in _tweens(doc, ("to", "set")):  # from/fromTo name their own start values
        keys = {k for k, _ in _all_vars(call)}
        translate, scale = keys & TRANSLATE_KEYS, keys & SCALE_KEYS
        if not translate and not scale:
            continue
        for element in tween_targets(doc, call) or []:
            css = _css_value(doc, element, "transform") or ""
            clash = sorted((translate if "translate" in css else set()) | (scale if "scale" in css else set()))
            target = call.targets.text if call.targets is not None else ""
            if clash and target not in reported:
                reported.add(target)
                yield Hit(
                    call.offset,
                    f"tween sets {', '.join(clash)} on {element.label()}, which has CSS transform: {css}",
                    element,
                )
                break


PLUGIN_KEYS = {
    "motionPath": "MotionPathPlugin",
    "drawSVG": "DrawSVGPlugin",
    "morphSVG": "MorphSVGPlugin",
    "scrambleText": "ScrambleTextPlugin",
    "text": "TextPlugin",
    "physics2D": "Physics2DPlugin",
}


@rule(
    "missing_gsap_plugin",
    "error",
    G,
    fix_hint="Load the plugin script and call gsap.registerPlugin(<Plugin>).",
    peer=True,
)
def missing_gsap_plugin(doc: Document):
    if doc.host_scripts is None and (doc.is_subcomposition or doc.root_in_template):
        return  # the host page we cannot see may load it (upstream linter: same stance)
    host = doc.host_scripts or []
    for call in _tweens(doc):
        for key, value in _all_vars(call):
            plugin = PLUGIN_KEYS.get(key)
            # `text: ""` without TextPlugin sets an expando property: a no-op on an element that starts empty,
            # which is how typing effects clear a line before callbacks type into it.
            if plugin is None or (key == "text" and value.literal == ""):
                continue
            if any(_defines_plugin(s, plugin) for s in host) or _loaded_before(doc, plugin, call.offset):
                continue
            registered = any(c.name == "registerPlugin" and any(plugin in a.text for a in c.args)
                             for m in doc.script_models for c in m.calls)  # fmt: skip
            detail = " (registerPlugin names it, but no script defines it)" if registered else ""
            yield Hit(call.offset, f"{key} needs {plugin}, which is not loaded before this tween runs{detail}")


def _mode(script) -> str:
    """When a script runs: "blocking" (during parse), "post" (defer/module, after parse, in order), "async"."""
    attrs = script.element.attrs
    is_module = attrs.get("type", "").strip().lower() == "module"
    has_src = script.src is not None
    if (is_module or has_src) and "async" in attrs:
        return "async"
    if is_module or (has_src and "defer" in attrs):
        return "post"
    return "blocking"


def _loaded_before(doc: Document, plugin: str, use_offset: int) -> bool:
    """A script that defines the plugin runs before the script holding the tween (document order and
    defer/module/async timing), or the same script defines/imports it before the tween."""
    scripts = sorted(doc.scripts, key=lambda s: s.start)
    user = next((s for s in reversed(scripts) if s.start <= use_offset), None)
    if user is None:
        return any(_defines_plugin(s, plugin) for s in scripts)
    user_mode = _mode(user)
    for script in scripts:
        if script is user:
            text = script.text
            prefix = text.encode("utf-8", "surrogatepass")[: max(0, use_offset - script.start)].decode(
                "utf-8", "ignore"
            )
            if rx.search(rf"\bimport\b[^;]*\b{plugin}\b", text) or _defines_plugin_text(prefix, plugin):
                return True
            break
        mode = _mode(script)
        runs_first = mode == "blocking" or (mode == "post" and user_mode == "post")
        if runs_first and _defines_plugin(script, plugin):
            return True
    return False


def _defines_plugin(script, plugin: str) -> bool:
    """Loaded by a <script src> naming it, an import, or an inline definition (bundled/inlined library)."""
    if script.src:
        return plugin.lower() in script.src.lower()
    return _defines_plugin_text(script.text, plugin)


def _defines_plugin_text(text: str, plugin: str) -> bool:
    if plugin not in text:
        return False
    pattern = rf"\b(?:const|let|var|class|function)\s+{plugin}\b|\bimport\b[^;]*\b{plugin}\b|inlined:.*{plugin}"
    return bool(rx.search(pattern, text)) or (len(text) > 20000 and "GreenSock" in text)


WINDOW_SKIP = {"stagger", "repeat", "keyframes", "yoyo", "overwrite", "repeatDelay"}
ANIMATION_KEYS_IGNORED = {"duration", "ease", "delay", "immediateRender", "id", "data", "paused", "overwrite"}


def _inside_function(node) -> bool:
    """A call inside a callback or loop body may run many times: its static position means nothing."""
    while node is not None:
        if node.type in (
            "arrow_function",
            "function_expression",
            "function_declaration",
            "for_statement",
            "for_in_statement",
            "while_statement",
            "do_statement",
            "method_definition",
        ):
            return True  # fmt: skip
        node = node.parent
    return False


def _absolute_windows(doc: Document):
    """(call, target, start, end, animated keys) for top-level `tl.to/from/fromTo("#literal", {...}, NUMBER)`
    tweens with a literal duration: the only ones whose window is known without running the script."""
    for call in _tweens(doc, TWEENS):
        selector = call.target_selector
        if selector is None and call.targets is not None and call.targets.node.type == "identifier":
            selector = call.targets.text  # a const element or proxy object: the same variable is the same target
        if not call.on_timeline or selector is None or call.position is None:
            continue
        start = call.position.literal
        vars_ = call.vars or {}
        duration = vars_.get("duration")
        if not isinstance(start, (int, float)) or isinstance(start, bool) or duration is None:
            continue
        if not isinstance(duration.literal, (int, float)) or duration.literal <= 0:
            continue
        if WINDOW_SKIP & ({*vars_} | {*(call.from_vars or {})}) or _inside_function(call.args[0].node):
            continue
        delay = vars_.get("delay")
        offset = delay.literal if delay is not None and isinstance(delay.literal, (int, float)) else 0
        keys = ({*vars_} | {*(call.from_vars or {})}) - ANIMATION_KEYS_IGNORED
        keys = {k for k in keys if not k.startswith("on")}
        yield call, selector.strip(), start + offset, start + offset + duration.literal, keys


@rule(
    "overlapping_gsap_tweens",
    "warning",
    G,
    fix_hint='Shorten the earlier tween, move the later one, or add overwrite: "auto".',
    peer=True,
)
def overlapping_gsap_tweens(doc: Document):
    windows = list(_absolute_windows(doc))
    for i, (left, target, start, end, keys) in enumerate(windows):
        for right, target2, start2, end2, keys2 in windows[i + 1 :]:
            if left.receiver != right.receiver or target != target2:
                continue
            shared = sorted(keys & keys2)
            lo, hi = max(start, start2), min(end, end2)
            if shared and hi > lo + 1e-9:
                yield Hit(
                    right.offset,
                    f'tweens on "{target}" overlap for {", ".join(shared)} between {lo:.2f}s and {hi:.2f}s',
                    selector=target,
                )


SIZE_KEYS = {"width", "height", "minWidth", "minHeight", "maxWidth", "maxHeight"}


@rule(
    "gsap_size_tween_reflows",
    "info",
    G,
    fix_hint="Tween scaleX/scaleY with transformOrigin when the content should not reflow.",
)
def gsap_size_tween_reflows(doc: Document):
    for call in _tweens(doc, TWEENS):
        keys = sorted({k for k, _ in _all_vars(call)} & SIZE_KEYS)
        if keys and not _all_in_layout_subtree_canvas(doc, call):
            yield Hit(call.offset, f"{call.receiver}.{call.method}() animates {', '.join(keys)} (layout)")


@rule(
    "gsap_repeat_refresh_relative_value",
    "error",
    G,
    fix_hint="Use absolute values (or keyframes) instead of repeatRefresh with +=/-=.",
    peer=True,
)
def gsap_repeat_refresh_relative_value(doc: Document):
    for call in _tweens(doc, TWEENS):
        vars_ = call.vars or {}
        refresh = vars_.get("repeatRefresh")
        if refresh is not None and refresh.literal is True:
            relative = [
                k for k, v in vars_.items() if isinstance(v.literal, str) and v.literal.startswith(("+=", "-="))
            ]
            if relative:
                yield Hit(call.offset, f"repeatRefresh with relative {', '.join(relative)}")


@rule(
    "gsap_timeline_registered_before_async_build",
    "warning",
    G,
    fix_hint="Build the timeline synchronously before registering it (load fonts with <link> / @font-face).",
    peer=True,
)
def gsap_timeline_registered_before_async_build(doc: Document):
    registered = {r.value_text for m in doc.script_models for r in m.registrations if not r.async_context}
    for call in doc.gsap_calls:
        if call.on_timeline and call.receiver in registered and call.async_context and call.method in (*TWEENS, "set"):
            yield Hit(
                call.offset, f"{call.receiver}.{call.method}() runs inside {call.async_context}, after registration"
            )


@rule(
    "gsap_undefined_css_variable",
    "warning",
    G,
    fix_hint="Declare the variable (:root { --name: value; }) or use a literal value.",
    peer=True,
)
def gsap_undefined_css_variable(doc: Document):
    declared = set()
    for style in doc.styles:
        declared |= style.sheet.custom_properties
    for decls in doc.inline_styles.values():
        declared |= {d.name for d in decls if d.name.startswith("--")}
    for call in _tweens(doc):
        for _key, value in _all_vars(call):
            if isinstance(value.literal, str) and "var(" in value.literal:
                for name in var_names_without_fallback(value.literal):
                    if name not in declared:
                        yield Hit(value.offset, f"var({name}) is not declared in any stylesheet and has no fallback")


DOM_MEASURE = lazy_compile(
    r"getBoundingClientRect|offsetWidth|offsetHeight|offsetLeft|offsetTop|clientWidth|clientHeight|"
    r"scrollWidth|scrollHeight|getComputedStyle"
)


@rule(
    "gsap_function_value_hazard",
    "error",
    G,
    fix_hint="Compute the value once, synchronously, before building the timeline, or use a constant.",
    peer=True,
)
def gsap_function_value_hazard(doc: Document):
    for call in _tweens(doc):
        for key, value in _all_vars(call):
            if key.startswith("on") or value.node.type not in ("arrow_function", "function_expression", "function"):
                continue
            if DOM_MEASURE.search(value.text):
                yield Hit(value.offset, f"{key}: function value measures the DOM", severity="warning")
            elif (first := _first_param(value.text)) and rx.search(
                rf"(?<![\w$.]){rx.escape(first)}\s*\??\.\s*(?!toFixed\b|toString\b)[A-Za-z_$]", value.text, keep=False
            ):
                yield Hit(
                    value.offset,
                    f"{key}: function value treats its first argument `{first}` as the element; GSAP passes "
                    "(index, target, targets), so it is a number and the property access fails",
                )


_FIRST_PARAM = lazy_compile(r"^\s*(?:async\s+)?(?:function\b[^(]*)?\(?\s*([A-Za-z_$][\w$]*)")


def _first_param(text: str) -> str | None:
    m = _FIRST_PARAM.match(text)
    return m.group(1) if m and m.group(1) != "function" else None


@rule(
    "gsap_callback_dom_measurement",
    "warning",
    G,
    fix_hint="Measure once before building the timeline and reuse the value in the callback.",
    peer=True,
)
def gsap_callback_dom_measurement(doc: Document):
    for call in _tweens(doc):
        for key, value in _all_vars(call):
            if key.startswith("on") and DOM_MEASURE.search(value.text):
                yield Hit(value.offset, f"{key} callback measures the DOM on every seek")
    for model in doc.script_models:
        bodies = None
        for c in model.calls:
            if c.name == "eventCallback" and any(DOM_MEASURE.search(a.text) for a in c.args[1:]):
                yield Hit(c.offset, "eventCallback measures the DOM on every seek")
            elif (
                c.name in ("add", "call")
                and c.object_text is not None
                and c.args
                and c.object_text in ({t.name for t in model.timelines if t.name})
            ):
                if bodies is None:  # bounded: brace matching per declaration is quadratic on hostile input
                    bodies = _function_bodies(model.text) if len(model.text) < 300_000 else {}
                callback = c.args[0].text
                if c.args[0].node.type in ("arrow_function", "function_expression", "identifier") and _measures(
                    callback, bodies, 3
                ):
                    yield Hit(
                        c.offset,
                        f"{c.object_text}.{c.name}() callback measures the DOM (through the functions it calls)",
                    )


_FUNCTION_DECL = lazy_compile(r"\bfunction\s+([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{")
_CALLED = lazy_compile(r"\b([A-Za-z_$][\w$]*)\s*\(")


def _function_bodies(text: str) -> dict[str, str]:
    """`function name(...) { body }` declarations of a script, by name (brace matching; strings not handled)."""
    out: dict[str, str] = {}
    for m in _FUNCTION_DECL.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.setdefault(m.group(1), text[m.end() : i])
    return out


def _measures(code: str, bodies: dict[str, str], hops: int, seen: frozenset = frozenset()) -> bool:
    if DOM_MEASURE.search(code):
        return True
    if hops == 0:
        return False
    names = {code.strip()} if code.strip() in bodies else set(_CALLED.findall(code))
    return any(_measures(bodies[n], bodies, hops - 1, seen | {n}) for n in names if n in bodies and n not in seen)


@rule(
    "gsap_tween_not_on_timeline",
    "error",
    G,
    fix_hint="Replace gsap.to/from/fromTo with tl.to/from/fromTo on the registered timeline.",
)
def gsap_tween_not_on_timeline(doc: Document):
    for call in doc.gsap_calls:
        if call.receiver == "gsap" and call.method in TWEENS:
            yield Hit(call.offset, f"gsap.{call.method}() runs on the global (wall-clock) timeline")


def _simple_selector(selector: str) -> bool:
    """`re.match(r"^[#.][\\w-]+$", selector)` (`$` also before a final newline) without compiling it."""
    body = selector[:-1] if selector.endswith("\n") else selector
    return body[:1] in ("#", ".") and len(body) > 1 and all(c.isalnum() or c in "_-" for c in body[1:])


@rule(
    "gsap_target_not_found",
    "warning",
    G,
    fix_hint="Fix the selector so it names an element that exists.",
)
def gsap_target_not_found(doc: Document):
    if doc.root is None:
        return
    for call in _tweens(doc):
        selector = call.target_selector
        if selector and _simple_selector(selector.strip()) and not tween_targets(doc, call):
            yield Hit(call.targets.offset, f'selector "{selector}" matches no element', selector=selector)


FUNCTION_NODES = ("arrow_function", "function_expression", "function_declaration", "method_definition", "function")


def _enclosing_function(node):
    while node is not None:
        if node.type in FUNCTION_NODES:
            return node
        node = node.parent
    return None


@rule(
    "svg_measure_before_path_d",
    "error",
    G,
    fix_hint="Assign the path's d synchronously before measuring (top level), or author a static d attribute.",
    peer=True,
)
def svg_measure_before_path_d(doc: Document):
    if any(_CSS_PATH_D.search(style.text) for style in doc.styles):
        return  # CSS `d: path(...)` gives the geometry statically
    for model in doc.script_models:
        reported: set[str] = set()

        def key(text: str) -> str:  # `stroke` and `document.getElementById("s")` name one element
            return selector_for_object(doc, text) or text.strip()

        assigns = [  # (element key, offset, enclosing function node or None)
            (key(c.object_text), c.offset, _enclosing_function(c.args[0].node))
            for c in model.calls
            if c.name == "setAttribute" and c.object_text and c.args and c.args[0].literal == "d"
        ]
        assigns += [
            (key(call.targets.text), call.offset, _enclosing_function(call.targets.node))
            for call in model.gsap_calls
            if call.targets is not None
            and (attr := (call.vars or {}).get("attr")) is not None
            and rx.search(r"(?:^|[{,\s])d\s*:", attr.text)
        ]
        for c in model.calls:
            var = c.object_text
            if c.name != "getTotalLength" or not var or var in reported or var not in model.element_vars:
                continue
            targets = elements_matching(doc, model.element_vars[var])
            if not targets or any(t.tag != "path" or "d" in t.attrs for t in targets):
                continue
            same = [a for a in assigns if a[0] == key(var)]
            if any(off < c.offset and (fn is None or fn.start_byte <= c.offset - model.start < fn.end_byte)
                   for _v, off, fn in same):  # fmt: skip
                continue
            reported.add(var)
            if any(fn is not None for _v, _o, fn in same):
                yield Hit(c.offset, f"{var}.getTotalLength() may run before {var}'s d is assigned (only inside "
                          "another function): the length would be 0", severity="warning")  # fmt: skip
            elif same:
                yield Hit(c.offset, f"{var}.getTotalLength() runs before {var}'s d is assigned: the length is 0")
            else:
                yield Hit(c.offset, f"{var}.getTotalLength() on a <path> with no d anywhere: the length is 0")


def _multi_component_dash(value: str) -> bool:
    value = rx.sub(r"!important\s*$", "", value, flags=rx.IGNORECASE).strip()
    return bool(value) and value.lower() != "none" and len([p for p in rx.split(r"[\s,]+", value) if p]) >= 2


def _simple_tokens(compound: str) -> set[str]:
    return set(rx.findall(r"[#.][A-Za-z0-9_-]+", compound))


def _element_tokens(element) -> set[str]:
    return ({f"#{element.id}"} if element.id else set()) | {f".{c}" for c in element.classes}


def _script_created_tokens(model, name: str) -> set[str]:
    """Tokens a script gives an element it creates: `path.setAttribute("class", "a b")`, `path.classList.add("a")`,
    `path.setAttribute("id", "x")`."""
    tokens: set[str] = set()
    for c in model.calls:
        literal = [a.literal for a in c.args]
        if c.object_text == name and c.name == "setAttribute" and len(literal) == 2 and isinstance(literal[1], str):
            if literal[0] == "class":
                tokens |= {f".{p}" for p in literal[1].split()}
            elif literal[0] == "id":
                tokens.add(f"#{literal[1]}")
        elif c.object_text == f"{name}.classList" and c.name == "add":
            tokens |= {f".{v}" for v in literal if isinstance(v, str)}
    return tokens


@rule(
    "svg_drawon_css_dasharray_conflict",
    "error",
    G,
    fix_hint="Remove the CSS stroke-dasharray from the drawn path (decorative dashes belong on another element), or "
    "give GSAP both components: strokeDasharray: `${len} ${len}`.",
    peer=True,
)
def svg_drawon_css_dasharray_conflict(doc: Document):
    dashed: set[str] = set()
    for css_rule in doc.all_css_rules:
        if any(d.name == "stroke-dasharray" and _multi_component_dash(d.value) for d in css_rule.declarations):
            for group in css_rule.selector.split(","):
                if group.strip() and not rx.search(r"[\s>+~]", group.strip()):
                    dashed |= _simple_tokens(group.strip())
    for element in doc.elements:
        if any(d.name == "stroke-dasharray" and _multi_component_dash(d.value) for d in doc.styles_of(element)):
            dashed |= _element_tokens(element)
    if not dashed:
        return
    for model in doc.script_models:
        reported: set[str] = set()
        for call in model.gsap_calls:
            if call.method not in ("set", "to", "fromTo") or call.targets is None:
                continue
            values = [v for vs in (call.vars or {}, call.from_vars or {}) for k, v in vs.items()
                      if k in ("strokeDasharray", "stroke-dasharray")]  # fmt: skip
            if not values:
                continue
            target = call.targets
            tokens: set[str] = set()
            if isinstance(target.literal, str):
                for group in target.literal.split(","):
                    compounds = [c for c in rx.split(r"[\s>+~]+", group.strip()) if c]
                    if compounds:
                        tokens |= _simple_tokens(compounds[-1])
            elif target.node is not None and target.node.type == "identifier":
                tokens |= _script_created_tokens(model, target.text)
            for element in tween_targets(doc, call) or []:
                tokens |= _element_tokens(element)
            conflict = sorted(tokens & dashed)
            if not conflict:
                continue
            for value in values:
                text = value.literal if isinstance(value.literal, str) else None
                if text is None and value.node is not None and value.node.type == "template_string":
                    text = rx.sub(r"\$\{[^}]*\}", "0", value.text.strip("`"))
                if text is not None and _multi_component_dash(text):
                    continue
                if target.text + conflict[0] in reported:
                    continue
                reported.add(target.text + conflict[0])
                yield Hit(
                    value.offset,
                    f"strokeDasharray: {value.text} on {target.text} merges with the CSS multi-component "
                    f"stroke-dasharray of {conflict[0]}: the CSS gap survives and the line shows before it is drawn",
                    selector=target.literal if isinstance(target.literal, str) else None,
                )
