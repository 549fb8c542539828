"""Typed values quoted back in messages: shortened with an ellipsis (companion.text.shortened),
and points worded with the language's plural forms, never an abbreviation."""

from __future__ import annotations

import pytest

from companion.services.round_check import parse_total
from companion.text import ECHO_MAX, shortened


def test_shortened_keeps_short_text_and_cuts_long_text_with_an_ellipsis() -> None:
    assert shortened("Ann") == "Ann"
    assert shortened("x" * ECHO_MAX) == "x" * ECHO_MAX
    assert shortened("x" * 10_000) == "x" * ECHO_MAX + "…"
    assert shortened("123456789", 4) == "1234…"


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "(at most 300 points)"),
        ("ru", "300 очков"),
        ("de", "300 Punkte"),
    ],
)
def test_a_huge_total_is_quoted_shortened_with_plural_points(app, lang, words) -> None:
    with app.test_request_context(headers={"Accept-Language": lang}):
        value, message = parse_total("9" * 10_000, "Bob", 300)
    assert value is None and message is not None
    assert "999999999999…" in message and "9999999999999" not in message
    assert words in message
    assert "очк." not in message
