"""The keys a phone keeps typing under, written in one place: the pages name them in
``data-draft`` and ``data-resolved``, and a phone's scripts store and drop its kept typing and
its outbox entries by them (static/js/table.js, kept.js, offline.js). A phone keeps what it
typed under the key of the page it typed on, so changing a key's format here orphans the typing
phones hold: the stored keys must stay the same.

* The scorekeeper's round: ``<game id>:<rounds entered before it>:<its double>``
  (:func:`round_key`; :func:`parse_round_key` reads one back from a post). table.js and
  kept.js split it at the colons.
* A player's hand: ``hand:<the hand page's path>:<the round's double>`` (:func:`hand_key`),
  compared whole by offline.js, never taken apart.

Both are template globals (``companion._init_templates``)."""

from __future__ import annotations

import re
from typing import NamedTuple


class RoundKey(NamedTuple):
    """A round's kept-typing key taken apart (see :func:`round_key`)."""

    game_id: int
    #: the rounds the game held when the form was shown (saved and burned doubles alike)
    rounds_before: int
    #: the round's double (its pips on one end); None: no round form (a finished game)
    double: int | None


def round_key(game_id: int, rounds_before: int, double: int | None) -> str:
    """The key a phone keeps its typing of a round under: ``game id : rounds entered before it :
    its double`` ("12:3:9"). ``double`` None (a finished game's form: no round to type) leaves
    the last part empty ("12:10:"): the game and the rounds entered still name what waits."""
    return f"{game_id}:{rounds_before}:{'' if double is None else double}"


#: what :func:`round_key` writes for a round, bounded as a posted value is (a game id of nine
#: digits at most, 9999 rounds, a double of two digits)
ROUND_KEY = re.compile(r"(\d{1,9}):(\d{1,4}):(\d{1,2})")


def parse_round_key(text: str) -> RoundKey | None:
    """``text`` as :func:`round_key` writes a round's key, taken apart; None for anything else
    (a posted value is the phone's to make up: the key of a finished game's form, with no
    double, is none either)."""
    found = ROUND_KEY.fullmatch(text)
    if found is None:
        return None
    game_id, rounds_before, double = (int(part) for part in found.groups())
    return RoundKey(game_id, rounds_before, double)


def hand_key(page: str, double: int) -> str:
    """The key of a player's hand typed for the round with ``double`` on the hand page at the
    path ``page`` (``url_for("table.hand", ...)``): "hand:/p/<share token>:9". The hand form's
    ``data-draft`` (its outbox entry's key) and, once the round was saved before the post, the
    answer's ``data-resolved`` (which drops that entry)."""
    return f"hand:{page}:{double}"
