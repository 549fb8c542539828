"""Fixes from the new-user test of the score keeper (F1): what a phone shows after a failed or
successful save, the Back button, rematch, deleted games, the game heading, the new-game form,
undo and conflict wording."""

from __future__ import annotations

import re
from datetime import timedelta

from companion.extensions import db
from companion.models import Game, Seat, utcnow

from .playkit import add_scored_rounds, make_game, round_post, text
from .setup_helpers import game_data, start_night


def page_html(client, game) -> str:
    return client.get(f"/g/{game.edit_token}").get_data(as_text=True)


def form_tag(body: str) -> str:
    match = re.search(r"<form[^>]*class=\"round-form\"[^>]*>", body)
    assert match, "no round form"
    return match.group(0)


def test_every_page_loads_the_error_reporting_script(client):
    body = client.get("/").get_data(as_text=True)
    assert re.search(r'<script src="/static/js/app\.js" defer>', body)
    assert client.get("/static/js/app.js").status_code == 200


def test_round_form_has_a_live_region_and_a_saving_state(client):
    game = make_game()
    body = page_html(client, game)
    tag = form_tag(body)
    assert "hx-disabled-elt=\"find .actions button[type='submit']\"" in tag
    assert 'hx-indicator="find .saving"' in tag
    assert re.search(r'class="save-status" aria-live="polite" data-failed="Not saved', body)
    assert "Saving…" in body


def test_round_form_never_restores_an_old_went_out_tick(client):
    game = make_game()
    body = page_html(client, game)
    assert 'autocomplete="off"' in form_tag(body)
    outs = re.findall(r'<input[^>]*name="out_\d+"[^>]*>', body)
    assert len(outs) == 3
    assert all('autocomplete="off"' in tag for tag in outs)
    assert 'autocomplete="off"' in re.search(r'<input[^>]*name="blocked"[^>]*>', body).group(0)


def test_saved_notice_is_scrolled_into_view(client):
    game = make_game()
    assert 'hx-swap="outerHTML show:#game:top"' in form_tag(page_html(client, game))


def games_in_night(night_id: int) -> list[Game]:
    db.session.expire_all()
    return list(db.session.scalars(db.select(Game).where(Game.night_id == night_id)))


def test_rematch_tapped_twice_makes_one_new_game(client):
    game = make_game()
    data = {"version": str(game.version)}
    first = client.post(f"/g/{game.edit_token}/rematch", data=data)
    second = client.post(f"/g/{game.edit_token}/rematch", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(games_in_night(game.night_id)) == 2
    assert "The rematch has already started" in text(client.get(second.headers["Location"]))


def test_rematch_after_the_rematch_was_deleted_makes_a_fresh_one(client):
    game = make_game()
    data = {"version": str(game.version)}
    first = client.post(f"/g/{game.edit_token}/rematch", data=data).headers["Location"]
    old = db.session.scalar(db.select(Game).where(Game.edit_token == first.rsplit("/", 1)[1]))
    old.deleted_at = utcnow()
    db.session.commit()
    again = client.post(f"/g/{game.edit_token}/rematch", data=data).headers["Location"]
    assert again != first
    assert len(games_in_night(game.night_id)) == 3


def test_rematch_of_the_rematch_is_a_new_game(client):
    game = make_game()
    first = client.post(f"/g/{game.edit_token}/rematch", data={"version": str(game.version)})
    token = first.headers["Location"].rsplit("/", 1)[1]
    new = db.session.scalar(db.select(Game).where(Game.edit_token == token))
    second = client.post(f"/g/{token}/rematch", data={"version": str(new.version)})
    assert second.headers["Location"] not in (first.headers["Location"], f"/g/{game.edit_token}")
    assert len(games_in_night(game.night_id)) == 3


FLASK_DEFAULT_404 = "If you entered the URL manually"


def delete(client, game) -> None:
    r = client.post(f"/g/{game.edit_token}/delete", data={"version": str(game.version)})
    assert r.status_code == 303


def test_deleted_game_edit_link_leads_to_undo_delete(client):
    game = make_game()
    delete(client, game)
    for path in ("", "/audit", "/round/1", "/delete"):
        r = client.get(f"/g/{game.edit_token}{path}")
        assert r.status_code == 303, path
        assert r.headers["Location"] == f"/g/{game.edit_token}/deleted"
    page = client.get(f"/g/{game.edit_token}", follow_redirects=True)
    assert page.status_code == 200
    assert "Undo delete" in text(page)


def test_deleted_game_htmx_post_navigates_to_undo_delete(client):
    game = make_game()
    delete(client, game)
    r = client.post(f"/g/{game.edit_token}/round", data={}, headers={"HX-Request": "true"})
    assert r.status_code == 204
    assert r.headers["HX-Redirect"] == f"/g/{game.edit_token}/deleted"


def test_game_deleted_long_ago_says_so(client):
    game = make_game()
    game.deleted_at = utcnow() - timedelta(days=2)
    db.session.commit()
    for url in (f"/g/{game.edit_token}", f"/s/{game.share_token}", f"/g/{game.edit_token}/deleted"):
        r = client.get(url)
        assert r.status_code == 404, url
        assert FLASK_DEFAULT_404 not in text(r)
    assert "This game was deleted." in text(client.get(f"/g/{game.edit_token}"))


def test_unknown_game_link_is_a_friendly_404(client):
    for url in ("/g/nosuchtoken", "/s/nosuchtoken", "/g/" + "x" * 60):
        r = client.get(url)
        assert r.status_code == 404
        words = text(r)
        assert FLASK_DEFAULT_404 not in words
        assert "There is no game at this link." in words


def test_game_page_heading_names_the_game_and_links_to_its_night(client):
    first = make_game()
    first.night.place = "Ana's kitchen"
    second = Game(night_id=first.night_id, set_size=6, rules=dict(first.rules))
    for seat in first.seats:
        second.seats.append(Seat(player_id=seat.player_id, position=seat.position))
    db.session.add(second)
    db.session.commit()
    body = page_html(client, second)
    heading = re.search(r'<h1 class="game-title">(.*?)</h1>', body, re.S)
    assert heading, "no visible game heading"
    assert f'href="/nights/{first.night_id}"' in heading.group(1)
    words = " ".join(re.sub(r"<[^>]+>", " ", heading.group(1)).split())
    assert words == "Game 2 · Sunday 29 November · Ana&#39;s kitchen"
    assert "Game 1 ·" in page_html(client, first)


def test_last_round_saved_with_htmx_shows_game_over_without_reload(client):
    game = make_game()
    points = [{"Ann": 0, "Bob": 5, "Cy": 7}] * 6
    add_scored_rounds(game, points)
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 0, totals={"Bob": 3, "Cy": 4}, out="Ann"),
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="game"')
    words = text(r)
    assert "Game over" in words and "Ann wins!" in words and "Rematch" in words
    assert 'class="round-form"' not in body


def new_game_page(client, data):
    night = start_night(client)
    return client.post(f"/nights/{night}/games/new", data=data).get_data(as_text=True)


def details_tag(body: str) -> str:
    return re.search(r'<details class="house-rules"[^>]*>', body).group(0)


def test_house_rules_open_when_a_switch_is_refused(client):
    data = game_data()
    data["rules-draw_when_stuck"] = "<script>"
    body = new_game_page(client, data)
    assert "Choose one of the listed options." in body
    assert " open" in details_tag(body)


def test_house_rules_stay_closed_without_a_problem_there(client):
    night = start_night(client)
    body = client.get(f"/nights/{night}/games/new").get_data(as_text=True)
    assert " open" not in details_tag(body)
    assert " open" not in details_tag(new_game_page(client, game_data(("Ann", "Ann", "Bob"))))


def test_duplicate_names_do_not_get_a_green_deal(client):
    body = new_game_page(client, game_data(("Ann", "Bob", "Ann")))
    assert "is in this game twice" in body
    assert "This deal works." not in body
    assert "The deal fits once the problems above are fixed." in body


def test_undo_asks_first_with_javascript(client):
    game = make_game()
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 4, "Cy": 2}, out="Ann"),
    )
    body = page_html(client, game)
    form = re.search(r'<form[^>]*action="/g/[^"]+/undo"[^>]*>', body).group(0)
    assert 'data-confirm="Undo this change? Round 1 (6-6) saved: Ann 0 (went out)' in form


def test_undo_without_javascript_says_what_was_undone_and_links_the_audit_trail(client):
    game = make_game(names=("Ann", "<b>Bob</b>", "Cy"))
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"<b>Bob</b>": 4, "Cy": 2}, out="Ann"),
    )
    db.session.expire_all()
    game = db.session.get(Game, game.id)
    r = client.post(
        f"/g/{game.edit_token}/undo", data={"version": str(game.version)}, follow_redirects=True
    )
    body = r.get_data(as_text=True)
    assert "Undone: Round 1 (6-6) saved: Ann 0 (went out), &lt;b&gt;Bob&lt;/b&gt; 4" in body
    assert f'<a href="/g/{game.edit_token}/audit">See it in the audit trail</a>' in body
    assert "<b>Bob</b> 4" not in body


OUT_OF_DATE = (
    "This form is out of date: the game changed on another phone. Here is what is saved now."
)


def test_stale_form_for_a_round_nobody_saved_says_out_of_date(client):
    game = make_game()
    stale = game.version
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann"),
    )
    # another phone, still showing the old page, sends 5-5 with the old version
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 5, totals={"Bob": 1, "Cy": 1}, out="Ann", version=stale),
    )
    assert r.status_code == 409
    words = text(r)
    assert OUT_OF_DATE in words
    assert "already saved on another phone" not in words
    assert "Saved: the round with 6-6" in words and "Bob: 12" in words


def test_stale_form_after_an_undo_says_out_of_date(client):
    game = make_game()
    stale = game.version
    client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann"),
    )
    db.session.expire_all()
    client.post(f"/g/{game.edit_token}/undo", data={"version": str(game.version)})
    r = client.post(
        f"/g/{game.edit_token}/round",
        data=round_post(game, 6, totals={"Bob": 2, "Cy": 3}, out="Ann", version=stale),
        headers={"HX-Request": "true"},
    )
    words = text(r)
    assert OUT_OF_DATE in words and "already saved" not in words
    assert "Saved: the round with" not in words  # nothing is saved: no card


def test_same_round_saved_twice_still_says_already_saved(client):
    game = make_game()
    data = round_post(game, 6, totals={"Bob": 12, "Cy": 5}, out="Ann")
    client.post(f"/g/{game.edit_token}/round", data=data)
    words = text(client.post(f"/g/{game.edit_token}/round", data=data))
    assert "This round was already saved on another phone" in words
    assert OUT_OF_DATE not in words
