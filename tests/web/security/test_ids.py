"""Ids from the outside world are bounded by one constant (companion.ids.ID_MAX = 2**31 - 1,
PostgreSQL's INTEGER): on every route with an id in its path, and in every query string or
form field that names a row, a larger number is "not found", never a database error
(issue 8, item 4: 12 routes answered 500 on PostgreSQL)."""

from __future__ import annotations

import re

import pytest

from companion.extensions import db
from companion.ids import ID_MAX, parse_id
from tests.web.setup_helpers import start_game, start_night

_INT_PART = re.compile(r"<int:[a-z_]+>")
_OTHER_PART = re.compile(r"<(?:[a-z]+:)?[a-z_]+>")


def _id_routes(app) -> list[tuple[str, str]]:
    """(method, rule) of every route with an ``<int:...>`` part."""
    found = []
    for rule in app.url_map.iter_rules():
        if "<int:" not in rule.rule:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, rule.rule))
    return found


def test_every_id_route_is_found(app):
    # The routes the attack run found answering 500 on PostgreSQL, and more: all of them.
    assert len(_id_routes(app)) >= 12


@pytest.mark.parametrize("number", [ID_MAX + 1, 2**63, 10**400])
def test_every_id_route_answers_not_found_for_ids_past_the_bound(db_app, number):
    client = db_app.test_client()
    start_game(client, start_night(client), names=("Ann", "Bob"))
    for method, rule in _id_routes(db_app):
        url = _OTHER_PART.sub("x", _INT_PART.sub(str(number), rule))
        response = client.open(url, method=method, data={"version": "1"})
        assert response.status_code in (404, 405), (method, url, response.status_code)


def test_every_id_route_copes_with_the_largest_id(db_app):
    # ID_MAX itself reaches the database: it must be a plain "not found" there too.
    client = db_app.test_client()
    start_game(client, start_night(client), names=("Ann", "Bob"))
    for method, rule in _id_routes(db_app):
        url = _OTHER_PART.sub("x", _INT_PART.sub(str(ID_MAX), rule))
        response = client.open(url, method=method, data={"version": "1"})
        assert response.status_code < 500, (method, url, response.status_code)
        db.session.rollback()


@pytest.mark.parametrize(
    "path",
    [
        "/history/export.csv?game={n}",
        "/history/export.json?night={n}",
        "/history/?player={n}",
        "/history/players/1/merge?into={n}",
        "/checker/?ruling={n}",
        "/checker/rulings?ruling={n}",
    ],
)
@pytest.mark.parametrize("number", [ID_MAX, ID_MAX + 1, 10**400])
def test_ids_in_query_strings_are_bounded_on_every_backend(db_app, path, number):
    client = db_app.test_client()
    start_game(client, start_night(client), names=("Ann", "Bob"))
    response = client.get(path.format(n=number))
    assert response.status_code in (200, 404)


def test_new_game_refuses_an_id_past_the_bound_on_every_backend(db_app):
    client = db_app.test_client()
    night_id = start_night(client)
    from tests.web.setup_helpers import game_data

    data = game_data(["Ann"], known=[(ID_MAX + 1, True, None)])
    response = client.post(f"/nights/{night_id}/games/new", data=data)
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", 1),
        (str(ID_MAX), ID_MAX),
        (str(ID_MAX + 1), None),
        ("0", None),
        ("-1", None),
        ("+1", None),
        (" 1", None),
        ("١", None),  # an Arabic-Indic digit: isdigit() but not an id
        ("9" * 5000, None),
        (True, None),
        (7, 7),
        (2**40, None),
        (None, None),
    ],
)
def test_parse_id(raw, expected):
    assert parse_id(raw) == expected


@pytest.mark.parametrize("number", [str(ID_MAX + 1), "9" * 400, "0"])
def test_cli_export_refuses_ids_past_the_bound_in_words(db_app, number):
    result = db_app.test_cli_runner().invoke(args=["export", "--night", number])
    assert result.exit_code == 2
    assert "is not in the range" in result.output
