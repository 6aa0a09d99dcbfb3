"""The lint's regex cache (lint/regex_cache.py): a pattern built from a cached program is the pattern `re.compile`
makes, a bad or foreign cache file only means compiling again, and a lint on a warm cache never imports `re` while
printing exactly what it printed cold (issue 12, point 7: `re` and its compiler were a sixth of a lint process)."""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skillbox.lint import patterns, regex_cache
from skillbox.lint.samples import composition

TOOLS = Path(__file__).resolve().parents[2] / "tools"


@pytest.fixture
def cache_file(tmp_path, monkeypatch):
    """The cache file in a temporary folder, loaded afresh (as by a new process) each time `_programs` is reset."""
    path = tmp_path / "regex_cache.programs"
    monkeypatch.setattr(regex_cache, "_path", lambda: str(path))
    monkeypatch.setattr(regex_cache, "_programs", None)
    monkeypatch.setattr(regex_cache, "_unwritable", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return path


def fresh_process_view():
    regex_cache._programs = None  # the next compile reads the file, as a new process would
    regex_cache._unwritable = False


def the_linters_patterns() -> list[tuple]:
    """Every module-level pattern of the lint package and its rule modules, as (pattern, flags)."""
    import skillbox.lint
    import skillbox.lint.rules

    found = set()
    for package in (skillbox.lint, skillbox.lint.rules):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if isinstance(value, patterns.LazyPattern):
                    found.add(value._args)
    return sorted(found, key=repr)


def assert_same_pattern(mine, pattern, flags):
    theirs = re.compile(pattern, flags)
    assert mine == theirs  # re.Pattern equality: flags, pattern text and compiled code
    assert (mine.groups, mine.groupindex) == (theirs.groups, theirs.groupindex)


def test_every_pattern_of_the_linter_is_rebuilt_exactly_from_its_cached_program(cache_file):
    linters = the_linters_patterns()
    assert len(linters) > 20  # the probe found the rule modules' patterns
    extra = [(r"(?P<name>[a-z]+)-(?P=name)", 0), (r"café\b", re.IGNORECASE), (rb"\x00+", 0), (r"^a.b$", 24)]
    for pattern, flags in linters + extra:
        regex_cache.compile(pattern, flags)
    assert cache_file.exists()
    fresh_process_view()
    stored = regex_cache._loaded()
    assert len(stored) == len(set(linters + extra))
    for pattern, flags in linters + extra:
        assert_same_pattern(regex_cache.compile(pattern, flags), pattern, flags)
    assert regex_cache.compile(r"(?P<name>[a-z]+)-(?P=name)").fullmatch("ab-ab").group("name") == "ab"


def test_a_program_that_does_not_rebuild_res_own_pattern_is_never_recorded(cache_file, monkeypatch):
    """The guard against a change in re's private compiler: here its `_code` makes other code than `re.compile`
    used (the pattern is already in re's own cache), so nothing may be recorded."""
    from re import _compiler

    pattern = "ab+c-guard"
    re.compile(pattern)
    code = _compiler._code
    monkeypatch.setattr(_compiler, "_code", lambda parsed, flags: code(parsed, flags | re.IGNORECASE))
    assert_same_pattern(regex_cache.compile(pattern), pattern, 0)
    fresh_process_view()
    assert (pattern, 0) not in regex_cache._loaded()


@pytest.mark.parametrize(
    "content",
    [b"", b"not marshal at all", marshal.dumps(("another interpreter", {})), marshal.dumps([1, 2, 3])[:-1]],
    ids=["empty", "junk", "foreign", "truncated"],
)
def test_a_damaged_or_foreign_file_means_compiling_again_and_a_good_file_afterwards(cache_file, content):
    cache_file.write_bytes(content)
    assert_same_pattern(regex_cache.compile(r"\bgsap\.to\(", 0), r"\bgsap\.to\(", 0)
    identity, programs = marshal.loads(cache_file.read_bytes())
    assert identity == regex_cache._IDENTITY and (r"\bgsap\.to\(", 0) in programs


def test_a_program_of_another_interpreter_is_never_used(cache_file):
    wrong = regex_cache._compiled_by_re("b", 0)[1]  # the program of "b", filed under "a" by "another" Python
    foreign = (regex_cache._IDENTITY[0], regex_cache._IDENTITY[1] + 1, *regex_cache._IDENTITY[2:])
    cache_file.write_bytes(marshal.dumps((foreign, {("a", 0): wrong})))
    assert regex_cache.compile("a").fullmatch("a") and not regex_cache.compile("a").fullmatch("b")


def test_a_file_from_a_machine_of_the_other_byte_order_is_never_used(cache_file, monkeypatch):
    """A large character class's block table is packed in the machine's byte order (`re._compiler._bytes_to_codes`),
    and a `__pycache__` can travel (a marketplace install copies the plugin root, untracked files included)."""
    spec = importlib.util.spec_from_file_location("regex_cache_elsewhere", regex_cache.__file__)
    elsewhere = importlib.util.module_from_spec(spec)
    with monkeypatch.context() as patch:
        patch.setattr(sys, "byteorder", "big" if sys.byteorder == "little" else "little")
        spec.loader.exec_module(elsewhere)
    wrong = regex_cache._compiled_by_re("b", 0)[1]  # the program of "b", filed under "a"
    cache_file.write_bytes(marshal.dumps((elsewhere._IDENTITY, {("a", 0): wrong})))
    assert regex_cache.compile("a").fullmatch("a") and not regex_cache.compile("a").fullmatch("b")


def test_a_program_the_engine_refuses_is_dropped_and_compiled_again(cache_file):
    cache_file.write_bytes(marshal.dumps((regex_cache._IDENTITY, {("a+", 0): (0, [999, 999, 999], 0, {}, ())})))
    assert_same_pattern(regex_cache.compile("a+"), "a+", 0)
    fresh_process_view()
    assert regex_cache._loaded()[("a+", 0)][1] != [999, 999, 999]


def test_nothing_is_written_where_bytecode_is_not(cache_file, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert_same_pattern(regex_cache.compile("x+y"), "x+y", 0)
    assert not cache_file.exists()


def test_no_program_is_made_where_none_can_be_written(cache_file, monkeypatch):
    """Under -B, or where the file cannot be written (a read-only install), a pattern costs what `re.compile` costs:
    re's parser is not run a second time for a program nobody will read (at most once, to learn the file is
    unwritable)."""
    made = []
    real = regex_cache._compiled_by_re
    monkeypatch.setattr(
        regex_cache, "_compiled_by_re", lambda pattern, flags: made.append(pattern) or real(pattern, flags)
    )
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert_same_pattern(regex_cache.compile("x+y"), "x+y", 0)
    assert made == []
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    not_a_folder = cache_file.parent / "not-a-folder"
    not_a_folder.write_text("")
    monkeypatch.setattr(regex_cache, "_path", lambda: str(not_a_folder / "regex_cache.programs"))
    for pattern in ("a+b", "c+d", "e+f"):
        assert_same_pattern(regex_cache.compile(pattern), pattern, 0)
    assert made == ["a+b"]


def test_a_pattern_made_from_the_documents_text_is_never_recorded(cache_file):
    name = "tl_" + "x" * 8
    assert patterns.search(rf"\breturn\s+{patterns.escape(name)}\b", f"return {name};", keep=False)
    fresh_process_view()
    assert regex_cache._loaded() == {}


def test_escape_is_res_escape():
    text = "".join(map(chr, range(0x250))) + "中文\u3000"
    assert all(patterns.escape(c) == re.escape(c) for c in text)


def lint_twice(tmp_path) -> list[subprocess.CompletedProcess]:
    """`skillbox lint --json` in fresh interpreters with their own bytecode folder: cold, then warm."""
    project = tmp_path / "p"
    project.mkdir()
    (project / "index.html").write_text(
        composition(
            '<h1 id="t" style="font-family: var(--f, Caveat, cursive)">Hi</h1>',
            js='tl.to("#t", { x: 100, duration: 1 }, 0);',
            css="#t { color: red }",
        )
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(TOOLS), PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"))
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules))))\n"
        "from skillbox.cli import main\n"
        "main(['lint', sys.argv[1], '--json'])\n"
    )
    runs = [
        subprocess.run([sys.executable, "-P", "-c", probe, str(project)], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    for proc in runs:
        assert "Traceback" not in proc.stderr, proc.stderr
    return runs


def test_a_warm_lint_never_imports_re_and_prints_what_a_cold_one_printed(tmp_path):
    cold, warm = lint_twice(tmp_path)
    assert cold.stdout == warm.stdout and cold.returncode == warm.returncode
    assert '"errorCount"' in warm.stdout
    modules = [set(proc.stderr.rpartition("\nMODULES ")[2].split()) for proc in (cold, warm)]
    assert "tinycss2.parser" in modules[1] and "tree_sitter._binding" in modules[1]  # the lint really ran
    assert "re" not in modules[1]
    # nor what `re` and the binding's LogType would bring (lint/binding_stand_ins.py): enum, functools, collections
    assert not {"enum", "functools", "collections"} & modules[1]
    for loaded in modules:  # the stand-in `re` never pushed tinycss2 back to its whole package, cold or warm
        assert "tinycss2.bytes" not in loaded and "webencodings" not in loaded
    assert list((tmp_path / "pycache").rglob("regex_cache.*.programs"))
