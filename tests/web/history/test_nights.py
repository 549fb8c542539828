"""Home page and game nights: create, view, edit notes, validation, 404s."""

from __future__ import annotations

import re
from datetime import date, timedelta

from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Game, GameNight, utcnow
from tests.web.setup_helpers import start_game, start_night


def _nights() -> int:
    return db.session.scalar(select(func.count(GameNight.id)))


def test_home_offers_to_start_a_night(client):
    page = client.get("/")
    assert page.status_code == 200
    assert 'href="/nights/new"' in page.text
    assert "Start a game night" in page.text
    assert "Games you keep score for" not in page.text  # nothing remembered yet


def test_new_night_form_defaults_to_today(client):
    page = client.get("/nights/new")
    assert page.status_code == 200
    assert f'value="{date.today().isoformat()}"' in page.text


def test_new_night_form_carries_the_csrf_token(csrf_client):
    page = csrf_client.get("/nights/new")
    assert page.status_code == 200
    assert re.search(r'name="csrf_token" type="hidden" value="[^"]{20,}"', page.text)
    refused = csrf_client.post("/nights/new", data={"played_on": "2026-11-28"})
    assert refused.status_code == 400 and db.session.scalars(select(GameNight)).first() is None


def test_create_night_and_show_it(client):
    response = client.post(
        "/nights/new",
        data={"played_on": "2026-11-28", "place": "  Kitchen table ", "notes": "Bring snacks"},
    )
    assert response.status_code == 303
    night = db.session.scalars(select(GameNight)).one()
    assert response.headers["Location"] == f"/nights/{night.id}"
    assert (night.played_on, night.place, night.notes) == (
        date(2026, 11, 28),
        "Kitchen table",
        "Bring snacks",
    )
    page = client.get(f"/nights/{night.id}")
    assert page.status_code == 200
    assert "Saturday, November 28, 2026" in page.text  # format_date, English locale
    assert "Kitchen table" in page.text
    assert f'href="/nights/{night.id}/games/new"' in page.text
    assert "No games yet tonight." in page.text


def test_night_needs_a_date(client):
    page = client.post("/nights/new", data={"played_on": ""})
    assert page.status_code == 200
    assert "Choose the date of the game night." in page.text
    assert _nights() == 0


def test_night_refuses_a_bad_date(client):
    page = client.post("/nights/new", data={"played_on": "2026-13-45"})
    assert page.status_code == 200
    assert "Not a valid date value." in page.text
    assert _nights() == 0


def test_night_refuses_oversized_place_and_notes(client):
    page = client.post(
        "/nights/new",
        data={"played_on": "2026-11-28", "place": "p" * 121, "notes": "n" * 2001},
    )
    assert page.status_code == 200
    assert "The place has at most 120 characters." in page.text
    assert "Notes have at most 2000 characters." in page.text
    assert _nights() == 0


def test_hostile_place_is_escaped(client):
    night_id = start_night(client)
    client.post(f"/nights/{night_id}", data={"place": "<script>alert(1)</script>", "notes": ""})
    page = client.get(f"/nights/{night_id}")
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_edit_notes(client):
    night_id = start_night(client)
    response = client.post(
        f"/nights/{night_id}", data={"place": "Garden", "notes": "Ann won twice"}
    )
    assert response.status_code == 303
    page = client.get(f"/nights/{night_id}")
    assert "Notes saved." in page.text
    assert "Ann won twice" in page.text
    night = db.session.get(GameNight, night_id)
    assert (night.place, night.notes) == ("Garden", "Ann won twice")


def test_edit_notes_refuses_oversized_notes(client):
    night_id = start_night(client)
    page = client.post(f"/nights/{night_id}", data={"place": "", "notes": "x" * 2001})
    assert page.status_code == 200
    assert "Notes have at most 2000 characters." in page.text
    assert db.session.get(GameNight, night_id).notes == ""


def test_unknown_non_numeric_and_deleted_nights_are_404(client):
    assert client.get("/nights/999").status_code == 404
    assert client.get("/nights/abc").status_code == 404
    assert client.get("/nights/-1").status_code == 404
    assert client.get("/nights/99999999999999999999999").status_code == 404
    night_id = start_night(client)
    db.session.get(GameNight, night_id).deleted_at = utcnow()
    db.session.commit()
    assert client.get(f"/nights/{night_id}").status_code == 404
    assert client.get(f"/nights/{night_id}/games/new").status_code == 404


def test_home_lists_active_nights_only(client):
    today = start_night(client, date.today().isoformat())
    old = start_night(client, (date.today() - timedelta(days=30)).isoformat())
    page = client.get("/")
    assert f'href="/nights/{today}"' in page.text
    assert f'href="/nights/{old}"' not in page.text
    # an old night with a game still in play stays on the home page
    start_game(client, old)
    assert f'href="/nights/{old}"' in client.get("/").text


def test_home_lists_the_games_this_browser_keeps_score_for(app, client):
    night_id = start_night(client)
    token = start_game(client, night_id, names=("Zoë", "Yusuf"))
    page = client.get("/")
    assert "Games you keep score for" in page.text
    assert f'href="/g/{token}"' in page.text
    assert "Zoë, Yusuf" in page.text
    other = app.test_client()
    assert f"/g/{token}" not in other.get("/").text
    # a deleted game disappears from the list
    game = db.session.scalars(select(Game)).one()
    game.deleted_at = utcnow()
    db.session.commit()
    assert f"/g/{token}" not in client.get("/").text


def test_night_page_links_edit_only_for_the_scorekeeper(app, client):
    night_id = start_night(client)
    token = start_game(client, night_id)
    game = db.session.scalars(select(Game)).one()
    mine = client.get(f"/nights/{night_id}").text
    assert f'href="/g/{token}"' in mine
    assert f'href="/g/{token}/share"' in mine
    assert f"/s/{game.share_token}" in mine
    theirs = app.test_client().get(f"/nights/{night_id}").text
    assert token not in theirs
    assert f"/s/{game.share_token}" in theirs
    assert "Ann, Bob, Cleo, Dev" in theirs


def _actions(page: str, players: str) -> list[tuple[str, str]]:
    """(class, text) of the buttons on the night page's card of the game of ``players``."""
    card = re.search(
        rf'<li class="card game-item">\s*<p class="game-players">Game \d+ · {players}</p>'
        r"(.*?)</li>",
        page,
        re.S,
    ).group(1)
    return re.findall(r'<a class="(button[^"]*)" href="[^"]*">([^<]*)</a>', card)


def test_a_finished_game_shows_its_winner_and_see_the_game_first(app, client):
    from tests.web.playkit import add_scored_rounds

    night_id = start_night(client)
    token = start_game(client, night_id, names=("Ann", "Bob"), set_size=6)
    game = db.session.scalars(select(Game).where(Game.edit_token == token)).one()
    add_scored_rounds(game, [{"Ann": 0, "Bob": 9}] * 7)  # double-6: seven rounds, then over
    start_game(client, night_id, names=("Cy", "Di"))
    page = client.get(f"/nights/{night_id}").text
    assert "Ann wins!" in page
    assert _actions(page, "Ann, Bob") == [("button", "See the game"), ("button secondary", "Share")]
    assert 'href="/g/' + token + '">See the game' in page
    # still in play: keep score stays the main button, and nobody has won yet
    assert _actions(page, "Cy, Di")[0] == ("button", "Keep score")
    assert page.count("wins!") == 1
    # another phone sees the finished game through its read-only scoreboard
    theirs = app.test_client().get(f"/nights/{night_id}").text
    assert _actions(theirs, "Ann, Bob") == [("button", "See the game")]
    assert f'href="/s/{game.share_token}">See the game' in theirs
