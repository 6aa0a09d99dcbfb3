"""What `skillbox lint explain` shows for the adapters rules (lint/rules/adapters.py): summary, explanation and
the bad and good examples, keyed by rule code. See lint/registry.py for why they live apart from the checks."""

from __future__ import annotations

from skillbox.lint.samples import comp

DOCS: dict[str, dict] = {}
CANVAS = '<canvas id="scene" width="320" height="180"></canvas>'
DOCS["missing_three_script"] = {
    "summary": "The script uses THREE.* but no Three.js script, import map or module import loads it.",
    "explanation": """
`THREE` is undefined, so the script throws a ReferenceError at its first use and stops: the 3D scene is never
drawn and anything the same script builds after that line (often the timeline registration) never happens.
Render case `missing_three_script` (bench/lint_render_cases.py): the flagged composition renders the moving
box frozen.
""",
    "bad": comp(CANVAS, js="const scene = new THREE.Scene();"),
    "good": comp(
        CANVAS,
        head='<script src="https://cdn.jsdelivr.net/npm/three@0.160/build/three.min.js"></script>\n',
        js="const scene = new THREE.Scene();",
    ),
}
DOCS["missing_lottie_script"] = {
    "summary": "The composition uses Lottie (data-lottie-src or lottie.loadAnimation) but no Lottie script is loaded.",
    "explanation": """
Without lottie-web, `lottie` is undefined: the script throws at `lottie.loadAnimation` and stops, and
`data-lottie-src` elements stay empty. Same failure shape as render case `missing_three_script`.
""",
    "bad": comp('<div id="anim"></div>', js='lottie.loadAnimation({ container: document.getElementById("anim") });'),
    "good": comp(
        '<div id="anim"></div>',
        head='<script src="https://cdn.jsdelivr.net/npm/lottie-web@5/build/player/lottie.min.js"></script>\n',
        js='lottie.loadAnimation({ container: document.getElementById("anim") });',
    ),
}
