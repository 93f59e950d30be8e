"""The 20-turn experiment (bench/quality/experiment_20_turns.py) end to end against a real running
Engram: the script runs, every agent answers every probe, and the measured properties that
do not depend on tuning hold — the memoryless agent never pollutes its context, the full
history carries the secrets and the deleted fact, Engram refuses the secrets (so no
context holds one), serves no stale or deleted value, and knows more than no memory."""

from __future__ import annotations

import pytest
from engramhq_client import EngramClient, RetryPolicy, Timeouts

from bench.quality.experiment_20_turns import (
    PROBES,
    README_END,
    README_START,
    SCRIPT,
    main,
    pollution,
    read_answer,
    run_experiment,
    svg,
    table,
    tokens,
    update_readme,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_reader_and_pollution_rules():
    city = next(p for p in PROBES if p.name == "city")
    transcript = "I live in Shanghai.\n我的同事王强住在北京。\nI moved to Hangzhou last week."
    assert read_answer(city, transcript, "latest") == "Hangzhou"
    assert read_answer(city, transcript, "first") == "Shanghai"
    assert read_answer(city, "", "latest") is None
    assert pollution(transcript, 11) == ["someone_else", "stale"]
    assert pollution(transcript, 5) == ["someone_else"]
    assert pollution("my key sk-proj-abc", 6) == ["secret"]
    assert pollution("User is vegetarian", 14) == [] and pollution("User is vegetarian", 15) == [
        "deleted"
    ]
    assert tokens("用户喜欢 tea") == 5 and len(SCRIPT) == 20


def test_the_experiment_runs_against_engram(live_engram, keys):
    with EngramClient(
        live_engram.url,
        keys.write_key,
        admin_api_key=keys.admin_key,
        timeouts=Timeouts(recall=30, read=30, write=30),
        retry=RetryPolicy(attempts=2),
    ) as client:
        results = {r.name: r for r in run_experiment(client.for_user("lin"))}
    assert set(results) == {"no_memory", "full_history", "engram", "engram_compact"}
    probes = {r.probes for r in results.values()}
    assert len(probes) == 1 and probes.pop() > 0
    for r in results.values():
        assert len(r.turn_tokens) == len(r.turn_latency_ms) == 20

    assert results["no_memory"].pollution_rate == 0
    full = results["full_history"].pollution_kinds
    assert full.get("secret") and full.get("deleted") and full.get("stale")
    for name in ("engram", "engram_compact"):
        kinds = results[name].pollution_kinds
        assert not {"secret", "stale", "deleted", "transient"} & set(kinds), (name, kinds)
        assert results[name].accuracy > results["no_memory"].accuracy
        # Each probe recall's use was reported: a utility rate and the inject/verify split.
        r = results[name]
        assert r.recalled > 0 and 0 < r.used <= r.recalled
        assert sum(r.routed.values()) == r.recalled and set(r.routed) <= {"inject", "verify"}
    assert "| engram |" in table(list(results.values()))
    assert svg(list(results.values())).startswith("<svg")


def test_the_command_rewrites_the_readme_table(live_engram, keys, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# Engram\n\nbefore\n{README_START}\nold table\n{README_END}\nafter\n")
    main(
        [
            "--url",
            live_engram.url,
            "--api-key",
            keys.write_key,
            "--admin-key",
            keys.admin_key,
            "--out",
            str(tmp_path / "docs"),
            "--readme",
            str(readme),
        ]
    )
    text = readme.read_text()
    assert "old table" not in text and text.startswith("# Engram\n\nbefore\n")
    assert text.endswith(f"{README_END}\nafter\n")
    assert "| engram |" in text and "context tokens per turn" in text and "Measured " in text
    assert (tmp_path / "docs" / "experiment_20_turns.md").read_text() in text
    assert not update_readme(tmp_path / "docs" / "experiment_20_turns.md", "x")  # no markers
