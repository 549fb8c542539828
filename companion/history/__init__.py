"""Blueprint: past game nights, players, statistics, export and import."""

from flask import Blueprint

bp = Blueprint("history", __name__)

from . import export_views, views  # noqa: E402,F401
