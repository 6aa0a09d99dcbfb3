"""`skillbox.docs` is a library: syncing README's skills and platforms sections imports no click (the CLI
reference, which reads the click tree, is rendered under skillbox.cli and handed in)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from pathlib import Path
from skillbox import docs

root = Path(sys.argv[1])
readme = (root / "README.md").read_text(encoding="utf-8")
print("click" in sys.modules, docs.sync_text(readme, root) == readme, "| skill |" in docs.render_skills_table(root))
"""


def test_syncing_the_readme_imports_no_click():
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(REPO)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "tools"), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    assert proc.stdout.split() == ["False", "True", "True"]


def test_python_m_skillbox_docs_still_checks_the_readme():
    proc = subprocess.run(
        [sys.executable, "-m", "skillbox.docs", "--check", "--root", str(REPO)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(REPO / "tools"), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "is up to date" in proc.stdout
