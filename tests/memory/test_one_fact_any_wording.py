"""One current value per fact, whoever writes it and in whatever person (issue 31, class
3): what the user says ("I prefer…", "我喜欢…") and what an agent writes about it ("User
prefers…", "用户喜欢…") are the same memory — the second confirms the first — so retracting
one leaves nothing of it recallable; and after any sequence of moves, in any order of
arrival, a single-valued slot has one current value: the one said last."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.models import MemoryRecord, MemoryStatus
from memory.services.subjects import subject_get_or_create
from memory.write_policy import Candidate, content_key

pytestmark = pytest.mark.django_db

_ids = itertools.count()

SAME_FACT = [
    ("I prefer rooibos in the evening", "User prefers rooibos in the evening"),
    ("I'm a volunteer firefighter", "The user is a volunteer firefighter"),
    ("My dog is called Pepper", "User's dog is called Pepper"),
    ("I have two allotments", "User has two allotments"),
    ("I study marine biology", "The user studies marine biology"),
    ("我喜欢喝普洱", "用户喜欢喝普洱"),
    ("我的猫叫年糕", "用户的猫叫年糕"),
]
DIFFERENT = [
    ("I prefer rooibos in the evening", "User prefers rooibos in the morning"),
    ("We prefer rooibos", "User prefers rooibos"),  # "we" is not the user alone
    ("我们喜欢喝普洱", "用户喜欢喝普洱"),
    ("Ivan prefers rooibos", "User prefers rooibos"),
]


def _key(statement: str) -> str:
    return content_key(
        Candidate("semantic", "assistant/profile", statement, "user_explicit", 1.0, "p", "c")
    )


@pytest.mark.parametrize(("said", "written"), SAME_FACT)
def test_the_users_words_and_the_agents_are_one_fact(said, written):
    assert _key(said) == _key(written)


@pytest.mark.parametrize(("one", "other"), DIFFERENT)
def test_other_facts_or_other_people_stay_apart(one, other):
    assert _key(one) != _key(other)


def _turn(api, text: str) -> list[dict]:
    response = api.post_json(
        "/api/v1/conversation",
        {"messages": [{"client_event_id": f"m-{next(_ids)}", "role": "user", "content": text}]},
    )
    assert response.status_code == 200, response.content
    return response.json()["decisions"]


def _propose(api, statement: str, **extra) -> dict:
    body = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "statement": statement,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
        **extra,
    }
    response = api.post_json("/api/v1/candidates", {"candidates": [body]})
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("I prefer rooibos in the evening", "User prefers rooibos in the evening"),
        ("我喜欢喝普洱", "用户喜欢喝普洱"),
    ],
)
def test_extraction_and_the_agents_copy_are_one_memory(api, owner_subject, said, written):
    decisions = _turn(api, said)
    assert [d["operation"] for d in decisions] == ["ADD"], decisions
    copy = _propose(api, written)
    assert copy["operation"] == "CONFIRM", copy
    active = MemoryRecord.objects.filter(subject=owner_subject, status=MemoryStatus.ACTIVE)
    assert active.count() == 1
    # The user takes it back; the agent retracts its copy, citing that.
    api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": "taken-back",
                    "kind": "message",
                    "role": "user",
                    "content": "That is not true any more",
                }
            ]
        },
    )
    gone = _propose(
        api,
        written,
        intent="retract",
        target_record_id=copy["target_id"],
        source_client_event_ids=["taken-back"],
    )
    assert gone["operation"] == "RETRACT", gone
    assert not MemoryRecord.objects.filter(
        subject=owner_subject, status=MemoryStatus.ACTIVE
    ).exists()


# --- moves, in any order of arrival ---------------------------------------------------------

CITIES = ["Tromsø", "Valletta", "Ljubljana", "Tallinn"]


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    moves=st.permutations(range(4)).map(lambda order: order[: 2 + order[0] % 3]),
    arrival=st.randoms(use_true_random=False),
    how=st.lists(st.sampled_from(["candidate", "turn"]), min_size=4, max_size=4),
)
def test_after_any_moves_in_any_order_one_city_is_current(write_agent, tenant, moves, arrival, how):
    """Each move is said on its own day (its event's time); they reach Engram shuffled,
    some as an agent's candidate, some as the user's turn. The city said last is the one
    current value, and there is exactly one."""
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=f"mv-{next(_ids)}"
    )
    api = write_agent.client(subject)
    said = [(day, CITIES[city]) for day, city in enumerate(moves)]
    shuffled = list(said)
    arrival.shuffle(shuffled)
    for (day, city), path in zip(shuffled, how, strict=False):
        client_id = f"move-{next(_ids)}"
        when = f"2025-0{day + 1}-15T12:00:00Z"
        text = f"I live in {city} now"
        if path == "turn":
            response = api.post_json(
                "/api/v1/conversation",
                {
                    "messages": [
                        {
                            "client_event_id": client_id,
                            "role": "user",
                            "content": text,
                            "occurred_at": when,
                        }
                    ]
                },
            )
            assert response.status_code == 200, response.content
        else:
            appended = api.post_json(
                "/api/v1/events",
                {
                    "events": [
                        {
                            "client_event_id": client_id,
                            "kind": "message",
                            "role": "user",
                            "content": text,
                            "occurred_at": when,
                        }
                    ]
                },
            )
            assert appended.status_code == 200
            _propose(
                api,
                f"User lives in {city}",
                predicate="home_city",
                value=city,
                source_client_event_ids=[client_id],
            )
    current = MemoryRecord.objects.filter(
        subject=subject, status=MemoryStatus.ACTIVE, predicate="home_city", valid_to=None
    )
    assert [r.value for r in current] == [said[-1][1]], (said, shuffled, how)


def _named_key(statement: str, names: tuple[str, ...]) -> str:
    return content_key(
        Candidate(
            "semantic",
            "assistant/profile",
            statement,
            "user_explicit",
            1.0,
            "p",
            "c",
            subject_names=names,
        )
    )


@pytest.mark.parametrize(
    ("by_name", "plain", "names"),
    [
        ("Dana prefers rooibos", "I prefer rooibos", ("Dana Whitfield", "Dana")),
        (
            "Dana Whitfield's dog is called Pepper",
            "My dog is called Pepper",
            ("Dana Whitfield", "Dana"),
        ),
        ("王芳喜欢喝普洱", "我喜欢喝普洱", ("王芳",)),
    ],
)
def test_the_users_name_is_the_user(by_name, plain, names):
    assert _named_key(by_name, names) == _named_key(plain, names)
    assert _named_key("Danae prefers rooibos", names) != _named_key(plain, names)


def test_an_agent_writing_the_users_name_confirms_what_the_user_said(write_agent, tenant):
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id="dana", display_name="Dana Whitfield"
    )
    api = write_agent.client(subject)
    assert [d["operation"] for d in _turn(api, "I prefer rooibos in the evening")] == ["ADD"]
    assert _propose(api, "Dana prefers rooibos in the evening")["operation"] == "CONFIRM"


def _said_on(api, day: str, text: str, *, city: str | None = None) -> dict | None:
    """The user says ``text`` on ``day``; with ``city`` an agent also proposes it (citing
    the message), otherwise the conversation turn's extraction does."""
    client_id = f"said-{next(_ids)}"
    when = f"{day}T10:00:00Z"
    if city is None:
        response = api.post_json(
            "/api/v1/conversation",
            {
                "messages": [
                    {
                        "client_event_id": client_id,
                        "role": "user",
                        "content": text,
                        "occurred_at": when,
                    }
                ]
            },
        )
        assert response.status_code == 200, response.content
        return None
    appended = api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": client_id,
                    "kind": "message",
                    "role": "user",
                    "content": text,
                    "occurred_at": when,
                }
            ]
        },
    )
    assert appended.status_code == 200
    return _propose(
        api,
        f"User lives in {city}",
        predicate="home_city",
        value=city,
        source_client_event_ids=[client_id],
    )


@pytest.mark.parametrize("late", [False, True], ids=["in-order", "move-arrives-first"])
@pytest.mark.parametrize(
    ("lives", "moved", "old", "new"),
    [
        ("I live in Hangzhou now", "I moved to Shanghai last week", "Hangzhou", "Shanghai"),
        ("我现在住在杭州", "我上周搬到了上海", "杭州", "上海"),
    ],
)
def test_the_word_said_last_wins_even_when_it_dates_the_change_earlier(
    write_agent, tenant, lives, moved, old, new, late
):
    """Day 1: "I live in Hangzhou". Day 3: "I moved to Shanghai last week" (a start before
    day 1). Whichever reaches Engram first, Shanghai is the one current value."""
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=f"w-{next(_ids)}")
    api = write_agent.client(subject)
    steps = [("2025-03-01", lives, old), ("2025-03-03", moved, new)]
    for day, text, city in reversed(steps) if late else steps:
        _said_on(api, day, text, city=city if day == "2025-03-01" else None)
    current = MemoryRecord.objects.filter(
        subject=subject, status=MemoryStatus.ACTIVE, predicate="home_city", valid_to=None
    )
    assert [r.value for r in current] == [new]


@pytest.mark.parametrize(
    ("current", "plan", "old", "new"),
    [
        (
            "User lives in Porto",
            "Once the renovation is done the user will move to Braga",
            "Porto",
            "Braga",
        ),
        ("用户住在厦门", "等装修完用户就搬到泉州", "厦门", "泉州"),
    ],
)
def test_confirming_a_held_move_replaces_the_current_value(
    owner, write_agent, current, plan, old, new
):
    """A future move held for want of a date is confirmed by the user: it applies from the
    confirmation and is the one current value (the user's own word is never outranked)."""
    from memory.services.user_memory import memory_confirm_pending

    user, subject = owner
    api = write_agent.client(subject)
    assert _propose(api, current, predicate="home_city", value=old)["operation"] == "ADD"
    held = _propose(api, plan, predicate="home_city", value=new)
    assert (held["operation"], held["reason_code"]) == ("QUARANTINE", "future_needs_confirmation")
    result = memory_confirm_pending(
        user=user, subject=subject, record=MemoryRecord.objects.get(pk=held["record_id"])
    )
    assert result.ok, result
    current_rows = MemoryRecord.objects.filter(
        subject=subject, status=MemoryStatus.ACTIVE, predicate="home_city", valid_to=None
    )
    assert [r.value for r in current_rows] == [new]
