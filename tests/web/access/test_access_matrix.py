"""The access model, route by route: every route declares the role it needs, the role x action
table (docs/TABLE.md, "## Access") says the same, and every route x every role behaves as
declared, with and without a passcode (issue 10, item 6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from companion import config, create_app
from companion.access import Role, declared_roles
from companion.extensions import db
from companion.models import Game, Ruling
from tests.web.playkit import make_game, seat_ids

TABLE = Path(__file__).resolve().parents[3] / "docs" / "TABLE.md"
COLUMNS = (Role.ANYONE, Role.VIEWER, Role.PLAYER, Role.SCOREKEEPER, Role.HOST)
MARK = "✓"
BOTH = "✓ + passcode"


def routes(app: Flask) -> list[tuple[str, str, str]]:
    """(method, rule, endpoint) of every route but static files, sorted."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule, rule.endpoint))
    return sorted(out, key=lambda r: (r[1], r[0]))


def cells(needed: tuple[Role, ...]) -> list[str]:
    """The access table row cells for a route needing ``needed``: which roles may use it."""
    wanted = set(needed)
    if wanted <= {Role.ANYONE}:
        return [MARK] * 5
    if wanted <= {Role.VIEWER}:
        return ["", MARK, MARK, MARK, MARK]
    if wanted == {Role.PLAYER}:
        return ["", "", MARK, "", ""]
    if wanted == {Role.SCOREKEEPER}:
        return ["", "", "", MARK, ""]
    if wanted == {Role.HOST}:
        return ["", "", "", "", MARK]
    if wanted == {Role.SCOREKEEPER, Role.HOST}:
        return ["", "", "", BOTH, ""]
    raise AssertionError(f"no access table words for {needed}")


def table_rows(app: Flask) -> list[str]:
    """The access table rows, from the declarations."""
    rows = []
    for method, rule, endpoint in routes(app):
        needed = declared_roles(app.view_functions[endpoint], method)
        assert needed is not None, f"{method} {rule} declares no role"
        rows.append("| " + " | ".join([f"`{method} {rule}`", *cells(needed)]) + " |")
    return rows


def test_every_route_declares_the_role_it_needs(app):
    missing = [
        f"{m} {r}" for m, r, e in routes(app) if declared_roles(app.view_functions[e], m) is None
    ]
    assert missing == []


def test_a_route_without_a_declaration_fails_the_check():
    application = create_app(config.TestConfig)
    application.add_url_rule("/undeclared", "undeclared", lambda: "x")
    assert declared_roles(application.view_functions["undeclared"]) is None


def test_the_access_table_is_the_declarations(app):
    text = TABLE.read_text(encoding="utf-8")
    block = text.split("<!-- access-table -->")[1]
    shown = [line.strip() for line in block.splitlines() if line.startswith("| `")]
    assert shown == table_rows(app)


# --- behaviour: every route x every role, with and without a passcode -------------------------


class Passcode(config.TestConfig):
    COMPANION_PASSCODE = "open sesame"


class Open(config.TestConfig):
    pass


def _refused(response, needed: tuple[Role, ...], *, hide: bool) -> bool:
    """True when the answer refuses the request for lack of a role: 403, the passcode page,
    the join page (for a player's page), or with ``hide`` a 404 (a deleted game's page is not
    shown to a phone that does not keep its score)."""
    if response.status_code == 403 or (hide and response.status_code == 404):
        return True
    if response.status_code in (204, 302, 303):
        where = response.headers.get("Location", "") or response.headers.get("HX-Redirect", "")
        return "/passcode" in where or (Role.PLAYER in needed and "/j/" in where)
    return False


def _clients(app: Flask, game: Game) -> dict[Role, object]:
    """A phone per role: the scorekeeper (opened the edit link first), a joined player, a host
    (entered the passcode, keeps no score), a viewer and anyone (fresh phones)."""
    keeper = app.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    player = app.test_client()
    player.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)["Bob"]})
    host = app.test_client()
    host.post("/passcode", data={"passcode": "open sesame"})
    return {
        Role.ANYONE: app.test_client(),
        Role.VIEWER: app.test_client(),
        Role.PLAYER: player,
        Role.SCOREKEEPER: keeper,
        Role.HOST: host,
    }


def _url(rule: str, game: Game, ruling: Ruling, *, links: bool) -> str:
    """``rule`` filled in for ``game``; without ``links`` the phone does not hold the game's
    links and guesses them."""
    values = {
        "token": game.edit_token if links else "guessed-edit-link",
        "share_token": game.share_token if links else "guessed-share-link",
        "join_token": game.join_token if links else "guessed-join-link",
        "night_id": game.night_id,
        "game_id": game.id,
        "player_id": game.seats[0].player_id,
        "ruling_id": ruling.id,
        "number": 1,
        "year": 2026,
        "seat_id": game.seats[0].id,
    }
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), rule)


@pytest.mark.parametrize("cfg", [Open, Passcode], ids=["no passcode", "passcode"])
def test_every_route_for_every_role_behaves_as_the_table_says(cfg):
    app = create_app(cfg)
    with app.app_context():
        db.create_all()
        try:
            _check_matrix(app, passcode=cfg is Passcode)
        finally:
            db.session.remove()
            db.drop_all()


# Routes whose effect would change the game the others are checked on run last.
LAST = ("delete", "restore", "handover", "free", "rematch")


def _check_matrix(app: Flask, *, passcode: bool) -> None:
    problems = []
    listed = sorted(routes(app), key=lambda r: any(w in r[1] for w in LAST))
    for role in COLUMNS:
        game = make_game(("Ann", "Bob", "Cy"))
        ruling = Ruling(category="placement", question={}, answer={}, rules={}, game_id=None)
        db.session.add(ruling)
        db.session.commit()
        phones = _clients(app, game)
        for method, rule, endpoint in listed:
            needed = declared_roles(app.view_functions[endpoint], method) or ()
            column = cells(needed)[COLUMNS.index(role)]
            allowed = bool(column) or (not passcode and set(needed) == {Role.HOST})
            if column == BOTH and passcode:
                allowed = False  # the scorekeeper's phone has not entered the passcode
            url = _url(rule, db.session.get(Game, game.id), ruling, links=role != Role.ANYONE)
            client = phones[role]
            response = client.open(url, method=method, data={} if method == "POST" else None)
            if _refused(response, needed, hide=not allowed) == allowed:
                problems.append(
                    f"{role} {method} {rule}: {response.status_code} "
                    f"({'refused' if not allowed else 'allowed'} expected)"
                )
        db.session.execute(select(Game.id))  # the session is still usable
    assert problems == [], "\n".join(problems)
