"""What "Undo the last change" costs does not grow with the game (issue 11): the same SQL
statements for a game of one round as for one of a dozen, whether the undo leaves the game
open or reopens a finished one, and the audit trail is never read whole (docs/PERFORMANCE.md,
the SQL table)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from sqlalchemy import event

from companion.extensions import db
from companion.models import AuditEntry, Game
from companion.vocab import GameStatus
from tests.web.playkit import make_game, round_post, text

#: how many entries :func:`companion.services.audit.newest_entries` reads at a time
BATCH = 8


class Played(NamedTuple):
    """A game by its id and edit token (its ORM object does not outlive a counted request's
    fresh session)."""

    id: int
    edit_token: str


def fresh(game: Played) -> Game:
    db.session.expire_all()
    found = db.session.get(Game, game.id)
    assert found is not None
    return found


def played(client, names: tuple[str, ...], doubles: range, **rules: Any) -> Played:
    """A new game of ``names`` with a round saved for each of ``doubles`` (the first player
    goes out, the others hold 5 points each)."""
    made = make_game(names, set_size=doubles[0], **rules)
    game = Played(made.id, made.edit_token)
    for d in doubles:
        data = round_post(fresh(game), d, totals=dict.fromkeys(names[1:], 5), out=names[0])
        r = client.post(f"/g/{game.edit_token}/round", data=data)
        assert r.status_code == 303, text(r)
    return game


@contextmanager
def counted() -> Iterator[dict[str, Any]]:
    """The statements sent while inside (``reads``: SELECT and PRAGMA, ``writes``: the others)
    and the audit entries read from the database (``audit``), from an empty session as a new
    request starts."""
    seen: dict[str, Any] = {"reads": [], "writes": [], "audit": 0}

    def statement(_conn, _cursor, sql: str, *_args: Any) -> None:
        read = sql.lstrip().upper().startswith(("SELECT", "PRAGMA"))
        seen["reads" if read else "writes"].append(sql)

    def loaded(_target: Any, _context: Any) -> None:
        seen["audit"] += 1

    db.session.remove()
    event.listen(db.engine, "before_cursor_execute", statement)
    event.listen(AuditEntry, "load", loaded)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", statement)
        event.remove(AuditEntry, "load", loaded)


def undone(client, game: Played) -> dict[str, Any]:
    """What undoing the game's last change read and wrote (the undo itself, not the page it
    redirects to)."""
    version = str(fresh(game).version)
    with counted() as seen:
        r = client.post(f"/g/{game.edit_token}/undo", data={"version": version})
    assert r.status_code == 303
    assert "Undone" in text(client.get(r.headers["Location"]))
    return seen


def test_an_undo_reads_the_same_whatever_the_rounds(client):
    few = played(client, ("Ann", "Bob", "Cy"), range(6, 4, -1))  # 2 rounds
    many = played(client, ("Dee", "Eve", "Fay"), range(18, 4, -1))  # 14 rounds
    small, big = undone(client, few), undone(client, many)
    assert len(small["reads"]) == len(big["reads"]), (small["reads"], big["reads"])
    assert len(small["writes"]) == len(big["writes"])
    assert [len(r.rounds) for r in map(fresh, (few, many))] == [1, 13]


def test_undoing_the_last_round_reopens_the_game_at_the_same_cost_whatever_the_rounds(client):
    # ended by a target total in its first round, and by the last double after 13 rounds
    target = {"game_length": "target_total", "target_total": 5}
    few = played(client, ("Ann", "Bob", "Cy"), range(12, 11, -1), **target)
    many = played(client, ("Dee", "Eve", "Fay"), range(12, -1, -1))
    assert {fresh(g).status for g in (few, many)} == {GameStatus.FINISHED}
    small, big = undone(client, few), undone(client, many)
    assert {fresh(g).status for g in (few, many)} == {GameStatus.ACTIVE}
    assert len(small["reads"]) == len(big["reads"]), (small["reads"], big["reads"])


def test_the_audit_trail_is_not_read_whole(client):
    # the undo reads the entry it undoes (and again, after its commit, to word it); the game
    # page the newest undoable change (the undo line) and one batch of the newest round changes
    # (the round an undo took away: undo.undone_round): never the whole trail of a long game
    few = played(client, ("Ann", "Bob", "Cy"), range(6, 4, -1))
    many = played(client, ("Dee", "Eve", "Fay"), range(18, 4, -1))
    small, big = undone(client, few), undone(client, many)
    assert small["audit"] == big["audit"] <= 2
    with counted() as seen:
        assert client.get(f"/g/{many.edit_token}").status_code == 200
    assert seen["audit"] <= 1 + BATCH < len(fresh(many).audit)
