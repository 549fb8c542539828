"""companion.web.query reads a query argument by its type and never fails on junk; the post
it hands over is the request's own (issue 23, item 2)."""

from __future__ import annotations

import pytest

from companion.web import query


@pytest.mark.parametrize(
    ("address", "expected"),
    [("?page=3", 3), ("?page=-2", -2), ("?page=x", None), ("?page=", None), ("", None)],
)
def test_a_number_is_a_whole_number_or_none(app, address, expected) -> None:  # noqa: ANN001
    with app.test_request_context(f"/{address}"):
        assert query.number("page") == expected


def test_a_missing_or_junk_number_reads_as_the_default(app) -> None:  # noqa: ANN001
    with app.test_request_context("/?page=two"):
        assert query.number("page", 1) == 1
        assert query.number("upto", 1) == 1


def test_texts_missing_empty_and_repeated(app) -> None:  # noqa: ANN001
    with app.test_request_context("/?d=&missing=9&missing=4&picker"):
        assert query.text("v") == "" and query.text("v", "0") == "0"
        assert query.optional_text("d") == "" and query.optional_text("v") is None
        assert query.texts("missing") == ["9", "4"] and query.texts("seat") == []
        assert query.has("picker") and not query.has("defs")
        assert query.arguments().to_dict(flat=False)["missing"] == ["9", "4"]


def test_the_post_is_handed_over_as_sent(app) -> None:  # noqa: ANN001
    with app.test_request_context("/", method="POST", data={"total_1": "12", "tiles_1": "6-5"}):
        assert query.posted().to_dict() == {"total_1": "12", "tiles_1": "6-5"}
