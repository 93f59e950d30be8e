"""Small server-side SVG charts for the pages (no JavaScript, no CDN, CSP-safe: only
presentation attributes, no inline styles or scripts).

Each function returns one ``<figure>``: the SVG (``role="img"`` with a title), a caption,
and the numbers themselves in a collapsible table, so the chart is readable without
sight and testable as text. Colours come from a fixed palette; series keep their colour
across charts of one page when they share names.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

PALETTE = ["#2f5fd0", "#1b7a43", "#c77700", "#a4161a", "#6b3fa0", "#0f7c8c", "#8a8f99", "#d14d8b"]
WIDTH, HEIGHT = 640, 220
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 12, 12, 30


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if value <= step:
            return float(step)
    return float(value)


def _day_label(day: date | str) -> str:
    """A day as month/day; a ready-made label (an hour, say) as it is."""
    return day if isinstance(day, str) else date_format(day, "m/d")


def _figure(
    chart_id: str, title: str, svg: str, legend: str, table: str, note: str = ""
) -> SafeString:
    return format_html(
        '<figure class="chart" id="chart-{}" data-chart="{}">'
        "<figcaption><strong>{}</strong>{}</figcaption>{}{}"
        '<details class="chart-data"><summary>{}</summary>{}</details></figure>',
        chart_id,
        chart_id,
        title,
        format_html(' <span class="muted">{}</span>', note) if note else "",
        mark_safe(svg),
        mark_safe(legend),
        _("The numbers"),
        mark_safe(table),
    )


def _legend(names: Sequence[str]) -> str:
    if len(names) < 2:
        return ""
    items = "".join(
        format_html(
            '<li><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="{}"/></svg> {}</li>',
            PALETTE[i % len(PALETTE)],
            name,
        )
        for i, name in enumerate(names)
    )
    return f'<ul class="chart-legend">{items}</ul>'


def _table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(format_html("<th>{}</th>", c) for c in columns)
    body = "".join(
        "<tr>" + "".join(format_html("<td>{}</td>", v) for v in row) + "</tr>" for row in rows
    )
    return f'<div class="table-wrap"><table class="grid"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _axes(top: float, days: Sequence[date], unit: str = "") -> list[str]:
    parts = []
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    for fraction in (0, 0.5, 1):
        y = PAD_TOP + plot_h * (1 - fraction)
        value = top * fraction
        text = f"{value:.0f}" if top >= 4 or value == int(value) else f"{value:.1f}"
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="#e3e6ee"/>'
                '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#5b6475">{}{}</text>',
                PAD_LEFT,
                WIDTH - PAD_RIGHT,
                f"{y:.1f}",
                f"{y:.1f}",
                PAD_LEFT - 6,
                f"{y + 4:.1f}",
                text,
                unit,
            )
        )
    n = len(days)
    if n:
        step = max(1, n // 7)
        slot = (WIDTH - PAD_LEFT - PAD_RIGHT) / n
        for i in range(0, n, step):
            x = PAD_LEFT + slot * (i + 0.5)
            parts.append(
                format_html(
                    '<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="#5b6475">{}</text>',
                    f"{x:.1f}",
                    HEIGHT - 10,
                    _day_label(days[i]),
                )
            )
    return parts


def _svg(title: str, parts: list[str]) -> str:
    return (
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'preserveAspectRatio="xMidYMid meet"><title>{escape(title)}</title>'
        + "".join(parts)
        + "</svg>"
    )


def stacked_bars(
    chart_id: str, title: str, days: Sequence[date], series: dict[str, list[int]], note: str = ""
) -> SafeString:
    """One column per day, one coloured segment per series."""
    names = list(series)
    totals = [sum(series[name][i] for name in names) for i in range(len(days))]
    top = _nice_max(max(totals, default=0))
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    slot = (WIDTH - PAD_LEFT - PAD_RIGHT) / max(1, len(days))
    parts = _axes(top, days)
    for i, day in enumerate(days):
        y = PAD_TOP + plot_h
        for s, name in enumerate(names):
            value = series[name][i]
            if not value:
                continue
            h = plot_h * value / top
            y -= h
            parts.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{} · {}: {}</title></rect>',
                    f"{PAD_LEFT + slot * i + slot * 0.15:.1f}",
                    f"{y:.1f}",
                    f"{slot * 0.7:.1f}",
                    f"{h:.1f}",
                    PALETTE[s % len(PALETTE)],
                    _day_label(day),
                    name,
                    value,
                )
            )
    rows = [[_day_label(d), *(series[n][i] for n in names)] for i, d in enumerate(days)]
    return _figure(
        chart_id,
        title,
        _svg(title, parts),
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
    values = [v for name in names for v in series[name] if v is not None]
    top = _nice_max(max(values, default=0))
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    slot = (WIDTH - PAD_LEFT - PAD_RIGHT) / max(1, len(days))
    parts = _axes(top, days, unit)
    for s, name in enumerate(names):
        colour = PALETTE[s % len(PALETTE)]
        segment: list[str] = []
        for i, value in enumerate(series[name]):
            if value is None:
                if len(segment) > 1:
                    parts.append(_polyline(segment, colour))
                segment = []
                continue
            x = PAD_LEFT + slot * (i + 0.5)
            y = PAD_TOP + plot_h * (1 - value / top)
            segment.append(f"{x:.1f},{y:.1f}")
            parts.append(
                format_html(
                    '<circle cx="{}" cy="{}" r="3" fill="{}"><title>{} · {}: {}{}</title></circle>',
                    f"{x:.1f}",
                    f"{y:.1f}",
                    colour,
                    _day_label(days[i]),
                    name,
                    _fmt(value),
                    unit,
                )
            )
        if len(segment) > 1:
            parts.append(_polyline(segment, colour))
    rows = [
        [_day_label(d), *("—" if series[n][i] is None else _fmt(series[n][i]) for n in names)]
        for i, d in enumerate(days)
    ]
    return _figure(
        chart_id,
        title,
        _svg(title, parts),
        _legend(names),
        _table([_("Day"), *names], rows),
        note,
    )


def _polyline(points: list[str], colour: str) -> str:
    return format_html(
        '<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>', " ".join(points), colour
    )


def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def bars(chart_id: str, title: str, items: Sequence[tuple[str, int]], note: str = "") -> SafeString:
    """Horizontal bars, one per labelled item (largest first, as given)."""
    top = _nice_max(max((v for _label, v in items), default=0))
    row_h = 26
    label_w = 200
    height = max(row_h * len(items) + 8, 34)
    parts = []
    for i, (label, value) in enumerate(items):
        y = 4 + i * row_h
        w = (WIDTH - label_w - 60) * value / top
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="12" text-anchor="end" fill="#1d2330">{}</text>'
                '<rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="{}"><title>{}: {}</title></rect>'
                '<text x="{}" y="{}" font-size="12" fill="#5b6475">{}</text>',
                label_w - 8,
                y + 16,
                label if len(label) <= 30 else label[:29] + "…",
                label_w,
                y + 3,
                f"{max(w, 1):.1f}",
                row_h - 8,
                PALETTE[0],
                label,
                value,
                f"{label_w + max(w, 1) + 6:.1f}",
                y + 16,
                value,
            )
        )
    svg = (
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'preserveAspectRatio="xMinYMin meet"><title>{escape(title)}</title>'
        + "".join(parts)
        + "</svg>"
    )
    return _figure(chart_id, title, svg, "", _table([_("What"), _("How many")], list(items)), note)
