"""``POST /api/v1/conversation`` with the agent's own ``candidates``: one request that is
``POST /events`` then ``POST /candidates`` in one transaction. The messages are stored,
the candidates decided by the same policy, Engram's inline extraction is not run; an
unknown citation, a conflict or withdrawn consent store nothing at all; the same turns
through either form leave the same decisions and records."""

from __future__ import annotations

import itertools
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.models import AuditEvent
from memory.models import IdempotencyKey, MemoryRecord, SourceEvent, TaskRun
from memory.services.subject_data import subject_consent_withdraw
from memory.services.subjects import subject_get_or_create
from tests.helpers.api import assert_error
from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db

URL = "/api/v1/conversation"
_ids = itertools.count()


def msg(cid: str, content: str, role: str = "user") -> dict:
    return {"client_event_id": cid, "role": role, "content": content}


def cand(statement: str, *cites: str, **kw) -> dict:
    return candidate(statement=statement, source_client_event_ids=list(cites), **kw)


def stored(subject) -> dict:
    return {
        "events": SourceEvent.objects.filter(subject=subject).count(),
        "records": MemoryRecord.objects.filter(subject=subject).count(),
        "audit": AuditEvent.objects.filter(subject_id=subject.id).count(),
    }


def test_messages_stored_and_candidates_decided_en_and_zh(api, owner_subject):
    r = api.post_json(
        URL,
        {
            "thread_id": "t1",
            "messages": [
                msg("m1", "I prefer green tea over coffee."),
                msg("m2", "Noted.", role="assistant"),
                msg("m3", "以后技术回答请先给结论，再给证据"),
            ],
            "candidates": [
                cand("User prefers green tea over coffee", "m1"),
                cand("用户希望技术回答先给结论，再给证据", "m3", namespace="assistant/style"),
            ],
        },
    )
    assert r.status_code == 200, r.content
    body = r.json()
    assert [(e["client_event_id"], e["created"]) for e in body["events"]] == [
        ("m1", True),
        ("m2", True),
        ("m3", True),
    ]
    # The answer's candidates are POST /candidates' results; no extraction ran.
    assert [c["index"] for c in body["candidates"]] == [0, 1]
    assert [c["operation"] for c in body["candidates"]] == ["ADD", "ADD"], body
    assert body["decisions"] == [] and body["llm_rejected"] == body["llm_unavailable"] == 0
    # The cited messages' extraction is marked done, skipped (a memory cites each).
    skipped = TaskRun.objects.filter(task_name="memory.extract_events")
    assert {r.result["skipped"] for r in skipped} <= {1} and skipped.count() <= 2
    events = {e.client_event_id: e.id for e in SourceEvent.objects.filter(subject=owner_subject)}
    for result, cited in zip(body["candidates"], ["m1", "m3"], strict=True):
        record = MemoryRecord.objects.get(id=result["record_id"], subject=owner_subject)
        assert [e.id for e in record.source_events.all()] == [events[cited]]
        assert record.source_events.get().thread_id == "t1"
    assert body["events"][0]["event_id"] == str(events["m1"])


@pytest.mark.parametrize("inline", [False, True])
def test_appending_queues_the_background_extraction_as_post_events_does(
    api, owner_subject, django_capture_on_commit_callbacks, settings, inline
):
    """Not run in the request (no inline decisions), but queued on commit like any
    append: the job (eager here) then extracts each new message once. With
    ``ENGRAM_INGEST_CITED_EXTRACTION_INLINE`` a message a candidate cites is marked done
    with the result the job would give it (skipped: a memory cites it), and nothing is
    queued for it."""
    settings.ENGRAM_INGEST = {**settings.ENGRAM_INGEST, "CITED_EXTRACTION_INLINE": inline}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        body = api.post_json(
            URL,
            {
                "messages": [msg("q1", "Remember that I prefer green tea.")],
                "candidates": [cand("User prefers green tea", "q1")],
            },
        ).json()
    assert bool(callbacks) != inline and body["decisions"] == []
    event = SourceEvent.objects.get(subject=owner_subject)
    run = TaskRun.objects.get(task_name="memory.extract_events", key=f"extract:{event.id}")
    assert run.result != {"inline": 1} and run.result["skipped"] == 1


def test_a_candidate_may_cite_an_event_stored_before(api, owner_subject):
    first = api.post_json(URL, {"messages": [msg("a1", "I moved to Lisbon.")], "candidates": []})
    assert first.status_code == 200 and first.json()["candidates"] == []
    body = api.post_json(
        URL,
        {
            "messages": [msg("a2", "Yes, for good.")],
            "candidates": [cand("User lives in Lisbon", "a1", "a2")],
        },
    ).json()
    [result] = body["candidates"]
    assert result["operation"] == "ADD", body
    record = MemoryRecord.objects.get(id=result["record_id"])
    assert {e.client_event_id for e in record.source_events.all()} == {"a1", "a2"}


def test_an_unknown_citation_is_400_and_stores_nothing(api, owner_subject):
    before = stored(owner_subject)
    r = api.post_json(
        URL,
        {
            "messages": [msg("u1", "I like jazz."), msg("u2", "我喜欢爵士乐")],
            "candidates": [cand("User likes jazz", "u1"), cand("User likes blues", "nope")],
        },
    )
    error = assert_error(r, 400, "unknown_source_event")
    assert error["extra"] == {"source_client_event_ids": ["nope"]}
    assert stored(owner_subject) == before  # not the messages either, nor an audit row


def test_another_subjects_event_cannot_be_cited(api, write_agent, same_tenant_user):
    bob = write_agent.client(same_tenant_user[1])
    r = bob.post_json(URL, {"messages": [msg("b1", "I like tea.")], "candidates": []})
    assert r.status_code == 200
    r = api.post_json(
        URL, {"messages": [msg("o1", "Hello.")], "candidates": [cand("User likes tea", "b1")]}
    )
    assert_error(r, 400, "unknown_source_event")
    assert not SourceEvent.objects.filter(client_event_id="o1").exists()


def test_a_secret_bearing_candidate_is_refused_and_its_sibling_stored(api, owner_subject):
    body = api.post_json(
        URL,
        {
            "messages": [msg("s1", "My wifi password is k7Lm9pQ2-xx and I like hiking.")],
            "candidates": [
                cand("User's wifi password is k7Lm9pQ2-xx", "s1"),
                cand("User likes hiking", "s1"),
            ],
        },
    ).json()
    refused, kept = body["candidates"]
    assert (refused["operation"], refused["reason_code"]) == ("REJECT", "secret_detected")
    assert refused["record_id"] is None
    assert kept["operation"] == "ADD", kept
    assert body["events"][0]["redactions"] >= 1
    assert "k7Lm9pQ2" not in SourceEvent.objects.get(subject=owner_subject).content
    assert not any("k7Lm9pQ2" in r.statement for r in MemoryRecord.objects.all())


def test_withdrawn_consent_stores_nothing(api, owner):
    user, subject = owner
    subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    before = stored(subject)
    r = api.post_json(
        URL, {"messages": [msg("c1", "I like jazz.")], "candidates": [cand("Likes jazz", "c1")]}
    )
    assert_error(r, 403, "consent_withdrawn")
    assert stored(subject) == before


def test_a_retry_with_the_same_key_applies_nothing_twice(api, owner_subject):
    turn = {
        "messages": [msg("k1", "I live in Porto.")],
        "candidates": [cand("User lives in Porto", "k1")],
    }
    first = api.post_json(URL, turn, HTTP_IDEMPOTENCY_KEY="turn-k1")
    assert first.status_code == 200, first.content
    before = stored(owner_subject)
    record = MemoryRecord.objects.get(subject=owner_subject)
    again = api.post_json(URL, turn, HTTP_IDEMPOTENCY_KEY="turn-k1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert stored(owner_subject) == before
    record.refresh_from_db()
    assert record.evidence_count == 1  # no second CONFIRM
    assert IdempotencyKey.objects.filter(key="turn-k1").count() == 1
    other = {**turn, "candidates": [cand("User lives in Braga", "k1")]}
    assert_error(api.post_json(URL, other, HTTP_IDEMPOTENCY_KEY="turn-k1"), 422)


def test_a_read_only_key_is_refused(read_agent, owner_subject):
    turn = {"messages": [msg("r1", "I like jazz.")], "candidates": [cand("Likes jazz", "r1")]}
    assert_error(read_agent.client(owner_subject).post_json(URL, turn), 403)
    assert not SourceEvent.objects.exists()


@pytest.mark.parametrize("messages, candidates", [(1, 101), (101, 1)])
def test_over_the_batch_limit_is_400(api, owner_subject, messages, candidates):
    turn = {
        "messages": [msg(f"x{i}", f"line {i}") for i in range(messages)],
        "candidates": [cand(f"fact {i}", "x0") for i in range(candidates)],
    }
    error = assert_error(api.post_json(URL, turn), 400, "invalid_input")
    assert set(error["extra"]["fields"]) == {"messages" if messages > 100 else "candidates"}
    assert not SourceEvent.objects.exists()


def test_a_bad_candidate_is_400_with_its_field(api, owner_subject):
    turn = {"messages": [msg("v1", "hi")], "candidates": [{"statement": "x"}]}
    error = assert_error(api.post_json(URL, turn), 400, "invalid_input")
    assert "candidates" in error["extra"]["fields"]
    assert not SourceEvent.objects.exists()


# --- the same turns, in one request or in two ----------------------------------------------

CITIES = ["Lisbon", "Porto", "成都", "Kyoto"]
TEAS = ["green tea", "oolong", "龙井"]


def _turn(n: int, said: list[tuple[str, str]], earlier: int | None) -> tuple[list, list]:
    """Turn ``n``: a user message per fact (and an assistant reply), one candidate per
    fact citing its message, the first also citing turn ``earlier``'s first message."""
    messages, candidates = [], []
    for j, (kind, value) in enumerate(said):
        cid = f"t{n}-m{j}"
        messages.append(msg(cid, f"I {'live in' if kind == 'city' else 'drink'} {value}."))
        cites = [cid] + ([f"t{earlier}-m0"] if earlier is not None and j == 0 else [])
        if kind == "city":
            c = cand(
                f"User lives in {value}",
                *cites,
                predicate="home_city",
                cardinality="single",
                value=value,
                namespace="profile",
            )
        else:
            c = cand(f"User drinks {value}", *cites, namespace="profile/taste")
        candidates.append(c)
    messages.append(msg(f"t{n}-reply", "Noted.", role="assistant"))
    return messages, candidates


def _picture(subject, bodies: list[list[dict]]) -> tuple:
    records = {r.id: r for r in MemoryRecord.objects.filter(subject=subject)}

    def name(rid):
        return None if rid is None else records[uuid.UUID(rid)].statement

    decisions = [
        (d["index"], d["operation"], d["reason_code"], tuple(d["findings"]), name(d["record_id"]))
        for body in bodies
        for d in body
    ]
    rows = sorted(
        (
            r.statement,
            r.status,
            r.predicate,
            r.value,
            r.evidence_count,
            tuple(sorted(e.client_event_id for e in r.source_events.all())),
            r.supersedes.statement if r.supersedes_id else None,
        )
        for r in records.values()
    )
    events = sorted(
        SourceEvent.objects.filter(subject=subject).values_list(
            "client_event_id", "role", "content", "thread_id"
        )
    )
    return decisions, rows, events


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    turns=st.lists(
        st.tuples(
            st.lists(
                st.one_of(
                    st.tuples(st.just("city"), st.sampled_from(CITIES)),
                    st.tuples(st.just("tea"), st.sampled_from(TEAS)),
                ),
                min_size=1,
                max_size=3,
            ),
            st.booleans(),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_one_request_or_two_give_the_same_decisions_and_records(
    write_agent, tenant, settings, turns
):
    """The agent's decisions and records are the same either way. Engram's background
    extraction is left out (its order against the candidates differs: queued by the
    events request, it can run before them in the two-request form; here it runs after)."""
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    n = next(_ids)
    one, two = (
        subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=f"eq-{n}-{form}")
        for form in ("turn", "split")
    )
    a, b = write_agent.client(one), write_agent.client(two)
    got_one, got_two = [], []
    for i, (said, cite_earlier) in enumerate(turns):
        messages, candidates = _turn(i, said, i - 1 if cite_earlier and i else None)
        r = a.post_json(URL, {"thread_id": "th", "messages": messages, "candidates": candidates})
        assert r.status_code == 200, r.content
        got_one.append(r.json()["candidates"])
        events = [{**m, "kind": "message", "thread_id": "th"} for m in messages]
        assert b.post_json("/api/v1/events", {"events": events}).status_code == 200
        r = b.post_json("/api/v1/candidates", {"candidates": candidates})
        assert r.status_code == 200, r.content
        got_two.append(r.json()["results"])
    assert _picture(one, got_one) == _picture(two, got_two)


def test_org_procedures_are_refused_as_on_post_candidates(write_agent, tenant, settings):
    settings.ENGRAM = {**settings.ENGRAM, "ALLOW_ORG_SUBJECT_TOKENS": True}
    org = subject_get_or_create(tenant_id=tenant.id, kind="org", external_id="acme")
    turn = {
        "messages": [msg("p1", "Deploys need two approvals.")],
        "candidates": [cand("Deploys need two approvals", "p1", memory_type="procedural")],
    }
    r = write_agent.client(org).post_json(URL, turn)
    assert_error(r, 403, "procedure_change_requires_review")
    assert not SourceEvent.objects.filter(subject=org).exists()
