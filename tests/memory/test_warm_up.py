"""Web workers warm up after they fork (config/gunicorn.py), so the first recall in each
language does not pay for the typical questions' embeddings or the pinyin tables."""

from __future__ import annotations

import logging

import pytest

from config import gunicorn
from memory import embedders, lexical
from memory.embedders import configured_model_id
from memory.recall.query import LAST_MODEL_ID, QueryVector

# warm_up() closes the connections it opened: not inside a test transaction.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_warms_up_what_recall_keeps_in_memory(monkeypatch):
    embedders._typical.clear()
    lexical._syllables.cache_clear()
    LAST_MODEL_ID.set(None)
    gunicorn.post_worker_init(worker=None)
    model_id = configured_model_id()
    assert {(model_id, False), (model_id, True)} <= set(embedders._typical)
    assert LAST_MODEL_ID.peek() == model_id  # the first recall may start early
    assert lexical._syllables.cache_info().currsize == 1


def test_warm_up_never_stops_a_worker_from_serving(settings, caplog):
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "EMBEDDER": "openai",
        "EMBEDDER_URL": "http://127.0.0.1:9/v1",  # nothing listens there
        "EMBEDDER_MODEL": "unreachable",
    }
    with caplog.at_level(logging.WARNING, logger="memory.recall"):
        gunicorn.post_worker_init(worker=None)
    assert "recall warm-up skipped (EmbedderError)" in caplog.text
    assert ("openai/unreachable", False) not in embedders._typical


def test_a_web_worker_hands_the_gil_over_quickly_and_recall_never_changes_it(settings):
    """The pool thread that embeds the question waits for the GIL whenever the request
    thread runs Python: at the default 5 ms switch interval that nearly doubled the
    embedding (docs/performance.md). A gunicorn worker lowers it once after its fork
    (``config.gunicorn.switch_interval``), never raises it, and leaves it alone at 0;
    recall itself never touches the interpreter."""
    import sys

    previous = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        QueryVector.start("Where does the user live?", configured_model_id()).result()
        assert sys.getswitchinterval() == pytest.approx(0.005, rel=0.05)  # recall: untouched
        gunicorn.switch_interval()
        assert sys.getswitchinterval() == pytest.approx(0.0005, rel=0.05)
        sys.setswitchinterval(0.0001)
        gunicorn.switch_interval()
        assert sys.getswitchinterval() == pytest.approx(0.0001, rel=0.05)  # never raised
        settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "SWITCH_INTERVAL_MS": 0}
        sys.setswitchinterval(0.005)
        gunicorn.switch_interval()
        assert sys.getswitchinterval() == pytest.approx(0.005, rel=0.05)
    finally:
        sys.setswitchinterval(previous)
