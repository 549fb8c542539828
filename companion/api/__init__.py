"""Blueprint: /api/v1 JSON endpoints and the OpenAPI document."""

from flask import Blueprint

bp = Blueprint("api", __name__)

from . import views  # noqa: E402,F401
