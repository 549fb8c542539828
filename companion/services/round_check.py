"""Checking a round as the scorekeeper entered it, and scoring it with the engine (RULES.md §6
hand points, §7 going out, §8 the double-blank).

The second job of a round (:mod:`.round_plan`, check, :mod:`.round_store`). A round is checked
over plain hand entries (:class:`RoundEntry` of :class:`HandEntry`, raw texts as typed or tapped)
by :func:`check_entry`, the checks' one home: the scorekeeper's round form
(:mod:`companion.web.round_form`) calls it from its
validation and shows each message beside what was typed, and the players' auto-save calls
:func:`check_round` without building any form. Each check says what is wrong as a
:class:`companion.errors.Problem` whose ``field`` is the :class:`HandPart` it is about (None: the
round as a whole).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

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
from ..errors import Problem
from ..mapping import dominoes_of, rules_of
from ..models import Game, Seat
from ..text import ascii_whole_number, shortened
from ..vocab import RoundOutcome
from ..words import error_words

#: the longest typed score accepted as a number (more digits is refused as too large)
MAX_SCORE_DIGITS = 6


class HandPart(StrEnum):
    """The entries of one hand on the round form: a typed total, tapped tiles, "went out" and
    the revision of the hand posted from the player's phone that filled it."""

    TOTAL = "total"
    TILES = "tiles"
    OUT = "out"
    SEEN = "seen"
    #: the posted hand the box was filled with (HandValue.key), to tell it from typing over it
    FILLED = "filled"


def hand_field(part: HandPart | str, seat_id: int | str) -> str:
    """The name of a hand's field on the round form: ``total_12`` for seat 12's typed total
    (the templates, static/js/score.js and table.js, the offline outbox and the photo drafts
    know these names)."""
    return f"{part}_{seat_id}"


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


def score_bound(game: Game, double: int) -> int:
    """The most points a typed total may have in the round of ``game`` that starts with
    ``double``, in points (:func:`hand_bound` of the game's rules, set and seats)."""
    return hand_bound(rules_of(game), dominoes_of(game), len(game.seats), game.hand_size, double)


def hand_bound(
    rules: RuleSet, dominoes: DominoSet, players: int, chosen_size: int | None, double: int
) -> int:
    """The most points one hand may have, in points, for ``players`` players (at least one) of
    ``dominoes`` dealt ``chosen_size`` tiles each (None: the house rules' hand size).

    A hand holds its dealt tiles plus whatever was drawn from the chicken yard, so the bound is
    what the heaviest ``hand size + chicken yard`` tiles of the set could score (engine
    :func:`max_hand_points`), leaving out the centre double. The round form and the import
    (:mod:`companion.services.exchange.validate`) both hold a hand to it.
    """
    players = max(players, 1)
    try:
        size = hand_size(rules, dominoes.n, players, chosen_size)
    except (RuleError, EngineError):
        size = 7
    yard = max(dominoes.tile_count - 1 - players * size, 0)
    count = min(size + yard, dominoes.tile_count - 1)
    return max_hand_points(count, dominoes.n, rules, excluded=[Tile(double, double)])


def parse_total(text: str, who: str, bound: int) -> tuple[int | None, str | None]:
    """A typed total as points (at most ``bound``), or a message in the player's words."""
    text = text.strip()
    if not text:
        return None, None
    if text.startswith("-") and ascii_whole_number(text[1:].strip()):
        return None, _("%(who)s: a score can't be negative.", who=who)
    if not ascii_whole_number(text):
        return None, _("%(who)s: type the points as a whole number (digits only).", who=who)
    if len(text) > MAX_SCORE_DIGITS or int(text) > bound:
        return None, too_many_points(who, shortened(text, 12), bound)
    return int(text), None


def too_many_points(who: str, text: str, bound: int) -> str:
    """Why a typed total ``text`` above ``bound`` points (the most a hand may hold, or more
    digits than :data:`MAX_SCORE_DIGITS`) is refused, in the player's words: the round form's,
    the post's, and the hand page's script's (static/js/hand.js, "{typed}" to fill in)."""
    return ngettext(
        "%(who)s: %(text)s is more than any hand could hold in this game (at most %(num)s point).",
        "%(who)s: %(text)s is more than any hand could hold in this game (at most %(num)s points).",
        bound,
        who=who,
        text=text,
    )


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


def round_end_problems(outs: int, blocked: bool) -> list[Problem]:
    """What is wrong with how the round ended (RULES.md §7): ``outs`` players marked as gone
    out, and whether the round was marked as blocked."""
    problems = []
    if outs > 1:
        problems.append(
            Problem(_l("Only one player can go out in a round; %(n)s are marked.", n=outs))
        )
    if blocked and outs:
        problems.append(Problem(_l("A blocked round has nobody going out: untick one of them.")))
    if not blocked and not outs:
        problems.append(Problem(_l("Mark who went out, or that the round was blocked.")))
    return problems


def centre_double_in_hand(who: str, tile: str) -> LazyString:
    """Why ``tile``, the round's centre double (it starts the layout), cannot be in ``who``'s
    hand, in the players' words: the round form's message, and both photo pages' (refused on
    Confirm, flagged beside the picker before it)."""
    return _l(
        "%(who)s: %(tile)s is this round's centre double, so it can't be in a hand.",
        who=who,
        tile=tile,
    )


def tile_in_two_hands(tile: str, first: str, second: str) -> LazyString:
    """Why ``tile`` cannot be in ``second``'s hand, ``first``'s holding it already (a set has
    one of each tile), in the players' words: the round form's message, and the scorekeeper's
    photo page's."""
    return _l("%(tile)s can't be in both %(a)s's and %(b)s's hands.", tile=tile, a=first, b=second)


def placement_problems(
    tiles: Sequence[Tile], centre: Tile, seen: dict[Tile, str], who: str
) -> list[Problem]:
    """Tapped tiles that cannot be in ``who``'s hand: the round's centre double, or a tile
    already in another hand (``seen``: tile -> whose hand, filled in seat order)."""
    problems = []
    for tile in tiles:
        if tile == centre:
            problems.append(Problem(centre_double_in_hand(who, str(tile)), HandPart.TILES))
        elif tile in seen:
            problems.append(Problem(tile_in_two_hands(str(tile), seen[tile], who), HandPart.TILES))
        else:
            seen[tile] = who
    return problems


@dataclass(frozen=True)
class HandCheck:
    """One hand as read from the form, ready for scoring: whose seat (id, name), the typed
    total (points, None when nothing was typed), the tapped tiles, and whether they went out."""

    seat_id: int
    who: str
    typed: int | None
    tiles: list[Tile]
    went_out: bool


def score_entry(
    hand: HandCheck, rules: RuleSet, centre: Tile, out_on_double: bool, *, own: bool = False
) -> ScoredHand | Problem:
    """Score one hand with the engine (RULES.md §6), or say why it cannot be scored: a typed
    total that disagrees with the tapped tiles, nothing entered, an impossible 0, tiles left
    in the hand of the player who went out. ``own``: posted by the player's own phone, whose
    box is "I went out"; the scorekeeper's round form's is "Went out" (companion/web/
    round_form.py): the words quote the box the player sees, in every language (and say
    which of the phone's two boxes to clear, :func:`typed_beside_tiles`)."""
    who = hand.who
    if hand.went_out:
        return _went_out(hand, rules, centre, out_on_double)
    if hand.tiles:
        points = score_hand(hand.tiles, rules, round_double=centre).points
        if hand.typed is not None and hand.typed != points:
            return Problem(typed_beside_tiles(who, points, hand.typed, own=own), HandPart.TOTAL)
        return ScoredHand(hand.seat_id, points, False, False, [str(t) for t in hand.tiles])
    if hand.typed is None:
        message = _l("%(who)s: type the points left in hand, or tap the tiles.", who=who)
        return Problem(message, HandPart.TOTAL)
    if hand.typed == 0 and not _zero_hand_possible(rules, centre):
        if own:  # the phone's box, quoted as its label reads (table/hand.html)
            message = _l(
                "%(who)s: 0 points means no tiles left; tick “%(box)s”, or type the points "
                "left in your hand.",
                who=who,
                box=_l("I went out"),
            )
        else:  # the scorekeeper's box, as its label reads (games/_round_form.html)
            message = _l(
                "%(who)s: 0 points means no tiles left; tick “%(box)s” for %(who)s, or type "
                "the points left in hand.",
                who=who,
                box=_l("Went out"),
            )
        return Problem(message, HandPart.TOTAL)
    return ScoredHand(hand.seat_id, hand.typed, False, False, None)


def typed_beside_tiles(
    who: str, points: int | str, typed: int | str, *, own: bool = False, count: int | None = None
) -> str:
    """Why a total typed beside tapped tiles that add up to other ``points`` is refused, in the
    words of the form the player sees: ``own``, the player's own phone (its hand form: which
    to clear, the typed total or the tiles), else the scorekeeper's round form (which names
    the boxes to clear). ``count``: the number that picks the language's plural form when
    ``points`` is not one (the hand page gives the words to static/js/hand.js with "{points}"
    and "{typed}" to fill in, one per plural form: :func:`companion.words.plural_forms`)."""
    n = count if count is not None else int(points)
    if own:
        return ngettext(
            "Your tapped tiles add up to %(points)s point, but you typed %(typed)s. To post "
            "%(typed)s, untick the tiles; to post the tiles, empty “%(box)s”.",
            "Your tapped tiles add up to %(points)s points, but you typed %(typed)s. To post "
            "%(typed)s, untick the tiles; to post the tiles, empty “%(box)s”.",
            n,
            points=points,
            typed=typed,
            box=_("Points left in my hand"),
        )
    return ngettext(
        "%(who)s: the tapped tiles add up to %(points)s point, but %(typed)s was "
        "typed. To keep %(typed)s, untick %(who)s's tiles under “Tiles”; to keep the "
        "tiles, empty %(who)s's points box.",
        "%(who)s: the tapped tiles add up to %(points)s points, but %(typed)s was "
        "typed. To keep %(typed)s, untick %(who)s's tiles under “Tiles”; to keep the "
        "tiles, empty %(who)s's points box.",
        n,
        who=who,
        points=points,
        typed=typed,
    )


def judge_hand(hand: HandCheck, rules: RoundRules, out_on_double: bool) -> Problem | None:
    """Why a hand saved elsewhere (a round of an imported backup, ``hand.typed`` its points)
    is not one the round form would have saved, in the player's words (None when it is): the
    same checks, the bound of :func:`parse_total` and the engine's scoring of
    :func:`score_entry`, so a hand's points always agree with its tiles under the house rules.
    """
    if hand.typed is not None and hand.typed > rules.bound:
        _, message = parse_total(str(hand.typed), hand.who, rules.bound)
        return Problem(message or "", HandPart.TOTAL)
    with_tiles = bool(hand.tiles) and not hand.went_out
    # tiles and points both given: score the tiles, then say which points they make (the
    # form's own message tells the keeper which box to empty, there is no box here)
    result = score_entry(
        replace(hand, typed=None) if with_tiles else hand, rules.rules, rules.centre, out_on_double
    )
    if isinstance(result, Problem):
        return result
    if hand.typed is not None and hand.typed != result.points:
        message = ngettext(
            "%(who)s: the tiles %(tiles)s add up to %(points)s point, not %(typed)s.",
            "%(who)s: the tiles %(tiles)s add up to %(points)s points, not %(typed)s.",
            result.points,
            who=hand.who,
            tiles=" ".join(str(t) for t in hand.tiles),
            points=result.points,
            typed=hand.typed,
        )
        return Problem(message, HandPart.TOTAL)
    return None


def _zero_hand_possible(rules: RuleSet, centre: Tile) -> bool:
    """Can a player who did not go out score 0? Only holding nothing but the double-blank when
    it is worth 0 (RULES.md §8, EDG-02), and never in the 0-0 round."""
    return centre != Tile(0, 0) and tile_points(Tile(0, 0), rules) == 0


def _went_out(
    hand: HandCheck, rules: RuleSet, centre: Tile, out_on_double: bool
) -> ScoredHand | Problem:
    """Score the player who went out: 0, or the going-out-on-a-double penalty (RULES.md §6)."""
    who = hand.who
    try:
        result = score_hand(
            hand.tiles,
            rules,
            went_out=True,
            last_tile_was_double=out_on_double,
            round_double=centre,
        )
    except EngineError:
        return Problem(went_out_with_tiles(who), HandPart.TILES)
    if hand.typed is not None and hand.typed != result.points:
        return Problem(went_out_scores(who, result.points, hand.typed), HandPart.TOTAL)
    return ScoredHand(hand.seat_id, result.points, True, out_on_double, [])


def went_out_with_tiles(who: str) -> str:
    """Why tapped tiles are refused beside "went out" for ``who`` (RULES.md §6), in the
    player's words: the round form's, the post's and the hand page's script's
    (hand_posts.out_refusal)."""
    return _("%(who)s went out, so %(who)s has no tiles left: clear the tapped tiles.", who=who)


def went_out_scores(who: str, points: int, typed: int | str) -> str:
    """Why ``typed`` points are refused for ``who``, who went out and so scores ``points``
    (RULES.md §6), in the player's words: the round form's, the post's and the hand page's
    script's (``typed`` "{typed}" for it to fill in: hand_posts.out_refusal)."""
    return ngettext(
        "%(who)s went out, so %(who)s scores %(points)s point, not %(typed)s.",
        "%(who)s went out, so %(who)s scores %(points)s points, not %(typed)s.",
        points,
        who=who,
        points=points,
        typed=typed,
    )


# --- a round as entered, checked as a whole -------------------------------------------------------


@dataclass(frozen=True)
class RoundRules:
    """What checking a round's hands needs (RULES.md §6): the house rules, the set, the
    round's centre double and the most points a typed total may have (points)."""

    rules: RuleSet
    dominoes: DominoSet
    centre: Tile
    bound: int

    @classmethod
    def of(cls, game: Game, double: int) -> RoundRules:
        """The rules for the round of ``game`` that starts with ``double``."""
        return cls(
            rules_of(game), dominoes_of(game), Tile(double, double), score_bound(game, double)
        )


@dataclass
class HandEntry:
    """What was entered for one seat: a typed total (raw text, points) and/or tapped tiles
    (raw texts such as ``"5-4"``), and whether the player went out."""

    seat: Seat
    total: str = ""
    tiles: list[str] = field(default_factory=list)
    went_out: bool = False

    @property
    def who(self) -> str:
        """The name of the player in this seat, as messages say it."""
        return str(self.seat.player.name)


@dataclass
class RoundEntry:
    """A round as entered: its double, the hands (in seat order), blocked, the last tile a
    double, who started (a seat id, None when not recorded)."""

    double: int
    hands: list[HandEntry]
    blocked: bool = False
    out_on_double: bool = False
    starter_seat_id: int | None = None


@dataclass
class HandReading:
    """One hand as checked: the typed total (points, None if blank), the tapped tiles, and the
    messages about its total and about its tiles, in the order they were found."""

    entry: HandEntry
    typed: int | None
    tiles: list[Tile]
    total_problems: list[str] = field(default_factory=list)
    tile_problems: list[str] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        """Keep ``problem`` with the part of the hand it is about (the total by default)."""
        about_tiles = problem.field is not None and HandPart(problem.field) is HandPart.TILES
        (self.tile_problems if about_tiles else self.total_problems).append(str(problem))

    @property
    def refused(self) -> bool:
        """Does this hand have a message?"""
        return bool(self.total_problems or self.tile_problems)


@dataclass
class RoundCheck:
    """What checking a round found: the scored round (None when anything is wrong), the
    messages about the round as a whole, and each hand as read, in seat order."""

    scored: ScoredRound | None
    round_problems: list[str]
    hands: list[HandReading]

    def messages(self) -> list[str]:
        """Every message, those about the round first, then each hand's (total, then tiles)."""
        in_hands = [m for h in self.hands for m in (*h.total_problems, *h.tile_problems)]
        return [*self.round_problems, *in_hands]


def read_hand(entry: HandEntry, rules: RoundRules) -> HandReading:
    """Read one hand's typed total (at most ``rules.bound`` points) and tapped tiles."""
    typed, problem = parse_total(entry.total, entry.who, rules.bound)
    tiles, tile_problems = parse_tiles(rules.dominoes, entry.tiles, entry.who)
    return HandReading(entry, typed, tiles, [problem] if problem else [], tile_problems)


def check_entry(entry: RoundEntry, rules: RoundRules) -> RoundCheck:
    """Check a round as entered and score each hand with the engine (RULES.md §6-§8): each
    hand's total and tiles read, who went out, no tile twice nor the centre double in a hand."""
    hands = [read_hand(h, rules) for h in entry.hands]
    outs = sum(1 for h in entry.hands if h.went_out)
    problems = [str(p) for p in round_end_problems(outs, entry.blocked)]
    seen: dict[Tile, str] = {}
    scored: list[ScoredHand] = []
    for hand in hands:
        for problem in placement_problems(hand.tiles, rules.centre, seen, hand.entry.who):
            hand.add(problem)
        if hand.refused:
            continue
        check = HandCheck(
            hand.entry.seat.id, hand.entry.who, hand.typed, hand.tiles, hand.entry.went_out
        )
        result = score_entry(check, rules.rules, rules.centre, entry.out_on_double)
        if isinstance(result, Problem):
            hand.add(result)
        else:
            scored.append(result)
    if problems or any(h.refused for h in hands):
        return RoundCheck(None, problems, hands)
    outcome = RoundOutcome.BLOCKED if entry.blocked else RoundOutcome.OUT
    starters = {h.seat.id for h in entry.hands}
    starter = entry.starter_seat_id if entry.starter_seat_id in starters else None
    return RoundCheck(
        ScoredRound(rules.centre.high, outcome, starter, tuple(scored)), problems, hands
    )


def check_round(game: Game, entry: RoundEntry) -> tuple[ScoredRound | None, list[str]]:
    """Check and score a round of ``game`` entered without a page (the players' auto-save,
    benchmarks, seeded games): one hand per seat of the game, in seat order (a seat without
    an entry has entered nothing; an entry for a seat not in the game is ignored). Returns the
    scored round, or None and every message."""
    given = {h.seat.id: h for h in entry.hands}
    hands = [given.get(seat.id) or HandEntry(seat) for seat in game.seats]
    found = check_entry(replace(entry, hands=hands), RoundRules.of(game, entry.double))
    return found.scored, found.messages()
