"""The special-category embedding head's subject reading (memory/detectors/learned,
``subject_hold``; memory/detectors/first_person.py): for a sentence that names the user, the
embedding head is read whatever the n-gram head says, at its own line."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from accounts.policies import TenantPolicy
from memory.detectors import learned
from memory.detectors.first_person import first_person
from memory.write_policy import Candidate, SubjectState, decide

NOW = datetime(2026, 12, 6, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "I take it every morning",
        "My wife and I",
        "I'm fine",
        "The user takes it nightly",
        "我每天吃一片",
        "本人已经报名",
        "私は毎週行きます",
        "나 매일 아침 먹어",
        "저는 지난달에 받았어요",
        "제가 할게요",
    ],
)
def test_first_person_names_the_user(text):
    assert first_person(text)


@pytest.mark.parametrize(
    "text",
    [
        "The election results came in overnight.",
        "Our team won the match.",
        "He is a pharmacist in Leeds.",
        "我们明天去爬山",
        "她每天吃一片",
        "내일 비가 온대",
        "우리 할머니가 당뇨가 있으셔",
        "Imagine a bridge over the river.",
        "Mimic the style of that page.",
    ],
)
def test_first_person_leaves_other_subjects_alone(text):
    assert not first_person(text)


def _model_with(tmp_path: Path, line: float | None) -> learned.Model:
    with np.load(learned.WEIGHTS, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["thresholds"]["special_category"].pop("subject_hold", None)
    if line is not None:
        meta["thresholds"]["special_category"]["subject_hold"] = line
    arrays["meta"] = np.array(json.dumps(meta))
    path = tmp_path / f"weights-{line}.npz"
    np.savez_compressed(path, **arrays)
    return learned.Model(path)


def test_the_subject_line_reads_the_embedding_head_for_the_user_only(tmp_path):
    with_line = _model_with(tmp_path, 0.6)
    without = _model_with(tmp_path, None)
    j = with_line.classes.index("special_category")
    dim = with_line.emb_weights.shape[0]
    # A vector the special-category head scores far above any line, and one far below.
    direction = with_line.emb_weights[:, j] / np.linalg.norm(with_line.emb_weights[:, j])
    high, low = (direction * 50).astype(np.float32), (-direction * 50).astype(np.float32)
    assert high.shape == (dim,)
    user = "I have dinner with friends on Fridays."
    other = "The committee has dinner with friends on Fridays."
    for text in (user, other):
        assert with_line.ngram_logits(text)[j] < 0  # the n-gram head does not hold either
    # The user's sentence: read at the subject line, so held on the high vector only.
    assert with_line.needs_embedding(user)
    assert with_line.scores(user, vector=high)["special_category"] >= learned.HOLD
    assert with_line.scores(user, vector=low)["special_category"] < learned.HOLD
    # Another subject: exactly as without the line (no reading, no vector needed).
    assert with_line.scores(other, vector=high) == without.scores(other, vector=high)
    assert not with_line.subject_reading(other, with_line.ngram_logits(other))
    # Without the line in the weights, the user's sentence is scored as before: the
    # n-gram head's verdict stands, whatever the vector.
    assert not without.subject_reading(user, without.ngram_logits(user))
    assert without.scores(user, vector=high)["special_category"] < learned.HOLD
    # Only ever stricter: the other classes' scores do not move.
    a, b = with_line.scores(user, vector=high), without.scores(user, vector=high)
    assert {c: a[c] for c in a if c != "special_category"} == {
        c: b[c] for c in b if c != "special_category"
    }
    assert a["special_category"] >= b["special_category"]


def _decide(text: str, learned_on: bool = True):
    candidate = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=text,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        source_roles=("user",),
    )
    return decide(
        candidate,
        existing=[],
        subject=SubjectState(),
        tenant=TenantPolicy(),
        now=NOW,
        learned_detectors=learned_on,
    )


# Ordinary first-person turns (not from any corpus or probe set) the shipped line lets
# through: the embedding head is read for each of them.
ORDINARY = [
    "I ran 10k this morning and my legs are fine.",
    "My favourite pizza is the one with mushrooms and olives.",
    "I finally repainted the hallway a pale green.",
    "我今天去超市买了两斤苹果。",
    "我周末一般去公园骑车。",
    "私は週末に映画を見ます。",
    "나 주말에 캠핑 가.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_turns_naming_the_user_are_stored(text):
    if learned.model().subject_logit is None:
        pytest.skip("the shipped weights have no subject line")
    assert learned.needs_embedding(text)
    decision = _decide(text)
    assert decision.operation == "ADD", (decision.operation, decision.reason_code)
