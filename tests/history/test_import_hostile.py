"""Every JSON field of the import format under hostile values (issue 8, items 4 and
"Proving it"): files nested ~950 levels deep or holding a 5,000-digit number are refused in one
line; any field replaced by a huge number, deep nesting, control characters, a long string or
a value of the wrong type is either refused with its path, importing nothing, or (where the
format allows any value) imported without breaking a page. Never an exception."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import AuditEntry, Game, GameNight, HandScore, Player, Round, Ruling, Seat
from companion.services.exchange import export as exchange
from companion.services.exchange import importing as exchange_import
from tests.history.exchange_fixture import build

MODELS = (Player, GameNight, Game, Seat, Round, HandScore, AuditEntry, Ruling)
#: stands in for a value that json.dumps cannot write (a 5,000-digit number) until the text
_HUGE = "@@HUGE@@"


def _counts() -> dict[str, int]:
    return {m.__tablename__: db.session.scalar(select(func.count()).select_from(m)) for m in MODELS}


def _paths(value, path=()):
    """Every (path) of ``value``: objects' keys and lists' indexes, leaves and inner nodes."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


def _set(doc, path, value):
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


def _text(doc) -> str:
    return json.dumps(doc, ensure_ascii=False).replace(f'"{_HUGE}"', "9" * 5000)


@pytest.fixture()
def backup(app) -> dict:
    """The fixture history exported, the database emptied: ready to import into."""
    build(db.session)
    doc = json.loads(exchange.dumps(exchange.export_document(db.session)))
    db.session.remove()
    db.drop_all()
    db.create_all()
    return doc


def _deep(depth: int, leaf="x"):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [33, 950, 5000])
def test_a_deeply_nested_file_is_refused_in_one_line(backup, depth):
    backup["rulings"][0]["question"]["input"]["extra"] = _HUGE
    # Written by hand: json.dumps cannot write such a file either.
    text = _text(backup).replace("9" * 5000, "[" * depth + "]" * depth)
    report = exchange_import.import_document(db.session, text)
    assert not report.ok
    assert len(report.problems) == 1 and "nests" in report.problems[0].message
    assert sum(_counts().values()) == 0


@pytest.mark.parametrize("where", ["players.0.created_at", "nights.0.games.0.set_size", "extra"])
def test_a_five_thousand_digit_number_is_refused_in_one_line(backup, where):
    *path, last = [int(p) if p.isdigit() else p for p in where.split(".")]
    target = backup
    for step in path:
        target = target[step]
    target[last] = _HUGE
    report = exchange_import.import_document(db.session, _text(backup))
    assert not report.ok
    assert len(report.problems) == 1 and "5000 digits" in report.problems[0].message
    assert sum(_counts().values()) == 0


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_numbers_json_has_no_place_for_are_refused(backup, text):
    backup["nights"][0]["games"][0]["set_size"] = _HUGE
    report = exchange_import.import_document(db.session, _text(backup).replace("9" * 5000, text))
    assert not report.ok
    assert sum(_counts().values()) == 0


HOSTILE = st.one_of(
    st.just(_HUGE),
    st.integers(min_value=-(10**18), max_value=10**18),
    st.sampled_from([2**31, -(2**31) - 1, 10**18, -1, 0, 1.5, True, False, None]),
    st.integers(min_value=1, max_value=60).map(_deep),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x9F), max_size=20),
    st.sampled_from(["\x00", "a\x00b", "\x1b[31m", "\ud800", "\u202e", ""]),
    st.integers(min_value=100, max_value=100_000).map(lambda n: "x" * n),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_field_under_hostile_values(backup, client, data):
    doc = json.loads(json.dumps(backup))
    paths = [p for p in _paths(doc) if p]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(HOSTILE)
    _set(doc, path, value)
    text = _text(doc)
    report = exchange_import.import_document(db.session, text)
    if value == _HUGE or (isinstance(value, list) and len(json.dumps(value)) > 2 * 40):
        assert not report.ok  # huge numbers and deep nesting: never imported
    if report.ok:
        # Where the format allows the value, every page still shows what was stored.
        for game in db.session.scalars(select(Game)):
            assert client.get(f"/history/games/{game.id}").status_code == 200
            assert client.get(f"/g/{game.edit_token}").status_code in (200, 404)
        assert client.get("/checker/rulings").status_code == 200
        assert client.get("/history/").status_code == 200
        assert client.get("/history/players").status_code == 200
    else:
        assert report.problems and all(p.path.startswith("$") for p in report.problems)
        assert sum(_counts().values()) == 0, (path, value, report.lines())
    db.session.remove()
    db.drop_all()
    db.create_all()
