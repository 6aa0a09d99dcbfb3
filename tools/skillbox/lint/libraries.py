"""The GSAP build the lint names: `missing_gsap_script`'s fix hint and the rule examples load the same file.

Its own module (not lint/samples.py, where it lived) because the fix hint is read on every lint run, and the
examples module is only for `lint explain` and the tests (importing it was ~0.8 M instructions of a ~100 M
per-project process, bench/README.md "lint speed per project, session 7").
"""

GSAP_CDN = "https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"
