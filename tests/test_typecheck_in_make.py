"""`make test` type-checks before it runs the suite (issue 9, finding 2): the engine under
mypy --strict and the whole package under pyproject.toml's [tool.mypy]."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_make_test_runs_the_type_checker_before_pytest():
    makefile = (ROOT / "Makefile").read_text()
    prerequisites = re.search(r"^test:(.*)$", makefile, re.M).group(1).split()
    assert "typecheck" in prerequisites
    recipe = re.search(r"^typecheck:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "mypy --strict companion/engine" in recipe and "mypy companion" in recipe


def test_mypy_and_its_stubs_are_test_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    test_extra = " ".join(project["project"]["optional-dependencies"]["test"])
    assert "mypy" in test_extra
    assert project["tool"]["mypy"]["files"] == ["companion"]
