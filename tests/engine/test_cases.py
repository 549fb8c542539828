"""Every worked case of the project's case files answers with every expected fact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import answer

DATA = Path(__file__).resolve().parent.parent / "data"
CASE_FILES = sorted(DATA.glob("cases*.json"))
CASES = [c for f in CASE_FILES for c in json.loads(f.read_text())["cases"]]
PROSE = {"detail", "procedure", "starter_action", "penalty_text"}


def expected_facts(case: dict) -> list[tuple[str, object]]:
    """(key, value) pairs to check; a few case keys are spelled differently in the contract."""
    facts = []
    for key, value in case["expected"].items():
        if key in PROSE:
            continue
        if key == "scores_hint":
            facts.extend((f"score_{p}", s) for p, s in value.items())
        else:
            facts.append((key, value))
    return facts


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict) -> None:
    question = {k: case[k] for k in ("id", "category", "ruleset", "input") if k in case}
    got = answer(question)
    assert "error" not in got or "error" in case["expected"], got
    for key, value in expected_facts(case):
        assert got.get(key) == value, f"{key}: expected {value!r}, got {got.get(key)!r}"
    if "error" not in got:
        assert got["message"] and got["rule"]
