"""``POST /api/v1/pips``: count the pips in a photo (multipart field ``photo``).

The answer is :meth:`companion.pips.Reading.as_json` (the same as the page and
``flask count-pips``): total, tiles read, unread count, confidence, and every tile found with
its outline, pip marks and reading. A refused photo gets ``{"error": {code, message, where}}``
with 400 (nothing sent), 413 (too many bytes) or 422 (not a usable photo, or
``PHOTO_UNREADABLE``: no tile could be read, never "0 pips"); 429 with ``Retry-After`` past the
bounds of :mod:`companion.services.photo_gate` (``TOO_MANY_PHOTOS`` from this phone, ``BUSY``
with other readings). Nothing is stored.
"""

from __future__ import annotations

from flask import Response, jsonify
from flask_wtf import FlaskForm
from wtforms import StringField

from ..access import Role, requires
from ..pips import MAX_HALF, PhotoError, PhotoProblem, count_pips
from ..services import hand_photo, photo_gate
from ..text import ascii_whole_number
from ..web import hand_photo as photo_page
from ..web.photo_gate import reading_slot
from . import bp
from .views import refusal

STATUS = {PhotoProblem.EMPTY: 400, PhotoProblem.TOO_MANY_BYTES: 413}


class PipsForm(FlaskForm):
    """The API's form fields beside the photo: ``max_pips``, the set's highest half (checked in
    the view, with the API's own error shape). The API is exempt from CSRF: no token."""

    class Meta:
        csrf = False

    max_pips = StringField(default=str(MAX_HALF))


@bp.post("/pips")
@requires(Role.ANYONE)
def pips() -> tuple[Response, int] | tuple[Response, int, dict[str, str]]:
    """Read the face-up tiles in the uploaded photo; ``max_pips`` (form field, 1-18) is the
    set's highest half (default 18)."""
    try:
        data = photo_page.uploaded_photo(check_csrf=False)  # the API is exempt from CSRF
        if data is None:
            raise refusal(
                400,
                "NO_PHOTO",
                "Send the photo as multipart/form-data in the field 'photo'.",
                hand_photo.PHOTO_FIELD,
            )
        given = (PipsForm().max_pips.data or "").strip()
        max_pips = int(given) if ascii_whole_number(given) and len(given) < 3 else 0
        if not 1 <= max_pips <= MAX_HALF:
            raise refusal(400, "BAD_MAX_PIPS", "max_pips must be a whole number 1-18.", "max_pips")
        with reading_slot():
            reading = count_pips(data, max_pips)
    except photo_gate.PhotoBusy as busy:
        code = "TOO_MANY_PHOTOS" if busy.rate else "BUSY"
        body = {"error": {"code": code, "message": hand_photo.busy_message(busy), "where": ""}}
        return jsonify(body), 429, hand_photo.busy_headers(busy)
    except PhotoError as error:
        raise refusal(
            STATUS.get(error.problem, 422),
            error.problem.value,
            hand_photo.problem_message(error),
            hand_photo.PHOTO_FIELD,
        ) from None
    return jsonify(reading.as_json()), 200
