"""The bounded cost of reading photos: at most a few readings at once per server process, and
at most a few photos a minute per phone. A reading costs 0.1-0.3 s of CPU alone on a core
(measured for baseline JPEGs of 12-60 MP; seconds of wall time when several share a busy
machine) and tens of megabytes; without these bounds 20 photos at once took the workers to 5.2 GB.

Who sends a photo is a plain string here (the request-level key, from the phone's device
cookie or its address, is :mod:`companion.web.photo_gate`'s). Both bounds are per process and in
memory (nothing stored): a reading waits at most
``PIPS_WAIT_SECONDS`` for a free slot, else it is refused with :class:`PhotoBusy` (the views
answer 429 with ``Retry-After``). The per-phone rate is a sliding window of the last minute's
readings: its exact "retry after" is the age at which the oldest reading leaves the window
(a library's token bucket would not give that number without reaching into its internals).

Configuration (Flask config, defaults below): ``PIPS_IN_FLIGHT`` readings at once,
``PIPS_WAIT_SECONDS`` of wait for a slot, ``PIPS_PER_MINUTE`` readings per phone per minute.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from flask import Flask, current_app

#: Readings at once per process (the machine's cores: more only queue for the CPU).
IN_FLIGHT = 2
#: Seconds a reading waits for a free slot before it is refused.
WAIT_SECONDS = 3.0
#: Readings per phone in any 60 seconds (a hand is photographed once or twice a round).
PER_MINUTE = 6
#: The window of the per-phone rate, in seconds.
WINDOW = 60.0
#: The most phones remembered (the least recently seen are forgotten first): bounds memory.
MAX_PHONES = 10_000
#: What a refused reading is told to wait when every slot was busy, in seconds.
BUSY_RETRY = 5
#: Where each app keeps its gate (``app.extensions``).
EXTENSION = "photo_gate"


class PhotoBusy(Exception):
    """A reading refused for now: ``retry_after`` seconds to wait; ``rate``: this phone sent
    too many photos (else the server was busy with other phones' photos)."""

    def __init__(self, retry_after: int, rate: bool) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after
        self.rate = rate


@dataclass
class Gate:
    """One process's bounds: a semaphore of reading slots and each phone's recent readings."""

    slots: threading.BoundedSemaphore
    wait: float
    per_minute: int
    recent: OrderedDict[str, deque[float]] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, phone: str, now: float) -> None:
        """Count one reading for ``phone``, or raise :class:`PhotoBusy` when it has had
        ``per_minute`` in the last :data:`WINDOW` seconds (a refused one does not count)."""
        with self.lock:
            times = self.recent.pop(phone, deque())
            while times and times[0] <= now - WINDOW:
                times.popleft()
            self.recent[phone] = times  # now the most recently seen
            while len(self.recent) > MAX_PHONES:
                self.recent.popitem(last=False)
            if len(times) >= self.per_minute:
                raise PhotoBusy(max(1, math.ceil(times[0] + WINDOW - now)), rate=True)
            times.append(now)

    def refund(self, phone: str, stamp: float) -> None:
        """Take back the reading counted for ``phone`` at ``stamp`` (it cost no reading)."""
        with self.lock:
            times = self.recent.get(phone)
            if times is not None and stamp in times:
                times.remove(stamp)


def gate(app: Flask) -> Gate:
    """``app``'s gate, made on first use from its config."""
    found = app.extensions.get(EXTENSION)
    if found is None:
        found = Gate(
            slots=threading.BoundedSemaphore(int(app.config.get("PIPS_IN_FLIGHT", IN_FLIGHT))),
            wait=float(app.config.get("PIPS_WAIT_SECONDS", WAIT_SECONDS)),
            per_minute=int(app.config.get("PIPS_PER_MINUTE", PER_MINUTE)),
        )
        app.extensions[EXTENSION] = found
    return found


@contextmanager
def reading_slot(
    phone: str, free: Callable[[Exception], bool] = lambda error: False
) -> Iterator[None]:
    """Hold one of the current app's reading slots for ``phone`` (who sends: any string that
    names one phone, :func:`companion.web.photo_gate.phone_key` for a request) while the body
    runs; raises :class:`PhotoBusy` over the phone's rate or when no slot frees within the
    wait. A body that fails with an error ``free`` says cost no reading (a file refused from
    its header) does not count toward the phone's rate."""
    bounds = gate(current_app)
    stamp = time.monotonic()
    bounds.count(phone, stamp)
    if not bounds.slots.acquire(timeout=bounds.wait):
        raise PhotoBusy(BUSY_RETRY, rate=False)
    try:
        yield
    except Exception as error:
        if free(error):
            bounds.refund(phone, stamp)
        raise
    finally:
        bounds.slots.release()
