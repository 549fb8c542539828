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
