"""Whole games of Chicken Foot played by simple random players (RULES.md §3-§8).

The simulator owns no rule of its own: the deal comes from :func:`~.deal.deal`, the round's
double from :func:`~.sequence.next_round`, the starter from :func:`~.starters.start_of_round`,
the moves from :func:`~.moves.legal_moves`, drawing from :func:`~.turns.advise_turn`, the end of
a round from :func:`~.round_end.round_status`, scores from :func:`~.scoring.score_hand` (through
``round_status``) and the winner from :func:`~.tiebreak.decide`. It only supplies the chance:
shuffling, dealing and the players' choices, all from one seeded :class:`random.Random`, so a
seed always replays the same game.

It is used by the property tests (tests/engine/test_properties.py) and by
benchmarks/engine_bench.py. Players are named ``P1``..``Pn`` and seated clockwise in that order.

Choices the rules leave to the table, made here as follows:

* the search for a missing or set-aside double, and drawing for the first starter, begin with the
  player to the left of the dealer; the dealer of round r is seat r - 1 counted from ``P1``'s
  right, so ``P1`` begins in round 1, ``P2`` in round 2, and so on (§3.4, §3.6);
* the centre double is laid by whoever holds it, even when ``rotate_left`` makes someone else the
  round's starter (§3.6);
* a random player announces their last tile, so ``last_tile_announcement`` never costs a draw;
* a player who may (but need not) draw, play the drawn tile, or lay another tile under
  ``tiles_per_turn = "unlimited"``, does so with probability 1/2;
* under ``game_length = "target_total"`` the game also ends after the round in which someone
  reaches the target (§4).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from .deal import check_table, deal
from .layout import Layout
from .moves import legal_moves
from .reasons import Reason
from .round_end import round_status
from .rules import GameLength, RuleSet, StartDoubleSource, Starter, TilesPerTurn, spokes_required
from .sequence import NextRound, next_round
from .starters import StartInfo, start_of_round
from .state import RoundInPlay, RoundStart
from .tiebreak import Decision, Standing, decide, records, standings
from .tiles import DominoSet, Tile
from .turns import advise_turn, drawable_tiles

#: A round longer than this many turns means the simulator and the engine disagree (a bug).
MAX_TURNS_PER_ROUND = 100_000
#: Redeals tried under ``reshuffle_redeal`` before giving up (each succeeds with p >= 1/20).
MAX_REDEALS = 10_000


class SimulationError(RuntimeError):
    """The simulated game reached a state the engine's rules should make impossible."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened during a round, given to an ``on_event`` observer.

    Attributes:
        kind: ``"play"``, ``"draw"`` or ``"pass"``.
        round_number: 1-based round.
        player: who acted.
        layout: the layout *before* the event.
        hand: the player's hand before the event.
        yard_count: tiles in the chicken yard before the event.
        tile: the tile played or drawn (None for a pass).
        on: the target id of a play (``""`` otherwise).
        played_this_turn: tiles the player had already laid this turn (for ``check_move``).
        drawn: True when a play is of the tile just drawn (§5.5).
    """

    kind: str
    round_number: int
    player: str
    layout: Layout
    hand: tuple[Tile, ...]
    yard_count: int
    tile: Tile | None = None
    on: str = ""
    played_this_turn: int = 0
    drawn: bool = False


Observer = Callable[[Event], None]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One simulated round (RULES.md §3-§7). Player-indexed tuples follow the seating order.

    Attributes:
        number: 1-based round number.
        start_double: the centre double's number (9 for 9-9).
        burned: doubles skipped for good before this round (§3.5 skip rules).
        passed_over: doubles passed over for this round only (``retry_next_round``).
        drawn_for: nobody held the double and players drew for it (§3.4).
        redeals: times the tiles were reshuffled because nobody held it (``reshuffle_redeal``).
        starter: who started the round; first_to_play: who laid the first spoke (§3.6).
        spokes_required: K for this table (§5.2).
        layout: the final layout (centre double included in ``layout.used``).
        hands_left: the tiles each player held at the end.
        yard_left: the chicken yard at the end, reserve included.
        reason: ``OUT``, ``BLOCKED`` or ``NO_DRAW`` (§6, §5.5).
        went_out: who laid their last tile (``OUT`` only); went_out_on_double: that tile was a
            double (§6).
        scores: each player's round score in points (§7).
        turns, plays, draws: counts of turns taken, tiles laid and tiles drawn in play
            (drawing for a missing double not included).
    """

    number: int
    start_double: int
    burned: tuple[int, ...]
    passed_over: tuple[int, ...]
    drawn_for: bool
    redeals: int
    starter: str
    first_to_play: str
    spokes_required: int
    layout: Layout
    hands_left: tuple[tuple[Tile, ...], ...]
    yard_left: tuple[Tile, ...]
    reason: str
    went_out: str | None
    went_out_on_double: bool
    scores: tuple[int, ...]
    turns: int
    plays: int
    draws: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One simulated game (RULES.md §4, §8).

    Attributes:
        rules: the house rules played; set_size: N of the double-N set.
        players: the player names in seating order (clockwise).
        seed: the seed it was played with (None when a Random was passed in).
        rounds: every round played, in order.
        totals: each player's total in points, in seating order.
        decision: the winner(s) and the tie-break step that decided (§8).
        standings: the full ranking (§8).
    """

    rules: RuleSet
    set_size: int
    players: tuple[str, ...]
    seed: int | None
    rounds: tuple[RoundRecord, ...]
    totals: tuple[int, ...]
    decision: Decision
    standings: tuple[Standing, ...]

    @property
    def round_scores(self) -> Mapping[str, tuple[int, ...]]:
        """Player -> round scores in round order (points)."""
        return MappingProxyType(
            {p: tuple(r.scores[i] for r in self.rounds) for i, p in enumerate(self.players)}
        )

    @property
    def winners(self) -> tuple[str, ...]:
        """The winning player(s); more than one is a shared win."""
        return self.decision.winners


def player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """``P1``..``Pn`` for a count, or the given names (seating order, clockwise)."""
    if isinstance(players, int):
        return tuple(f"P{i}" for i in range(1, players + 1))
    return tuple(players)


def feasible(rules: RuleSet, players: int, set_size: int | None = None) -> bool:
    """True when ``rules`` can be played by ``players`` on the set (check_table finds nothing)."""
    n = rules.set_size if set_size is None else set_size
    return check_table(rules, n, players).ok


def _rng(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


# --- setting up a round -------------------------------------------------------------------------
@dataclass(slots=True)
class _Table:
    """One round while it is simulated: the public :class:`~.state.RoundStart` it was dealt
    from (rules, seats, round number, double, holders: their one home) and the lists that
    change on every turn, kept mutable here because a frozen state per turn would cost more
    than the turn. :meth:`now` is the public state at this moment, for the engine's verbs."""

    start: RoundStart
    hands: list[list[Tile]]
    yard: list[Tile]
    layout: Layout
    on_event: Observer | None
    turns: int = 0
    plays: int = 0
    draws: int = 0

    def now(
        self, *, to_move: str | None = None, went_out: str | None = None, on_double: bool = False
    ) -> RoundInPlay:
        """The round as a public state now, with what is known of the turn (§6)."""
        return self.start.in_play(
            layout=self.layout,
            hands=dict(zip(self.start.seats, self.hands, strict=True)),
            yard_count=len(self.yard),
            players=len(self.start.seats),
            to_move=to_move,
            went_out=went_out,
            last_tile_was_double=on_double,
        )


def _shuffled(tiles: Sequence[Tile], rng: random.Random) -> list[Tile]:
    out = list(tiles)
    rng.shuffle(out)
    return out


def _deal_hands(tiles: list[Tile], players: int, size: int) -> tuple[list[list[Tile]], list[Tile]]:
    hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
    return hands, tiles[players * size :]


def _search(tiles: Sequence[Tile], target: Tile, first: int, players: int) -> int:
    """Seat of the player who turns up ``target`` when players draw in turn from ``first``."""
    return (first + list(tiles).index(target)) % players


def _highest_draw(state: RoundStart, rng: random.Random) -> StartInfo:
    """Round 1 under ``draw_highest_tile``: tied players draw again until one is highest; the
    drawn tiles go back (§3.6)."""
    pool: list[Tile] = []
    drawing = tuple(state.seats)
    while True:
        if len(pool) < len(drawing):
            pool = _shuffled(DominoSet(n=state.rules.set_size).tiles, rng)
        draws = {p: pool.pop() for p in drawing}
        info = start_of_round(replace(state, number=1, draws=draws))
        if info.starter is not None:
            return info
        drawing = info.tied


@dataclass(frozen=True, slots=True, kw_only=True)
class _Setup:
    """A dealt round: the hands and the chicken yard, the state it starts from (its double,
    who holds or found it) and the engine's word on that double (§3.4, §3.5)."""

    hands: list[list[Tile]]
    yard: list[Tile]
    state: RoundStart
    double: NextRound
    redeals: int = 0


def _setup_held(state: RoundStart, size: int, first: int, rng: random.Random) -> _Setup | None:
    """``held_in_hand``: deal from the whole set, then find the double (§3.4, §3.5)."""
    n, seats = state.n, state.seats
    dominoes = DominoSet(n=n)
    for redeals in range(MAX_REDEALS):
        hands, yard = _deal_hands(_shuffled(dominoes.tiles, rng), len(seats), size)
        where = {t.high: seats[i] for i, h in enumerate(hands) for t in h if t.is_double}
        dealt = replace(
            state, holders={d: where.get(d) for d in range(n + 1) if d not in state.played}
        )
        nxt = next_round(dealt)
        if nxt.game_over:
            return None
        if nxt.redeal:
            continue
        double = nxt.start_double
        assert double is not None
        found_by = None
        if nxt.drawn_for:
            found_by = _draw_for_double(hands, yard, Tile(double, double), first, seats)
        return _Setup(
            hands=hands,
            yard=yard,
            state=replace(dealt, start_double=double, found_by=found_by),
            double=nxt,
            redeals=redeals,
        )
    raise SimulationError(f"Nobody held the double after {MAX_REDEALS} redeals.")


def _draw_for_double(
    hands: list[list[Tile]], yard: list[Tile], target: Tile, first: int, seats: Sequence[str]
) -> str:
    """Players draw in turn until ``target`` appears; drawn tiles stay in hand (§3.4)."""
    seat = first
    while yard:
        tile = yard.pop()
        hands[seat].append(tile)
        if tile == target:
            return seats[seat]
        seat = (seat + 1) % len(seats)
    raise SimulationError(f"{target} is in no hand and not in the chicken yard.")


def _setup_pulled(state: RoundStart, size: int, first: int, rng: random.Random) -> _Setup | None:
    """``pulled_before_deal``: find the double first, set it aside, deal the rest (§3.4)."""
    nxt = next_round(state)
    if nxt.game_over:
        return None
    double = nxt.start_double
    assert double is not None
    target = Tile(double, double)
    seats = state.seats
    searched = _shuffled(DominoSet(n=state.n).tiles, rng)
    found_by = seats[_search(searched, target, first, len(seats))]
    rest = _shuffled([t for t in searched if t != target], rng)  # "the rest are reshuffled"
    hands, yard = _deal_hands(rest, len(seats), size)
    start = replace(state, start_double=double, found_by=found_by)
    return _Setup(hands=hands, yard=yard, state=start, double=nxt)


# --- playing a round ----------------------------------------------------------------------------
def simulate_round(
    rules: RuleSet,
    players: int | Sequence[str],
    seed: int | random.Random = 0,
    *,
    round_number: int = 1,
    played: Sequence[int] = (),
    round1_starter: str | None = None,
    on_event: Observer | None = None,
) -> RoundRecord | None:
    """Deal and play one round to its end with random players (RULES.md §3-§7).

    Args:
        rules: the house rules (``rules.set_size`` is the set).
        players: a player count (names ``P1``..``Pn``) or the names in seating order.
        seed: an int seed or a :class:`random.Random` to draw every chance from.
        round_number: 1-based; decides the starter rule (§3.6) and who searches first.
        played: the start doubles of the rounds played before, in order (§3.5, §4).
        round1_starter: who started round 1 (``rotate_left``, §3.6).
        on_event: called with every :class:`Event` (plays, draws, passes) before it happens.
    Returns the RoundRecord, or None when no double is left to start a round (game over).
    Raises RuleError/HandSizeUndefined when the table cannot play these rules (see
    :func:`feasible`) and SimulationError if the engine's answers contradict each other.
    """
    rng = _rng(seed)
    seats = player_names(players)
    n = rules.set_size
    table_check = check_table(rules, n, len(seats))
    if not table_check.ok:
        raise SimulationError("; ".join(p.message for p in table_check.problems))
    size = deal(rules, n, len(seats)).hand_size
    first = (round_number - 1) % len(seats)
    before = RoundStart(
        rules=rules, number=round_number, seats=seats, played=played, round1_starter=round1_starter
    )
    pulled = rules.start_double_source == StartDoubleSource.PULLED_BEFORE_DEAL
    setup = (_setup_pulled if pulled else _setup_held)(before, size, first, rng)
    if setup is None:
        return None
    starter, first_to_play = _starters(setup.state, rng)
    double = setup.state.double
    centre = Tile(double, double)
    for hand in setup.hands:
        if centre in hand:
            hand.remove(centre)  # whoever holds the double lays it in the centre
    k = spokes_required(rules, n, len(seats))
    table = _Table(
        start=setup.state,
        hands=setup.hands,
        yard=setup.yard,
        layout=Layout.start(centre, k, rules.foot_toes_required),
        on_event=on_event,
    )
    reason, went_out, on_double, scores = _play(rules, table, seats.index(first_to_play), rng)
    return RoundRecord(
        number=round_number,
        start_double=double,
        burned=setup.double.burned,
        passed_over=setup.double.passed_over,
        drawn_for=setup.double.drawn_for,
        redeals=setup.redeals,
        starter=starter,
        first_to_play=first_to_play,
        spokes_required=k,
        layout=table.layout,
        hands_left=tuple(tuple(h) for h in table.hands),
        yard_left=tuple(table.yard),
        reason=reason,
        went_out=went_out,
        went_out_on_double=on_double,
        scores=scores,
        turns=table.turns,
        plays=table.plays,
        draws=table.draws,
    )


def _starters(state: RoundStart, rng: random.Random) -> tuple[str, str]:
    """The starter and the player who lays the first spoke, from the engine (§3.6)."""
    rules = state.rules
    rule = rules.first_round_starter if state.number == 1 else rules.later_round_starter
    if rule == Starter.DRAW_HIGHEST_TILE:
        info = _highest_draw(state, rng)
    else:
        # A set-aside double has no holder; the engine rotates from round 1's starter, and in
        # round 1 the player who turned it up in the search starts.
        if (
            rules.start_double_source == StartDoubleSource.PULLED_BEFORE_DEAL
            and rule != Starter.PRE_DEAL_SEARCH
            and state.round1_starter is not None
        ):
            state = replace(state, found_by=None)
        info = start_of_round(state)
    if info.starter is None or info.first_spoke_by is None:
        raise SimulationError(f"The engine named no starter for round {state.number}: {info}")
    return info.starter, info.first_spoke_by


def _emit(table: _Table, kind: str, seat: int, **extra: object) -> None:
    """Tell the observer, if any. Callers test ``table.on_event`` first: building the keyword
    arguments costs more than a whole turn's bookkeeping when nobody listens."""
    if table.on_event is not None:
        table.on_event(
            Event(
                kind=kind,
                round_number=table.start.number,
                player=table.start.seats[seat],
                layout=table.layout,
                hand=tuple(table.hands[seat]),
                yard_count=len(table.yard),
                **extra,  # type: ignore[arg-type]
            )
        )


def _lay(table: _Table, seat: int, tile: Tile, on: str, streak: int, drawn: bool) -> None:
    if table.on_event is not None:
        _emit(table, "play", seat, tile=tile, on=on, played_this_turn=streak, drawn=drawn)
    table.layout = table.layout.attach(tile, on)
    table.hands[seat].remove(tile)
    table.plays += 1


def _turn(rules: RuleSet, table: _Table, seat: int, rng: random.Random) -> str:
    """One player's turn. Returns ``"played"``, ``"drew"`` or ``"passed"`` (§5.1, §5.5)."""
    hand = table.hands[seat]
    players = len(table.hands)
    advice = advise_turn(table.layout, hand, len(table.yard), rules, players=players)
    if advice.legal_plays and advice.may_draw and rng.random() < 0.5:
        # must_play_if_able = false: this player draws one tile instead of playing (§5.1).
        tile = table.yard.pop()
        if table.on_event is not None:
            _emit(table, "draw", seat, tile=tile)
        table.draws += 1
        hand.append(tile)
        return "drew"
    if advice.legal_plays:
        streak = 0
        moves = advice.legal_plays
        while moves:
            tile, on = rng.choice(moves)
            _lay(table, seat, tile, on, streak, False)
            streak += 1
            if rules.tiles_per_turn != TilesPerTurn.UNLIMITED or not hand or rng.random() < 0.5:
                break
            moves = tuple(legal_moves(table.layout, hand))
        return "played"
    if advice.result == "PASS" or (not advice.must_draw and rng.random() < 0.5):
        if table.on_event is not None:
            _emit(table, "pass", seat)
        return "passed"
    while True:
        tile = table.yard.pop()
        if table.on_event is not None:
            _emit(table, "draw", seat, tile=tile)
        table.draws += 1
        after = advise_turn(
            table.layout, hand, len(table.yard) + 1, rules, players=players, tile_drawn=tile
        )
        hand.append(tile)
        if after.must_play_drawn or (after.may_play_drawn and rng.random() < 0.5):
            targets = [on for t, on in legal_moves(table.layout, (tile,))]
            _lay(table, seat, tile, rng.choice(targets), 0, True)
            return "played"
        if after.result != "DRAW_AGAIN":
            return "drew"


def _play(
    rules: RuleSet, table: _Table, seat: int, rng: random.Random
) -> tuple[str, str | None, bool, tuple[int, ...]]:
    """Play turns from ``seat`` until the engine says the round is over (§6)."""
    players, seats = len(table.hands), table.start.seats
    dead_passes = 0  # consecutive passes with nothing drawable on an unchanged layout
    while table.turns < MAX_TURNS_PER_ROUND:
        table.turns += 1
        hand = table.hands[seat]
        if (
            rules.empty_yard_ends_round
            and drawable_tiles(rules, len(table.yard), players) == 0
            and not legal_moves(table.layout, hand)
        ):
            return _finish(table, Reason.NO_DRAW, to_move=seats[seat])
        outcome = _turn(rules, table, seat, rng)
        if outcome == "played":
            dead_passes = 0
            if not hand:
                last = table.layout.last
                assert last is not None  # a tile was just laid
                return _finish(table, Reason.OUT, went_out=seats[seat], on_double=last.is_double)
        elif outcome == "drew":
            dead_passes = 0
        elif drawable_tiles(rules, len(table.yard), players) == 0:
            dead_passes += 1
            if dead_passes >= players:
                return _finish(table, Reason.BLOCKED)
        seat = (seat + 1) % players
    raise SimulationError(f"Round {table.start.number} did not end in {MAX_TURNS_PER_ROUND} turns.")


def _finish(
    table: _Table,
    expected: str,
    *,
    to_move: str | None = None,
    went_out: str | None = None,
    on_double: bool = False,
) -> tuple[str, str | None, bool, tuple[int, ...]]:
    """Ask the engine whether the round is over and score it (§6, §7)."""
    status = round_status(table.now(to_move=to_move, went_out=went_out, on_double=on_double))
    if not status.over or status.reason != expected:
        raise SimulationError(
            f"The simulator saw {expected} but the engine says {status.reason}: {status.message}"
        )
    scores = tuple(status.scores[p].points for p in table.start.seats)
    return status.reason, status.went_out, on_double, scores


# --- a whole game -------------------------------------------------------------------------------
def simulate_game(
    rules: RuleSet,
    players: int | Sequence[str],
    seed: int | random.Random = 0,
    *,
    on_event: Observer | None = None,
) -> GameRecord:
    """Play a whole game, every round from double-N down, with random players (§4, §8).

    Args:
        rules: the house rules; ``rules.set_size`` is the set (6, 9, 12, 15 or 18).
        players: a player count (2..12) or names in seating order.
        seed: an int seed (recorded) or a :class:`random.Random`.
        on_event: observer of every play, draw and pass (see :class:`Event`).
    Returns the GameRecord with every round, the totals and the tie-break decision.
    Raises SimulationError when the table cannot play these rules (check with
    :func:`feasible`) or when the engine's answers contradict each other.
    """
    rng = _rng(seed)
    seats = player_names(players)
    rounds: list[RoundRecord] = []
    played: list[int] = []
    round1_starter: str | None = None
    totals = [0] * len(seats)
    while True:
        record = simulate_round(
            rules,
            seats,
            rng,
            round_number=len(rounds) + 1,
            played=played,
            round1_starter=round1_starter,
            on_event=on_event,
        )
        if record is None:
            break
        rounds.append(record)
        played.append(record.start_double)
        round1_starter = round1_starter or record.starter
        totals = [t + s for t, s in zip(totals, record.scores, strict=True)]
        if rules.game_length == GameLength.TARGET_TOTAL and max(totals) >= rules.target_total:
            break
    scores = {p: [r.scores[i] for r in rounds] for i, p in enumerate(seats)}
    return GameRecord(
        rules=rules,
        set_size=rules.set_size,
        players=seats,
        seed=seed if isinstance(seed, int) else None,
        rounds=tuple(rounds),
        totals=tuple(totals),
        decision=decide(records(scores), rules),
        standings=tuple(standings(scores, rules)),
    )
