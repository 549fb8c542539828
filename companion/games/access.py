"""Access to games by their links.

A game's scoring pages are reached only through its edit link ``/g/<edit_token>``; the
read-only scoreboard through ``/s/<share_token>``. Both tokens are unguessable
(:func:`companion.models.new_token`). Who may use them (the scorekeeper's phone, joined
players, the host's passcode) is decided by :mod:`companion.access`, re-exported here for the
games blueprint.
"""

from __future__ import annotations

from flask import Response, abort, render_template, request, url_for
from flask_babel import gettext as _

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
from ..htmx import is_htmx, reload_page
from ..models import Game
from ..redirects import same_site_path
from ..services.game_lookup import (  # noqa: F401  - found below the blueprints, for the checker too
    MAX_TOKEN_LENGTH,
    game_for_edit,
    game_for_view,
    no_such_game,
)


def scorekeeper_game(token: str) -> Game:
    """The live game whose edit token is ``token``, when this phone keeps its score (or nobody
    does yet: then this phone becomes its scorekeeper).

    Raises:
        werkzeug.exceptions.HTTPException: as :func:`game_for_edit`; 403 with a page that says
            another phone keeps score (or that scorekeeping moved away from this phone) and
            offers to ask for it. For htmx the page is asked to reload instead.
    """
    game = game_for_edit(token)
    try:
        claim_or_check_scorekeeper(game)
    except NotScorekeeper as exc:
        if is_htmx() and request.method == "GET":
            abort(reload_page())
        device = current_device()
        body = render_template(
            "games/not_scorekeeper.html",
            game=game,
            was=exc.was,
            asked=holds(device, game, Grant.ASKING),
            typed=_typed_values(game),
        )
        abort(Response(body, status=403))
    return game


def _typed_values(game: Game) -> list[tuple[str, str]]:
    """What a refused round form carried, per player (so the old scorekeeper's phone loses
    nothing it typed): "Bob (points)", "12"."""
    if request.method != "POST":
        return []
    kinds = {"total": _("points"), "tiles": _("tiles"), "out": _("went out")}
    names = {str(s.id): s.player.name for s in game.seats}
    typed = []
    for key in request.form:
        kind, _sep, seat = key.partition("_")
        values = [v[:20] for v in request.form.getlist(key) if v][:60]
        if kind in kinds and seat in names and values:
            typed.append((f"{names[seat]} ({kinds[kind]})", ", ".join(values)))
    return typed


def safe_next(target: str | None) -> str:
    """``target`` when it is a path on this site (judged as a browser would read it, see
    :func:`companion.redirects.same_site_path`), else the home page: no open redirects."""
    return same_site_path(target) or url_for("games.index")
