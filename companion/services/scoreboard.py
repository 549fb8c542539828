"""The scoreboard and the end-of-game summary, as plain values for the templates.

One column per round headed by its double (burned doubles included, marked), running totals,
and the standings from the engine (:func:`companion.mapping.standings_of`) with the tie-break
step that separates tied neighbours in words (RULES.md §8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from ..engine import DECIDED_LABELS
from ..engine.reasons import DecidedAt
from ..mapping import standings_of
from ..models import Game, Seat
from ..vocab import RoundStatus

#: The engine's tie-break steps in words, translatable (same meanings as DECIDED_LABELS).
STEP_WORDS: dict[str, Any] = {
    DecidedAt.LOWEST_TOTAL: _l("lowest total"),
    DecidedAt.MOST_ZERO_ROUNDS: _l("most zero rounds"),
    DecidedAt.LOWEST_SINGLE_NONZERO_ROUND: _l("lowest single non-zero round"),
    DecidedAt.EXTENSION_NEXT_LOWEST_NONZERO: _l("next-lowest non-zero round"),
    DecidedAt.UNRESOLVED_SHARED: _l("no tie-break separates them"),
}


def step_words(step: str) -> str:
    """A tie-break step (engine ``Standing.decided_by``) in plain words."""
    return str(STEP_WORDS.get(step, DECIDED_LABELS.get(step, step)))


@dataclass(frozen=True)
class Column:
    """A round's column: its number (play order), double, and whether it was burned."""

    number: int
    double: int
    burned: bool

    @property
    def label(self) -> str:
        """The double as a heading, ``"9-9"``."""
        return f"{self.double}-{self.double}"


@dataclass(frozen=True)
class Cell:
    """One seat's score in one round (points) and the running total after it (None if burned)."""

    points: int | None
    running: int | None
    went_out: bool


@dataclass(frozen=True)
class Row:
    """One player's line, in standings order.

    ``tie_with`` is the player ranked just above when the totals are equal, and ``decided_by``
    the engine step that separates them (``unresolved_shared`` when they share the place).
    ``best_round`` is the lowest non-zero round score in points (the second tie-break, §8;
    None when every round was 0).
    """

    seat: Seat
    name: str
    rank: int
    cells: tuple[Cell, ...]
    total: int
    zero_rounds: int
    best_round: int | None
    decided_by: str
    tie_with: str | None

    @property
    def tie_words(self) -> str:
        """The separating step in plain words ("" when not tied with the line above)."""
        return step_words(self.decided_by) if self.tie_with else ""


@dataclass(frozen=True)
class Board:
    """The whole scoreboard. ``winners`` are the rank-1 names; ``decided_by`` the step that
    made them win (``lowest_total`` without a tie, ``unresolved_shared`` for a shared win)."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    scored: int
    winners: tuple[str, ...]
    decided_by: str

    @property
    def decided_words(self) -> str:
        """The deciding step in plain words."""
        return step_words(self.decided_by)

    @property
    def total_digits(self) -> int:
        """Digits of the longest total in points (1 on an empty board): the page widens the
        total column for four or more, so that "1,035" stays on one line at 360 px."""
        return max((len(str(abs(r.total))) for r in self.rows), default=1)


def build_board(game: Game) -> Board:
    """The scoreboard of ``game`` (one query-free pass over its loaded rounds and seats)."""
    columns = tuple(
        Column(r.number, r.start_double, r.status == RoundStatus.BURNED) for r in game.rounds
    )
    cells: dict[int, list[Cell]] = {s.id: [] for s in game.seats}
    running = dict.fromkeys(cells, 0)
    for rnd in game.rounds:
        hands = {h.seat_id: h for h in rnd.hands}
        for seat_id in cells:
            hand = hands.get(seat_id) if rnd.status == RoundStatus.SCORED else None
            if hand is None:
                cells[seat_id].append(Cell(None, None, False))
                continue
            running[seat_id] += hand.points
            cells[seat_id].append(Cell(hand.points, running[seat_id], hand.went_out))
    rows: list[Row] = []
    prev = None
    for seat, standing in standings_of(game):
        rec = standing.record
        tied = prev is not None and prev.total == rec.total
        rows.append(
            Row(
                seat=seat,
                name=seat.player.name,
                rank=standing.rank,
                cells=tuple(cells[seat.id]),
                total=rec.total,
                zero_rounds=rec.zero_rounds,
                best_round=rec.best_nonzero,
                decided_by=standing.decided_by,
                tie_with=rows[-1].name if tied and rows else None,
            )
        )
        prev = rec
    winners = tuple(r.name for r in rows if r.rank == 1)
    decided: str
    if len(winners) > 1:
        decided = DecidedAt.UNRESOLVED_SHARED
    elif len(rows) > 1:
        decided = rows[1].decided_by or DecidedAt.LOWEST_TOTAL
    else:
        decided = DecidedAt.LOWEST_TOTAL
    scored = sum(1 for c in columns if not c.burned)
    return Board(columns, tuple(rows), scored, winners, decided)


#: round columns the scoreboard shows at once: at 360 px each keeps about 47 px, enough for a
#: 3-digit score at 17 px over a 4-digit running total at 14 px (never smaller; earlier rounds
#: are a tap away instead of shrinking)
BOARD_COLUMNS = 6


@dataclass(frozen=True)
class BoardWindow:
    """Which part of the scoreboard a page shows: the round columns ``start``..``end`` (list
    positions, end excluded) of ``count``, and ``who``, the seat whose every round is listed
    under their name (None: nobody's).

    ``earlier`` / ``later`` are the ``upto`` values of the neighbouring windows (None at the
    ends); ``upto`` is the 1-based position of the last column shown.
    """

    start: int
    end: int
    count: int
    who: int | None

    @property
    def earlier(self) -> int | None:
        """``upto`` for the columns just before these, or None when these are the first."""
        return self.start if self.start > 0 else None

    @property
    def later(self) -> int | None:
        """``upto`` for the columns just after these, or None when these are the last."""
        return min(self.count, self.end + BOARD_COLUMNS) if self.end < self.count else None

    @property
    def upto(self) -> int | None:
        """This window's ``upto``, or None for the default (the latest rounds)."""
        return self.end if self.end < self.count else None


def board_window(board: Board, upto: int | None = None, who: int | None = None) -> BoardWindow:
    """The window of ``board`` a page asked for: the :data:`BOARD_COLUMNS` columns ending at
    position ``upto`` (1-based; default and out-of-range values: the latest rounds), and the
    seat ``who`` whose rounds are listed (ignored unless it is a seat of the board)."""
    count = len(board.columns)
    end = count if upto is None else max(min(upto, count), min(BOARD_COLUMNS, count))
    seats = {row.seat.id for row in board.rows}
    return BoardWindow(max(0, end - BOARD_COLUMNS), end, count, who if who in seats else None)
