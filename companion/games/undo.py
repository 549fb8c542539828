"""Corrections: undo the last change, the audit trail in words, soft delete and restore, rematch.

Every change to a game is an :class:`~companion.models.AuditEntry` with the values before and
after (JSON, as :func:`.rounds.round_snapshot`). "Undo" reverts the latest entry that was not
undone yet, using those values, and records the undo itself (which is never undone in turn).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask import abort
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import AuditEntry, Game, Round, Seat, utcnow
from ..services.audit import latest_entry
from ..stored import read_or
from .rounds import Conflict, apply_snapshot, check_version, commit_change

#: Changes that "undo the last change" can revert.
UNDOABLE = ("round_saved", "round_edited", "double_burned")
#: How long a deleted game can be restored.
RESTORE_WINDOW = timedelta(hours=24)


class NothingToUndo(Exception):
    """The game has no change left to undo."""


def latest_change(game: Game) -> AuditEntry | None:
    """The most recent change that can still be undone, or None (one query: the trail is not
    loaded whole)."""
    return latest_entry(game, UNDOABLE)


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
    rnd = _round_by_number(game, int(snap["number"]))
    if rnd is None:  # the data no longer matches the trail: refuse rather than guess
        raise Conflict()
    if entry.action == "round_edited":
        apply_snapshot(rnd, entry.before)
    else:
        game.rounds.remove(rnd)  # delete-orphan: the round and its hands are deleted
    entry.undone = True
    summary = _("Undone: %(what)s", what=entry.summary)
    commit_change(game, "undo", summary, entry.after, entry.before)
    return entry


@dataclass(frozen=True)
class Change:
    """One line of a change in the audit trail: what, the old value and the new one."""

    what: str
    old: str
    new: str


def _hand_text(hand: dict[str, Any] | None) -> str:
    if hand is None:
        return "—"
    text = str(hand["points"])
    if hand.get("went_out"):
        text += " " + _("(went out)")
    if hand.get("tiles"):
        text += " [" + " ".join(hand["tiles"]) + "]"
    return text


@read_or(list)
def changes(entry: AuditEntry, names: dict[int, str]) -> list[Change]:
    """What an audit entry changed, per player: old and new values, in words (empty for
    entries without round data, e.g. deleting the game, and for snapshots of a shape this
    version cannot read)."""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    if not before and not after:
        return []
    old_hands = {h["seat_id"]: h for h in before.get("hands", [])}
    new_hands = {h["seat_id"]: h for h in after.get("hands", [])}
    out = []
    for seat_id in sorted(set(old_hands) | set(new_hands)):
        old, new = _hand_text(old_hands.get(seat_id)), _hand_text(new_hands.get(seat_id))
        if old != new:
            out.append(Change(names.get(seat_id, "?"), old, new))
    words = {
        "scored": _("played"),
        "burned": _("burned: nobody held it"),
        "out": _("someone went out"),
        "blocked": _("blocked"),
    }
    for key, label in (("status", _("double")), ("outcome", _("round ended"))):
        old, new = before.get(key), after.get(key)
        if old != new:
            out.append(Change(label, words.get(old, "—"), words.get(new, "—")))
    old_starter, new_starter = before.get("starter_seat_id"), after.get("starter_seat_id")
    if old_starter != new_starter:
        out.append(
            Change(
                _("started the round"),
                names.get(old_starter, "—") if old_starter else "—",
                names.get(new_starter, "—") if new_starter else "—",
            )
        )
    return out


# --- delete and restore -----------------------------------------------------------------------


def delete_game(game: Game, version: Any) -> None:
    """Soft-delete ``game`` (it can be restored for :data:`RESTORE_WINDOW`).

    Raises :class:`.rounds.Conflict` for a stale ``version``."""
    check_version(game, version)
    game.deleted_at = utcnow()
    commit_change(game, "game_deleted", _("Game deleted."), None, None)


def deleted_game(token: str) -> Game:
    """The game with edit token ``token`` deleted less than :data:`RESTORE_WINDOW` ago.

    Raises werkzeug NotFound (404) otherwise."""
    if not token or len(token) > 40:
        abort(404)
    game = db.session.scalar(
        select(Game).where(
            Game.edit_token == token,
            Game.deleted_at.is_not(None),
            Game.deleted_at > utcnow() - RESTORE_WINDOW,
        )
    )
    if game is None:
        abort(404, description=_("There is no deleted game at this link to bring back."))
    return game


def shared_game(share_token: str) -> Game:
    """The game with read-only token ``share_token``, deleted or not (so that a live
    scoreboard can say the game was deleted). Raises werkzeug NotFound (404) otherwise."""
    if not share_token or len(share_token) > 40:
        abort(404)
    game = db.session.scalar(select(Game).where(Game.share_token == share_token))
    if game is None:
        abort(404)
    return game


def restore_game(game: Game) -> None:
    """Undo the deletion of ``game``. A deleted rematch whose game has been given another
    rematch since comes back as an ordinary game (a game has one live rematch)."""
    original = db.session.get(Game, game.rematch_of_id) if game.rematch_of_id else None
    if original is not None and existing_rematch(original) is not None:
        game.rematch_of_id = None
    game.deleted_at = None
    commit_change(game, "game_restored", _("Game restored."), None, None)


def recently_deleted(tokens: list[str]) -> list[Game]:
    """Games among ``tokens`` (e.g. the browser's remembered edit tokens) deleted less than
    :data:`RESTORE_WINDOW` ago, newest deletion first — for a "restore" list on the home page."""
    if not tokens:
        return []
    return list(
        db.session.scalars(
            select(Game)
            .where(
                Game.edit_token.in_(tokens[:100]),
                Game.deleted_at.is_not(None),
                Game.deleted_at > utcnow() - RESTORE_WINDOW,
            )
            .order_by(Game.deleted_at.desc())
        )
    )


# --- rematch ----------------------------------------------------------------------------------


def existing_rematch(game: Game) -> Game | None:
    """The live (not deleted) game already started as a rematch of ``game``, or None
    (``Game.rematch_of_id``; the database keeps at most one live rematch per game)."""
    return db.session.scalar(
        select(Game).where(Game.rematch_of_id == game.id, Game.deleted_at.is_(None))
    )


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
        AuditEntry(
            action="create_game",
            summary=_(
                "Rematch: %(players)s, double-%(set)s.", players=", ".join(names), set=game.set_size
            )[:300],
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
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        started = existing_rematch(db.session.get(Game, game_id) or game)
        if started is None:
            raise
        return started, False
    return new, True
