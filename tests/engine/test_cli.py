"""``python -m companion.engine answer FILE`` and the engine's import purity."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "companion" / "engine"
FORBIDDEN = ("flask", "sqlalchemy", "wtforms", "werkzeug")

DOC = {
    "cases": [
        {"id": "OK-1", "category": "scoring", "ruleset": {"preset": "standard"},
         "input": {"hand": ["0-0", "2-3"]}, "expected": {"score": 55}},
        {"id": "BAD-1", "category": "placement", "input": {"layout": "nonsense"}},
        {"id": "BAD-2", "category": "no_such_category", "input": {}},
    ]
}  # fmt: skip


def test_the_command_prints_answers_for_every_case(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps(DOC))
    done = subprocess.run(
        [sys.executable, "-m", "companion.engine", "answer", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"answers"}
    assert set(out["answers"]) == {"OK-1", "BAD-1", "BAD-2"}
    assert out["answers"]["OK-1"]["score"] == 55
    for bad in ("BAD-1", "BAD-2"):  # an error answer, not a traceback
        assert set(out["answers"][bad]["error"]) == {"code", "message", "where"}
    assert "Traceback" not in done.stderr


def test_the_whole_case_file_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["answer", str(ROOT / "tests" / "data" / "cases.json")]) == 0
    answers = json.loads(capsys.readouterr().out)["answers"]
    assert len(answers) >= 35 and all(isinstance(a, dict) for a in answers.values())


@pytest.mark.parametrize("content", [None, "{not json", b"\xff\xfe\x00bad"])
def test_an_unreadable_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes | None
) -> None:
    path = tmp_path / "q.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    assert main(["answer", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot read" in captured.err


def test_a_file_without_cases_still_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"format": "chickenfoot-cases/v1"}))
    assert main(["answer", str(path)]) == 0
    answers = json.loads(capsys.readouterr().out)["answers"]
    assert answers["#document"]["error"]["code"] == "BAD_DOCUMENT"


GOOD = {"id": "GOOD", "category": "scoring", "input": {"hand": ["0-0", "2-3"]}}


def run_cli(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "q.json"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "companion.engine", "answer", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip


def test_one_bad_question_costs_no_other_its_answer(tmp_path: Path) -> None:
    bad_name = {"category": "tiebreak", "input": {"round_scores": {"A\udc80": [0], "B": [3]}}}
    bad_tile = {"category": "scoring", "input": {"hand": ["1-2", "\ud800"]}}
    bad_id = {"id": "X\udfff", "category": "scoring", "input": {"hand": ["1-2"]}}
    cases = [
        GOOD,
        bad_name,
        bad_tile,
        bad_id,
        {"id": "GOOD", **{k: GOOD[k] for k in GOOD if k != "id"}},
    ]
    text = json.dumps({"cases": cases})  # ASCII JSON: "\udc80" escapes give lone surrogates
    huge = "9" * 5000
    text = (
        text[:-2] + f', {{"id": "HUGE", "category": "draw", "input": {{"yard_count": {huge}}}}}]}}'
    )
    done = run_cli(tmp_path, text)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    answers = json.loads(done.stdout)["answers"]
    assert answers["GOOD"]["score"] == 55
    assert answers["#1"]["error"]["code"] == "BAD_TEXT"
    assert answers["#2"]["error"]["where"] == "input.hand[1]"
    assert answers["#3"]["error"]["code"] == "BAD_TEXT"  # the id itself, keyed by index
    assert answers["#4"]["score"] == 55  # a repeated id does not hide the first answer
    assert answers["HUGE"]["error"] == {
        "code": "TOO_LARGE",
        "message": answers["HUGE"]["error"]["message"],
        "where": "input.yard_count",
    }
    assert "5000-digit" in answers["HUGE"]["error"]["message"]


def test_a_file_nested_too_deeply_is_one_clear_error(tmp_path: Path) -> None:
    done = run_cli(tmp_path, '{"cases": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("it is nested too deeply to be a question file")


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize(
    "path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE))
)
def test_the_engine_imports_no_web_library(path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0].lower()
        assert top not in FORBIDDEN and not top.startswith("flask_"), f"{path.name}: {name}"


def test_the_purity_check_would_notice(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import flask_wtf\nfrom sqlalchemy.orm import Mapped\n")
    assert [n.split(".")[0] for n in _imports(bad)] == ["flask_wtf", "sqlalchemy"]
