"""``/hands/over`` (companion/table/views.py hands_over): which of the hand pages a phone names
(its kept hands' pages, static/js/waiting.js) are of a game that is over, with the words such a
hand says. Asked by any phone, whatever its session (one that lost it is known by no game);
anything it names that is not a live game's hand page is left out, never a 5xx."""

from __future__ import annotations

from companion.extensions import db
from companion.vocab import GameStatus
from tests.web.playkit import make_game

NOT_COUNTED = (
    "Not counted: the game ended before this hand was sent, so it can no longer be posted. "
    "If the saved score is wrong, tell the scorekeeper: they can correct the round."
)


def test_only_the_pages_of_games_over_are_answered_with_their_words(app, client):
    over, live = make_game(("Ann", "Bob")), make_game(("Cy", "Dee"))
    over.status = GameStatus.FINISHED
    db.session.commit()
    pages = [f"/p/{over.share_token}", f"/p/{live.share_token}"]
    stranger = app.test_client()  # no session: knows no game
    r = stranger.get("/hands/over", query_string={"page": pages})
    assert r.status_code == 200
    assert r.get_json() == {f"/p/{over.share_token}": NOT_COUNTED}


def test_a_deleted_game_and_what_is_no_hand_page_are_left_out(app, client):
    gone = make_game(("Ann", "Bob"))
    gone.status = GameStatus.FINISHED
    gone.deleted_at = gone.created_at
    db.session.commit()
    junk = [
        f"/p/{gone.share_token}",
        f"/g/{gone.edit_token}",
        "/p/",
        "",
        "/p/a?b",
        "/p/" + "x" * 500,
    ]
    for query in ({"page": junk}, {}, {"page": "%%%"}):
        r = client.get("/hands/over", query_string=query)
        assert r.status_code == 200 and r.get_json() == {}


def test_at_most_twenty_pages_are_looked_at(app, client):
    games = [make_game(("Ann", "Bob")) for _ in range(21)]
    for game in games:
        game.status = GameStatus.FINISHED
    db.session.commit()
    r = client.get("/hands/over", query_string={"page": [f"/p/{g.share_token}" for g in games]})
    assert len(r.get_json()) == 20
