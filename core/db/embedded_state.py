"""The embedded server's supervision, as every process sees it: the state file (restarts,
failed starts, backoff) and whether its postmaster runs."""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

# Seconds to wait before the next start after 1, 2, 3, … failed starts in a row (the last
# value repeats). Short at first: a killed postmaster usually starts again at once, once
# its orphaned backends have exited.
RESTART_BACKOFF = (1, 2, 4, 8, 15, 30)


@dataclass
class SupervisorState:
    """What every process attached to one data directory knows about its server's starts.

    ``failures``: starts that failed in a row; ``next_attempt_at``: no process tries again
    before this (Unix time); ``last_error``: why the last start failed; ``restarts``: starts
    of a server that had died (not the first start); ``stopped``: ``./dev stop`` stopped it
    on purpose, so processes attached before do not start it again."""

    failures: int = 0
    next_attempt_at: float = 0.0
    last_error: str | None = None
    last_failure_at: float | None = None
    restarts: int = 0
    last_restart_at: float | None = None
    down_since: float | None = None
    last_recovery_seconds: float | None = None
    stopped: bool = False
    history: list[dict] = field(default_factory=list)

    def retry_after(self, now: float | None = None) -> int:
        now = time.time() if now is None else now
        return max(1, int(self.next_attempt_at - now + 0.999))


def _state_path(data_dir: Path) -> Path:
    return data_dir.parent / f".{data_dir.name}.supervisor.json"


def read_state(data_dir: Path) -> SupervisorState:
    try:
        raw = json.loads(_state_path(data_dir).read_text())
        known = SupervisorState.__dataclass_fields__
        return SupervisorState(**{k: v for k, v in raw.items() if k in known})
    except (FileNotFoundError, ValueError, TypeError):
        return SupervisorState()


def _write_state(data_dir: Path, state: SupervisorState) -> None:
    # Written under the start lock; replaced atomically so readers never see half a file.
    path = _state_path(data_dir)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(asdict(state)))
        os.replace(tmp, path)
    except OSError:
        # A full disk may hold the data directory's parent too: the state is advisory.
        with contextlib.suppress(OSError):
            tmp.unlink()


def _backoff(failures: int) -> int:
    return RESTART_BACKOFF[min(failures, len(RESTART_BACKOFF)) - 1]


def _pid_alive(pid: int) -> bool:
    """Does ``pid`` run? A zombie does not: a killed postmaster stays one until its parent
    (often PID 1 in a container) reaps it, and PostgreSQL would refuse to start while its
    lock file names a pid that still exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # running as another user: it exists
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # "pid (comm) S …": the state follows the last ")".
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _postmaster_file(data_dir: Path) -> list[str] | None:
    try:
        return (data_dir / "postmaster.pid").read_text().splitlines()
    except (FileNotFoundError, NotADirectoryError):
        return None


def running_pid(data_dir: Path) -> int | None:
    """The postmaster's pid if a server is running on ``data_dir``, else None."""
    lines = _postmaster_file(data_dir)
    try:
        pid = int(lines[0]) if lines else None
    except ValueError:
        return None
    return pid if pid is not None and _pid_alive(pid) else None
