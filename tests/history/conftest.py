"""Fixtures for the history tests: the hand-checked history of :mod:`tests.history.fixture`."""

from __future__ import annotations

import pytest

from .fixture import History, build


@pytest.fixture()
def history(app) -> History:
    """The fixture history with Annie merged into Ann."""
    return build(merged=True)


@pytest.fixture()
def unmerged(app) -> History:
    """The fixture history before any merge."""
    return build(merged=False)
