"""A form sent with an expired or missing CSRF token comes back as typed, with a sentence in
the player's words, and nothing saved; one more tap sends it (issue 8, item 9)."""

from __future__ import annotations

import re
import time

import itsdangerous.timed
import pytest
from flask import g
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Game, GameNight, HandPost, Round
from companion.web.stale_forms import STALE_HEADER, ReplayWouldSave
from tests.web.playkit import make_game, round_post, seat_ids
from tests.web.setup_helpers import game_data

STALE = "This page was open too long, so nothing was saved yet."
#: WTF_CSRF_TIME_LIMIT below, in seconds
LIMIT = 3600


@pytest.fixture()
def csrf_settings():
    return {"WTF_CSRF_TIME_LIMIT": LIMIT}


@pytest.fixture()
def app(csrf_app):
    """Every test here posts with CSRF on, its tokens valid for ``LIMIT`` seconds."""
    return csrf_app


def _token(page: str) -> str:
    # The test requests share the fixture's app context, so Flask-WTF's per-request token
    # cache (g.csrf_token) would outlive the request that made it, as it never does in use.
    g.pop("csrf_token", None)
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)


def _old_token(client, path: str, monkeypatch) -> str:
    """The token of the form at ``path`` as it was when the page was opened two hours ago."""
    with monkeypatch.context() as m:
        m.setattr(
            itsdangerous.timed.TimestampSigner,
            "get_timestamp",
            lambda self: int(time.time()) - 2 * LIMIT,
        )
        return _token(client.get(path).text)


def _rounds() -> int:
    return db.session.scalar(select(func.count(Round.id)))


def test_an_expired_round_form_comes_back_as_typed(app, monkeypatch):
    client = app.test_client()
    game = make_game()
    page = f"/g/{game.edit_token}"
    token = _old_token(client, page, monkeypatch)
    data = round_post(game, 6, totals={"Ann": 12, "Bob": 7}, out="Cy", csrf_token=token)
    answer = client.post(f"{page}/round", data=data)
    assert answer.status_code in (400, 422)
    # said in a header too: the phone's outbox never takes it for a save (static/js/offline.js)
    assert answer.headers[STALE_HEADER] == "1"
    assert STALE in answer.text
    assert "token" not in answer.text.lower().replace("csrf_token", "")
    assert _rounds() == 0
    ids = {s.player.name: s.id for s in game.seats}
    assert re.search(rf'name="total_{ids["Ann"]}"[^>]*value="12"', answer.text)
    assert re.search(rf'name="total_{ids["Bob"]}"[^>]*value="7"', answer.text)
    assert re.search(rf'<input[^>]* checked [^>]*name="out_{ids["Cy"]}"', answer.text)
    # the form shown again carries a fresh token: one more tap saves
    again = client.post(f"{page}/round", data={**data, "csrf_token": _token(answer.text)})
    assert again.status_code == 303 and _rounds() == 1
    assert STALE_HEADER not in again.headers


def test_an_expired_round_form_sent_by_htmx_comes_back_in_the_fragment(app, monkeypatch):
    client = app.test_client()
    game = make_game()
    token = _old_token(client, f"/g/{game.edit_token}", monkeypatch)
    data = round_post(game, 6, totals={"Ann": 12, "Bob": 7}, out="Cy", csrf_token=token)
    answer = client.post(f"/g/{game.edit_token}/round", data=data, headers={"HX-Request": "true"})
    assert answer.status_code == 422  # the real status: htmx is configured to swap it
    assert answer.headers[STALE_HEADER] == "1"
    assert answer.text.lstrip().startswith('<div id="round-area"')
    assert STALE in answer.text and 'value="12"' in answer.text
    assert _rounds() == 0


def test_a_round_form_without_its_session_comes_back_as_typed(app):
    """The phone's browser lost its session cookie (closed, cleared): the token is missing
    from the session, and the phone is a new device: nothing saved, what it typed shown."""
    client = app.test_client()
    game = make_game()
    token = _token(client.get(f"/g/{game.edit_token}").text)
    client.delete_cookie("session")
    data = round_post(game, 6, totals={"Ann": 12, "Bob": 7}, out="Cy", csrf_token=token)
    answer = client.post(f"/g/{game.edit_token}/round", data=data)
    # Without its session the phone is no longer known as the scorekeeper (that right lives
    # server-side, keyed by the session's device id): it is told so, with what it typed.
    assert answer.status_code == 403 and "Another phone keeps score" in answer.text
    assert answer.headers[STALE_HEADER] == "1"
    assert "12" in answer.text and "Make this phone the scorekeeper" in answer.text
    assert _rounds() == 0


def test_an_expired_new_game_form_comes_back_as_typed(app, monkeypatch):
    client = app.test_client()
    night = GameNight(played_on=__import__("datetime").date(2026, 11, 28))
    db.session.add(night)
    db.session.commit()
    path = f"/nights/{night.id}/games/new"
    token = _old_token(client, path, monkeypatch)
    data = {**game_data(("Ann", "Bob", "Zoë the Brave")), "csrf_token": token}
    answer = client.post(path, data=data)
    assert answer.status_code in (400, 422)
    assert STALE in answer.text
    assert 'value="Zoë the Brave"' in answer.text
    assert db.session.scalar(select(func.count(Game.id))) == 0
    again = client.post(path, data={**data, "csrf_token": _token(answer.text)})
    assert again.status_code == 303 and again.headers["Location"].startswith("/g/")


def test_an_expired_notes_form_comes_back_as_typed(app, monkeypatch):
    client = app.test_client()
    night = GameNight(played_on=__import__("datetime").date(2026, 11, 28))
    db.session.add(night)
    db.session.commit()
    path = f"/nights/{night.id}"
    token = _old_token(client, path, monkeypatch)
    answer = client.post(
        path, data={"place": "Kitchen", "notes": "Bring the double-12 set", "csrf_token": token}
    )
    assert answer.status_code in (400, 422) and STALE in answer.text
    assert "Bring the double-12 set" in answer.text and 'value="Kitchen"' in answer.text
    db.session.refresh(night)
    assert not night.notes


def test_a_replay_can_never_save(app, monkeypatch):
    """A view that would save without validating its form is stopped at the commit: the
    plain "nothing was saved" page, and the notice is not left for the next page."""
    from companion.web.stale_forms import _refuse_commit_in_replay

    @app.post("/test-writes-without-checking")
    def _careless():
        db.session.add(GameNight(played_on=__import__("datetime").date(2026, 1, 1)))
        db.session.commit()
        return "saved"

    client = app.test_client()
    answer = client.post("/test-writes-without-checking", data={"csrf_token": "old"})
    assert answer.status_code in (400, 422) and answer.headers[STALE_HEADER] == "1"
    assert "Nothing was saved" in answer.text and STALE not in answer.text
    assert db.session.scalar(select(func.count(GameNight.id))) == 0
    assert STALE not in client.get("/").text
    assert issubclass(ReplayWouldSave, RuntimeError) and callable(_refuse_commit_in_replay)


def test_a_stale_form_for_an_unknown_game_is_the_usual_404(app):
    answer = app.test_client().post("/g/no-such-game/round", data={"csrf_token": "old"})
    assert answer.status_code == 404
    assert "There is no game at this link" in answer.text


def test_a_stale_one_button_form_says_nothing_was_saved(app):
    """Undo has nothing typed to keep: the plain page, and no stray notice afterwards."""
    client = app.test_client()
    game = make_game()
    answer = client.post(f"/g/{game.edit_token}/undo", data={"version": "1", "csrf_token": "x"})
    assert answer.status_code == 400
    assert "Nothing was saved" in answer.text
    page = client.get(f"/g/{game.edit_token}").text
    assert STALE not in page and "That did not work" not in page


def _joined_phone(app, game: Game, name: str):
    """A phone joined to ``name``'s seat of ``game`` (its own session and token)."""
    phone = app.test_client()
    join = f"/j/{game.join_token}"
    token = _token(phone.get(join).text)
    answer = phone.post(join, data={"seat": seat_ids(game)[name], "csrf_token": token})
    assert answer.status_code == 303
    # the join's valid token, kept in the shared app context's g (see _token), would let every
    # later form skip its own token check, as it never does in use
    g.pop("csrf_valid", None)
    return phone


def test_a_hand_posted_with_a_stale_token_comes_back_as_typed_never_as_a_save(app):
    """A player's hand sent with a token gone stale (its outbox kept it while the session lost
    its CSRF secret): refused as a stale form, never a 2xx or a redirect, said in a header, the
    hand as typed with a fresh token; sent with that token, it is posted."""
    game = make_game()
    ann = _joined_phone(app, game, "Ann")
    page = f"/p/{game.share_token}"
    data = {"total": "12", "double": "6", "csrf_token": _token(ann.get(page).text)}
    with ann.session_transaction() as session:  # the session's secret gone: the token stale
        session.pop("csrf_token")
    answer = ann.post(page, data=data, headers={"Idempotency-Key": "a" * 32})
    assert answer.status_code == 400 and answer.headers[STALE_HEADER] == "1"
    assert STALE in answer.text and re.search(r'name="total"[^>]*value="12"', answer.text)
    assert db.session.scalar(select(func.count(HandPost.id))) == 0
    again = ann.post(page, data={**data, "csrf_token": _token(answer.text)})
    assert again.status_code == 303 and STALE_HEADER not in again.headers
    assert db.session.scalar(select(HandPost.total)) == 12


def test_a_hand_from_a_phone_that_lost_its_session_is_refused_as_stale(app):
    """The browser lost its session cookie: a new device, no seat. Its kept hand is refused as
    a stale form (400, the header), not the join page's redirect an outbox took for a save."""
    game = make_game()
    ann = _joined_phone(app, game, "Ann")
    page = f"/p/{game.share_token}"
    data = {"total": "12", "double": "6", "csrf_token": _token(ann.get(page).text)}
    ann.delete_cookie("session")
    answer = ann.post(page, data=data)
    assert answer.status_code == 400 and answer.headers[STALE_HEADER] == "1"
    assert "This form could not be accepted" in answer.text
    assert db.session.scalar(select(func.count(HandPost.id))) == 0
