"""The photo gate's plain part (companion/services/photo_gate.py): a phone is any string, and
its rate is a sliding window of the last minute's readings, counted at times given."""

from __future__ import annotations

import threading

import pytest

from companion.services.photo_gate import WINDOW, Gate, PhotoBusy


def gate(per_minute: int = 2) -> Gate:
    return Gate(slots=threading.BoundedSemaphore(1), wait=0.0, per_minute=per_minute)


def test_past_the_rate_a_phone_is_told_when_its_oldest_reading_leaves_the_window() -> None:
    bounds = gate()
    bounds.count("device:1", 100.0)
    bounds.count("device:1", 110.0)
    with pytest.raises(PhotoBusy) as busy:
        bounds.count("device:1", 120.0)
    assert busy.value.rate
    assert busy.value.retry_after == 40  # the reading at 100 s leaves the window at 160 s


def test_a_refused_reading_does_not_count_and_the_window_slides() -> None:
    bounds = gate(per_minute=1)
    bounds.count("device:1", 0.0)
    with pytest.raises(PhotoBusy):
        bounds.count("device:1", 30.0)
    bounds.count("device:1", WINDOW)  # the first has left the window; the refused one never counted


def test_each_phone_has_its_own_rate() -> None:
    bounds = gate(per_minute=1)
    bounds.count("device:1", 0.0)
    bounds.count("address:10.0.0.2", 0.0)
    with pytest.raises(PhotoBusy):
        bounds.count("device:1", 1.0)
