"""Small server-side charts for the pages (no JavaScript, no CDN, CSP-safe: only
presentation attributes, no inline styles or scripts).

Each function returns one ``<figure>``: the picture, a caption, and the numbers themselves
in a collapsible table, so the chart is readable without sight and testable as text.

Text is drawn at the page's own size, never scaled down with the picture: labels are
HTML (bars) or SVG text in an SVG without a ``viewBox`` (time series), whose user unit is
a CSS pixel. Horizontal positions are percentages of the plot's width, vertical ones
pixels, so a chart fills a phone or a wide screen with the same 12 px labels. Value axes
have evenly spaced ticks at round numbers (0, 2, 4, 6 — never 0, 2, 5). A bar chart with
nothing to show is a sentence, not an empty box. Colours come from a fixed palette; series
keep their colour across the charts of a page when they share names.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date

from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

PALETTE = ["#2f5fd0", "#1b7a43", "#c77700", "#a4161a", "#6b3fa0", "#0f7c8c", "#8a8f99", "#d14d8b"]
PLOT_HEIGHT = 160  # px: the plotting area of a time series
AXIS_HEIGHT = 22  # px below it for the day labels
FONT_SIZE = 12  # px: every label
MAX_TICKS = 5  # intervals on a value axis, at most
MAX_DAY_LABELS = 7


def nice_ticks(value: float, *, integer: bool = True) -> list[float]:
    """Evenly spaced ticks from 0 to a round top at or above ``value``: the step is 1, 2
    or 5 times a power of ten (at least 1 for counts), with at most ``MAX_TICKS``
    intervals."""
    if value <= 0:
        return [0.0, 1.0]
    raw = value / MAX_TICKS
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    if integer:
        step = max(1.0, math.ceil(step))
    intervals = math.ceil(value / step - 1e-9)
    return [round(step * i, 10) for i in range(intervals + 1)]


def _day_label(day: date | str) -> str:
    """A day as month/day; a ready-made label (an hour, say) as it is."""
    return day if isinstance(day, str) else date_format(day, "m/d")


def _number(value: float | None, unit: str = "") -> str:
    if value is None:
        return "—"
    text = f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
    return f"{text}{unit}"


def _figure(
    chart_id: str, title: str, picture: str, legend: str, table: str, note: str = ""
) -> SafeString:
    return format_html(
        '<figure class="chart" id="chart-{}" data-chart="{}">'
        "<figcaption><strong>{}</strong>{}</figcaption>{}{}"
        '<details class="chart-data"><summary>{}</summary>{}</details></figure>',
        chart_id,
        chart_id,
        title,
        format_html(' <span class="muted">{}</span>', note) if note else "",
        mark_safe(picture),
        mark_safe(legend),
        _("The numbers"),
        mark_safe(table),
    )


def _empty(chart_id: str, title: str, note: str) -> SafeString:
    """A chart with nothing to draw: its title and a sentence, no box."""
    return format_html(
        '<p class="chart-empty" id="chart-{}" data-chart="{}"><strong>{}</strong> {}</p>',
        chart_id,
        chart_id,
        title,
        note or _("Nothing to show yet."),
    )


def _legend(names: Sequence[str]) -> str:
    if len(names) < 2:
        return ""
    items = format_html_join(
        "",
        '<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" rx="2" fill="{}"/></svg> {}</li>',
        ((PALETTE[i % len(PALETTE)], name) for i, name in enumerate(names)),
    )
    return f'<ul class="chart-legend">{items}</ul>'


def _table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = format_html_join("", "<th>{}</th>", ((c,) for c in columns))
    body = "".join(
        "<tr>" + format_html_join("", "<td>{}</td>", ((v,) for v in row)) + "</tr>" for row in rows
    )
    return (
        '<div class="table-wrap"><table class="grid"><thead><tr>'
        f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _pct(value: float) -> str:
    return f"{value:.3f}%"


def _y(value: float, top: float) -> float:
    return PLOT_HEIGHT * (1 - value / top) + FONT_SIZE / 2


def _time_series(title: str, days: Sequence, ticks: list[float], marks: list[str], unit: str):
    """The two SVGs of a time series: the value axis (right-aligned labels, in its own
    narrow column) and the plot (grid lines at the ticks, ``marks``, day labels below)."""
    top = ticks[-1]
    height = PLOT_HEIGHT + FONT_SIZE + AXIS_HEIGHT
    axis = format_html_join(
        "",
        '<text x="100%" dx="-6" y="{}" font-size="{}" text-anchor="end" fill="#5b6475" '
        'dominant-baseline="middle">{}</text>',
        ((f"{_y(t, top):.1f}", FONT_SIZE, _number(t, unit)) for t in ticks),
    )
    grid = format_html_join(
        "",
        '<line x1="0" x2="100%" y1="{}" y2="{}" stroke="{}"/>',
        (
            (f"{_y(t, top):.1f}", f"{_y(t, top):.1f}", "#c5cad6" if t == 0 else "#e3e6ee")
            for t in ticks
        ),
    )
    n = len(days)
    step = max(1, math.ceil(n / MAX_DAY_LABELS))
    labels = format_html_join(
        "",
        '<text x="{}" y="{}" font-size="{}" text-anchor="middle" fill="#5b6475">{}</text>',
        (
            (_pct(100 * (i + 0.5) / n), height - 6, FONT_SIZE, _day_label(days[i]))
            for i in range(0, n, step)
        ),
    )
    return format_html(
        '<div class="tchart">'
        '<svg class="tchart-axis" width="100%" height="{}" aria-hidden="true">{}</svg>'
        '<svg class="chart-svg" width="100%" height="{}" role="img"><title>{}</title>{}{}{}</svg>'
        "</div>",
        height,
        axis,
        height,
        title,
        grid,
        mark_safe("".join(marks)),
        labels,
    )


def stacked_bars(
    chart_id: str, title: str, days: Sequence[date], series: dict[str, list[int]], note: str = ""
) -> SafeString:
    """One column per day, one coloured segment per series."""
    names = list(series)
    n = max(1, len(days))
    totals = [sum(series[name][i] for name in names) for i in range(len(days))]
    ticks = nice_ticks(max(totals, default=0))
    top = ticks[-1]
    marks = []
    for i, day in enumerate(days):
        base = 0.0
        for s, name in enumerate(names):
            value = series[name][i]
            if not value:
                continue
            y_top, y_base = _y(base + value, top), _y(base, top)
            marks.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{} · {}: {}</title></rect>',
                    _pct(100 * (i + 0.15) / n),
                    f"{y_top:.1f}",
                    _pct(100 * 0.7 / n),
                    f"{y_base - y_top:.1f}",
                    PALETTE[s % len(PALETTE)],
                    _day_label(day),
                    name,
                    value,
                )
            )
            base += value
    rows = [[_day_label(d), *(series[name][i] for name in names)] for i, d in enumerate(days)]
    return _figure(
        chart_id,
        title,
        _time_series(title, days, ticks, marks, ""),
        _legend(names),
        _table([_("Day"), *names], rows),
        note,
    )


def lines(
    chart_id: str,
    title: str,
    days: Sequence[date],
    series: dict[str, list[float | None]],
    unit: str = "",
    note: str = "",
) -> SafeString:
    """One line per series over the days (None = no data that day: a gap)."""
    names = list(series)
    n = max(1, len(days))
    values = [v for name in names for v in series[name] if v is not None]
    integer = all(float(v).is_integer() for v in values)
    ticks = nice_ticks(max(values, default=0), integer=integer)
    top = ticks[-1]
    marks = []
    for s, name in enumerate(names):
        colour = PALETTE[s % len(PALETTE)]
        previous: tuple[str, str] | None = None
        for i, value in enumerate(series[name]):
            if value is None:
                previous = None
                continue
            x, y = _pct(100 * (i + 0.5) / n), f"{_y(value, top):.1f}"
            if previous is not None:
                marks.append(
                    format_html(
                        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"/>',
                        previous[0],
                        previous[1],
                        x,
                        y,
                        colour,
                    )
                )
            marks.append(
                format_html(
                    '<circle cx="{}" cy="{}" r="3.5" fill="{}"><title>{} · {}: {}</title></circle>',
                    x,
                    y,
                    colour,
                    _day_label(days[i]),
                    name,
                    _number(value, unit),
                )
            )
            previous = (x, y)
    rows = [
        [_day_label(d), *(_number(series[name][i], unit) for name in names)]
        for i, d in enumerate(days)
    ]
    return _figure(
        chart_id,
        title,
        _time_series(title, days, ticks, marks, unit),
        _legend(names),
        _table([_("Day"), *names], rows),
        note,
    )


def bars(chart_id: str, title: str, items: Sequence[tuple[str, int]], note: str = "") -> SafeString:
    """Horizontal bars, one per labelled item (largest first, as given). Labels are
    HTML text: they wrap instead of being cut, at the page's font size."""
    if not items:
        return _empty(chart_id, title, note)
    ticks = nice_ticks(max(v for _label, v in items))
    top = ticks[-1]
    rows = format_html_join(
        "",
        '<div class="hbar-row"><span class="hbar-label">{}</span>'
        '<svg class="hbar" width="100%" height="16" aria-hidden="true">'
        '<rect width="{}" height="16" rx="3" fill="{}"/></svg>'
        '<span class="hbar-value">{}</span></div>',
        ((label, _pct(max(100 * value / top, 0.5)), PALETTE[0], value) for label, value in items),
    )
    picture = format_html('<div class="hbars" role="img" aria-label="{}">{}</div>', title, rows)
    return _figure(
        chart_id,
        title,
        picture,
        "",
        _table([_("What"), _("How many")], list(items)),
        note,
    )
