"""``candidate_replace`` (memory/write_policy/decision.py) gives ``dataclasses.replace``'s
result: the same fields, equal, hashing alike, still frozen, the original untouched; an
unknown field name raises the same ``TypeError``; and the premise it rests on (the
candidate's ``__init__`` only sets fields) holds."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.write_policy import decision
from memory.write_policy.decision import Candidate, candidate_replace

_TEXT = st.text(max_size=20)
_WHEN = st.none() | st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC)
)
# A value for each field the policy and the write service replace, and a few others.
_CHANGES = {
    "reference_time": _WHEN,
    "valid_from": _WHEN,
    "valid_to": _WHEN,
    "confidence": st.floats(0, 1),
    "cardinality": st.none() | st.sampled_from(["single", "multi"]),
    "sensitivity": st.sampled_from(["internal", "restricted", "public"]),
    "assertion_kind": st.sampled_from(["user_explicit", "agent_inference", "tool_confirmed"]),
    "source_roles": st.tuples(*[st.sampled_from(["user", "tool", "web"])] * 2),
    "predicate": _TEXT,
    "subject_names": st.lists(_TEXT, max_size=3).map(tuple),
    "unsourced_claim": st.booleans(),
    "statement": _TEXT,
    "value": st.none() | _TEXT | st.integers(),
    "source_event_ids": st.lists(st.uuids(), max_size=2).map(tuple),
}


@st.composite
def candidates(draw) -> Candidate:
    return Candidate(
        memory_type=draw(st.sampled_from(["semantic", "episodic", "procedural"])),
        namespace=draw(_TEXT),
        statement=draw(_TEXT),
        assertion_kind=draw(st.sampled_from(["user_explicit", "agent_inference"])),
        confidence=draw(st.floats(0, 1)),
        purpose=draw(_TEXT),
        consent_basis=draw(_TEXT),
        predicate=draw(_TEXT),
        value=draw(st.none() | _TEXT),
        valid_from=draw(_WHEN),
        target_record_id=draw(st.none() | st.uuids()),
        review_approved=draw(st.booleans()),
    )


@st.composite
def changes(draw) -> dict:
    names = draw(st.lists(st.sampled_from(sorted(_CHANGES)), max_size=4, unique=True))
    return {name: draw(_CHANGES[name]) for name in names}


@given(candidates(), changes())
def test_equals_dataclasses_replace(candidate: Candidate, change: dict) -> None:
    before = dataclasses.asdict(candidate)
    fast = candidate_replace(candidate, **change)
    reference = dataclasses.replace(candidate, **change)
    assert type(fast) is Candidate
    assert fast == reference
    if _hashable(reference):
        assert hash(fast) == hash(reference)
    assert dataclasses.asdict(fast) == dataclasses.asdict(reference)
    assert vars(fast) == vars(reference)  # no field more or less
    assert dataclasses.asdict(candidate) == before  # the original is unchanged
    if change:
        assert fast is not candidate
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.statement = "x"  # type: ignore[misc]


def _hashable(value: Candidate) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def test_a_change_is_seen_and_the_rest_kept() -> None:
    c = Candidate(
        memory_type="semantic",
        namespace="n",
        statement="The user likes tea",
        assertion_kind="user_explicit",
        confidence=0.9,
        purpose="p",
        consent_basis="c",
        source_event_ids=(uuid.uuid4(),),
    )
    r = candidate_replace(c, sensitivity="restricted", confidence=0.4)
    assert (r.sensitivity, r.confidence) == ("restricted", 0.4)
    assert (c.sensitivity, c.confidence) == ("internal", 0.9)
    assert r.source_event_ids == c.source_event_ids and r.statement == c.statement
    assert r != c


def test_an_unknown_field_raises_as_replace_does() -> None:
    c = Candidate(
        memory_type="semantic",
        namespace="n",
        statement="s",
        assertion_kind="user_explicit",
        confidence=0.9,
        purpose="p",
        consent_basis="c",
    )
    with pytest.raises(TypeError):
        dataclasses.replace(c, no_such_field=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        candidate_replace(c, no_such_field=1)


def test_the_premise_holds() -> None:
    """The copy skips ``__init__``: right only while it does nothing but set the fields."""
    assert not hasattr(Candidate, "__post_init__")
    assert all(f.init for f in dataclasses.fields(Candidate))
    assert not any(isinstance(f.type, dataclasses.InitVar) for f in dataclasses.fields(Candidate))
    assert decision._CANDIDATE_PLAIN
    assert not hasattr(Candidate, "__slots__")  # the copy writes the instance's dict
