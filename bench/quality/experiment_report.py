"""The 20-turn experiment's results (bench/quality/experiment_20_turns.py): one agent's
tally, the console table and the SVG chart."""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

PROBE_AFTER = (5, 10, 15, 20)


@dataclass
class AgentResult:
    name: str
    correct: int = 0
    probes: int = 0
    polluted: int = 0
    pollution_kinds: dict[str, int] = field(default_factory=dict)
    turn_tokens: list[int] = field(default_factory=list)
    turn_latency_ms: list[float] = field(default_factory=list)
    accuracy_at: dict[int, float] = field(default_factory=dict)
    answers: list[tuple[int, str, str | None, str | None]] = field(default_factory=list)
    # Memory agents: items their probe recalls returned, those the answer used (reported
    # to Engram as recall feedback), and the items by routing (inject / verify).
    recalled: int = 0
    used: int = 0
    routed: dict[str, int] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.correct / self.probes if self.probes else 0.0

    @property
    def pollution_rate(self) -> float:
        return self.polluted / self.probes if self.probes else 0.0

    def utility(self) -> str:
        if not self.recalled:
            return "—"
        return f"{self.used / self.recalled:.2f} ({self.used}/{self.recalled})"

    def split(self) -> str:
        if not self.recalled:
            return "—"
        return f"{self.routed.get('inject', 0)} / {self.routed.get('verify', 0)}"


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def table(results: list[AgentResult]) -> str:
    head = (
        "| agent | accuracy | after 5 / 10 / 15 / 20 | context tokens per turn (mean, turn 20) "
        "| memory latency per turn p50 / p95 | pollution rate | utility (used / recalled) "
        "| inject / verify |\n|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for r in results:
        at = " / ".join(f"{r.accuracy_at.get(n, 0):.2f}" for n in PROBE_AFTER)
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(r.pollution_kinds.items()))
        rows.append(
            f"| {r.name} | {r.accuracy:.2f} ({r.correct}/{r.probes}) | {at} "
            f"| {statistics.mean(r.turn_tokens):.0f}, {r.turn_tokens[-1]} "
            f"| {_p(r.turn_latency_ms, 0.5):.1f} / {_p(r.turn_latency_ms, 0.95):.1f} ms "
            f"| {r.pollution_rate:.2f} ({r.polluted}/{r.probes}{': ' + kinds if kinds else ''}) "
            f"| {r.utility()} | {r.split()} |"
        )
    return head + "\n".join(rows) + "\n"


COLOURS = {
    "no_memory": "#9e9e9e",
    "full_history": "#e07b39",
    "engram": "#3b7dd8",
    "engram_compact": "#2e9e5b",
}


def svg(results: list[AgentResult]) -> str:
    """Three panels drawn by hand: accuracy after each probe point, context tokens per
    turn, pollution rate."""
    w, h, pad = 900, 300, 40
    panel = (w - 4 * pad) / 3
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
    ]

    def frame(x0: float, title: str, ymax_label: str) -> None:
        out.append(f'<text x="{x0}" y="22" font-weight="bold">{title}</text>')
        out.append(
            f'<line x1="{x0}" y1="{h - pad}" x2="{x0 + panel}" y2="{h - pad}" stroke="#333"/>'
        )
        out.append(f'<line x1="{x0}" y1="{pad}" x2="{x0}" y2="{h - pad}" stroke="#333"/>')
        out.append(f'<text x="{x0 - 4}" y="{pad + 4}" text-anchor="end">{ymax_label}</text>')
        out.append(f'<text x="{x0 - 4}" y="{h - pad + 4}" text-anchor="end">0</text>')

    plot_h = h - 2 * pad
    # 1. accuracy at each probe point (lines)
    x0 = pad
    frame(x0, "Accuracy after turn 5/10/15/20", "1")
    for i, n in enumerate(PROBE_AFTER):
        x = x0 + panel * (i + 0.5) / len(PROBE_AFTER)
        out.append(f'<text x="{x:.0f}" y="{h - pad + 16}" text-anchor="middle">{n}</text>')
    for r in results:
        pts = " ".join(
            f"{x0 + panel * (i + 0.5) / len(PROBE_AFTER):.1f},"
            f"{h - pad - plot_h * r.accuracy_at.get(n, 0):.1f}"
            for i, n in enumerate(PROBE_AFTER)
        )
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="{COLOURS[r.name]}" stroke-width="2.5"/>'
        )
    # 2. tokens per turn (lines)
    x0 = 2 * pad + panel
    top = max(max(r.turn_tokens) for r in results)
    frame(x0, "Context tokens per turn", str(top))
    for r in results:
        pts = " ".join(
            f"{x0 + panel * i / (len(r.turn_tokens) - 1):.1f},{h - pad - plot_h * t / top:.1f}"
            for i, t in enumerate(r.turn_tokens)
        )
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="{COLOURS[r.name]}" stroke-width="2.5"/>'
        )
    out.append(
        f'<text x="{x0 + panel / 2}" y="{h - pad + 16}" text-anchor="middle">turn 1 → 20</text>'
    )
    # 3. pollution rate (bars)
    x0 = 3 * pad + 2 * panel
    frame(x0, "Pollution rate (probe contexts)", "1")
    bar = panel / (len(results) * 1.5)
    for i, r in enumerate(results):
        x = x0 + bar * 0.5 + i * bar * 1.5
        bh = plot_h * r.pollution_rate
        out.append(
            f'<rect x="{x:.1f}" y="{h - pad - bh:.1f}" width="{bar:.1f}" height="{bh:.1f}" '
            f'fill="{COLOURS[r.name]}"/>'
        )
        out.append(
            f'<text x="{x + bar / 2:.1f}" y="{h - pad - bh - 4:.1f}" text-anchor="middle">'
            f"{r.pollution_rate:.2f}</text>"
        )
    # legend
    for i, r in enumerate(results):
        y = h - 8
        x = pad + i * 170
        out.append(f'<rect x="{x}" y="{y - 9}" width="12" height="10" fill="{COLOURS[r.name]}"/>')
        out.append(f'<text x="{x + 16}" y="{y}">{r.name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def machine() -> str:
    """Where the figures come from: date, CPU model, cores and load at the end of the run."""
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{time.strftime('%Y-%m-%d')}, {cpu}, {os.cpu_count()} vCPU, load {load:.1f} at the end "
        "of the run"
    )
