"""Blueprint: /api/v1 JSON endpoints and the OpenAPI document.

The API takes JSON bodies, not forms, and changes no stored data, so it is exempt from CSRF in
the way Flask-WTF documents for such views: ``csrf.exempt`` on the blueprint.
"""

from flask import Blueprint

from ..extensions import csrf

bp = Blueprint("api", __name__)
csrf.exempt(bp)

from . import pips, views  # noqa: E402,F401
