"""No module outside migrations and tests is over 600 lines: a module a newcomer can read
in one sitting, and a change that grows one past it splits it by what it holds."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 600
SKIPPED_DIRS = {".venv", "node_modules", "migrations", "tests", "build", "dist", ".git", ".engram"}


def _modules() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
    ]


def test_no_module_is_over_the_limit():
    over = {
        str(path.relative_to(ROOT)): n
        for path in _modules()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert not over, f"modules over {LIMIT} lines (split them by what they hold): {over}"


def test_the_walk_sees_the_product_and_its_clients():
    seen = {str(p.relative_to(ROOT)) for p in _modules()}
    assert {
        "memory/recall/pipeline.py",
        "core/process_state.py",
        "bench/perf/recall_perf.py",
    } <= seen
    assert any(p.startswith("clients/python/") for p in seen)
    assert not any("/migrations/" in p for p in seen)
