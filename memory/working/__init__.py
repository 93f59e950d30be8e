"""Working memory: the short-term tier — the state of the current task, per thread.

Fast, overwritable and short-lived: a key holds a JSON value until its time-to-live runs
out. It is never governed memory and never long-term by itself: recall never reads it,
export leaves it out, and it becomes memory only when the agent closes the thread and marks
it for keeping (``memory.services.thread_close``), through the write policy like any
candidate.

- ``memory.working.store``: where it lives (Redis, or an UNLOGGED PostgreSQL table).
- ``memory.working.service``: the checks every put passes (key, size, consent, secrets)
  and the drops that consent withdrawal, erasure and thread close make.
"""
