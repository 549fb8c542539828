"""A save's answer without each hand's buttons the page that saved holds already ("Use …'s
post", "Tap the tiles", the photo: the same in every round), so the answer is about half the
bytes (docs/PERFORMANCE.md). The page says it holds them by a field whose name carries their
markup's version and a digest of what they say (names, language); htmx keeps them
(``hx-preserve``, by id)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from flask_babel import get_locale

from ..models import Game
from ..web import query
from ..web.htmx import is_htmx

#: the start of the field a round form sends to say it holds the hands' buttons that are the
#: same in every round ("Use …'s post", "Tap the tiles", the photo; templates/games/
#: _round_form.html), its number their markup's version: only a page with this one gets a save's
#: answer without them. Change the number with their markup, so that a page loaded before gets
#: them anew. The rest of the field's name is :func:`kept_field`'s digest.
KEPT_BUTTONS = "kept1-"


@dataclass(frozen=True)
class KeptButtons:
    """What a save's answer leaves out of each hand of the next round's form, the page that
    saved keeping its own (htmx ``hx-preserve``, by id): "Use …'s post" and the photo button of
    every hand, and "Tap the tiles" of the hands in ``openers`` (the others show their picker
    instead)."""

    openers: frozenset[int]


def kept_field(game: Game) -> str:
    """The name of the field a round form of ``game`` sends to say it holds the hands' buttons:
    :data:`KEPT_BUTTONS` and a digest (6 hex digits) of what their markup says besides the
    version, the language and each seat's id and player's name. A page drawn before a rename,
    or in another language than the save's answer (chosen meanwhile in another tab of the
    phone: the language is the session's), sends another name and gets the buttons anew."""
    said = "\n".join([str(get_locale()), *(f"{s.id}\t{s.player.name}" for s in game.seats)])
    return KEPT_BUTTONS + hashlib.sha256(said.encode()).hexdigest()[:6]


def kept_buttons(game: Game) -> KeptButtons | None:
    """The buttons the page that posted this save holds for every hand of ``game``, or None
    when it says nothing of them or not of these (no JavaScript, an older page, a rename or
    another language since: the answer sends them all). A round form sends ``o<seat id>``
    for a hand without its "Tap the tiles" button."""
    posted = query.posted()
    if not is_htmx() or kept_field(game) not in posted:
        return None
    return KeptButtons(frozenset(s.id for s in game.seats if f"o{s.id}" not in posted))
