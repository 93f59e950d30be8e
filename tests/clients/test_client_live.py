"""engramhq_client against a real running Engram (gunicorn on loopback, the test database):
every operation, errors in the API's shape, and an outage in the middle of a session —
recall degrades, writes wait in the SQLite outbox, the circuit opens, and after the
restart every queued write lands exactly once."""

from __future__ import annotations

import asyncio

import pytest
from engramhq_client import (
    AsyncEngramClient,
    AuthenticationFailed,
    CircuitBreaker,
    EngramClient,
    IdempotencyConflict,
    InvalidInput,
    NotFound,
    Outbox,
    PermissionDenied,
    QueuedWrite,
    RetractRequest,
    RetryPolicy,
    SupersedeRequest,
    Timeouts,
)
from engramhq_client.client import _candidates_call
from engramhq_client.models import Candidate, Event

from accounts.models import Role
from core.actor import Actor
from core.tenancy import tenant_context
from governance.models import ChangeRequest
from governance.services.procedures import procedure_document_create
from memory.models import MemoryRecord, SourceEvent, Subject
from tests.helpers.cast import person
from tests.helpers.live_server import make_agent, preference

pytestmark = pytest.mark.django_db(transaction=True)

# Generous deadlines: a first recall loads the embedding model in the worker. The
# default deadlines are exercised in test_deadlines.py.
PATIENT = Timeouts(connect=0.5, recall=30, read=30, write=30)
FAST = dict(timeouts=PATIENT, retry=RetryPolicy(attempts=2, backoff_base=0))


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def client(live_engram, keys, **kw) -> EngramClient:
    return EngramClient(live_engram.url, keys.write_key, admin_api_key=keys.admin_key, **FAST | kw)


def test_every_subject_operation(live_engram, keys):
    with client(live_engram, keys) as c:
        alice = c.for_user("alice")
        events = alice.append_events(
            [Event("t1-1", "message", "user", "以后技术回答请先给结论，再给证据", thread_id="t1")]
        )
        assert events.results[0].created is True
        again = alice.append_events(
            [Event("t1-1", "message", "user", "以后技术回答请先给结论，再给证据", thread_id="t1")]
        )
        assert again.results[0].created is False  # idempotent by client_event_id
        # The same id with other content is an error the caller must see.
        with pytest.raises(IdempotencyConflict) as conflict:
            alice.append_events([Event("t1-1", "message", "user", "something else")])
        assert conflict.value.extra["client_event_ids"] == ["t1-1"]
        # Another user's "t1-1" is that user's own event: no error, nothing revealed.
        bob_events = c.for_user("bob").append_events(
            [Event("t1-1", "message", "user", "I prefer tea to coffee", thread_id="t1")]
        )
        assert bob_events.results[0].created is True and bob_events.results[0].error is None

        batch = alice.submit_candidates(
            [
                Candidate(
                    "semantic",
                    "assistant/preference",
                    "用户希望技术回答先给结论，再给证据",
                    "user_explicit",
                    1.0,
                    "personalization",
                    "explicit_consent",
                    predicate="answer_style",
                    value="conclusion-first",
                    source_client_event_ids=["t1-1"],
                ),
                preference("my password is hunter2!"),
            ]
        )
        ok, secret = batch.results
        assert (ok.operation, secret.operation, secret.reason_code) == (
            "ADD",
            "REJECT",
            "secret_detected",
        )
        assert ok.accepted and not secret.accepted

        record = alice.get_memory(ok.record_id)
        assert record.predicate == "answer_style" and record.value == "conclusion-first"
        assert len(record.source_event_ids) == 1
        page = alice.list_memories(namespace="assistant")
        assert [r.id for r in page.results] == [ok.record_id] and page.next_offset is None

        pack = alice.recall("技术回答 结论 证据", "personalization")
        assert not pack.degraded and ok.record_id in [i.id for i in pack.items]
        assert "untrusted" in pack.context_pack.lower() or pack.context_pack
        fb = alice.recall_feedback(pack.trace_id, [ok.record_id], helpful=True)
        assert fb.used_record_ids == [ok.record_id]

        # "The user said so" cites the user's message (an unsourced claim cannot replace a
        # sourced one).
        alice.append_events([Event("t1-2", "message", "user", "改一下：技术回答请先给证据")])
        new = alice.supersede(
            ok.record_id,
            SupersedeRequest(
                "用户希望技术回答先给证据",
                "user_explicit",
                1.0,
                value="evidence-first",
                source_client_event_ids=["t1-2"],
            ),
        )
        assert new.operation == "SUPERSEDE", new
        assert alice.get_memory(ok.record_id).status == "superseded"
        other = alice.remember(preference("User likes green tea"))
        assert (
            alice.retract(other.record_id, RetractRequest("user_explicit")).operation == "RETRACT"
        )
        assert alice.delete(new.record_id).operation == "DELETE"
        assert alice.list_memories().count == 0
        with pytest.raises(NotFound) as e:
            alice.get_memory(new.record_id)
        assert e.value.code == "not_found" and e.value.status_code == 404


def test_erase_everything_about_a_subject(live_engram, keys):
    with client(live_engram, keys) as c:
        alice, bob = c.for_user("alice"), c.for_user("bob")
        alice.append_events([Event("e-1", "message", "user", "I like chess")])
        alice.remember(preference("User likes chess", source_client_event_ids=["e-1"]))
        bob.remember(preference("User likes go"))
        with pytest.raises(InvalidInput):
            alice.erase(confirm=False)
        erased = alice.erase(confirm=True)
        assert erased.status == "done" and not any(erased.verification.values())
        assert alice.list_memories().count == 0
        assert bob.list_memories().count == 1  # only the subject's own data
    with EngramClient(live_engram.url, keys.write_key, **FAST) as no_admin:
        token = c_token(live_engram, keys, "bob")
        with pytest.raises(PermissionDenied):
            no_admin.for_subject(token).erase(confirm=True)


def c_token(live_engram, keys, external_id: str) -> str:
    with client(live_engram, keys) as c:
        return c.issue_subject_token(external_id).token


def test_errors_carry_the_api_shape(live_engram, keys):
    with client(live_engram, keys) as c:
        alice = c.for_user("alice")
        with pytest.raises(InvalidInput) as e:
            alice.remember(preference(memory_type="telepathic"))
        assert e.value.code == "invalid_input"
        assert "memory_type" in e.value.extra["fields"]["candidates"]["0"]
        with pytest.raises(InvalidInput):
            alice.list_memories(limit=0)
    with EngramClient(live_engram.url, keys.read_key, admin_api_key=keys.admin_key, **FAST) as ro:
        reader = ro.for_user("alice")
        assert reader.list_memories().count == 0  # read scope may list
        with pytest.raises(PermissionDenied) as e:
            reader.remember(preference())
        assert e.value.code == "permission_denied"
    with EngramClient(live_engram.url, "egk_not-a-key", **FAST) as bad:
        with pytest.raises(AuthenticationFailed):
            bad.issue_subject_token("alice")
    with EngramClient(live_engram.url, keys.write_key, **FAST) as no_admin:
        with pytest.raises(PermissionDenied):
            no_admin.issue_subject_token("alice")


def test_subject_is_the_tokens_and_tenants_stay_apart(live_engram, keys):
    intruder = make_agent("globex")
    with client(live_engram, keys) as c:
        rid = c.for_user("alice").remember(preference()).record_id
        token = c.issue_subject_token("alice").token
        with pytest.raises(NotFound):
            c.for_user("bob").get_memory(rid)
        assert c.for_subject(token).get_memory(rid).id == rid
    with client(live_engram, intruder) as other:
        with pytest.raises(AuthenticationFailed):  # a token of another tenant's agent
            other.for_subject(token).list_memories()
        with pytest.raises(NotFound):
            other.for_user("alice").get_memory(rid)


def test_procedure_change_request(live_engram, keys):
    admin_user, _ = person(keys.tenant, "ada", Role.ADMIN)
    with tenant_context(keys.tenant.id):
        procedure_document_create(
            actor=Actor.user(admin_user.pk, keys.tenant.id),
            user=admin_user,
            slug="refunds",
            title="Refund handling",
            kind="runbook",
            namespace="support-agent/refunds",
        )
    with client(live_engram, keys) as c:
        proc = c.get_procedure("refunds")
        assert proc.version == 0 and proc.text is None
        cr = c.propose_procedure_change("refunds", "1. Check the order.\n2. Refund.", 0, "clearer")
        assert cr.status == "open"
        assert c.get_change_request("refunds", cr.id).approved_version is None
        with pytest.raises(NotFound):
            c.get_procedure("no-such-runbook")
    with tenant_context(keys.tenant.id):
        assert ChangeRequest.objects.get(pk=cr.id).status == "open"


def test_outage_in_the_middle_of_a_session(live_engram, keys, tmp_path):
    clock = FakeClock()
    breaker = CircuitBreaker(failure_threshold=2, reset_timeout=30, clock=clock)
    outbox_path = tmp_path / "outbox.sqlite"
    with client(live_engram, keys, breaker=breaker, outbox=str(outbox_path)) as c:
        alice = c.for_user("alice")
        alice.append_events([Event("t2-0", "message", "user", "Berlin is home.")])
        first = alice.remember(
            preference(
                "User lives in Berlin",
                predicate="home_city",
                value="Berlin",
                source_client_event_ids=["t2-0"],
            )
        )
        assert first.operation == "ADD"

        live_engram.stop()
        pack = alice.recall("where does the user live", "personalization")
        assert pack.degraded and pack.empty and pack.items == []
        assert pack.degraded_reason in ("connect_error", "circuit_open")
        queued_event = alice.append_events([Event("t2-1", "message", "user", "I moved to Munich")])
        queued = alice.remember(
            preference(
                "User lives in Munich",
                predicate="home_city",
                value="Munich",
                source_client_event_ids=["t2-1"],
            )
        )
        tea = alice.remember(preference("User likes green tea"))
        assert all(isinstance(w, QueuedWrite) for w in (queued_event, queued, tea))
        assert breaker.state == "open"  # later calls fail fast, without touching the network
        assert alice.recall("tea", "personalization").degraded_reason == "circuit_open"
        assert Outbox(outbox_path).count() == 3

        live_engram.start()
        clock.now += 31  # the breaker lets one trial call through
        report = alice.flush_outbox()
        assert (report.sent, report.failed, report.remaining) == (3, 0, 0)
        assert breaker.state == "closed"

        # Exactly once: one event, the city superseded once, one tea.
        subject = Subject.objects.get(external_id="alice")
        assert SourceEvent.objects.filter(subject=subject, client_event_id="t2-1").count() == 1
        current = list(alice.iter_memories())
        # One current home city, Munich (background extraction of the event may have
        # written it first; the queued candidate then confirms it). Berlin is history.
        [city] = [r for r in current if r.predicate == "home_city"]
        assert city.value == "Munich" and city.id != first.record_id
        assert alice.get_memory(first.record_id).status == "superseded"
        assert [r.statement for r in current].count("User likes green tea") == 1
        assert (
            MemoryRecord.objects.filter(subject=subject, statement="User likes green tea").count()
            == 1
        )
        assert alice.flush_outbox().sent == 0


def test_outbox_survives_the_agent_process(live_engram, keys, tmp_path):
    """A new client (the agent restarted) sends what an earlier one queued, even one that
    could not get a subject token while Engram was down."""
    outbox_path = str(tmp_path / "outbox.sqlite")
    live_engram.stop()
    with client(live_engram, keys, outbox=outbox_path) as c:
        assert isinstance(c.for_user("alice").remember(preference("User prefers tea")), QueuedWrite)
    live_engram.start()
    with client(live_engram, keys, outbox=outbox_path) as c:
        alice = c.for_user("alice")
        assert alice.flush_outbox().sent == 1
        assert [r.statement for r in alice.iter_memories()] == ["User prefers tea"]


def test_a_replayed_candidate_that_had_landed_is_not_applied_twice(live_engram, keys, tmp_path):
    """The answer was lost after Engram applied the write (the ambiguous case): the replay
    is decided as a duplicate of the stored record, no second record or version."""
    outbox = Outbox(tmp_path / "outbox.sqlite")
    with client(live_engram, keys, outbox=outbox) as c:
        alice = c.for_user("alice")
        body = preference("User runs on Sundays")
        landed = alice.remember(body)
        outbox.put(
            subject_key=alice.subject_key,
            op="candidates_submit",
            method="POST",
            path="/api/v1/candidates",
            body={"candidates": [body]},
        )
        assert alice.flush_outbox().sent == 1
        assert [r.id for r in alice.iter_memories()] == [landed.record_id]
        assert MemoryRecord.objects.filter(statement="User runs on Sundays").count() == 1


def test_a_lost_answer_replayed_from_the_outbox_applies_nothing(live_engram, keys, tmp_path):
    """Engram applied the batch but the answer was lost: the outbox entry carries the same
    Idempotency-Key, so the replay gets the stored answer — not even a CONFIRM."""
    outbox = Outbox(tmp_path / "outbox.sqlite")
    with client(live_engram, keys, outbox=outbox) as c:
        alice = c.for_user("alice")
        body = preference("User swims on Mondays")
        call = _candidates_call([body])
        [landed] = alice._request(call)["results"]  # the answer the agent never saw
        outbox.put(
            subject_key=alice.subject_key,
            op=call.op,
            method=call.method,
            path=call.path,
            body=call.body,
            key=call.idempotency_key,
        )
        assert alice.flush_outbox().sent == 1
        [record] = MemoryRecord.objects.filter(statement="User swims on Mondays")
        assert str(record.id) == landed["record_id"]
        assert record.evidence_count == 1


def test_a_write_engram_refuses_on_replay_is_kept_as_failed(live_engram, keys, tmp_path):
    outbox = Outbox(tmp_path / "outbox.sqlite")
    with client(live_engram, keys, outbox=outbox) as c:
        alice = c.for_user("alice")
        outbox.put(
            subject_key=alice.subject_key,
            op="candidates_submit",
            method="POST",
            path="/api/v1/candidates",
            body={"candidates": [preference(memory_type="telepathic")]},
        )
        report = alice.flush_outbox()
        assert (report.sent, report.failed) == (0, 1)
        [kept] = outbox.failed()
        assert kept.error_code == "invalid_input"


def test_async_client_session_with_outage(live_engram, keys, tmp_path):
    async def session() -> None:
        async with AsyncEngramClient(
            live_engram.url,
            keys.write_key,
            admin_api_key=keys.admin_key,
            outbox=str(tmp_path / "outbox.sqlite"),
            breaker=CircuitBreaker(failure_threshold=100),
            **FAST,
        ) as c:
            alice = c.for_user("alice")
            added = await alice.remember(preference("User likes jazz"))
            assert added.operation == "ADD"
            pack = await alice.recall("jazz", "personalization")
            assert added.record_id in [i.id for i in pack.items]
            live_engram.stop()
            assert (await alice.recall("jazz", "personalization")).degraded
            assert isinstance(await alice.remember(preference("User likes blues")), QueuedWrite)
            live_engram.start()
            assert (await alice.flush_outbox()).sent == 1
            page = await alice.list_memories()
            assert {r.statement for r in page.results} == {"User likes jazz", "User likes blues"}
            with pytest.raises(InvalidInput):
                await alice.list_memories(limit=0)

    asyncio.run(session())


def test_recall_routes_through_the_client(live_engram, keys):
    """The client sends ``route`` and reads each item's ``use``: an inject-only recall
    (what a runtime adds every turn) has none of the notes to check; a full one has them,
    with their reasons."""
    with client(live_engram, keys) as c:
        carol = c.for_user("carol-routing")
        carol.submit_candidates(
            [
                Candidate(
                    "semantic",
                    "assistant/profile",
                    "User keeps sourdough starter in the fridge",
                    "user_explicit",
                    1.0,
                    "personalization",
                    "explicit_consent",
                ),
                Candidate(
                    "semantic",
                    "assistant/profile",
                    "User probably bakes sourdough on weekends",
                    "agent_inference",
                    0.9,
                    "personalization",
                    "legitimate_interest",
                ),
            ]
        )
        full = carol.recall("What does the user do with sourdough?", "personalization", route="all")
        assert {i.use for i in full.items} == {"inject", "verify"}
        assert [i.use_reason for i in full.to_verify] == ["inferred"]
        assert "## Notes to check" in full.context_pack
        only = carol.recall(
            "What does the user do with sourdough?", "personalization", route="inject_only"
        )
        assert only.items and only.to_verify == []
        assert [i.id for i in only.injected] == [i.id for i in full.injected]
