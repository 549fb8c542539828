"""Blueprint: the players at the table. Phones join a seat by the game's link or QR code
(``/j/<share>``) and post their own hand (``/p/<share>``, typed or from a photo); the
scorekeeper's side of the same exchange (the posted hands' poll, freeing seats, the auto-save
setting, asking for and handing over scorekeeping) lives here too.

``views`` holds the routes; the work is done below the blueprints, in
:mod:`companion.services.hand_posts` (posted hands), :mod:`companion.services.game_lookup`
(the scorekeeper's game) and :mod:`companion.access` (devices, seats, scorekeepers).
"""

from flask import Blueprint

bp = Blueprint("table", __name__)

from . import views  # noqa: E402,F401
