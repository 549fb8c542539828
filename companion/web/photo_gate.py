"""The photo gate of :mod:`companion.services.photo_gate` for the request at hand: who sends
(:func:`phone_key`) and a reading slot held for that phone (:func:`reading_slot`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import request

from .. import access
from ..services import photo_gate


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
    frees within the wait."""
    with photo_gate.reading_slot(phone_key()):
        yield
