"""Blueprint: game nights, games, rounds, the scoreboard, corrections and sharing.

``views`` holds nights, new games, access and sharing; ``play`` holds the rounds, the
scoreboard, corrections, undo, finishing and rematch. The players' phones (joining a seat,
posting a hand) are the :mod:`companion.table` blueprint.
"""

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import photo, play, views  # noqa: E402,F401
