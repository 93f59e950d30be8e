"""A web worker's per-request timeline, for ``bench/perf/single_tail.py`` only: gunicorn
serves ``bench.perf.single_probe_wsgi:application``, Engram's own WSGI application wrapped
so that each request appends one JSON line to ``$ENGRAM_PROBE_DIR/<pid>.jsonl``:

- the probe id the client sent (``X-Probe-Id``), the worker's pid and request number,
- wall time from the WSGI call to the last byte of the body, and the thread's CPU time,
- the thread's run-queue wait (``/proc/self/task/<tid>/schedstat``: ready but not running,
  i.e. another process had the core) and its involuntary context switches,
- the PostgreSQL backend's CPU and run-queue wait over the request (its schedstat),
- every garbage collection inside the request (generation, ms),
- each statement's wall time (``execute_wrapper``), the commit's wall, a new connection's.

Nothing here changes what Engram does; the wrappers only time."""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import threading
import time

from config.wsgi import application as engram

_DIR = os.environ.get("ENGRAM_PROBE_DIR", "/tmp")
_state = threading.local()
_count = [0]


def _schedstat(path: str) -> tuple[int, int]:
    try:
        run, wait, _ = open(path).read().split()
        return int(run), int(wait)
    except (OSError, ValueError):
        return 0, 0


def _on_gc(phase: str, info: dict) -> None:
    if phase == "start":
        _state.gc_start = time.perf_counter()
    elif getattr(_state, "events", None) is not None:
        _state.gc.append(
            (info["generation"], (time.perf_counter() - _state.gc_start) * 1000, info["collected"])
        )


gc.callbacks.append(_on_gc)


def _patch_db() -> None:
    from django.db.backends.base import base

    commit, connect = base.BaseDatabaseWrapper.commit, base.BaseDatabaseWrapper.connect

    def timed_commit(self):
        start = time.perf_counter()
        try:
            return commit(self)
        finally:
            if getattr(_state, "events", None) is not None:
                _state.commit_ms += (time.perf_counter() - start) * 1000
                _state.commits += 1

    def timed_connect(self):
        start = time.perf_counter()
        try:
            return connect(self)
        finally:
            if getattr(_state, "events", None) is not None:
                _state.connect_ms += (time.perf_counter() - start) * 1000

    base.BaseDatabaseWrapper.commit = timed_commit
    base.BaseDatabaseWrapper.connect = timed_connect


_patch_db()


def _statement(execute, sql, params, many, context):
    start = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        _state.queries.append(((time.perf_counter() - start) * 1000, sql[:60]))


def _backend_pid() -> int | None:
    from django.db import connection

    raw = connection.connection
    return getattr(getattr(raw, "info", None), "backend_pid", None) if raw else None


def application(environ, start_response):
    from django.db import connection

    tid = threading.get_native_id()
    task = f"/proc/self/task/{tid}/schedstat"
    _count[0] += 1
    _state.events, _state.gc, _state.queries = [], [], []
    _state.commit_ms = _state.connect_ms = 0.0
    _state.commits = 0
    backend0 = _backend_pid()
    b_run0, b_wait0 = _schedstat(f"/proc/{backend0}/schedstat") if backend0 else (0, 0)
    run0, wait0 = _schedstat(task)
    ru0 = resource.getrusage(resource.RUSAGE_THREAD)
    modules0 = set(sys.modules)
    cpu0, wall0 = time.thread_time(), time.perf_counter()
    with connection.execute_wrapper(_statement):
        body = b"".join(engram(environ, start_response))
    wall = (time.perf_counter() - wall0) * 1000
    cpu = (time.thread_time() - cpu0) * 1000
    ru1 = resource.getrusage(resource.RUSAGE_THREAD)
    run1, wait1 = _schedstat(task)
    backend1 = _backend_pid()
    b_run1, b_wait1 = _schedstat(f"/proc/{backend1}/schedstat") if backend1 else (0, 0)
    same = backend0 == backend1 and backend0 is not None
    row = {
        "id": environ.get("HTTP_X_PROBE_ID"),
        "pid": os.getpid(),
        "n": _count[0],
        "t0": time.monotonic() - wall / 1000,
        "wall_ms": round(wall, 3),
        "cpu_ms": round(cpu, 3),
        "runq_ms": round((wait1 - wait0) / 1e6, 3),
        "nivcsw": ru1.ru_nivcsw - ru0.ru_nivcsw,
        "nvcsw": ru1.ru_nvcsw - ru0.ru_nvcsw,
        "pg_cpu_ms": round((b_run1 - b_run0) / 1e6, 3) if same else None,
        "pg_runq_ms": round((b_wait1 - b_wait0) / 1e6, 3) if same else None,
        "new_backend": not same,
        "gc": _state.gc,
        "commit_ms": round(_state.commit_ms, 3),
        "commits": _state.commits,
        "connect_ms": round(_state.connect_ms, 3),
        "sql_ms": round(sum(q[0] for q in _state.queries), 3),
        "imported": sorted(set(sys.modules) - modules0),
        "queries": [(round(ms, 3), sql) for ms, sql in _state.queries],
    }
    _state.events = None
    with open(os.path.join(_DIR, f"{os.getpid()}.jsonl"), "a") as out:
        out.write(json.dumps(row) + "\n")
    return [body]
