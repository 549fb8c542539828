"""Fixtures for the history tests: the hand-checked history of :mod:`tests.history.fixture`."""

from __future__ import annotations

import pytest

from companion.history.results import clear_memo

from .fixture import History, build


@pytest.fixture(autouse=True)
def _fresh_memo():
    """Each test starts with an empty results memo (ids repeat across fresh databases)."""
    clear_memo()
    yield
    clear_memo()


@pytest.fixture()
def history(app) -> History:
    """The fixture history with Annie merged into Ann."""
    return build(merged=True)


@pytest.fixture()
def unmerged(app) -> History:
    """The fixture history before any merge."""
    return build(merged=False)
