from __future__ import annotations

from pathlib import Path

import pytest

from skillbox.lint.samples import Sample


def write_sample(sample: Sample, folder: Path) -> Path:
    """Write a rule example's files under `folder`; return the path to lint."""
    for rel, content in sample.files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return folder / sample.lint_path if sample.lint_path else folder


@pytest.fixture
def sample_path(tmp_path):
    def make(sample: Sample, name: str = "case") -> Path:
        return write_sample(sample, tmp_path / name)

    return make
