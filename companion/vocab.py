"""The stored vocabularies of the web layer, one home each.

Each enum lists the strings a status or outcome column holds (``companion/models.py``) and the
export format writes (``chickenfoot-companion/v1``, docs/EXPORT.md), so the database and exported
files keep the same plain strings. Every member is a ``str``: it compares equal to the stored
text, serialises as it, and templates can keep comparing with the literal.
The engine's own vocabularies (reasons, tie-break steps, house-rule switch values) live in
``companion/engine/reasons.py`` and ``companion/engine/rules.py``.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """Whether a game is still being played (``Game.status``)."""

    ACTIVE = "active"  # rounds still to come
    FINISHED = "finished"  # the last round is scored; the standings are final (RULES.md §8)


class RoundStatus(StrEnum):
    """What became of a round's double (``Round.status``, RULES.md §3.5)."""

    SCORED = "scored"  # played, hands entered
    BURNED = "burned"  # nobody held the double and the house rule skipped it for good


class RoundOutcome(StrEnum):
    """How a scored round ended (``Round.outcome``, RULES.md §6)."""

    OUT = "out"  # someone laid their last tile
    BLOCKED = "blocked"  # nobody could play and the chicken yard was empty


class PostStatus(StrEnum):
    """Where a hand posted from a player's phone stands (``HandPost.status``)."""

    OPEN = "open"  # waiting for the round to be saved
    TAKEN = "taken"  # saved into the round


class JoinLinkChange(StrEnum):
    """Why the scorekeeper's join link was replaced (``RetiredJoinLink.reason``): what its old
    link says when opened again (companion.table.views.replaced_join_link_words)."""

    SEAT_FREED = "seat_freed"  # a phone was removed from its seat: the new link is a side effect
    SEATS_UNLOCKED = "seats_unlocked"  # the seats were unlocked, with a new link on purpose


class EnteredBy(StrEnum):
    """Who entered a saved hand (:attr:`HandScore.entered_by`)."""

    PHONE = "phone"  # taken from the hand the player posted from their phone
    SCOREKEEPER = "scorekeeper"
    OVERRULED = "overruled"  # the scorekeeper entered another value than the phone posted


class AuditCode(StrEnum):
    """What an audit entry says (``AuditEntry.code``): the line is worded from the code and its
    parameters (``AuditEntry.params``, JSON) when a page shows it, in the reader's language
    (:func:`companion.services.audit.entry_words`). The comment names each code's parameters;
    ``hands`` is a list of ``{"name", "points", "went_out", "by"}`` (``by``: who entered the
    hand, :class:`EnteredBy`, "" before phones could post)."""

    GAME_STARTED = "game_started"  # players: [names], set: N of the double-N set
    REMATCH = "rematch"  # players: [names], set
    ROUND_SAVED = "round_saved"  # number: scored rounds so far, double: N of N-N, hands
    ROUND_CORRECTED = "round_corrected"  # double, hands
    DOUBLE_BURNED = "double_burned"  # double
    UNDONE = "undone"  # what: {"code", "params"} of the undone entry, or {"summary"} for an old one
    GAME_DELETED = "game_deleted"  # (none)
    GAME_RESTORED = "game_restored"  # (none)
    AUTO_SAVE_ON = "auto_save_on"  # (none)
    AUTO_SAVE_OFF = "auto_save_off"  # (none)
    SCOREKEEPER_MOVED = "scorekeeper_moved"  # (none)
    SCOREKEEPER_ADDED = "scorekeeper_added"  # (none)
    PLAYER_MERGED = "player_merged"  # gone: the merged name, kept: the name kept


class RankBy(StrEnum):
    """What the leaderboard ranks players by (``?by=``)."""

    WINS = "wins"  # outright wins, then win rate, shared wins, points per round
    RATING = "rating"  # the skill rating's ordinal (mu - 3 sigma)
