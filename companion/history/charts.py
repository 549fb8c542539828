"""Geometry of the running-totals chart, drawn as SVG by templates/history/_chart.html.

Pure functions: numbers in, coordinates out (SVG user units in a fixed viewBox that scales to
the screen width). Colours and dash patterns come from CSS classes ``series-0`` ..
``series-11`` (no inline styles: the Content-Security-Policy forbids them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 360, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 36
SERIES_CLASSES = 12  # static/css/chart.css defines .series-0 .. .series-11
#: marker shapes, cycled per series so lines differ by more than colour (colour-blind readers)
MARKERS = ("circle", "square", "triangle", "diamond")
#: SVG units between lines that sit on the same total after a round (they would hide each other)
NUDGE = 1.5
#: the most a nudge moves a line (many players on one total): keeps values readable
MAX_NUDGE = 4.0


@dataclass(frozen=True, slots=True)
class Series:
    """One player's line: ``points`` is the SVG polyline ``"x,y x,y ..."``, ``dots`` the
    marker centres, ``css`` the class giving colour and dash pattern, ``marker`` the shape
    drawn at each dot (one of :data:`MARKERS`)."""

    label: str
    final: float  # the last value: points (a whole number) or a rating (one decimal)
    points: str
    dots: tuple[tuple[float, float], ...]
    css: str
    marker: str = "circle"


@dataclass(frozen=True, slots=True)
class Tick:
    """An axis tick: its position (x or y, SVG units) and its label."""

    at: float
    label: str
    anchor: str = "middle"  # SVG text-anchor: the chart's first and last labels stay inside


@dataclass(frozen=True, slots=True)
class Chart:
    """Everything the template needs to draw the chart."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]


def nice_step(top: int, target_ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``target_ticks``
    ticks from 0 to ``top`` points."""
    raw = max(top, 1) / target_ticks
    magnitude = 1
    while magnitude * 10 <= raw:
        magnitude *= 10
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return factor * magnitude
    return 10 * magnitude  # pragma: no cover - the loop always returns


def running_chart(
    round_labels: Sequence[str], lines: Sequence[tuple[str, Sequence[int]]]
) -> Chart | None:
    """The chart of running totals (points) per player after each scored round.

    Args:
        round_labels: one short label per scored round (its double, e.g. ``"9"``).
        lines: (player name, running totals after each round) per player, in seat order.
    Returns None when no round has been scored yet (nothing to draw).
    """
    rounds = len(round_labels)
    if rounds == 0 or not lines:
        return None
    highest = max((max(t) if t else 0) for _name, t in lines)
    step = nice_step(highest)
    y_max = max(step, -(-highest // step) * step)  # round the top up to a whole step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:  # i = 0 is the start (0 points), i = k after round k
        return round(LEFT + plot_w * i / rounds, 1)

    def y(v: int) -> float:
        return round(TOP + plot_h * (1 - v / y_max), 1)

    every = 1 if rounds <= 12 else 2
    x_ticks = tuple(
        Tick(x(i + 1), label)
        for i, label in enumerate(round_labels)
        if i % every == 0 or i == rounds - 1
    )
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(0, y_max + 1, step))
    nudges = _nudges([list(totals) for _name, totals in lines])
    series = []
    for n, (name, totals) in enumerate(lines):
        coords = [(x(0), y(0))] + [
            (x(i + 1), round(y(v) + nudges[n][i], 1)) for i, v in enumerate(totals)
        ]
        series.append(
            Series(
                name,
                totals[-1] if totals else 0,
                " ".join(f"{a:g},{b:g}" for a, b in coords),
                tuple(coords[1:]),
                f"series-{n % SERIES_CLASSES}",
                MARKERS[n % len(MARKERS)],
            )
        )
    return Chart(WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM, x_ticks, y_ticks, tuple(series))


def _nudges(totals: list[list[int]]) -> list[list[float]]:
    """Per series and round, a small vertical shift (SVG units) that fans out the lines having
    the same running total after that round, so none hides another; 0 for a line alone there.
    The shared start (0 points before round 1) is not shifted."""
    shifts = [[0.0] * len(t) for t in totals]
    for i in range(max((len(t) for t in totals), default=0)):
        groups: dict[int, list[int]] = {}
        for n, t in enumerate(totals):
            if i < len(t):
                groups.setdefault(t[i], []).append(n)
        for members in groups.values():
            if len(members) < 2:
                continue
            step = min(NUDGE, 2 * MAX_NUDGE / (len(members) - 1))
            middle = (len(members) - 1) / 2
            for j, n in enumerate(members):
                shifts[n][i] = (j - middle) * step
    return shifts


#: the most points a rating line is drawn with (longer histories are thinned evenly)
RATING_POINTS = 60


def thin(count: int, most: int = RATING_POINTS) -> list[int]:
    """Indices of ``count`` values to draw, at most ``most``, evenly spread, always keeping
    the first and the last."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def distinct_ticks(labels: Sequence[str], shown: Sequence[int]) -> list[int]:
    """The indices in ``shown`` whose label differs from the tick before it: a history of
    three years thinned to five ticks would name a year twice ("2020 2020 2021 ..."). The
    last index is kept over an earlier one with the same label (the axis ends where the
    history ends), the first over any later one."""
    kept: list[int] = []
    for i in shown:
        if kept and labels[kept[-1]] == labels[i]:
            if i == shown[-1] and kept[-1] != shown[0]:
                kept[-1] = i
            continue
        kept.append(i)
    return kept


def rating_chart(
    labels: Sequence[str], lines: Sequence[tuple[str, Sequence[float]]]
) -> Chart | None:
    """The chart of ratings (rating points, may be negative) after each game: one line per
    measure, the same geometry and classes as :func:`running_chart`.

    Args:
        labels: one label per value (e.g. the game's date); about five are shown on the axis.
        lines: (label, values) per line, every line as long as ``labels``.
    Returns None when there is nothing to draw (no value).
    """
    count = len(labels)
    if count == 0 or not lines:
        return None
    values = [v for _name, vals in lines for v in vals]
    low, high = min(0.0, min(values)), max(values)
    step = nice_step(max(1, int(high - low) + 1))
    y_min = int(low // step) * step
    y_max = max(y_min + step, -(-int(high) // step) * step)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * (i / (count - 1) if count > 1 else 0.5), 1)

    def y(v: float) -> float:
        return round(TOP + plot_h * (1 - (v - y_min) / (y_max - y_min)), 1)

    x_ticks = tuple(
        Tick(x(i), labels[i], "start" if i == 0 else "end" if i == count - 1 else "middle")
        for i in distinct_ticks(labels, thin(count, 5))
    )
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(y_min, y_max + 1, step))
    series = []
    for n, (name, vals) in enumerate(lines):
        coords = [(x(i), y(v)) for i, v in enumerate(vals)]
        series.append(
            Series(
                name,
                round(vals[-1], 1),
                " ".join(f"{a:g},{b:g}" for a, b in coords),
                tuple(coords),
                f"series-{n % SERIES_CLASSES}",
                MARKERS[n % len(MARKERS)],
            )
        )
    return Chart(WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM, x_ticks, y_ticks, tuple(series))
