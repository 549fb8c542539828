"""A typed name that matches a player seen before (case-insensitively): the same player, and
never another spelling shown unsaid (docs/ARCHITECTURE.md, "Players and their names")."""

from __future__ import annotations

from flask_babel import refresh
from sqlalchemy import select

from companion.extensions import db
from companion.models import AuditEntry, Game, Player
from tests.web.setup_helpers import (
    delete_by_link,
    game_by_link,
    game_data,
    restore_by_link,
    start_game,
    start_night,
)


def _names(token: str) -> list[str]:
    return [seat.player.name for seat in game_by_link(token).seats]


def test_a_name_whose_every_game_is_deleted_takes_the_spelling_typed_now(client):
    night = start_night(client)
    first = start_game(client, night, names=("evE", "Bob"))
    eve = db.session.scalars(select(Player).where(Player.name == "evE")).one().id
    delete_by_link(client, first)
    response = client.post(
        f"/nights/{night}/games/new",
        data=game_data(["Eve", "Cleo"]),
    )
    assert response.status_code == 303
    token = response.headers["Location"].split("/")[2]
    assert _names(token) == ["Eve", "Cleo"]
    # the same player (a restored game keeps them together), now spelled as typed
    assert game_by_link(token).seats[0].player_id == eve
    page = client.get(f"/g/{token}").text
    assert "evE" not in page
    audit = db.session.scalars(
        select(AuditEntry).where(AuditEntry.game_id == game_by_link(token).id)
    )
    assert next(iter(audit)).after["players"] == ["Eve", "Cleo"]
    restore_by_link(client, first)
    assert _names(first) == ["Eve", "Bob"]


def test_a_player_in_the_history_keeps_the_name_and_the_game_page_says_so(client):
    night = start_night(client)
    start_game(client, night, names=("evE", "Bob"))  # still in play: in the history
    response = client.post(
        f"/nights/{night}/games/new",
        data=game_data(["Eve", "Cleo"]),
        follow_redirects=True,
    )
    assert response.status_code == 200
    game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
    assert [seat.player.name for seat in game.seats] == ["evE", "Cleo"]
    assert (
        "“Eve” is evE from History: the name stays as it is there, so their games stay "
        "together. To change the spelling, rename them in History."
    ) in response.text
    assert response.text.count("from History") == 1  # Cleo is new: nothing to say


def test_the_notice_is_in_the_players_language(client):
    night = start_night(client)
    start_game(client, night, names=("evE", "Bob"))
    refresh()  # the test's requests share one app context, where Flask-Babel keeps the locale
    response = client.post(
        f"/nights/{night}/games/new",
        data=game_data(["Eve", "Cleo"]),
        headers={"Accept-Language": "de"},
        follow_redirects=True,
    )
    assert "„Eve“ ist evE aus dem Verlauf" in response.text


def test_a_name_typed_as_stored_gets_no_notice(client):
    night = start_night(client)
    start_game(client, night, names=("Ann", "Bob"))
    response = client.post(
        f"/nights/{night}/games/new", data=game_data(["Ann", "Bob"]), follow_redirects=True
    )
    assert "from History" not in response.text


def test_an_old_name_merged_into_another_player_says_who_plays(client):
    night = start_night(client)
    start_game(client, night, names=("Ann", "Bob"))
    start_game(client, night, names=("Annie", "Cy"))
    annie = db.session.scalars(select(Player).where(Player.name == "Annie")).one()
    ann = db.session.scalars(select(Player).where(Player.name == "Ann")).one()
    merged = client.post(f"/history/players/{annie.id}/merge", data={"into": str(ann.id)})
    assert merged.status_code == 303
    response = client.post(
        f"/nights/{night}/games/new", data=game_data(["annie", "Dee"]), follow_redirects=True
    )
    game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
    assert [seat.player.name for seat in game.seats] == ["Ann", "Dee"]
    assert "“annie” is Ann from History" in response.text
