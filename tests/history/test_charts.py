"""The running-totals chart geometry (pure)."""

from __future__ import annotations

import pytest

from companion.history.charts import (
    BOTTOM,
    HEIGHT,
    LEFT,
    MARKERS,
    MAX_NUDGE,
    RIGHT,
    TOP,
    WIDTH,
    distinct_ticks,
    nice_step,
    rating_chart,
    running_chart,
)


@pytest.mark.parametrize(
    ("top", "step"), [(0, 1), (4, 1), (9, 2), (23, 5), (56, 20), (100, 20), (180, 50), (999, 200)]
)
def test_nice_step(top, step):
    assert nice_step(top) == step


def test_no_rounds_no_chart():
    assert running_chart([], [("Ann", [])]) is None


def test_geometry():
    chart = running_chart(["9", "8"], [("Ann", [0, 12]), ("Bob", [10, 10])])
    assert chart is not None
    ann, bob = chart.series
    # Every line starts at 0 points before the first round, bottom left of the plot.
    assert ann.points.split()[0] == f"{LEFT},{HEIGHT - BOTTOM}"
    # Ann ends at 12 points after round 2, at the right edge; the axis tops out at 15 (step 5).
    assert chart.y_ticks[-1].label == "15"
    x_end, y_end = ann.dots[-1]
    assert x_end == WIDTH - RIGHT
    assert y_end == pytest.approx(TOP + (HEIGHT - TOP - BOTTOM) * (1 - 12 / 15), abs=0.1)
    assert (ann.final, bob.final) == (12, 10)
    assert (ann.css, bob.css) == ("series-0", "series-1")
    assert [t.label for t in chart.x_ticks] == ["9", "8"]


def test_long_games_label_every_other_round_and_the_last():
    labels = [str(d) for d in range(18, -1, -1)]  # double-18: 19 rounds
    chart = running_chart(labels, [("Ann", list(range(1, 20)))])
    shown = [t.label for t in chart.x_ticks]
    assert shown[0] == "18" and shown[-1] == "0" and len(shown) == 10


def test_lines_on_the_same_total_are_fanned_out_and_have_distinct_markers():
    chart = running_chart(["9", "8"], [("Ann", [5, 10]), ("Bob", [5, 10]), ("Cy", [0, 3])])
    ann, bob, cy = chart.series
    for a, b in zip(ann.dots, bob.dots, strict=True):
        assert a[0] == b[0] and abs(a[1] - b[1]) >= 1.5  # same total, still two lines
    assert abs(ann.dots[0][1] - bob.dots[0][1]) <= 2 * MAX_NUDGE
    # A line alone on its total is not moved.
    assert cy.dots[-1][1] == pytest.approx(TOP + (HEIGHT - TOP - BOTTOM) * (1 - 3 / 10), abs=0.1)
    assert len({s.marker for s in chart.series}) == 3 and ann.marker in MARKERS
    # Everyone starts together at 0 before the first round.
    assert {s.points.split()[0] for s in chart.series} == {f"{LEFT},{HEIGHT - BOTTOM}"}


@pytest.mark.parametrize(
    ("labels", "ticks"),
    [
        (["2020", "2020", "2021", "2022", "2022"], ["2020", "2021", "2022"]),
        (["2020", "2021", "2021", "2021", "2022"], ["2020", "2021", "2022"]),
        (["2020", "2020", "2020", "2020", "2020"], ["2020"]),
        (["2020", "2021", "2022", "2023", "2024"], ["2020", "2021", "2022", "2023", "2024"]),
    ],
)
def test_rating_axis_names_each_label_once(labels, ticks):
    """A tester's three-year rating chart named 2020 twice on its axis."""
    chart = rating_chart(labels, [("Rating", [1.0, 2.0, 3.0, 2.0, 4.0])])
    assert chart is not None
    assert [t.label for t in chart.x_ticks] == ticks


def test_distinct_ticks_keeps_the_last_tick_for_a_repeated_label():
    assert distinct_ticks(["a", "b", "b"], [0, 1, 2]) == [0, 2]
