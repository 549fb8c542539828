"""Every form is read one way (issue 23, item 2): no module of companion/ but the one reader,
companion/web/query.py, reads ``request.form``, ``request.args``, ``request.values`` or
``request.files``. A posted form is read by its Flask-WTF form, a query argument by
companion.web.query. companion/web/stale_forms.py is the other exception: it does not read the
post but takes the stale token out of it before the view runs again (Flask-WTF's own machinery
reads the post for the forms).

STILL_READING listed the services that still read the post themselves, with how many reads
each had; issue 23's item 3 moved those reads up into companion/web/ (through the reader), so it
is empty. It may only shrink: a new read in any module fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COMPANION = Path(__file__).resolve().parents[1] / "companion"
#: what a view must not read itself
READ_BY_HAND = frozenset({"form", "args", "values", "files"})
#: the modules that may (relative to companion/): the reader, and the stale forms' replay
READERS = frozenset({"web/query.py", "web/stale_forms.py"})

#: module (relative to companion/) -> its direct reads left (may only shrink)
STILL_READING: dict[str, int] = {}


def direct_reads(source: str) -> list[tuple[int, str]]:
    """(line, ``request.<attribute>``) of every read of the request's form data in ``source``:
    ``request.form`` (Flask's ``request`` imported by name) or ``flask.request.args``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or node.attr not in READ_BY_HAND:
            continue
        owner = node.value
        is_request = (isinstance(owner, ast.Name) and owner.id == "request") or (
            isinstance(owner, ast.Attribute) and owner.attr == "request"
        )
        if is_request:
            found.append((node.lineno, f"request.{node.attr}"))
    return sorted(found)


def _name(path: Path) -> str:
    return path.relative_to(COMPANION).as_posix()


def checked_modules() -> list[Path]:
    """Every module of companion/ but the :data:`READERS`."""
    return [p for p in sorted(COMPANION.rglob("*.py")) if _name(p) not in READERS]


@pytest.mark.parametrize("path", checked_modules(), ids=_name)
def test_no_module_reads_the_request_by_hand(path: Path) -> None:
    reads = direct_reads(path.read_text(encoding="utf-8"))
    allowed = STILL_READING.get(_name(path), 0)
    assert len(reads) <= allowed, (
        f"{_name(path)} reads {reads}: read a post with a Flask-WTF form and a query argument "
        "with companion.web.query"
    )


def test_the_allowance_only_shrinks() -> None:
    """Every module still allowed to read by hand does, exactly as often as allowed (the list
    is empty since the services' reads moved to companion/web/; it stays as the way back)."""
    for name, allowed in STILL_READING.items():
        reads = direct_reads((COMPANION / name).read_text(encoding="utf-8"))
        assert reads, f"{name} reads the request no more: take it out of STILL_READING"
        assert len(reads) == allowed, (
            f"{name} has {len(reads)} direct reads: set STILL_READING to that (never more)"
        )


def test_the_check_would_notice_a_view_reading_by_hand() -> None:
    made_up = (
        "from flask import request\n"
        "import flask\n"
        "def view():\n"
        "    total = request.form.get('total')\n"
        "    page = flask.request.args.get('page', type=int)\n"
        "    return request.files, request.values, request.method, request.headers\n"
    )
    assert direct_reads(made_up) == [
        (4, "request.form"),
        (5, "request.args"),
        (6, "request.files"),
        (6, "request.values"),
    ]


def test_the_check_leaves_other_forms_alone() -> None:
    # a form object's own data and a service's parameter named "form" are not the request
    made_up = "def view(form):\n    return form.total.data, form.get('q'), self.args\n"
    assert direct_reads(made_up) == []


def test_the_modules_checked_are_all_but_the_readers() -> None:
    names = {_name(p) for p in checked_modules()}
    assert {"table/views.py", "games/play.py", "checker/views.py", "web/languages.py"} <= names
    assert not names & READERS
    assert all((COMPANION / name).is_file() for name in READERS)
