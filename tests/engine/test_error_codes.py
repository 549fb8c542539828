"""Every engine error code is a member of one vocabulary (issue 23): :class:`ErrorCode`, or the
:class:`Reason` of an illegal move. No raise site and no comparison types a code again as a
string literal, and no member of :class:`ErrorCode` is left unused."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from companion.engine import EngineError, parse_tile
from companion.engine.errors import ErrorCode
from companion.engine.reasons import Reason

ENGINE = Path(__file__).resolve().parents[2] / "companion" / "engine"
HOMES = {"errors.py", "reasons.py"}  # where the members are declared
CODES = {m.value for m in ErrorCode} | {m.value for m in Reason}


def sources() -> dict[str, str]:
    return {
        str(p.relative_to(ENGINE)): p.read_text("utf-8")
        for p in sorted(ENGINE.rglob("*.py"))
        if p.name not in HOMES
    }


def test_no_code_is_typed_as_a_string_literal():
    """A string constant equal to a code (``"BAD_VALUE"``, ``"NO_MATCH"``) outside the two
    homes is a code typed again; a docstring or message that merely names one is not."""
    typed = []
    for name, source in sources().items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and node.value in CODES:
                typed.append(f"{name}:{node.lineno}: {node.value!r}")
    assert typed == []


def test_every_raise_site_names_a_member():
    """The first argument of every ``...Error(code, message)`` call is ``ErrorCode.X``,
    ``Reason.X`` or a value computed from them (never a bare string)."""
    bare = []
    for name, source in sources().items():
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id.endswith("Error")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and re.fullmatch(r"[A-Z_]+", str(node.args[0].value))
            ):
                bare.append(f"{name}:{node.lineno}")
    assert bare == []


def test_every_error_code_is_raised_somewhere():
    used = set(re.findall(r"ErrorCode\.([A-Z_]+)", "\n".join(sources().values())))
    assert {m.name for m in ErrorCode} - used == set()


def test_a_raised_error_carries_its_member_and_answers_plain_text():
    try:
        parse_tile("9-x")
    except EngineError as exc:
        assert isinstance(exc.code, ErrorCode)
        assert type(exc.as_dict()["code"]) is str
    else:  # pragma: no cover - the parse above must fail
        raise AssertionError("9-x parsed")
