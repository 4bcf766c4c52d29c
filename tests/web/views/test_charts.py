from datetime import date, timedelta

import pytest

from app.services.stats.stats import DayResults, Histogram
from app.web.views.charts import BOTTOM, TOP, H, day_bars, histogram_bars


@pytest.mark.parametrize("largest", [1, 2, 3, 4, 5, 7, 10, 11])
def test_the_count_axis_names_its_middle_line_by_the_middle_count(largest):
    """A chart of at most 3 games once labelled its grid 0, 1, 3: the middle line stood at 1.5."""
    hist = histogram_bars(Histogram("simple", 0, 1, [largest, 1]))
    days = day_bars([DayResults(date(2026, 12, 1), largest, 0), DayResults(date(2026, 12, 2), 0, 1)], str)
    for chart in (hist, days):
        assert chart is not None and chart.maximum >= largest
        for y, label in chart.grid:
            # each line stands where its own count's bar would end
            assert y == pytest.approx(TOP + (H - TOP - BOTTOM) * (1 - int(label) / chart.maximum), abs=0.1)
        if largest > 1:
            low, middle, top = (int(label) for _, label in chart.grid)
            assert (low, middle * 2) == (0, top) and top == chart.maximum  # evenly spaced lines
        bar = max(chart.bars, key=lambda b: b.h)  # the tallest bar is the largest count, to scale
        assert bar.value == largest and bar.h == pytest.approx((H - TOP - BOTTOM) * largest / chart.maximum, abs=0.1)
    assert histogram_bars(Histogram("simple", 0, 1, [])) is None
    assert day_bars([DayResults(date(2026, 12, 1) + timedelta(days=i), 0, 0) for i in range(3)], str) is None
