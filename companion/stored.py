"""Reading JSON the database holds (rulings' questions and answers, audit snapshots) for a page.

Such JSON may come from another version of the app or an older import: a page must still
render. A function that reads it for display is decorated with :func:`read_or`, which turns
the errors a value of an unexpected shape raises into a fallback (the page then says the item
cannot be read, or shows it without detail) instead of a 500 for everyone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from .engine import EngineError

#: what reading stored JSON of an unexpected shape can raise
UNREADABLE = (EngineError, TypeError, ValueError, LookupError, AttributeError, RecursionError)

_T = TypeVar("_T")
_F = TypeVar("_F")


def read_or(fallback: Callable[[], _F]) -> Callable[[Callable[..., _T]], Callable[..., _T | _F]]:
    """Decorate a function that reads stored JSON for a page: when the JSON does not have the
    shape it expects, the call returns ``fallback()`` instead of raising."""

    def decorate(read: Callable[..., _T]) -> Callable[..., _T | _F]:
        @wraps(read)
        def wrapper(*args: Any, **kwargs: Any) -> _T | _F:
            try:
                return read(*args, **kwargs)
            except UNREADABLE:
                return fallback()

        return wrapper

    return decorate
