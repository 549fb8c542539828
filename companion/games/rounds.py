"""Playing rounds: what the coming round is, checking a round's scores, and saving them.

Every rule comes from the engine (through :mod:`companion.mapping`): the round sequence and
missing doubles (RULES.md §3.5, §4), who starts (§3.6), hand points (§6, §7). This module only
turns what the scorekeeper entered into engine calls and rows, and refuses what cannot be.

Errors for the scorekeeper are collected as :class:`EntryErrors` (field name -> messages) so
that the form can be shown again with everything that was typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

from ..engine import (
    DominoSet,
    EngineError,
    NextRound,
    RuleError,
    RuleSet,
    StartInfo,
    Tile,
    TileError,
    hand_size,
    max_hand_points,
    score_hand,
    start_of_round,
    tile_points,
)
from ..extensions import db
from ..mapping import coming_round, dominoes_of, round_scores, rules_of, scored_rounds
from ..models import AuditEntry, Game, HandScore, Round, Seat, utcnow
from ..words import error_words

#: the longest typed score accepted as a number (more digits is refused as too large)
MAX_SCORE_DIGITS = 6
_DIGITS = re.compile(r"[0-9]+")


class EnteredBy(StrEnum):
    """Who entered a saved hand (:attr:`HandScore.entered_by`)."""

    PHONE = "phone"  # taken from the hand the player posted from their phone
    SCOREKEEPER = "scorekeeper"
    OVERRULED = "overruled"  # the scorekeeper entered another value than the phone posted


def entered_words(seat_name: str, entered_by: str | None) -> str:
    """Who entered a saved hand, for the audit trail: "posted from Bob's phone" or "entered
    by the scorekeeper" ("" for hands saved before phones could post)."""
    if entered_by == EnteredBy.PHONE:
        return _("posted from %(who)s's phone", who=seat_name)
    if entered_by == EnteredBy.SCOREKEEPER:
        return _("entered by the scorekeeper")
    if entered_by == EnteredBy.OVERRULED:
        return _("entered by the scorekeeper, overruling %(who)s's phone", who=seat_name)
    return ""


class Conflict(Exception):
    """The game changed since the form was shown (another phone or a double tap saved first),
    or the change no longer fits the game (e.g. a round for a double that is not next)."""


@dataclass
class EntryErrors:
    """Messages for the scorekeeper: ``fields`` maps a form field name to its messages,
    ``general`` holds those about the round as a whole."""

    fields: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    def add(self, name: str | None, message: str) -> None:
        """Add ``message`` to field ``name`` (or to the round when ``name`` is None)."""
        if name is None:
            self.general.append(message)
        else:
            self.fields.setdefault(name, []).append(message)

    def __bool__(self) -> bool:
        return bool(self.fields or self.general)

    def all(self) -> list[str]:
        """Every message, round-level first."""
        return [*self.general, *(m for ms in self.fields.values() for m in ms)]


def double_name(value: int) -> str:
    """A double as players say it: ``9`` -> ``"9-9"``."""
    return f"{value}-{value}"


def load_game(game: Game) -> Game:
    """``game`` with its rounds and their hands, its seats and their players, and its audit
    trail loaded in a fixed number of queries (pages must not issue one query per round or
    player). Returns the same, refreshed object."""
    return db.session.scalars(
        db.select(Game)
        .where(Game.id == game.id)
        .options(
            selectinload(Game.rounds).selectinload(Round.hands),
            selectinload(Game.seats).selectinload(Seat.player),
            selectinload(Game.audit),
        )
        .execution_options(populate_existing=True)
    ).one()


# --- the coming round -------------------------------------------------------------------------


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
        if _DIGITS.fullmatch(text) and len(text) <= 2:
            d = int(text)
            if d <= game.set_size and d not in played and d not in out:
                out.append(d)
    return tuple(out)


def game_over(game: Game) -> bool:
    """True when the engine has no double left, or a total reached the target (RULES.md §4)."""
    if coming_round(game).game_over:
        return True
    rules = rules_of(game)
    if rules.game_length == "target_total":
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
    return start_of_round(rules_of(game), double, ordinal, seats=seats, round1_starter=round1)


def allowed_doubles(game: Game) -> set[int]:
    """Doubles that may start the coming round: the engine's choice, plus (under
    ``retry_next_round``) any lower unused double once those above it are passed over."""
    upcoming = coming_round(game)
    if upcoming.start_double is None:
        return set()
    allowed = {upcoming.start_double}
    if rules_of(game).missing_start_double == "retry_next_round":
        played = {r.start_double for r in game.rounds}
        unused = [d for d in range(game.set_size, -1, -1) if d not in played]
        for d in unused:
            above = {x: None for x in unused if x > d}
            if coming_round(game, above).start_double == d:
                allowed.add(d)
    return allowed


# --- checking what was entered ----------------------------------------------------------------


@dataclass
class HandEntry:
    """What was entered for one seat: a typed total (raw text) and/or tapped tiles (raw texts)."""

    seat: Seat
    total: str = ""
    tiles: list[str] = field(default_factory=list)
    went_out: bool = False


@dataclass
class RoundEntry:
    """A round as entered: its double, the hands, who went out / blocked, who started."""

    double: int
    hands: list[HandEntry]
    blocked: bool = False
    out_on_double: bool = False
    starter_seat_id: int | None = None


@dataclass(frozen=True)
class ScoredHand:
    """One seat's checked score (points) and the tiles left in hand, if they were tapped."""

    seat_id: int
    points: int
    went_out: bool
    out_on_double: bool
    tiles: list[str] | None


@dataclass(frozen=True)
class ScoredRound:
    """A round ready to be stored."""

    double: int
    outcome: str  # "out" | "blocked"
    starter_seat_id: int | None
    hands: tuple[ScoredHand, ...]


def total_field(seat: Seat) -> str:
    """The form field holding a seat's typed total."""
    return f"total_{seat.id}"


def tiles_field(seat: Seat) -> str:
    """The form field holding a seat's tapped tiles."""
    return f"tiles_{seat.id}"


def out_field(seat: Seat) -> str:
    """The form field marking that a seat went out."""
    return f"out_{seat.id}"


def score_bound(game: Game, double: int) -> int:
    """The most points a typed total may have, in points.

    A hand holds its dealt tiles plus whatever was drawn from the chicken yard, so the bound is
    what the heaviest ``hand size + chicken yard`` tiles of the set could score (engine
    :func:`max_hand_points`), leaving out the centre double.
    """
    rules = rules_of(game)
    dominoes = dominoes_of(game)
    players = max(len(game.seats), 1)
    try:
        size = hand_size(rules, game.set_size, players, game.hand_size)
    except (RuleError, EngineError):
        size = 7
    yard = max(dominoes.tile_count - 1 - players * size, 0)
    count = min(size + yard, dominoes.tile_count - 1)
    return max_hand_points(count, game.set_size, rules, excluded=[Tile(double, double)])


def _parse_total(text: str, who: str, bound: int) -> tuple[int | None, str | None]:
    """A typed total as points, or an error message."""
    text = text.strip()
    if not text:
        return None, None
    if text.startswith("-") and _DIGITS.fullmatch(text[1:].strip()):
        return None, _("%(who)s: a score can't be negative.", who=who)
    if not _DIGITS.fullmatch(text):
        return None, _("%(who)s: type the points as a whole number (digits only).", who=who)
    if len(text) > MAX_SCORE_DIGITS or int(text) > bound:
        return None, _(
            "%(who)s: %(text)s points is more than any hand could hold in this game "
            "(at most %(bound)s).",
            who=who,
            text=text[:12],
            bound=bound,
        )
    return int(text), None


def parse_total(text: str, who: str, bound: int) -> tuple[int | None, str | None]:
    """A typed total as points (at most ``bound``), or a message in the player's words."""
    return _parse_total(text, who, bound)


def parse_tiles(
    dominoes: DominoSet, texts: Sequence[str], who: str
) -> tuple[list[Tile], list[str]]:
    """Tapped tiles of the set, and messages for texts that are not tiles of it."""
    return _parse_tiles(dominoes, texts, who)


def _parse_tiles(
    dominoes: DominoSet, texts: Sequence[str], who: str
) -> tuple[list[Tile], list[str]]:
    """Tiles from the picker, and messages for those that are not tiles of this set."""
    tiles: list[Tile] = []
    problems: list[str] = []
    for text in texts[: dominoes.tile_count + 1]:
        try:
            tile = dominoes.parse(str(text)[:20])
        except TileError as exc:
            problems.append(_("%(who)s: %(problem)s", who=who, problem=error_words(exc)))
            continue
        if tile in tiles:
            continue  # the same checkbox twice is one tile
        tiles.append(tile)
    return tiles, problems


def check_round(game: Game, entry: RoundEntry) -> tuple[ScoredRound | None, EntryErrors]:
    """Check a round as entered and score it with the engine (RULES.md §6, §7).

    Returns the scored round, or None with the messages that say what to fix: unknown tiles or
    tiles outside the set, a tile in two hands, the centre double in a hand, a negative or
    impossible score, more than one player out, a player out who still has tiles or points,
    nobody out in a round that was not blocked, a typed total that disagrees with the tapped
    tiles.
    """
    errors = EntryErrors()
    rules = rules_of(game)
    dominoes = dominoes_of(game)
    centre = Tile(entry.double, entry.double)
    bound = score_bound(game, entry.double)
    outs = [h for h in entry.hands if h.went_out]
    if len(outs) > 1:
        errors.add(None, _("Only one player can go out in a round; %(n)s are marked.", n=len(outs)))
    if entry.blocked and outs:
        errors.add(None, _("A blocked round has nobody going out: untick one of them."))
    if not entry.blocked and not outs:
        errors.add(None, _("Mark who went out, or that the round was blocked."))
    seen: dict[Tile, str] = {}
    scored: list[ScoredHand] = []
    for hand in entry.hands:
        result = _check_hand(hand, entry, rules, dominoes, centre, bound, seen, errors)
        if result is not None:
            scored.append(result)
    if errors:
        return None, errors
    outcome = "blocked" if entry.blocked else "out"
    return ScoredRound(entry.double, outcome, entry.starter_seat_id, tuple(scored)), errors


def _check_hand(
    hand: HandEntry,
    entry: RoundEntry,
    rules: RuleSet,
    dominoes: DominoSet,
    centre: Tile,
    bound: int,
    seen: dict[Tile, str],
    errors: EntryErrors,
) -> ScoredHand | None:
    """Check and score one seat; messages go to ``errors``."""
    who = hand.seat.player.name
    typed, problem = _parse_total(hand.total, who, bound)
    if problem:
        errors.add(total_field(hand.seat), problem)
    tiles, tile_problems = _parse_tiles(dominoes, hand.tiles, who)
    for message in tile_problems:
        errors.add(tiles_field(hand.seat), message)
    ok = not problem and not tile_problems
    for tile in tiles:
        if tile == centre:
            errors.add(
                tiles_field(hand.seat),
                _(
                    "%(who)s: %(tile)s is this round's centre double, so it can't be in a hand.",
                    who=who,
                    tile=str(tile),
                ),
            )
            ok = False
        elif tile in seen:
            errors.add(
                tiles_field(hand.seat),
                _(
                    "%(tile)s can't be in both %(a)s's and %(b)s's hands.",
                    tile=str(tile),
                    a=seen[tile],
                    b=who,
                ),
            )
            ok = False
        else:
            seen[tile] = who
    if not ok:
        return None
    if hand.went_out:
        return _went_out(hand, entry, rules, typed, tiles, who, errors)
    if tiles:
        points = score_hand(tiles, rules, round_double=centre).points
        if typed is not None and typed != points:
            errors.add(
                total_field(hand.seat),
                _(
                    "%(who)s: the tapped tiles add up to %(points)s points, but %(typed)s was "
                    "typed. Clear one of them.",
                    who=who,
                    points=points,
                    typed=typed,
                ),
            )
            return None
        return ScoredHand(hand.seat.id, points, False, False, [str(t) for t in tiles])
    if typed is None:
        errors.add(
            total_field(hand.seat),
            _("%(who)s: type the points left in hand, or tap the tiles.", who=who),
        )
        return None
    if typed == 0 and not _zero_hand_possible(rules, centre):
        errors.add(
            total_field(hand.seat),
            _(
                "%(who)s: 0 points means no tiles left; tick “went out” for %(who)s, or type the "
                "points left in hand.",
                who=who,
            ),
        )
        return None
    return ScoredHand(hand.seat.id, typed, False, False, None)


def _zero_hand_possible(rules: RuleSet, centre: Tile) -> bool:
    """Can a player who did not go out score 0? Only holding nothing but the double-blank when
    it is worth 0 (RULES.md §8, EDG-02), and never in the 0-0 round."""
    return centre != Tile(0, 0) and tile_points(Tile(0, 0), rules) == 0


def _went_out(
    hand: HandEntry,
    entry: RoundEntry,
    rules: RuleSet,
    typed: int | None,
    tiles: list[Tile],
    who: str,
    errors: EntryErrors,
) -> ScoredHand | None:
    """Score the player who went out: 0, or the going-out-on-a-double penalty (RULES.md §6)."""
    try:
        result = score_hand(
            tiles,
            rules,
            went_out=True,
            last_tile_was_double=entry.out_on_double,
            round_double=Tile(entry.double, entry.double),
        )
    except EngineError:
        errors.add(
            tiles_field(hand.seat),
            _("%(who)s went out, so %(who)s has no tiles left: clear the tapped tiles.", who=who),
        )
        return None
    if typed is not None and typed != result.points:
        errors.add(
            total_field(hand.seat),
            _(
                "%(who)s went out, so %(who)s scores %(points)s points, not %(typed)s.",
                who=who,
                points=result.points,
                typed=typed,
            ),
        )
        return None
    on_double = entry.out_on_double
    return ScoredHand(hand.seat.id, result.points, True, on_double, [])


# --- storing ----------------------------------------------------------------------------------


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
        hand = by_seat.get(seat_id)
        if hand is None:
            hand = HandScore(seat_id=seat_id, points=0)
            rnd.hands.append(hand)
        hand.points = data["points"]
        hand.went_out = data["went_out"]
        hand.out_on_double = data["out_on_double"]
        hand.tiles = data["tiles"]
        hand.entered_by = data.get("entered_by") or ""


def _hands_summary(game: Game, snap: Mapping[str, Any]) -> str:
    names = {s.id: s.player.name for s in game.seats}
    # Who entered each hand is said once phones post hands; a round typed entirely by the
    # scorekeeper reads as before.
    phones = any(
        h.get("entered_by") in (EnteredBy.PHONE, EnteredBy.OVERRULED) for h in snap["hands"]
    )
    parts = []
    for h in snap["hands"]:
        name = names.get(h["seat_id"], "?")
        text = f"{name} {h['points']}"
        if h["went_out"]:
            text += " " + _("(went out)")
        by = entered_words(name, h.get("entered_by")) if phones else ""
        if by:
            text += f" ({by})"
        parts.append(text)
    return ", ".join(parts)


def check_version(game: Game, version: Any) -> None:
    """Raise :class:`Conflict` unless ``version`` (from the form) is the game's version."""
    if str(version).strip() != str(game.version):
        raise Conflict()


def refresh_status(game: Game) -> None:
    """Finish the game when the engine says it is over, reopen it when a correction undoes
    that (RULES.md §4, §8)."""
    if game_over(game):
        if game.status != "finished":
            game.status = "finished"
            game.finished_at = utcnow()
    elif game.status == "finished":
        game.status = "active"
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


def commit_change(game: Game, action: str, summary: str, before: Any, after: Any) -> None:
    """Record an audit entry, bump the game's version and commit everything in one transaction.

    Raises :class:`Conflict` when another request saved first (the unique round number or
    double, or the game's optimistic version); nothing is stored then.
    """
    with conflict_guard():
        game.updated_at = utcnow()
        refresh_status(game)
        db.session.add(
            AuditEntry(game=game, action=action, summary=summary[:300], before=before, after=after)
        )
        db.session.commit()


def save_round(
    game: Game,
    scored: ScoredRound,
    version: Any,
    also: Callable[[Round], None] | None = None,
) -> Round:
    """Store a new round with all its hand scores in one transaction and audit it; ``also``
    runs inside that transaction before the commit (the posted hands are marked taken).

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
        status="scored",
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
    summary = _(
        "Round %(k)s (%(d)s) saved: %(hands)s",
        k=len(scored_rounds(game)),
        d=double_name(scored.double),
        hands=_hands_summary(game, snap),
    )
    commit_change(game, "round_saved", summary, None, snap)
    return rnd


def _entered_after_edit(before: Mapping[str, Any], hand: ScoredHand) -> str:
    """A corrected hand keeps who entered it when unchanged; otherwise the scorekeeper did."""
    old = next((h for h in before["hands"] if h["seat_id"] == hand.seat_id), None)
    same = old is not None and (old["points"], old["went_out"], old["tiles"]) == (
        hand.points,
        hand.went_out,
        hand.tiles,
    )
    return (old.get("entered_by") or "") if same and old else str(EnteredBy.SCOREKEEPER)


def edit_round(game: Game, rnd: Round, scored: ScoredRound, version: Any) -> Round:
    """Replace a saved round's hands (same checks as a new round), audited with old and new
    values. Raises :class:`Conflict` for a stale ``version``."""
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
    apply_snapshot(rnd, after)
    summary = _(
        "Round with %(d)s corrected: %(hands)s",
        d=double_name(rnd.start_double),
        hands=_hands_summary(game, after),
    )
    commit_change(game, "round_edited", summary, before, after)
    return rnd


def burn_double(game: Game, double: int, version: Any) -> Round:
    """Record that nobody held ``double`` and the house rule burns it (RULES.md §3.5:
    ``skip_to_next_lower``, ``skip_to_next_lower_except_blank``).

    Raises :class:`Conflict` for a stale version or a double the engine would not burn now.
    """
    check_version(game, version)
    plan = plan_round(game)
    if plan is None or plan.double != double or not plan.burnable:
        raise Conflict()
    rnd = Round(game=game, number=plan.number, start_double=double, status="burned")
    db.session.add(rnd)
    summary = _("Nobody held %(d)s: burned for this game.", d=double_name(double))
    commit_change(game, "double_burned", summary, None, round_snapshot(rnd))
    return rnd
