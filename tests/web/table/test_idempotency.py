"""An outbox entry is applied exactly once however many times it arrives (issue 14,
companion/services/idempotency.py): the same key replayed 10 times at once makes one change and
every request gets the first answer, on a SQLite file and on PostgreSQL (where it can start)."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, select

from companion import create_app
from companion.config import TestConfig
from companion.extensions import db
from companion.models import AuditEntry, Game, HandPost, IdempotencyKey, Round
from companion.services.idempotency import FIELD, HEADER, REPLAY_HEADER
from tests.web.playkit import make_game, round_post
from tests.web.table.test_table_races import at_once, joined, postgres_url  # noqa: F401 - fixture

ROUND = {"Bob": 12, "Cy": 3}


def same_phone(app, client, n: int) -> list[Any]:
    """``n`` test clients carrying ``client``'s session cookie: one phone, several connections."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    clones = []
    for _ in range(n):
        c = app.test_client()
        c.set_cookie("session", cookie.value, domain=cookie.domain)
        clones.append(c)
    return clones


def count(model: Any, *where: Any) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(model).where(*where)) or 0


def audit_actions(game: Game, action: str) -> int:
    return count(AuditEntry, AuditEntry.game_id == game.id, AuditEntry.action == action)


def test_one_round_replayed_ten_times_at_once_is_saved_once(race_app):
    game = make_game(("Ann", "Bob", "Cy"))
    keeper = race_app.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    data = round_post(game, 6, totals=ROUND, out="Ann")
    key = str(uuid.uuid4())
    edit = game.edit_token
    answers = at_once(
        [
            (lambda c=c: c.post(f"/g/{edit}/round", data=data, headers={HEADER: key}))
            for c in same_phone(race_app, keeper, 10)
        ]
    )
    assert all(not isinstance(a, Exception) for a in answers), answers
    assert [a.status_code for a in answers] == [303] * 10
    assert {a.location for a in answers} == {f"/g/{edit}"}
    assert sum(a.headers.get(REPLAY_HEADER) == "true" for a in answers) == 9
    assert count(Round, Round.game_id == game.id) == 1
    assert audit_actions(game, "round_saved") == 1
    assert count(IdempotencyKey, IdempotencyKey.state == "done") == 1


def test_one_posted_hand_replayed_ten_times_at_once_is_posted_once(race_app):
    game = make_game(("Ann", "Bob", "Cy"))
    bob = joined(race_app, game, "Bob")
    share = game.share_token
    key = uuid.uuid4().hex
    answers = at_once(
        [
            (
                lambda c=c: (
                    c.post(
                        f"/p/{share}", data={"double": "6", "total": "12"}, headers={HEADER: key}
                    ).status_code
                )
            )
            for c in same_phone(race_app, bob, 10)
        ]
    )
    assert answers == [303] * 10
    db.session.expire_all()
    post = db.session.scalar(select(HandPost).where(HandPost.game_id == game.id))
    assert post is not None and post.total == 12 and post.revision == 1


def test_a_repeat_gets_the_first_answer_even_a_conflict(app, client):
    """The first arrival was refused (another phone saved the round): every repeat is told the
    same, with what is saved, and nothing is stored by the repeat."""
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    stale = round_post(game, 6, totals={"Bob": 20, "Cy": 5}, out="Ann")
    assert (
        client.post(
            f"/g/{game.edit_token}/round", data=round_post(game, 6, totals=ROUND, out="Ann")
        ).status_code
        == 303
    )
    key = "k" * 20
    first = client.post(f"/g/{game.edit_token}/round", data=stale, headers={HEADER: key})
    again = client.post(f"/g/{game.edit_token}/round", data=stale, headers={HEADER: key})
    assert first.status_code == again.status_code == 409
    # no page is kept (issue 21): the refusal changed nothing, so the repeat is judged again
    # and shown the same page, rendered for it
    for answer in (first, again):
        assert "already saved on another phone" in answer.get_data(as_text=True)
    assert count(Round, Round.game_id == game.id) == 1


def test_the_key_in_a_form_field_counts_like_the_header(app, client):
    """offline.js posts a refused form once more natively, the key in a hidden field."""
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    data = round_post(game, 6, totals=ROUND, out="Ann")
    key = str(uuid.uuid4())
    assert (
        client.post(f"/g/{game.edit_token}/round", data=data, headers={HEADER: key}).status_code
        == 303
    )
    again = client.post(f"/g/{game.edit_token}/round", data={**data, FIELD: key})
    assert again.status_code == 303 and again.headers[REPLAY_HEADER] == "true"
    assert count(Round, Round.game_id == game.id) == 1


def test_a_key_used_on_another_game_is_refused_and_shows_nothing_of_the_first(app, client):
    one = make_game(("Ann", "Bob", "Cy"))
    two = make_game(("Dee", "Eve", "Fay"))
    for g in (one, two):
        assert client.get(f"/g/{g.edit_token}").status_code == 200
    key = str(uuid.uuid4())
    data = round_post(one, 6, totals=ROUND, out="Ann")
    assert (
        client.post(f"/g/{one.edit_token}/round", data=data, headers={HEADER: key}).status_code
        == 303
    )
    r = client.post(
        f"/g/{two.edit_token}/round",
        data=round_post(two, 6, totals={"Eve": 12, "Fay": 3}, out="Dee"),
        headers={HEADER: key},
    )
    assert r.status_code == 422
    assert one.edit_token not in r.get_data(as_text=True)
    assert "already sent to another page" in r.get_data(as_text=True)
    assert count(Round, Round.game_id == two.id) == 0


def test_a_malformed_key_is_refused_with_words(app, client):
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    data = round_post(game, 6, totals=ROUND, out="Ann")
    r = client.post(f"/g/{game.edit_token}/round", data=data, headers={HEADER: "no spaces!"})
    assert r.status_code == 400 and "key is not valid" in r.get_data(as_text=True)
    assert count(Round, Round.game_id == game.id) == 0


def test_a_server_error_frees_the_key_so_the_next_try_saves(app, client, monkeypatch):
    from companion.games import play

    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    data = round_post(game, 6, totals=ROUND, out="Ann")
    key = str(uuid.uuid4())
    real = play.save_round

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(play, "save_round", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert (
        client.post(f"/g/{game.edit_token}/round", data=data, headers={HEADER: key}).status_code
        == 500
    )
    monkeypatch.setattr(play, "save_round", real)
    r = client.post(f"/g/{game.edit_token}/round", data=data, headers={HEADER: key})
    assert r.status_code == 303 and REPLAY_HEADER not in r.headers
    assert count(Round, Round.game_id == game.id) == 1


def test_a_correction_replayed_is_applied_once(app, client):
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    first = round_post(game, 6, totals=ROUND, out="Ann")
    assert client.post(f"/g/{game.edit_token}/round", data=first).status_code == 303
    fixed = round_post(game, 6, totals={"Bob": 14, "Cy": 3}, out="Ann")
    key = str(uuid.uuid4())
    answers = [
        client.post(f"/g/{game.edit_token}/round/1", data=fixed, headers={HEADER: key})
        for _ in range(3)
    ]
    assert [a.status_code for a in answers] == [303] * 3
    assert audit_actions(game, "round_edited") == 1


def test_the_same_key_through_two_app_servers_at_once_is_saved_once(race_app):
    """Two app servers on one database (as behind a load balancer): the key still holds."""
    url = race_app.config["SQLALCHEMY_DATABASE_URI"]
    second = create_app(type("SecondServer", (TestConfig,), {"SQLALCHEMY_DATABASE_URI": url}))
    game = make_game(("Ann", "Bob", "Cy"))
    keeper = race_app.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    data = round_post(game, 6, totals=ROUND, out="Ann")
    key = str(uuid.uuid4())
    edit = game.edit_token
    phones = same_phone(race_app, keeper, 5) + same_phone(second, keeper, 5)
    answers = at_once(
        [
            (lambda c=c: c.post(f"/g/{edit}/round", data=data, headers={HEADER: key}).status_code)
            for c in phones
        ]
    )
    assert answers == [303] * 10
    assert count(Round, Round.game_id == game.id) == 1
    assert audit_actions(game, "round_saved") == 1
    with second.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_multipart_replay_with_other_values_is_refused_like_a_urlencoded_one(app, client):
    """A key replayed as multipart/form-data with another body got 303 Idempotent-Replay:
    bodies were compared only when urlencoded."""
    game = make_game(("Ann", "Bob", "Cy"))
    assert client.get(f"/g/{game.edit_token}").status_code == 200
    key = str(uuid.uuid4())
    url = f"/g/{game.edit_token}/round"
    first = round_post(game, 6, totals=ROUND, out="Ann")
    sent = client.post(url, data=first, headers={HEADER: key}, content_type="multipart/form-data")
    assert sent.status_code == 303
    other = round_post(game, 6, totals={"Bob": 1, "Cy": 2}, out="Ann")
    again = client.post(url, data=other, headers={HEADER: key}, content_type="multipart/form-data")
    assert again.status_code == 409
    assert "first were kept" in again.get_data(as_text=True)
    assert count(Round, Round.game_id == game.id) == 1
