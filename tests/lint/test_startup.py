"""A per-project `skillbox lint` process loads only what linting needs: start-up is most of its cost (issue 12,
point 7; bench/lint_vs_hyperframes.py measures it against the peer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from skillbox.lint.samples import composition

TOOLS = Path(__file__).resolve().parents[2] / "tools"
# Modules a plain `skillbox lint DIR` used to import for nothing it needs: click (the CLI framework), dataclasses
# and typing (and inspect, ast, dis behind them), tomllib for an unrelated pyproject.toml, importlib.resources /
# tempfile / shutil behind the grammar packages' __init__ files, those __init__ files themselves, and tinycss2's
# stylesheet-bytes half.
NOT_ON_THE_HOT_PATH = {
    "click",
    "dataclasses",
    "typing",
    "inspect",
    "tomllib",
    "importlib.resources",
    "tempfile",
    "shutil",
    "tree_sitter",
    "tree_sitter_html",
    "tree_sitter_javascript",
    "html",  # its entity table, for text without a `&`
    "struct",
    "json",  # every format: --json and SARIF are written by lint/json_text.py
    "importlib",  # the package (its __init__ imports warnings); the frozen bootstrap modules do the loading
    "warnings",
    # tinycss2's byte-decoding half (the linter parses text): webencodings' label table and UTF-16 codecs
    "tinycss2.bytes",
    "webencodings",
    "encodings.utf_16_le",
    # the rule examples and docs: `lint explain`, `lint rules`, SARIF and the tests read them, a lint run does not
    "skillbox.lint.samples",
    *(f"skillbox.lint.rules.docs.{group}" for group in ("core", "media", "composition", "gsap", "captions")),
    *(f"skillbox.lint.rules.docs.{group}" for group in ("fonts", "adapters", "project")),
}
PROBE = """import atexit, sys
atexit.register(lambda: sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules))))
from skillbox.cli import main
main(["lint", *sys.argv[1:]])
"""


def lint_process(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    env.pop("SKILLBOX_DEBUG", None)
    proc = subprocess.run([sys.executable, "-P", "-c", PROBE, *args], cwd=cwd, env=env, capture_output=True, text=True)
    modules = set(proc.stderr.rpartition("\nMODULES ")[2].split())
    return proc, modules


def project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "index.html").write_text(composition('<h1 id="t">Hi</h1>', js='tl.from("#t", { opacity: 0 }, 0);'))
    return folder


def test_a_project_lint_loads_no_framework_and_no_unused_module(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\n[tool.ruff]\nline-length = 99\n')
    proc, modules = lint_process([str(project(tmp_path / "p")), "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["errorCount"] == 0
    assert "tree_sitter._binding" in modules and "skillbox.lint.engine" in modules  # the probe saw the lint
    assert modules & NOT_ON_THE_HOT_PATH == set()


def test_our_table_in_pyproject_is_still_read_in_every_toml_spelling(tmp_path):
    spellings = [
        '[tool.skillbox.lint]\nignore = ["gsap"]\n',
        '[tool]\nskillbox.lint.ignore = ["gsap"]\n',
        'tool.skillbox.lint.ignore = ["gsap"]\n',
        'tool = { skillbox = { lint = { ignore = ["gsap"] } } }\n',
        '[ "tool" . "skill\\u0062ox" . lint ]\nignore = ["gsap"]\n',
    ]
    root = project(tmp_path / "p")
    (root / "index.html").write_text(composition('<h1 id="t">Hi</h1>', js='gsap.to("#t", { x: 10 });'))
    proc, _ = lint_process([str(root), "--json"], tmp_path)
    assert any(f["code"].startswith("gsap_") for f in json.loads(proc.stdout)["findings"])
    for text in spellings:
        (tmp_path / "pyproject.toml").write_text(text)
        proc, modules = lint_process([str(root), "--json"], tmp_path)
        codes = [f["code"] for f in json.loads(proc.stdout)["findings"]]
        assert "tomllib" in modules and not any(c.startswith("gsap_") for c in codes), (text, codes)


def test_grammars_loaded_lean_are_the_classes_of_a_plain_import():
    code = (
        "from skillbox.lint.document import parse_document\n"
        "doc = parse_document(b'<p>x</p>', 'x.html')\n"
        "import tree_sitter\n"
        "from skillbox.lint.grammars import html_parser\n"
        "tree = html_parser().parse(b'<p>x</p>')\n"
        "assert isinstance(tree, tree_sitter.Tree) and isinstance(tree.root_node, tree_sitter.Node)\n"
        "assert type(html_parser()) is tree_sitter.Parser\n"
    )
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    proc = subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_no_format_loads_the_json_package(tmp_path):
    root = project(tmp_path / "p")
    for args in ([], ["--json"], ["--format", "sarif"]):
        proc, modules = lint_process([str(root), *args], tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "skillbox.lint.formats" in modules and modules & NOT_ON_THE_HOT_PATH == set(), args
    assert json.loads(proc.stdout)["runs"][0]["results"] == []


def test_the_launchers_start_script_ends_a_lint_without_shutdown_but_with_all_output(tmp_path):
    """fast_start.py ends a finished lint with os._exit (no interpreter shutdown): the output must still be
    complete (several output buffers) and the exit code the lint's, as `python -m skillbox` prints them."""
    import site

    corpus = Path(__file__).resolve().parents[1] / "fixtures" / "lint" / "corpus"
    env = dict(os.environ, PYTHONPATH=str(TOOLS))
    env.pop("SKILLBOX_DEBUG", None)
    start = [sys.executable, "-S", "-P", str(TOOLS / "skillbox" / "fast_start.py"), sys.prefix]
    start.append(site.getsitepackages()[0])
    clean = project(tmp_path / "clean")
    for args in ([str(corpus), "--json"], [str(corpus), "--format", "sarif"], [str(corpus)], [str(clean)]):
        fast = subprocess.run([*start, "lint", *args], env=env, capture_output=True)
        usual = subprocess.run([sys.executable, "-P", "-m", "skillbox", "lint", *args], env=env, capture_output=True)
        assert (fast.stdout, fast.stderr, fast.returncode) == (usual.stdout, usual.stderr, usual.returncode), args
    assert len(fast.stdout) > 0 and fast.returncode == 0
    big = subprocess.run([*start, "lint", str(corpus), "--json"], env=env, capture_output=True)
    assert len(big.stdout) > 4 * 8192  # several of stdout's 8 KiB buffers
    assert big.returncode == 1 and json.loads(big.stdout)["errorCount"] > 0
