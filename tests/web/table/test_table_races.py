"""Races between the table's phones (issue 10): the same hand from two phones at once,
different hands at once, a post while the scorekeeper saves, 12 phones posting within one
second. The database never holds a half round, and no post is lost unseen.

Each test runs the app on a SQLite *file* (several connections, as under gunicorn) and, where
PostgreSQL can be started here, on PostgreSQL; phones are test clients in threads released
together by a barrier.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.models import Device, Game, HandPost, HandScore, Round
from tests.web.playkit import make_game, round_post, seat_ids


@pytest.fixture(scope="module")
def postgres_url():
    from tests.postgres import postgres_server, unavailable_reason

    reason = unavailable_reason()
    if reason:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    with postgres_server() as url:
        yield url


def at_once(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run ``jobs`` in threads released together; their results (or exceptions) in order."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except Exception as exc:  # noqa: BLE001 - reported by the assertions
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def joined(app, game: Game, name: str):
    c = app.test_client()
    r = c.post(f"/j/{game.join_token}", data={"seat": seat_ids(game)[name]})
    assert r.status_code == 303
    return c


def posts(game: Game) -> dict[int, HandPost]:
    db.session.expire_all()
    return {
        p.seat_id: p
        for p in db.session.scalars(select(HandPost).where(HandPost.game_id == game.id))
    }


def no_half_rounds(game: Game) -> list[Round]:
    """Every stored round of ``game`` has a hand for every seat."""
    db.session.expire_all()
    rounds = list(db.session.scalars(select(Round).where(Round.game_id == game.id)))
    for rnd in rounds:
        count = db.session.scalar(
            select(func.count(HandScore.id)).where(HandScore.round_id == rnd.id)
        )
        assert count == len(game.seats)
    return rounds


def test_different_hands_from_different_phones_at_once_all_count(race_app):
    game = make_game(("Ann", "Bob", "Cy", "Dee"))
    share = game.share_token
    phones = {n: joined(race_app, game, n) for n in ("Ann", "Bob", "Cy", "Dee")}
    totals = {"Ann": "3", "Bob": "5", "Cy": "7", "Dee": "9"}
    results = at_once(
        [
            (
                lambda c=c, t=totals[n]: (
                    c.post(f"/p/{share}", data={"double": "6", "total": t}).status_code
                )
            )
            for n, c in phones.items()
        ]
    )
    assert results == [303] * 4
    ids = seat_ids(game)
    assert {n: posts(game)[ids[n]].total for n in totals} == {n: int(t) for n, t in totals.items()}


def test_the_same_hand_from_two_phones_at_once_keeps_one_and_shows_the_other(race_app):
    """Two phones post Bob's hand differently at the same moment (Bob's seat moved between
    phones): one is stored, the other phone is shown the stored value, nothing replaced unseen."""
    from companion.services import hand_posts as service

    game = make_game(("Ann", "Bob", "Cy"))
    devices = [Device(), Device()]
    db.session.add_all(devices)
    db.session.commit()
    ids = [d.id for d in devices]
    game_id = game.id

    def post(device_id: int, total: str) -> Any:
        with race_app.app_context():
            g = db.session.get(Game, game_id)
            seat = next(s for s in g.seats if s.player.name == "Bob")
            try:
                row = service.post_hand(g, seat, db.session.get(Device, device_id), 6, total=total)
                return ("stored", row.total)
            except service.PostClash as exc:
                return ("shown", exc.theirs.total)
            finally:
                db.session.remove()

    for _round in range(3):
        results = at_once([lambda: post(ids[0], "12"), lambda: post(ids[1], "15")])
        stored = [r for r in results if r[0] == "stored"]
        shown = [r for r in results if r[0] == "shown"]
        final = posts(game)[seat_ids(game)["Bob"]]
        # neither phone had seen the other's value: one is stored, the other phone is shown it
        assert len(stored) == 1 and len(shown) == 1, results
        assert shown[0][1] == stored[0][1] == final.total and final.revision == 1
        db.session.delete(final)
        db.session.commit()


@pytest.mark.parametrize("attempt", range(4))
def test_a_post_while_the_scorekeeper_saves_never_makes_a_half_round_or_loses_the_post(
    race_app, attempt
):
    game = make_game(("Ann", "Bob", "Cy"))
    keeper = race_app.test_client()
    assert keeper.get(f"/g/{game.edit_token}").status_code == 200
    bob = joined(race_app, game, "Bob")
    bob.post(f"/p/{game.share_token}", data={"double": "6", "total": "12"})
    ids = seat_ids(game)
    rev = posts(game)[ids["Bob"]].revision
    edit, share = game.edit_token, game.share_token
    form = {
        **round_post(game, 6, totals={"Bob": 12, "Cy": 3}, out="Ann"),
        f"seen_{ids['Bob']}": str(rev),
    }
    change_data = {"double": "6", "total": "16", "seen": str(rev)}
    save, change = at_once(
        [
            lambda: keeper.post(f"/g/{edit}/round", data=form).status_code,
            lambda: bob.post(f"/p/{share}", data=change_data).status_code,
        ]
    )
    rounds = no_half_rounds(game)
    post = posts(game)[ids["Bob"]]
    if change == 303:  # the phone was told its change counts: so it must be there
        assert post.total == 16 and post.status == "open"
        assert save == 409 and rounds == []
    else:  # the round was saved first: the phone was shown the saved round
        assert change == 409 and save == 303
        assert len(rounds) == 1 and post.total == 12 and post.status == "taken"


def test_twelve_phones_posting_within_one_second_all_count_and_save_once(race_app):
    names = tuple(f"P{i}" for i in range(12))
    game = make_game(names, set_size=12)
    keeper = race_app.test_client()
    keeper.get(f"/g/{game.edit_token}")
    keeper.post(f"/g/{game.edit_token}/auto-save", data={"on": "1"})
    phones = {n: joined(race_app, game, n) for n in names}
    share = game.share_token

    def poster(name: str, c) -> Callable[[], int]:
        data = (
            {"double": "12", "went_out": "y"}
            if name == "P0"
            else {"double": "12", "total": str(3 + int(name[1:]))}
        )
        return lambda: c.post(f"/p/{share}", data=data).status_code

    results = at_once([poster(n, c) for n, c in phones.items()])
    assert results == [303] * 12, results
    rounds = no_half_rounds(game)
    assert len(rounds) == 1  # saved by itself, exactly once
    hands = {h.seat_id: h for h in rounds[0].hands}
    ids = seat_ids(game)
    assert {n: hands[ids[n]].points for n in names} == {
        n: 0 if n == "P0" else 3 + int(n[1:]) for n in names
    }
    assert {h.entered_by for h in hands.values()} == {"phone"}
    assert all(p.status == "taken" for p in posts(game).values())
