"""SQLAlchemy models, all in one place.

Players sit at games (seats, in clockwise order) during game nights. A game freezes its house
rules (a RuleSet as JSON) when it starts. Each round has one hand score per seat; every change
to a game is kept in the audit trail; rulings from the rules checker are kept with their game.
Rows are converted to engine objects only in :mod:`companion.mapping`.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, Text, UniqueConstraint, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Base, db
from .vocab import GameStatus, PostStatus, RoundStatus

if TYPE_CHECKING:
    # Flask-SQLAlchemy makes db.Model at run time (Base plus the query property and table
    # naming); a type checker cannot use it as a base class, so it sees the declarative base.
    Model = Base
else:
    Model = db.Model


def utcnow() -> datetime:
    """The current time in UTC (naive, as stored)."""
    return datetime.now(UTC).replace(tzinfo=None)


def new_token() -> str:
    """An unguessable URL-safe token (128 bits) for edit and share links."""
    return secrets.token_urlsafe(16)


# Column lengths in characters: the one home of each limit. The forms, the setup services and
# the import check text against these, so nothing accepted can overflow a column.
#: a player's name (``Player.name``)
NAME_MAX = 60
#: where a game night was played (``GameNight.place``)
PLACE_MAX = 120
#: a game night's notes (``GameNight.notes``, a Text column): a few lines, not a document
NOTES_MAX = 2000
#: tokens and keys: edit/share links, export game keys, preset names, audit actions
TOKEN_MAX = 40
#: one line of the audit trail or the rulings list (``AuditEntry.summary``, ``Ruling.summary``)
SUMMARY_MAX = 300

#: the condition of partial unique indexes that hold only among rows still in use
_LIVE_PLAYER = text("merged_into_id IS NULL")
_LIVE_GAME = text("deleted_at IS NULL")
#: the condition of the partial indexes of deleted rows: a plain index on ``deleted_at`` held
#: every live row under one key (NULL), and SQLite's planner took ``deleted_at IS NULL`` for a
#: selective search, reading every live game and sorting them for the newest ten
_DELETED = text("deleted_at IS NOT NULL")


class Player(Model):
    """A person who plays. Names are free text in any language; ``merged_into`` points to the
    player this one was merged into (their history joins; the row is kept for the record).

    Among players not merged away, a name key is unique (enforced by the database, so two
    phones starting games with the same new name at once make one player, not two).
    """

    __tablename__ = "players"
    __table_args__ = (
        Index(
            "uq_players_name_key_live",
            "name_key",
            unique=True,
            sqlite_where=_LIVE_PLAYER,
            postgresql_where=_LIVE_PLAYER,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    name_key: Mapped[str] = mapped_column(String(NAME_MAX), index=True)  # casefolded, for lookups
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), default=None)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r}>"


class GameNight(Model):
    """An evening of games: a date, an optional place and notes."""

    __tablename__ = "game_nights"
    __table_args__ = (
        # The nights list and a player's latest games walk the live nights newest first (in
        # this index's order, read backwards) and stop after a page: no sort of every night.
        Index(
            "ix_game_nights_live_by_date",
            "played_on",
            "id",
            sqlite_where=_LIVE_GAME,
            postgresql_where=_LIVE_GAME,
        ),
        # The recently deleted nights (the restore window) only.
        Index(
            "ix_game_nights_deleted",
            "deleted_at",
            sqlite_where=_DELETED,
            postgresql_where=_DELETED,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    played_on: Mapped[date] = mapped_column(index=True)
    place: Mapped[str] = mapped_column(String(PLACE_MAX), default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)

    games: Mapped[list[Game]] = relationship(back_populates="night", order_by="Game.id")


class Game(Model):
    """One game: a set, frozen house rules, seats, and one round per double.

    ``rules`` is ``RuleSet.to_dict()`` at the start; ``version`` increases with every saved
    change so that two phones cannot overwrite each other (optimistic locking): every change
    to a game's rounds also sets ``updated_at``, which bumps the version. ``rematch_of_id``
    is the game this one is the rematch of: a game has at most one live rematch (enforced by
    the database, so twenty taps on "Rematch" at once start one game).
    """

    __tablename__ = "games"
    __table_args__ = (
        Index(
            "uq_games_rematch_of_id_live",
            "rematch_of_id",
            unique=True,
            sqlite_where=_LIVE_GAME,
            postgresql_where=_LIVE_GAME,
        ),
        # The recently deleted games (the restore window) only; see _DELETED.
        Index(
            "ix_games_deleted",
            "deleted_at",
            sqlite_where=_DELETED,
            postgresql_where=_DELETED,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("game_nights.id"), index=True)
    set_size: Mapped[int] = mapped_column(default=9)
    preset: Mapped[str] = mapped_column(String(TOKEN_MAX), default="standard")
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    hand_size: Mapped[int | None] = mapped_column(default=None)
    chosen_spokes: Mapped[int | None] = mapped_column(default=None)
    status: Mapped[str] = mapped_column(String(12), default=GameStatus.ACTIVE.value)
    edit_token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True, default=new_token)
    share_token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True, default=new_token)
    #: the secret of the join link shown only on the scorekeeper's screen: the share token is
    #: public (exports, night pages), so a seat is given by this one, never by the share token
    join_token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True, default=new_token)
    #: the scorekeeper locked the seats (everyone is in): no phone may join a seat
    seats_locked: Mapped[bool] = mapped_column(default=False, server_default=false())
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    rematch_of_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), default=None
    )
    #: save the coming round by itself once every seat has posted its hand and nothing conflicts
    auto_save: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: the scorekeeper closed the join panel at the top of the game page (issue 22)
    join_closed: Mapped[bool] = mapped_column(default=False, server_default=false())

    night: Mapped[GameNight] = relationship(back_populates="games")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    audit: Mapped[list[AuditEntry]] = relationship(
        back_populates="game", order_by="AuditEntry.id", cascade="all, delete-orphan"
    )
    rulings: Mapped[list[Ruling]] = relationship(back_populates="game", order_by="Ruling.id")

    __mapper_args__ = {"version_id_col": version}

    @property
    def number_in_night(self) -> int:
        """Which game of its night this is, as the pages call it ("Game 2"; 1 = the first):
        its place among the night's games not deleted, itself counted even when deleted (a
        game not saved yet comes after them). The CSV export counts the same way in SQL."""
        live = [g.id for g in self.night.games if g.deleted_at is None or g.id == self.id]
        return live.index(self.id) + 1 if self.id in live else len(live) + 1


class Seat(Model):
    """A player's place at a game; ``position`` 0.. runs clockwise."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    position: Mapped[int]

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")
    hands: Mapped[list[HandScore]] = relationship(back_populates="seat")


class Round(Model):
    """One round of a game, started by a double.

    ``status``: ``scored`` (hands entered), ``burned`` (nobody held the double and the house
    rule skipped it for good). ``outcome``: ``out`` (someone went out) or ``blocked``.
    """

    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        UniqueConstraint("game_id", "start_double"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]  # 1-based, in play order
    start_double: Mapped[int]  # 9 means 9-9
    status: Mapped[str] = mapped_column(String(12), default=RoundStatus.SCORED.value)
    outcome: Mapped[str | None] = mapped_column(String(12), default=None)
    starter_seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id"), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    hands: Mapped[list[HandScore]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="HandScore.seat_id"
    )


class HandScore(Model):
    """One seat's score for one round, in points; ``tiles`` lists the tiles left in hand
    (``["9-5", ...]``) when they were tapped in, else None."""

    __tablename__ = "hand_scores"
    __table_args__ = (UniqueConstraint("round_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    points: Mapped[int]
    went_out: Mapped[bool] = mapped_column(default=False)
    out_on_double: Mapped[bool] = mapped_column(default=False)
    tiles: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    #: who entered it: ``phone`` (taken from the player's posted hand) or ``scorekeeper``
    entered_by: Mapped[str] = mapped_column(String(12), default="scorekeeper", server_default="")

    round: Mapped[Round] = relationship(back_populates="hands")
    seat: Mapped[Seat] = relationship(back_populates="hands")


class AuditEntry(Model):
    """One change to a game: what (``action``; ``code`` and ``params`` word it, see
    :class:`companion.vocab.AuditCode`), the values before and after (JSON), when; ``undone``
    marks an entry reverted by undo."""

    __tablename__ = "audit_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(TOKEN_MAX))
    # The line as the writing phone worded it: what entries from before codes carry alone, and
    # the fallback for a code this version does not know (a backup from a newer one).
    summary: Mapped[str] = mapped_column(String(SUMMARY_MAX), default="")
    # What the line says (an AuditCode) and its parameters: worded in the reader's language.
    code: Mapped[str | None] = mapped_column(String(TOKEN_MAX), default=None)
    params: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    before: Mapped[Any | None] = mapped_column(JSON, default=None)
    after: Mapped[Any | None] = mapped_column(JSON, default=None)
    undone: Mapped[bool] = mapped_column(default=False)

    game: Mapped[Game] = relationship(back_populates="audit")


class Ruling(Model):
    """A rules-checker verdict, kept so "we ruled this way last time" can be looked up.

    ``question`` is the QUESTIONS.md question (category, ruleset, input); ``answer`` the
    engine's answer; ``rules`` the full RuleSet in force; ``summary`` the verdict in one line.
    """

    __tablename__ = "rulings"
    __table_args__ = (Index("ix_rulings_game_created", "game_id", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    category: Mapped[str] = mapped_column(String(20))
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    summary: Mapped[str] = mapped_column(String(SUMMARY_MAX), default="")

    game: Mapped[Game | None] = relationship(back_populates="rulings")


class FinalStanding(Model):
    """One seat's stored result in a finished game (RULES.md §8), written by
    :mod:`companion.services.results` whenever the game's rounds change (save, correction,
    undo, import, demo data), so the history pages read results instead of deciding games.

    ``rank`` 1 is a winner; ``shared`` when another seat has the same rank; ``total`` and
    ``best_round`` in points (``best_round``: the lowest non-zero round, None when every round
    was 0); ``decided_by`` is the engine's tie-break step that separated this seat from the one
    ranked just above (``""`` for the first line). The player is read through the seat, so a
    merge moves results with it.
    """

    __tablename__ = "final_standings"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), unique=True)
    line: Mapped[int]  # 0 for the first line of the standings
    rank: Mapped[int]
    shared: Mapped[bool] = mapped_column(default=False)
    total: Mapped[int]
    rounds: Mapped[int]
    zero_rounds: Mapped[int]
    best_round: Mapped[int | None] = mapped_column(default=None)
    decided_by: Mapped[str] = mapped_column(String(40), default="")


class PlayerRecordColumns:
    """The eight record columns of a player's bucket (:class:`PlayerSummary`, one month) and
    total (:class:`PlayerTotal`, all time): one home, so the two tables cannot drift apart
    (:func:`companion.services.summaries.bucket_sums` adds the first up into the second).

    ``games``, ``wins`` (alone first), ``shared_wins`` (first together), ``rounds``,
    ``zero_rounds`` are counts; ``points``, ``best_total`` (lowest game total) and
    ``worst_total`` (highest) are in points. Declared after each table's own columns, in
    this order (the order the migrations created them in).
    """

    games: Mapped[int] = mapped_column(sort_order=10)
    wins: Mapped[int] = mapped_column(sort_order=10)
    shared_wins: Mapped[int] = mapped_column(sort_order=10)
    rounds: Mapped[int] = mapped_column(sort_order=10)
    points: Mapped[int] = mapped_column(sort_order=10)
    zero_rounds: Mapped[int] = mapped_column(sort_order=10)
    best_total: Mapped[int] = mapped_column(sort_order=10)
    worst_total: Mapped[int] = mapped_column(sort_order=10)


class PlayerSummary(PlayerRecordColumns, Model):
    """One player's record over the live finished games of one set size in one calendar month
    (RULES.md §8; definitions in :mod:`companion.history.stats`), kept by
    :mod:`companion.services.summaries` whenever a game's standings, seats or night change, so
    the leaderboard and a player's page add up a few buckets instead of every game's line.

    ``month`` is the first day of the month the game night was played; ``games``, ``wins``
    (alone first), ``shared_wins`` (first together), ``rounds``, ``zero_rounds`` are counts;
    ``points``, ``best_total`` (lowest game total) and ``worst_total`` (highest) are in points.
    """

    __tablename__ = "player_summaries"
    __table_args__ = (
        UniqueConstraint("player_id", "set_size", "month"),
        Index("ix_player_summaries_month", "month"),
        # A player's newest months with games (whatever the set): where their latest games are.
        Index("ix_player_summaries_player_month", "player_id", "month"),
        # The newest month holding a player's best (lowest) and worst game total: one seek.
        Index("ix_player_summaries_player_best", "player_id", "best_total", "month"),
        Index("ix_player_summaries_player_worst", "player_id", "worst_total", "month"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    set_size: Mapped[int]
    month: Mapped[date]


class PairSummary(Model):
    """One player's head-to-head record against one opponent over the live finished games
    both sat at in one calendar month (RULES.md §8; :func:`companion.history.stats.
    head_to_head`), kept with :class:`PlayerSummary` by :mod:`companion.services.summaries`.

    ``ahead``: games the player finished with a better (lower) rank, ``behind`` a worse one,
    ``level`` the same; all counts of games. ``month`` is the first day of the night's month.
    """

    __tablename__ = "pair_summaries"
    __table_args__ = (
        UniqueConstraint("player_id", "opponent_id", "month"),
        Index("ix_pair_summaries_month", "month"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    month: Mapped[date]
    games: Mapped[int]
    ahead: Mapped[int]
    behind: Mapped[int]
    level: Mapped[int]


class PlayerTotal(PlayerRecordColumns, Model):
    """One player's all-time record over the live finished games of one set size: the sum of
    their :class:`PlayerSummary` months of that set (best the lowest, worst the highest), kept
    by :mod:`companion.services.summaries` in the same transaction as the months, so the
    default leaderboard and a player's record read players × set sizes rows, whatever the
    length of the history. Columns and units as in :class:`PlayerSummary`.
    """

    __tablename__ = "player_totals"
    __table_args__ = (UniqueConstraint("player_id", "set_size"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    set_size: Mapped[int]


class PairTotal(Model):
    """One player's all-time head-to-head record against one opponent: the sum of their
    :class:`PairSummary` months, kept with them by :mod:`companion.services.summaries`.
    Columns (counts of games) as in :class:`PairSummary`."""

    __tablename__ = "pair_totals"
    __table_args__ = (UniqueConstraint("player_id", "opponent_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    games: Mapped[int]
    ahead: Mapped[int]
    behind: Mapped[int]
    level: Mapped[int]


class RatingStep(Model):
    """One player's skill rating just after one finished game (openskill's Weng-Lin
    Plackett-Luce model), one row per seat of every rated game, written by
    :mod:`companion.services.ratings` in order of play.

    ``mu`` and ``sigma`` are the model's skill estimate and its uncertainty (rating points);
    ``ordinal`` is the conservative rating ``mu - 3 sigma`` that ranks players; ``games`` counts
    the player's rated games up to and including this one. The order of play is
    (``played_on``, ``game_order``, ``game_id``): the night's date, the game's start, its id.
    Rows are inserted in that order, so a larger ``id`` is always a later game.
    """

    __tablename__ = "rating_steps"
    __table_args__ = (
        Index("ix_rating_steps_player_id_id", "player_id", "id"),
        Index("ix_rating_steps_order", "played_on", "game_order", "game_id"),
        # a player's steps of a season, and their chart's points by number (issue 25: the
        # year in review and the player page read only those, however long the history)
        Index("ix_rating_steps_player_played_on", "player_id", "played_on"),
        Index("ix_rating_steps_player_games", "player_id", "games"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    played_on: Mapped[date]
    game_order: Mapped[datetime]
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    games: Mapped[int]


class PlayerRating(Model):
    """A player's current skill rating: their latest :class:`RatingStep`, kept with it by
    :mod:`companion.services.ratings` so the leaderboard reads one row per player. Units as
    in :class:`RatingStep`."""

    __tablename__ = "player_ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    games: Mapped[int]


# --- the table's phones (companion.access, companion.services.hand_posts) ------------------------


class Device(Model):
    """One browser (a phone), known by a random id kept in its session cookie. What it may do
    is stored here, server-side (:class:`GameAccess`), never in the cookie itself."""

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: the short code this phone shows when its address is past the passcode limit; a
    #: scorekeeper's or the host's phone types it to let this phone try the passcode
    admit_code: Mapped[str | None] = mapped_column(String(16), unique=True, default=None)
    #: when a scorekeeper's or the host's phone let this phone in (only its own limit counts)
    admitted_at: Mapped[datetime | None] = mapped_column(default=None)


class GameAccess(Model):
    """A device's right in one game (vocabulary :class:`companion.access.Grant`, column ``role``):
    ``scorekeeper`` (keeps score), ``asking`` (asks to become the scorekeeper) or ``player``
    (joined a seat: ``seat_id``). A seat has at most one phone; a phone one seat per game."""

    __tablename__ = "game_access"
    __table_args__ = (
        UniqueConstraint("game_id", "device_id", "role"),
        UniqueConstraint("seat_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("devices.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(12))
    seat_id: Mapped[int | None] = mapped_column(
        ForeignKey("seats.id", ondelete="CASCADE"), default=None
    )
    granted_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship()
    device: Mapped[Device] = relationship()
    seat: Mapped[Seat | None] = relationship()


class HandPost(Model):
    """One seat's hand for one round as posted from the player's phone (or, when the round is
    saved, as the scorekeeper took it). Judged per hand: ``revision`` grows with every change so
    that a phone that saw an older value is shown the newer one instead of overwriting it.

    ``status``: ``open`` (waiting for the round to be saved) or ``taken`` (saved into
    ``round_id``). ``total`` is the typed pip total (points) or None; ``tiles`` the tapped tiles.
    """

    __tablename__ = "hand_posts"
    __table_args__ = (UniqueConstraint("game_id", "double", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    double: Mapped[int]
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    total: Mapped[int | None] = mapped_column(default=None)
    tiles: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    went_out: Mapped[bool] = mapped_column(default=False)
    device_id: Mapped[int | None] = mapped_column(
        ForeignKey("devices.id", ondelete="SET NULL"), default=None
    )
    revision: Mapped[int] = mapped_column(default=1)
    status: Mapped[str] = mapped_column(String(12), default=PostStatus.OPEN.value)
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("rounds.id", ondelete="SET NULL"), default=None
    )
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    taken_at: Mapped[datetime | None] = mapped_column(default=None)

    seat: Mapped[Seat] = relationship()
    round: Mapped[Round | None] = relationship()


class RetiredJoinLink(Model):
    """A join secret the scorekeeper replaced (a phone removed from its seat, the seats
    unlocked): only its SHA-256 ``digest`` is kept, never the secret, so the old link (or its
    QR code) can say "this link was replaced" instead of "no game", and open nothing."""

    __tablename__ = "retired_join_links"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    retired_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: why it was replaced (:class:`~companion.vocab.JoinLinkChange`), so the old link says what
    #: happened; None for links replaced before it was kept
    reason: Mapped[str | None] = mapped_column(String(20), default=None)


class RateCounter(Model):
    """A rate-limit counter kept in the database, so that every worker process and app server
    counts the same (companion.access: passcode attempts). ``key`` names the bucket."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(default=utcnow)
    hits: Mapped[int] = mapped_column(default=0)


class IdempotencyKey(Model):
    """One entry sent by a phone's outbox (companion.services.idempotency): its key, the page it
    was posted to, and, once answered, the first answer, which every repeat of the key gets.

    ``key`` is the primary key, so the database itself lets only one request claim it, across
    app servers; ``state`` is ``pending`` (claimed, nothing stored yet), ``applied`` (the change
    committed with the claim's state in the same transaction) or ``done`` (answer stored)."""

    __tablename__ = "idempotency_keys"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    path: Mapped[str] = mapped_column(String(300))
    state: Mapped[str] = mapped_column(String(10), default="pending")
    status_code: Mapped[int | None] = mapped_column(default=None)
    headers: Mapped[dict[str, str] | None] = mapped_column(JSON, default=None)
    body: Mapped[str | None] = mapped_column(Text, default=None)
    #: a digest of the first request's form (without its CSRF token and key): a repeat whose
    #: form differs is told that the first one was kept
    request_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
