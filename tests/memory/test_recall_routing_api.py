"""``POST /api/v1/recall`` with ``route``: every item says whether to inject it or check
it first; ``inject_only`` returns only the former, ``auto`` leaves out external content
and instruction-like notes, ``all`` returns everything; the context pack has the two
sections. Real PostgreSQL, the real write path and recall."""

from __future__ import annotations

import pytest

from memory.models import MemoryRecord
from tests.helpers.retrieval import PURPOSE, remember

URL = "/api/v1/recall"


@pytest.fixture
def reader(read_agent, owner_subject):
    return read_agent.client(owner_subject)


@pytest.fixture
def mixed(owner_subject):
    """Memories about gardening: the user's own fact, an inference, another person's
    fact, a reported opinion and one from a web page."""
    own = remember(owner_subject, "User grows tomatoes on the balcony")
    guess = remember(
        owner_subject, "User probably grows basil on the balcony", assertion_kind="agent_inference"
    )
    opinion = remember(owner_subject, "User thinks balcony tomatoes taste better than shop ones")
    web = remember(
        owner_subject,
        "Balcony tomatoes need six hours of sun",
        assertion_kind="external_untrusted",
        source_uri="https://example.org/tomatoes",
        review_approved=True,  # a reviewer let it in: still external content
    )
    return {"own": own, "guess": guess, "opinion": opinion, "web": web}


def _ask(reader, route=None, query="What does the user grow on the balcony?"):
    body = {"query": query, "purpose": PURPOSE, "k": 10}
    if route:
        body["route"] = route
    response = reader.post_json(URL, body)
    assert response.status_code == 200, response.content
    return response.json()


def _ids(outcomes, *names):
    return {str(outcomes[n].record_id) for n in names if outcomes[n].record_id}


def test_every_item_carries_its_use_and_the_pack_has_two_sections(reader, mixed):
    body = _ask(reader, "all")
    by_id = {i["id"]: i for i in body["items"]}
    own = by_id[str(mixed["own"].record_id)]
    assert (own["use"], own["use_reason"]) == ("inject", "user_stated")
    for name, reason in (("guess", "inferred"), ("opinion", "opinion")):
        rid = str(mixed[name].record_id)
        assert (by_id[rid]["use"], by_id[rid]["use_reason"]) == ("verify", reason)
    assert any(i["use"] == "verify" for i in body["items"])
    pack = body["context_pack"]
    assert pack.index("## What is known about the user") < pack.index("## Notes to check")
    assert "check=" in pack.split("## Notes to check")[1]
    assert "check=" not in pack.split("## Notes to check")[0]


def test_the_default_is_all(reader, mixed):
    assert [i["id"] for i in _ask(reader)["items"]] == [
        i["id"] for i in _ask(reader, "all")["items"]
    ]


def test_inject_only_returns_only_what_is_safe_to_inject(reader, mixed):
    body = _ask(reader, "inject_only")
    assert body["items"], body
    assert {i["use"] for i in body["items"]} == {"inject"}
    assert str(mixed["own"].record_id) in {i["id"] for i in body["items"]}
    assert "## Notes to check" not in body["context_pack"]


def test_auto_leaves_out_external_content_unless_asked_for(reader, mixed, owner_subject):
    web = MemoryRecord.objects.get(subject=owner_subject, source_uri__startswith="https://")
    assert web.status == "active"
    web_id = str(web.id)
    everything = {
        i["id"]: i for i in _ask(reader, "all", "How much sun do balcony tomatoes need?")["items"]
    }
    assert everything[web_id]["use_reason"] == "untrusted_source"
    auto = {
        i["id"] for i in _ask(reader, "auto", "How much sun do balcony tomatoes need?")["items"]
    }
    assert web_id not in auto


def test_in_chinese_too(reader, owner_subject):
    own = remember(owner_subject, "用户在阳台上种番茄")
    opinion = remember(owner_subject, "用户觉得阳台番茄比超市的好吃")
    body = _ask(reader, "all", "用户在阳台上种什么？")
    by_id = {i["id"]: i for i in body["items"]}
    assert by_id[str(own.record_id)]["use"] == "inject"
    assert by_id[str(opinion.record_id)]["use_reason"] == "opinion"
    injected = {i["id"] for i in _ask(reader, "inject_only", "用户在阳台上种什么？")["items"]}
    assert str(opinion.record_id) not in injected


@pytest.mark.parametrize("route", ["everything", "", None, 3, ["all"]])
def test_a_bad_route_is_a_400_in_the_error_shape(reader, route):
    response = reader.post_json(URL, {"query": "x", "purpose": PURPOSE, "route": route})
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == "invalid_input"
    assert "route" in body["extra"]["fields"]
