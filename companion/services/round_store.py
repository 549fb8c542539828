"""Storing rounds: a new round, a corrected one, a burned double, each in one transaction with
its audit entry and the game's version bumped (RULES.md §3.5 burned doubles, §4 the end of the
game).

The last job of a round (:mod:`.round_plan`, :mod:`.round_check`, store). :func:`save_round` is
the one entry point of a round save: whatever must hold for every save (the version, the
double allowed now) is checked there.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..mapping import scored_rounds
from ..models import Game, HandScore, Round, utcnow
from ..vocab import AuditCode, EnteredBy, GameStatus, RoundStatus
from .audit import new_entry, round_line
from .round_check import ScoredHand, ScoredRound
from .round_plan import allowed_doubles, game_over, plan_round


class Conflict(Exception):
    """The game changed since the form was shown (another phone or a double tap saved first),
    or the change no longer fits the game (e.g. a round for a double that is not next)."""


def round_snapshot(rnd: Round) -> dict[str, Any]:
    """A round as JSON for the audit trail: its double, status, outcome, starter and hands."""
    return {
        "number": rnd.number,
        "start_double": rnd.start_double,
        "status": rnd.status,
        "outcome": rnd.outcome,
        "starter_seat_id": rnd.starter_seat_id,
        "hands": [
            {
                "seat_id": h.seat_id,
                "points": h.points,
                "went_out": h.went_out,
                "out_on_double": h.out_on_double,
                "tiles": list(h.tiles) if h.tiles is not None else None,
                "entered_by": h.entered_by or None,
            }
            for h in sorted(rnd.hands, key=lambda h: h.seat_id)
        ],
    }


def apply_snapshot(rnd: Round, snap: Mapping[str, Any]) -> None:
    """Set a round's fields and hands from :func:`round_snapshot` output."""
    rnd.start_double = snap["start_double"]
    rnd.status = snap["status"]
    rnd.outcome = snap["outcome"]
    rnd.starter_seat_id = snap["starter_seat_id"]
    by_seat = {h.seat_id: h for h in rnd.hands}
    wanted = {h["seat_id"]: h for h in snap["hands"]}
    for seat_id, hand in list(by_seat.items()):
        if seat_id not in wanted:
            rnd.hands.remove(hand)
    for seat_id, data in wanted.items():
        found = by_seat.get(seat_id)
        if found is None:
            found = HandScore(seat_id=seat_id, points=0)
            rnd.hands.append(found)
        hand = found
        hand.points = data["points"]
        hand.went_out = data["went_out"]
        hand.out_on_double = data["out_on_double"]
        hand.tiles = data["tiles"]
        hand.entered_by = data.get("entered_by") or ""


def check_version(game: Game, version: Any) -> None:
    """Raise :class:`Conflict` unless ``version`` (from the form) is the game's version."""
    if str(version).strip() != str(game.version):
        raise Conflict()


def refresh_status(game: Game) -> None:
    """Finish the game when the engine says it is over, reopen it when a correction undoes
    that (RULES.md §4, §8)."""
    if game_over(game):
        if game.status != GameStatus.FINISHED:
            game.status = GameStatus.FINISHED
            game.finished_at = utcnow()
    elif game.status == GameStatus.FINISHED:
        game.status = GameStatus.ACTIVE
        game.finished_at = None


@contextmanager
def conflict_guard() -> Iterator[None]:
    """Turn the database refusing a change (another request saved the same round number or
    double first, or the game's version moved on) into :class:`Conflict`, after a rollback, so
    nothing is stored half."""
    try:
        yield
    except (IntegrityError, StaleDataError) as exc:
        db.session.rollback()
        raise Conflict() from exc


def commit_change(
    game: Game,
    action: str,
    code: AuditCode,
    params: Mapping[str, Any] | None,
    before: Any,
    after: Any,
) -> None:
    """Record an audit entry that says ``code`` with ``params``
    (:func:`companion.services.audit.new_entry`), bump the game's version and commit
    everything in one transaction.

    Raises :class:`Conflict` when another request saved first (the unique round number or
    double, or the game's optimistic version); nothing is stored then.
    """
    with conflict_guard():
        game.updated_at = utcnow()
        refresh_status(game)
        db.session.add(new_entry(action, code, params, game=game, before=before, after=after))
        db.session.commit()


def save_round(
    game: Game,
    scored: ScoredRound,
    version: Any,
    also: Callable[[Round], None] | None = None,
    *,
    by_itself: bool = False,
) -> Round:
    """Store a new round with all its hand scores in one transaction and audit it; ``also``
    runs inside that transaction before the commit (the posted hands are marked taken).
    ``by_itself``: saved by the game's auto-save from the posted hands (the trail says so).

    Raises :class:`Conflict` when the form's ``version`` is stale, the round was saved
    meanwhile (a double tap or another phone), or ``scored.double`` may not start the coming
    round (RULES.md §3.5, §4).
    """
    check_version(game, version)
    if scored.double not in allowed_doubles(game):
        raise Conflict()
    rnd = Round(
        game=game,
        number=len(game.rounds) + 1,
        start_double=scored.double,
        status=RoundStatus.SCORED,
        outcome=scored.outcome,
        starter_seat_id=scored.starter_seat_id,
    )
    for hand in scored.hands:
        rnd.hands.append(
            HandScore(
                seat_id=hand.seat_id,
                points=hand.points,
                went_out=hand.went_out,
                out_on_double=hand.out_on_double,
                tiles=hand.tiles,
            )
        )
    db.session.add(rnd)  # SQLAlchemy 2 does not cascade through the Round.game backref
    if also is not None:
        with conflict_guard():
            also(rnd)
    snap = round_snapshot(rnd)
    line = {"number": len(scored_rounds(game)), **round_line(game, scored.double, snap)}
    if by_itself:
        line["auto"] = True
    commit_change(game, "round_saved", AuditCode.ROUND_SAVED, line, None, snap)
    return rnd


def _entered_after_edit(before: Mapping[str, Any], hand: ScoredHand) -> str:
    """A corrected hand keeps who entered it when unchanged; otherwise the scorekeeper did."""
    old = next((h for h in before["hands"] if h["seat_id"] == hand.seat_id), None)
    same = old is not None and (old["points"], old["went_out"], _tiles(old["tiles"])) == (
        hand.points,
        hand.went_out,
        _tiles(hand.tiles),
    )
    return (old.get("entered_by") or "") if same and old else str(EnteredBy.SCOREKEEPER)


def edit_round(game: Game, rnd: Round, scored: ScoredRound, version: Any) -> bool:
    """Replace a saved round's hands (same checks as a new round), audited with old and new
    values. Returns False (and writes nothing: no audit entry, no new game version) when the
    correction changes nothing. Raises :class:`Conflict` for a stale ``version``."""
    check_version(game, version)
    before = round_snapshot(rnd)
    after = {
        **before,
        "outcome": scored.outcome,
        "starter_seat_id": scored.starter_seat_id,
        "hands": [
            {
                "seat_id": h.seat_id,
                "points": h.points,
                "went_out": h.went_out,
                "out_on_double": h.out_on_double,
                "tiles": h.tiles,
                "entered_by": _entered_after_edit(before, h),
            }
            for h in sorted(scored.hands, key=lambda h: h.seat_id)
        ],
    }
    if _same_play(before, after):
        return False
    apply_snapshot(rnd, after)
    line = round_line(game, rnd.start_double, after)
    commit_change(game, "round_edited", AuditCode.ROUND_CORRECTED, line, before, after)
    return True


def _same_play(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """True when two round snapshots record the same play: outcome, starter and each seat's
    points, going out and tiles (who entered a hand is bookkeeping, not a change)."""
    return _play(before) == _play(after)


def _play(snap: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a round snapshot records of the play (:func:`_same_play`)."""
    hands = tuple(
        (h["seat_id"], h["points"], h["went_out"], h["out_on_double"], _tiles(h["tiles"]))
        for h in snap["hands"]
    )
    return (snap["outcome"], snap["starter_seat_id"], hands)


def play_key(rnd: Round) -> str:
    """A short fingerprint (16 hex digits) of what a saved round records of the play
    (:func:`_same_play`): the same while nobody changes the round, whatever else changes in
    the game. A page that shows a round carries it, so that a later post can tell whether
    the round was changed on another phone since."""
    return hashlib.sha256(repr(_play(round_snapshot(rnd))).encode()).hexdigest()[:16]


def _tiles(tiles: Any) -> tuple[str, ...] | None:
    """A hand's tiles as a set of tiles, whatever order they were listed in: a post stores
    them sorted, the picker in its own order, and the same tiles are the same hand."""
    return tuple(sorted(tiles)) if tiles is not None else None


def burn_double(game: Game, double: int, version: Any) -> Round:
    """Record that nobody held ``double`` and the house rule burns it (RULES.md §3.5:
    ``skip_to_next_lower``, ``skip_to_next_lower_except_blank``).

    Raises :class:`Conflict` for a stale version or a double the engine would not burn now.
    """
    check_version(game, version)
    plan = plan_round(game)
    if plan is None or plan.double != double or not plan.burnable:
        raise Conflict()
    rnd = Round(game=game, number=plan.number, start_double=double, status=RoundStatus.BURNED)
    db.session.add(rnd)
    line = {"double": double}
    commit_change(game, "double_burned", AuditCode.DOUBLE_BURNED, line, None, round_snapshot(rnd))
    return rnd
