"""Blueprint: the rules checker pages and saved rulings."""

from flask import Blueprint

bp = Blueprint("checker", __name__)

from . import views  # noqa: E402,F401
