"""The photo gate of :mod:`companion.services.photo_gate` for the request at hand: who sends
(:func:`phone_key`) and a reading slot held for that phone (:func:`reading_slot`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import request

from .. import access
from ..pips import PhotoError, PhotoProblem
from ..services import photo_gate

#: Refusals made from the file's size or header, before any decoding or reading: they cost
#: no CPU worth bounding, so they do not count toward the phone's photos a minute.
CHEAP_REFUSALS = frozenset(
    {
        PhotoProblem.EMPTY,
        PhotoProblem.TOO_MANY_BYTES,
        PhotoProblem.NOT_AN_IMAGE,
        PhotoProblem.TOO_MANY_PIXELS,
        PhotoProblem.TOO_SMALL,
    }
)


def phone_key() -> str:
    """Who is sending: the phone's device cookie when it has one, else its address."""
    device = access.current_device(create=False)
    if device is not None:
        return f"device:{device.id}"
    return f"address:{request.remote_addr or '-'}"


@contextmanager
def reading_slot() -> Iterator[None]:
    """Hold one reading slot for this request's phone while the body runs; raises
    :class:`~companion.services.photo_gate.PhotoBusy` over the phone's rate or when no slot
    frees within the wait. A photo refused from its header (:data:`CHEAP_REFUSALS`) does not
    count toward the phone's rate."""
    with photo_gate.reading_slot(phone_key(), free=_cheap):
        yield


def _cheap(error: Exception) -> bool:
    return isinstance(error, PhotoError) and error.problem in CHEAP_REFUSALS
