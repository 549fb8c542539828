"""Planning rounds: which round comes next, which double starts it and who starts (RULES.md
§3.5 missing doubles, §3.6 who starts, §4 the round sequence and the end of the game).

The first of the three jobs of a round (plan, :mod:`.round_check`, :mod:`.round_store`); every
rule comes from the engine through :mod:`companion.mapping`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import selectinload

from ..engine import DominoSet, NextRound, RoundStart, StartInfo, start_of_round, tile_points
from ..engine.rules import GameLength, MissingStartDouble
from ..extensions import db
from ..mapping import coming_round, round_scores, rules_of, scored_rounds
from ..models import Game, Round, Seat
from ..text import ascii_whole_number


def double_name(value: int) -> str:
    """A double as players say it: ``9`` -> ``"9-9"``."""
    return f"{value}-{value}"


def load_game(game: Game) -> Game:
    """``game`` with its rounds and their hands, its seats and their players loaded in a fixed
    number of queries (pages must not issue one query per round or player). Returns the same,
    refreshed object.

    Not its audit trail: it grows with every save, correction, undo and post, and nothing that
    loads a game shows it whole (the undo line, the undo and the audit page read the entries
    they need: :mod:`companion.services.audit`); a new entry is added with ``game=game``, which
    does not load the trail either."""
    return db.session.scalars(
        db.select(Game)
        .where(Game.id == game.id)
        .options(
            selectinload(Game.rounds).selectinload(Round.hands),
            selectinload(Game.seats).selectinload(Seat.player),
        )
        .execution_options(populate_existing=True)
    ).one()


@dataclass(frozen=True)
class RoundPlan:
    """The round to be played next.

    Attributes:
        number: the ``Round.number`` it will get (play order, burned doubles included).
        ordinal: k in "round k of total" (scored rounds so far + 1).
        total: rounds the game will have if nothing more is burned.
        double: its centre double (``9`` is 9-9).
        upcoming: the engine's answer for the coming round.
        start: who starts, by the house rule (engine :class:`StartInfo`).
        starter_seat: the seat the engine names as starter, when it can know.
        missing: doubles the scorekeeper said nobody holds (passed over or drawn for).
        note: what the table does about a missing double, in words ("" when none is missing).
        burnable: the current double would be burned for good if nobody holds it.
        missing_matters: the house rule does something when nobody holds the double (False
            when doubles are set aside before the deal and so always found).
    """

    number: int
    ordinal: int
    total: int
    double: int
    upcoming: NextRound
    start: StartInfo
    starter_seat: Seat | None
    missing: tuple[int, ...]
    note: str
    burnable: bool
    missing_matters: bool


def clean_missing(game: Game, values: Iterable[Any]) -> tuple[int, ...]:
    """The doubles from a ``?missing=`` query that can still start a round; junk is dropped."""
    played = {r.start_double for r in game.rounds}
    out: list[int] = []
    for v in values:
        text = str(v).strip()
        if ascii_whole_number(text) and len(text) <= 2:
            d = int(text)
            if d <= game.set_size and d not in played and d not in out:
                out.append(d)
    return tuple(out)


def game_over(game: Game) -> bool:
    """True when the engine has no double left, or a total reached the target (RULES.md §4)."""
    if coming_round(game).game_over:
        return True
    rules = rules_of(game)
    if rules.game_length == GameLength.TARGET_TOTAL:
        return any(sum(pts) >= rules.target_total for pts in round_scores(game).values())
    return False


def plan_round(game: Game, missing: Sequence[int] = ()) -> RoundPlan | None:
    """The coming round, or None when the game is over.

    ``missing`` lists doubles the scorekeeper said nobody holds; the engine's
    ``missing_start_double`` rule decides what that does (RULES.md §3.5).
    """
    if game_over(game):
        return None
    plain = coming_round(game)
    holders: dict[int, str | None] = dict.fromkeys(missing)
    upcoming = coming_round(game, holders)
    if upcoming.start_double is None or set(upcoming.burned) - set(plain.burned):
        # Burning a double is an explicit, audited action (:func:`burn_double`), never a
        # side effect of a ``?missing=`` link.
        upcoming, missing, holders = plain, (), {}
    if upcoming.start_double is None:
        return None
    d = upcoming.start_double
    scored = scored_rounds(game)
    ordinal = len(scored) + 1
    start = starter_info(game, d, ordinal)
    seat_by_key = {str(s.id): s for s in game.seats}
    try_missing = coming_round(game, {**holders, d: None})
    newly_burned = set(try_missing.burned) - set(upcoming.burned)
    return RoundPlan(
        number=len(game.rounds) + 1,
        ordinal=ordinal,
        total=len(scored) + upcoming.rounds_left,
        double=d,
        upcoming=upcoming,
        start=start,
        starter_seat=seat_by_key.get(start.starter or ""),
        missing=tuple(missing),
        note=upcoming.procedure if (missing and upcoming != plain) else "",
        burnable=d in newly_burned,
        missing_matters=try_missing != upcoming,
    )


def starter_info(game: Game, double: int, ordinal: int) -> StartInfo:
    """Who starts the round with ``double`` (RULES.md §3.6), seats named by their id."""
    seats = [str(s.id) for s in game.seats]
    scored = scored_rounds(game)
    # rotate_left counts from whoever actually started the first round, when recorded.
    round1 = str(scored[0].starter_seat_id) if scored and scored[0].starter_seat_id else None
    state = RoundStart(
        rules=rules_of(game),
        number=ordinal,
        start_double=double,
        seats=seats,
        round1_starter=round1,
    )
    return start_of_round(state)


def allowed_doubles(game: Game) -> set[int]:
    """Doubles that may start the coming round: the engine's choice, plus (under
    ``retry_next_round``) any lower unused double once those above it are passed over."""
    upcoming = coming_round(game)
    if upcoming.start_double is None:
        return set()
    allowed = {upcoming.start_double}
    if rules_of(game).missing_start_double == MissingStartDouble.RETRY_NEXT_ROUND:
        played = {r.start_double for r in game.rounds}
        unused = [d for d in range(game.set_size, -1, -1) if d not in played]
        for d in unused:
            above = {x: None for x in unused if x > d}
            if coming_round(game, above).start_double == d:
                allowed.add(d)
    return allowed


def picker_tiles(game: Game, double: int) -> list[dict[str, Any]]:
    """The tile picker of a hand in the round with ``double``: every tile of the set but that
    centre double, with its points under the house rules (RULES.md §6)."""
    rules = rules_of(game)
    centre = (double, double)
    return [
        {"text": str(t), "high": t.high, "low": t.low, "points": tile_points(t, rules)}
        for t in DominoSet(game.set_size)
        if (t.high, t.low) != centre
    ]
