"""Players whose every game is deleted are out of the history (docs/ARCHITECTURE.md,
"Players and their names"): not in History → Players, its filter, the leaderboard or the
new-game page's people seen before, their page a 404; back when a game is restored. A player
of a game in play stays listed; the JSON backup keeps every player (lossless)."""

from __future__ import annotations

import html
import re

from sqlalchemy import select

from companion.extensions import db
from companion.models import HandScore, Player, Round, Seat
from companion.vocab import GameStatus
from tests.web.setup_helpers import (
    delete_by_link,
    game_by_link,
    game_data,
    restore_by_link,
    start_game,
    start_night,
)


def _text(response) -> str:
    body = response.get_data(as_text=True)
    main = body[body.find("<main") :]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main)).split())


def _player(name: str) -> int:
    return db.session.scalars(select(Player.id).where(Player.name == name)).one()


def _finish(token: str) -> None:
    """One scored round, then the game marked finished (the results hook stores it)."""
    game = game_by_link(token)
    with db.session.no_autoflush:
        hands = [
            HandScore(seat=s, points=5 * s.position, went_out=not s.position) for s in game.seats
        ]
        game.rounds.append(
            Round(number=1, start_double=game.set_size, status="scored", outcome="out", hands=hands)
        )
    game.status = GameStatus.FINISHED
    db.session.commit()


def test_players_of_a_deleted_game_leave_the_history_and_come_back(client):
    night = start_night(client)
    start_game(client, night, names=("Ann", "Bob"))  # still in play: listed, 0 games
    gone = start_game(client, night, names=("AAAA", "evE", "Ann"))
    aaaa, eve = _player("AAAA"), _player("evE")
    players = _text(client.get("/history/players"))
    assert "AAAA 0 finished games" in players and "evE 0 finished games" in players
    delete_by_link(client, gone)
    players = _text(client.get("/history/players"))
    assert "AAAA" not in players and "evE" not in players
    assert "Ann 0 finished games" in players and "Bob 0 finished games" in players
    # nowhere else either: the nights filter, the new-game page, their own page
    assert f'value="{eve}"' not in client.get("/history/").text
    new_game = client.get(f"/nights/{night}/games/new").text
    assert ">evE</span>" not in new_game and ">Ann</span>" in new_game
    page = client.get(f"/history/players/{eve}")
    assert page.status_code == 404
    assert "evE has no game in the history: every game they played was deleted." in _text(page)
    assert client.get(f"/history/players/{eve}/merge").status_code == 404
    assert client.post(f"/history/players/{eve}/rename", data={"name": "X"}).status_code == 404
    assert client.get(f"/history/seasons/2026/players/{eve}").status_code == 404
    restore_by_link(client, gone)
    players = _text(client.get("/history/players"))
    assert "AAAA 0 finished games" in players and "evE 0 finished games" in players
    assert client.get(f"/history/players/{aaaa}").status_code == 200


def test_a_deleted_night_takes_its_players_out_and_the_leaderboard_too(client):
    night = start_night(client)
    token = start_game(client, night, names=("Ann", "Bob"))
    _finish(token)
    assert "Ann 1 finished game" in _text(client.get("/history/players"))
    assert " Ann " in _text(client.get("/history/leaderboard"))
    assert client.post(f"/history/nights/{night}/delete").status_code == 303
    assert "Ann" not in _text(client.get("/history/players"))
    assert "Ann" not in _text(client.get("/history/leaderboard"))
    assert client.get(f"/history/players/{_player('Ann')}").status_code == 404
    assert client.post(f"/history/nights/{night}/restore").status_code == 303
    assert "Ann 1 finished game" in _text(client.get("/history/players"))


def test_the_json_backup_keeps_a_player_out_of_the_history(client):
    night = start_night(client)
    start_game(client, night, names=("Ann", "Bob"))
    gone = start_game(client, night, names=("evE", "Bob"))
    delete_by_link(client, gone)
    backup = client.get("/history/export.json").get_json()
    assert "evE" in [p["name"] for p in backup["players"]]


def test_a_name_held_by_a_player_out_of_the_history_is_free_to_rename_to(client):
    night = start_night(client)
    start_game(client, night, names=("Evee", "Bob"))
    gone = start_game(client, night, names=("evE", "Cy"))
    delete_by_link(client, gone)
    evee, eve = _player("Evee"), _player("evE")
    response = client.post(f"/history/players/{evee}/rename", data={"name": "Eve"})
    assert response.status_code == 303
    assert "Evee is now called Eve." in _text(client.get(response.headers["Location"]))
    assert db.session.get(Player, eve).merged_into_id == evee  # one person, as typing "Eve" says
    restore_by_link(client, gone)
    seats = db.session.scalars(select(Seat).where(Seat.game_id == game_by_link(gone).id)).all()
    assert [s.player.name for s in seats] == ["Eve", "Cy"]


def test_a_typed_name_of_a_player_out_of_the_history_gets_no_notice(client):
    night = start_night(client)
    delete_by_link(client, start_game(client, night, names=("evE", "Bob")))
    response = client.post(
        f"/nights/{night}/games/new", data=game_data(["Eve", "Bob"]), follow_redirects=True
    )
    assert "from History" not in response.text and "evE" not in response.text
