"""Access to games by their links.

A game's scoring pages are reached only through its edit link ``/g/<edit_token>``; the
read-only scoreboard through ``/s/<share_token>``. Both tokens are unguessable
(:func:`companion.models.new_token`). Who may use them (the scorekeeper's phone, joined
players, the host's passcode) is decided by :mod:`companion.access`, re-exported here for the
games blueprint.
"""

from __future__ import annotations

from flask import url_for

from ..access import (  # noqa: F401  - the access model lives below the blueprints
    MAX_REMEMBERED,
    Grant,
    NotScorekeeper,
    accept_passcode,
    asking,
    claim_or_check_scorekeeper,
    current_device,
    forget,
    holds,
    passcode_needed,
    passcode_required,
    remember,
    remembered_tokens,
)
from ..services.game_lookup import (  # noqa: F401  - found below the blueprints, for the checker too
    MAX_TOKEN_LENGTH,
    game_for_edit,
    game_for_view,
    no_such_game,
    scorekeeper_game,
)
from ..web.redirects import same_site_path


def safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site (judged as a browser would read it, see
    :func:`companion.web.redirects.same_site_path`), else the home page: no open redirects."""
    return same_site_path(target) or url_for("games.index")
