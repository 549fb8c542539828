"""Checking a round as the scorekeeper entered it, and scoring it with the engine (RULES.md §6
hand points, §7 going out, §8 the double-blank).

The second job of a round (:mod:`.round_plan`, check, :mod:`.round_store`). Messages for the
scorekeeper are collected as :class:`EntryErrors` (form field name -> messages, plus messages
about the round as a whole): the one error shape from the engine's refusals to the page, so
that the form is shown again with everything that was typed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from flask_babel import gettext as _

from ..engine import (
    DominoSet,
    EngineError,
    RuleError,
    RuleSet,
    Tile,
    TileError,
    hand_size,
    max_hand_points,
    score_hand,
    tile_points,
)
from ..mapping import dominoes_of, rules_of
from ..models import Game, Seat
from ..vocab import RoundOutcome
from ..words import error_words

#: the longest typed score accepted as a number (more digits is refused as too large)
MAX_SCORE_DIGITS = 6
_DIGITS = re.compile(r"[0-9]+")


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
    outcome: RoundOutcome
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


def parse_total(text: str, who: str, bound: int) -> tuple[int | None, str | None]:
    """A typed total as points (at most ``bound``), or a message in the player's words."""
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


def parse_tiles(
    dominoes: DominoSet, texts: Sequence[str], who: str
) -> tuple[list[Tile], list[str]]:
    """Tapped tiles of the set (each once), and messages for texts that are not tiles of it."""
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
    outcome = RoundOutcome.BLOCKED if entry.blocked else RoundOutcome.OUT
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
    typed, problem = parse_total(hand.total, who, bound)
    if problem:
        errors.add(total_field(hand.seat), problem)
    tiles, tile_problems = parse_tiles(dominoes, hand.tiles, who)
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
