"""The token budget counts what recall returns: the context pack as written, with each
item's sources, its position, the request's purpose and times. Memories are written with
cited events through the API (sources are what the former count left out), in English and
Chinese, and the pack is measured for budgets from too small for anything to generous."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory import lexical
from memory.models import MemoryRecord
from memory.services.indexing import index_pending_records

pytestmark = pytest.mark.django_db

PURPOSE = "personalization"
_ids = itertools.count()

# Ten notes on one project (so one question finds them all), half in Chinese.
FACTS = [
    (f"Project Heron: {said}", f"Project Heron: {kept}")
    for said, kept in [
        ("the kickoff is in the library annex", "kickoff is in the library annex"),
        ("我负责苍鹭项目的预算表", "用户负责预算表"),
        ("design reviews happen on Thursday mornings", "design reviews on Thursday mornings"),
        ("苍鹭项目的测试服务器在二楼机房", "测试服务器在二楼机房"),
        ("my co-lead is based in Porto", "the user's co-lead is based in Porto"),
        ("每周五下午我写进度周报", "用户每周五下午写进度周报"),
        ("the demo build ships on a USB stick", "the demo build ships on a USB stick"),
        ("我们用看板管理苍鹭项目的任务", "任务用看板管理"),
        ("the client prefers calls over e-mail", "the client prefers calls over e-mail"),
        ("苍鹭项目的代号是我起的", "项目代号是用户起的"),
    ]
]
EN_QUERY = "Project Heron notes"
ZH_QUERY = "Project Heron 项目的情况"


@pytest.fixture
def sourced(api, owner_subject):
    """Ten memories, each citing the user event it came from (one source each)."""
    for said, statement in FACTS:
        client_id = f"budget-{next(_ids)}"
        events = api.post_json(
            "/api/v1/events",
            {
                "events": [
                    {
                        "client_event_id": client_id,
                        "kind": "message",
                        "role": "user",
                        "content": said,
                    }
                ]
            },
        )
        assert events.status_code == 200, events.content
        written = api.post_json(
            "/api/v1/candidates",
            {
                "candidates": [
                    {
                        "memory_type": "semantic",
                        "namespace": "assistant/profile",
                        "statement": statement,
                        "assertion_kind": "user_explicit",
                        "confidence": 1.0,
                        "purpose": PURPOSE,
                        "consent_basis": "explicit_consent",
                        "source_client_event_ids": [client_id],
                    }
                ]
            },
        )
        assert written.json()["results"][0]["operation"] in ("ADD", "CONFIRM"), written.content
    with tenant_context(owner_subject.tenant_id):
        index_pending_records(
            list(MemoryRecord.objects.filter(subject=owner_subject).values_list("id", flat=True))
        )
    return owner_subject


def _recall(read_agent, subject, query: str, **body):
    response = read_agent.client(subject).post_json(
        "/api/v1/recall", {"query": query, "purpose": PURPOSE, "k": 10, **body}
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_ten_sourced_items_fit_a_budget_of_400(read_agent, sourced):
    answer = _recall(read_agent, sourced, EN_QUERY, token_budget=400)
    assert answer["items"], answer
    assert all(item["source"]["event_ids"] for item in answer["items"])
    assert lexical.estimate_tokens(answer["context_pack"]) <= 400
    print(
        len(answer["items"]),
        lexical.estimate_tokens(answer["context_pack"]),
        answer["dropped_by_budget"],
    )
    assert answer["dropped_by_budget"] > 0  # ten such items do not fit in 400


def test_what_is_dropped_is_what_did_not_fit(read_agent, sourced):
    roomy = _recall(read_agent, sourced, ZH_QUERY, token_budget=8000)
    tight = _recall(read_agent, sourced, ZH_QUERY, token_budget=500)
    assert len(roomy["items"]) > len(tight["items"]) > 0
    assert tight["dropped_by_budget"] == len(roomy["items"]) - len(tight["items"])
    # Kept in rank order: the tight pack is a prefix-respecting subset of the roomy one.
    roomy_ids = [i["id"] for i in roomy["items"]]
    tight_ids = [i["id"] for i in tight["items"]]
    assert tight_ids == [i for i in roomy_ids if i in tight_ids]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    budget=st.integers(min_value=100, max_value=2500),
    query=st.sampled_from([EN_QUERY, ZH_QUERY, "Where does the user keep the bike?"]),
    known_at=st.booleans(),
    purpose=st.sampled_from([PURPOSE, "support"]),
)
def test_the_pack_never_exceeds_its_budget(read_agent, sourced, budget, query, known_at, purpose):
    body = {"token_budget": budget, "purpose": purpose}
    if known_at:
        body["known_at"] = "2030-01-01T00:00:00Z"
    response = read_agent.client(sourced).post_json(
        "/api/v1/recall", {"query": query, "k": 10, **body}
    )
    if response.status_code != 200:  # a purpose this tenant does not allow: refused, no pack
        assert response.status_code == 400 and set(response.json()) == {"code", "message", "extra"}
        return
    answer = response.json()
    if answer["items"]:
        assert lexical.estimate_tokens(answer["context_pack"]) <= budget
