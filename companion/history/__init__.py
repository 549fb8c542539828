"""Blueprint: past game nights, players, statistics, export and import."""

from flask import Blueprint

bp = Blueprint("history", __name__)

from . import export_views, looking_back, views  # noqa: E402,F401
