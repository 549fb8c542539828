"""Blueprint: game nights, games, rounds, the scoreboard, corrections and sharing."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import views  # noqa: E402,F401
