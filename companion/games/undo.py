"""Corrections: undo the last change, soft delete and restore, rematch.

The audit trail in words is :func:`companion.services.audit.changes`; finding deleted games
(restore window) is :mod:`companion.services.deleted_games`, below the blueprints.

Every change to a game is an :class:`~companion.models.AuditEntry` with the values before and
after (JSON, as :func:`.rounds.round_snapshot`). "Undo" reverts the latest entry that was not
undone yet, using those values, and records the undo itself (which is never undone in turn).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import AuditEntry, Game, Round, Seat, utcnow
from ..services.audit import latest_entry, new_entry, newest_entries, undone_params
from ..services.game_lookup import carry_table, live_rematch
from ..services.round_store import Conflict, apply_snapshot, check_version, commit_change
from ..vocab import AuditCode, RoundStatus

#: Changes that "undo the last change" can revert.
UNDOABLE = ("round_saved", "round_edited", "double_burned")


class NothingToUndo(Exception):
    """The game has no change left to undo."""


def latest_change(game: Game) -> AuditEntry | None:
    """The most recent change that can still be undone, or None (one query: the trail is not
    loaded whole)."""
    return latest_entry(game, UNDOABLE)


#: The changes that decide which round is to be entered: a round saved, a double burned, or
#: one of them taken away by an undo (a correction, and its undo, leave that round alone).
ROUND_CHANGES = ("round_saved", "double_burned", "undo")


def undone_round(game: Game, double: int) -> dict[str, Any] | None:
    """The saved round that "Undo the last change" took away, as it was saved (its
    :func:`~companion.services.round_store.round_snapshot`), while it is the round with
    ``double`` still to be entered: no round saved or double burned since. None otherwise.

    Read from the trail (the undo's entry keeps the round it removed), so the round form of any
    phone that keeps score shows it again, also when another phone typed it; nothing is kept
    in the session."""
    for entry in newest_entries(game, ROUND_CHANGES):
        if entry.action == "undo" and entry.after is not None:
            continue  # an undone correction put a saved round's old values back: not this one
        removed = entry.before if entry.action == "undo" else None
        return removed if _scored_round_with(removed, double) else None
    return None


def _scored_round_with(snapshot: Any, double: int) -> bool:
    """Whether a stored snapshot (any JSON: it may come from another version) is a scored
    round started by ``double``."""
    return (
        isinstance(snapshot, dict)
        and snapshot.get("status") == RoundStatus.SCORED
        and snapshot.get("start_double") == double
        and isinstance(snapshot.get("hands"), list)
    )


def _round_by_number(game: Game, number: int) -> Round | None:
    return next((r for r in game.rounds if r.number == number), None)


def undo_last(game: Game, version: Any) -> AuditEntry:
    """Revert the latest undoable change: a saved round or burned double is removed, an edited
    round gets its old values back. Returns the entry that was undone.

    Raises :class:`NothingToUndo` when there is none, :class:`.rounds.Conflict` when the form's
    ``version`` is stale (the game changed since the page was shown; nothing is undone).
    """
    check_version(game, version)
    entry = latest_change(game)
    if entry is None:
        raise NothingToUndo()
    snap = entry.after or entry.before
    rnd = _round_by_number(game, int(snap["number"])) if snap is not None else None
    if rnd is None:  # the data no longer matches the trail: refuse rather than guess
        raise Conflict()
    if entry.action == "round_edited":
        if entry.before is None:  # an edit always records the round as it was
            raise Conflict()
        apply_snapshot(rnd, entry.before)
    else:
        game.rounds.remove(rnd)  # delete-orphan: the round and its hands are deleted
    entry.undone = True
    commit_change(game, "undo", AuditCode.UNDONE, undone_params(entry), entry.after, entry.before)
    return entry


# --- delete and restore -----------------------------------------------------------------------


def delete_game(game: Game, version: Any) -> None:
    """Soft-delete ``game`` (it can be restored for
    :data:`companion.services.deletion.RESTORE_WINDOW`).

    Raises :class:`.rounds.Conflict` for a stale ``version``."""
    check_version(game, version)
    game.deleted_at = utcnow()
    commit_change(game, "game_deleted", AuditCode.GAME_DELETED, None, None, None)


def restore_game(game: Game) -> None:
    """Undo the deletion of ``game``. A deleted rematch whose game has been given another
    rematch since comes back as an ordinary game (a game has one live rematch)."""
    original = db.session.get(Game, game.rematch_of_id) if game.rematch_of_id else None
    if original is not None and existing_rematch(original) is not None:
        game.rematch_of_id = None
    game.deleted_at = None
    commit_change(game, "game_restored", AuditCode.GAME_RESTORED, None, None, None)


# --- rematch ----------------------------------------------------------------------------------


def existing_rematch(game: Game) -> Game | None:
    """The live (not deleted) game already started as a rematch of ``game``, or None."""
    return live_rematch(game)


def rematch(game: Game) -> tuple[Game, bool]:
    """A new game in the same game night with the same players in the same seats, the same set
    and the same frozen house rules. Returns (the rematch, True when this call started it).

    The rematch already started is returned (with False) when there is one, also when another
    phone started it at the same moment: the database refuses a second live rematch of a game.
    """
    started = existing_rematch(game)
    if started is not None:
        return started, False
    game_id = game.id
    new = Game(
        rematch_of_id=game_id,
        night_id=game.night_id,
        set_size=game.set_size,
        preset=game.preset,
        rules=dict(game.rules),
        hand_size=game.hand_size,
        chosen_spokes=game.chosen_spokes,
    )
    for seat in game.seats:
        new.seats.append(Seat(player_id=seat.player_id, position=seat.position))
    names = [seat.player.name for seat in game.seats]
    # The same kind of entry as a game made on the new-game page (companion.services.game_setup).
    new.audit.append(
        new_entry(
            "create_game",
            AuditCode.REMATCH,
            {"players": names, "set": game.set_size},
            before=None,  # stored as JSON null: the column is NOT NULL
            after={
                "set_size": new.set_size,
                "preset": new.preset,
                "players": names,
                "hand_size": new.hand_size,
                "chosen_spokes": new.chosen_spokes,
                "rematch_of": game.id,
            },
        )
    )
    db.session.add(new)
    try:
        db.session.flush()
        carry_table(game, new)  # every joined phone goes with its seat
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        started = existing_rematch(db.session.get(Game, game_id) or game)
        if started is None:
            raise
        return started, False
    return new, True
