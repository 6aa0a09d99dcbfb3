"""paper-statistics' check_stats.py: recomputed p-values, rounding allowance, one-tailed and decision errors.

The distributions are compared with SciPy (an outside implementation) when a Python with SciPy is on the
machine; the fixture's numbers were computed with SciPy too, and the planted errors are the misreports statcheck
was built to catch: a p copied from another test, a one-tailed p passed off as two-tailed, a p < .05 that the
statistic cannot give.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.skills.conftest import SKILLS, load_script

stats = load_script("paper-statistics", "check_stats")
SCRIPT = SKILLS / "paper-statistics" / "scripts" / "check_stats.py"


def run(*args, stdin=None):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, input=stdin, timeout=60)


def scipy_python() -> str | None:
    for candidate in (shutil.which("python3"), "/usr/bin/python3"):
        if candidate and subprocess.run([candidate, "-c", "import scipy.stats"], capture_output=True).returncode == 0:
            return candidate
    return None


GRID = [
    ("t", 2.20, 28, None),
    ("t", 0.35, 3, None),
    ("t", 12.5, 200, None),
    ("t", 2.95, 17.3, None),
    ("F", 4.35, 2, 27),
    ("F", 0.4, 5, 100),
    ("F", 25.0, 1, 8),
    ("chi2", 3.95, 1, None),
    ("chi2", 30.2, 12, None),
    ("chi2", 0.8, 4, None),
    ("z", 2.58, None, None),
    ("r", 0.32, 48, None),
]


def test_p_values_agree_with_scipy():
    python = scipy_python()
    if python is None:
        pytest.skip("no Python with SciPy on this machine to compare against")
    code = """
import json, math, sys
from scipy import stats
out = []
for test, v, d1, d2 in json.loads(sys.argv[1]):
    if test == "t": out.append(2 * stats.t.sf(v, d1))
    elif test == "F": out.append(stats.f.sf(v, d1, d2))
    elif test == "chi2": out.append(stats.chi2.sf(v, d1))
    elif test == "z": out.append(2 * stats.norm.sf(v))
    elif test == "r": out.append(2 * stats.t.sf(v * math.sqrt(d1 / (1 - v * v)), d1))
print(json.dumps(out))
"""
    proc = subprocess.run([python, "-c", code, json.dumps(GRID)], capture_output=True, text=True, check=True)
    expected = json.loads(proc.stdout)
    for (test, v, d1, d2), want in zip(GRID, expected, strict=True):
        got = stats.p_two_tailed(test, v, d1, d2)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-15), (test, v, d1, d2)


def test_a_correctly_reported_results_section_is_all_consistent(fixtures_dir):
    results = stats.scan_text((fixtures_dir / "stats_results.md").read_text(encoding="utf-8"))
    assert [r.test for r in results] == ["t", "t", "F", "F", "r", "chi2", "t", "z", "t"]
    assert {r.verdict for r in results} == {"consistent"}, [(r.text, r.message) for r in results]
    assert results[2].line == 5 and results[6].df1 == 17.3


@pytest.mark.parametrize(
    ("sentence", "verdict"),
    [
        ("The effect was significant, t(28) = 1.20, p = .03.", "decision_error"),  # p from another test
        ("Groups differed, F(2, 27) = 2.10, p < .05.", "decision_error"),  # gives p = .14
        ("Groups differed, t(28) = 2.20, p = .36.", "decision_error"),  # a typo: .036 written .36
        ("Groups differed, t(28) = 2.20, p = .026.", "inconsistent"),  # wrong, but still below .05
        ("Groups differed, t(15) = 1.80, p = .046.", "decision_error"),  # one-tailed p, unstated
        ("A one-tailed test gave t(15) = 1.80, p = .046.", "consistent_one_tailed"),
        ("Rounded statistic: t(28) = 2.2, p = .04.", "consistent"),  # 2.2 may be 2.15-2.25: p .033-.040
        ("Rounded p: t(28) = 2.20, p = .04.", "consistent"),  # .04 may be .035-.045
        ("Rounded statistic: t(28) = 2.20, p = .040.", "inconsistent"),  # 2.195-2.205: p .0358-.0366
    ],
)
def test_misreports_are_flagged_and_rounding_is_allowed_for(sentence, verdict):
    (result,) = stats.scan_text(sentence)
    assert result.verdict == verdict, result.message


def test_the_message_names_the_one_tailed_suspicion():
    (result,) = stats.scan_text("Groups differed, t(15) = 1.80, p = .046.")
    assert "one-tailed" in result.message and "0.092" in result.message


def test_unicode_minus_chi_square_spellings_and_p_zero_note():
    text = "z = −1.96, p = .05; chi-square(2) = 6.0, p = .0498; X2(3) = 7.81, p = .05; and p = 0.000 in Table 2."
    results = stats.scan_text(text)
    assert [r.verdict for r in results] == ["consistent"] * 3
    assert [n["note"] for n in stats.style_notes(text)] == ["p = .000 is not a p-value: write p < .001"]


def test_cli_exit_codes_and_json(tmp_path, fixtures_dir):
    ok = run(str(fixtures_dir / "stats_results.md"))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.splitlines()[-1] == "9 result(s) checked, 0 inconsistent (0 change the conclusion)"
    bad = run("-", "--json", stdin="Drug helped, t(28) = 1.20, p = .03.\n")
    assert bad.returncode == 1
    payload = json.loads(bad.stdout)
    assert payload["checked"] == 1 and payload["decision_errors"] == 1
    assert payload["results"][0]["p_computed"] == pytest.approx(0.240195, abs=1e-6)
    none = run("-", "--require-results", stdin="No statistics here.\n")
    assert none.returncode == 1 and "0 result(s) checked" in none.stdout
    missing = run(str(tmp_path / "nope.md"))
    assert missing.returncode == 2 and missing.stderr == f"Error: no such file: {tmp_path / 'nope.md'}\n"


@pytest.mark.parametrize(
    "written",
    [
        "*t*(28) = 2.20, *p* = .036",
        "$t(28)=2.20$, $p=.036$",
        "\\textit{t}(28) = 2.20, \\textit{p} = .036",
        "t(28) = 2.20; p = .036",
        "差异显著，t（28）＝2.20，p＝.036。",
    ],
)
def test_results_in_markdown_latex_and_full_width_punctuation_are_found(written):
    (result,) = stats.scan_text(written)
    assert result.verdict == "consistent"


def test_a_text_with_no_recognisable_result_says_so(tmp_path, capsys):
    manuscript = tmp_path / "m.md"
    manuscript.write_text("We found a large effect (see Table 2).\n")
    assert stats.main([str(manuscript)]) == 0
    assert "no test result was recognised" in capsys.readouterr().err
