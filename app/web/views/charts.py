"""Chart geometry for the stats page: plain numbers the SVG templates (_charts.html) draw.

No chart library and no script: each chart is a fixed viewBox that scales to any width.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Status
from app.services.stats.stats import DayResults, Histogram

W, H = 600, 220
# room for the axis labels at the size a phone needs (static/css/app.css enlarges them there,
# where the 600-unit chart is drawn about 340 px wide): "100 %" left, dates below
LEFT, RIGHT, TOP, BOTTOM = 66, 14, 14, 42


@dataclass(frozen=True)
class Line:
    points: str                  # SVG polyline points
    dots: list[tuple[float, float, float]]  # x, y, value of the last point (and maybe others)
    grid: list[tuple[float, str]]  # y, label
    count: int


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    value: int
    label: str
    kind: str = ""        # the ``Status`` the bar counts (WON, LOST): a day's or a score's games


@dataclass(frozen=True)
class Bars:
    bars: list[Bar]
    labels: list[tuple[float, str, str]]  # x, text under the axis, its text-anchor
    grid: list[tuple[float, str]]
    maximum: int


def _labels(centres: list[tuple[float, str]]) -> list[tuple[float, str, str]]:
    """Labels centred under their bars, but the last one that would run past the right edge
    ends there (a date is about 60 units wide at a phone's label size)."""
    out = [(x, text, "middle") for x, text in centres]
    if out and out[-1][0] > W - RIGHT - 34:
        out[-1] = (W - RIGHT, out[-1][1], "end")
    return out


def _y(value: float, top: float) -> float:
    return TOP + (H - TOP - BOTTOM) * (1 - value / top) if top else H - BOTTOM


def _top(largest: int) -> int:
    """The axis's top for counts up to ``largest``: even above 1, so that the middle grid line
    names the middle (0, 2, 4; never 0, 1, 3)."""
    return largest + largest % 2 if largest > 1 else 1


def _grid(top: int) -> list[tuple[float, str]]:
    steps = sorted({0, top // 2, top}) if top else [0]
    return [(round(_y(v, top), 1), str(v)) for v in steps]


def rolling_line(values: list[float]) -> Line | None:
    if not values:
        return None
    n = len(values)
    span = W - LEFT - RIGHT
    xs = [LEFT + (span * i / (n - 1) if n > 1 else span / 2) for i in range(n)]
    pts = [(round(x, 1), round(_y(v, 100), 1)) for x, v in zip(xs, values, strict=True)]
    grid = [(round(_y(v, 100), 1), f"{v}\u00a0%") for v in (0, 50, 100)]
    return Line(" ".join(f"{x},{y}" for x, y in pts), [(pts[-1][0], pts[-1][1], values[-1])], grid, n)


def histogram_bars(hist: Histogram) -> Bars | None:
    if not hist.counts:
        return None
    top = _top(max(hist.counts))
    n = len(hist.counts)
    slot = (W - LEFT - RIGHT) / n
    bars, labels = [], []
    for i, count in enumerate(hist.counts):
        low = hist.low + i * hist.width
        high = low + hist.width - 1
        label = str(low) if hist.width == 1 else f"{low}–{high}"
        # the games won at the foot, those lost on top of them: the colours of the days' chart
        won = hist.won[i] if hist.won else 0
        x, width = round(LEFT + i * slot + 2, 1), round(slot - 4, 1)
        y_won, y_all = _y(won, top), _y(count, top)
        if won:
            bars.append(Bar(x, round(y_won, 1), width, round(H - BOTTOM - y_won, 1), won, label, Status.WON))
        if count - won:
            bars.append(Bar(x, round(y_all, 1), width, round(y_won - y_all, 1), count - won, label, Status.LOST))
        # every other bar counted back from the last (the top of the range is always named): no
        # two labels under neighbouring bars, where a phone's larger letters run together
        if n <= 6 or (n - 1 - i) % 2 == 0:
            labels.append((round(LEFT + (i + 0.5) * slot, 1), label))
    return Bars(bars, _labels(labels), _grid(top), top)


def day_bars(days: list[DayResults], format_day) -> Bars | None:
    if not any(d.won or d.lost for d in days):
        return None
    top = _top(max(d.won + d.lost for d in days))
    n = len(days)
    slot = (W - LEFT - RIGHT) / n
    bars, labels = [], []
    for i, d in enumerate(days):
        x = round(LEFT + i * slot + 1, 1)
        width = round(max(1.0, slot - 2), 1)
        y_won = _y(d.won, top)
        y_all = _y(d.won + d.lost, top)
        label = format_day(d.day)
        if d.won:
            bars.append(Bar(x, round(y_won, 1), width, round(H - BOTTOM - y_won, 1), d.won, label, Status.WON))
        if d.lost:
            bars.append(Bar(x, round(y_all, 1), width, round(y_won - y_all, 1), d.lost, label, Status.LOST))
        if i % 7 == (n - 1) % 7:
            labels.append((round(LEFT + (i + 0.5) * slot, 1), label))
    return Bars(bars, _labels(labels), _grid(top), top)
