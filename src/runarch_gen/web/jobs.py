"""Long jobs in worker processes: queued, limited per client, cancellable, deleted after an hour.

Each job has an unguessable id (:func:`secrets.token_urlsafe`) and a folder of that name in the
server's temporary folder; nothing else addresses it. A client (an address: a cookie costs
nothing to change) has at most one job of each kind queued or running; at most
``max_running`` jobs run at once and ``max_queued`` wait; beyond that :class:`Busy` (HTTP 429).
Jobs end by themselves, by :meth:`JobManager.cancel` or when the server stops: their process
group gets SIGTERM, and SIGKILL :data:`GRACE` seconds later if anything of it is left. Finished
jobs are kept at most an hour, at most ``max_finished`` of them and at most ``max_bytes`` of
files together; beyond either the oldest go first.

Each job is a fresh process, ``python -m runarch_gen.web.worker KIND`` in the job's folder
(:mod:`.worker`), in a process group of its own so that cancelling ends the worker and the
command it runs together. Nothing is forked from the server's threads.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runarch_gen.web.work import Busy
from runarch_gen.web.worker import OPTIONS, OUTPUT, PROGRESS, RESULT, TASKS

__all__ = ["Busy", "Job", "JobManager"]

JOB_TTL = 3600.0
"""Seconds a job's files are kept."""
GRACE = 1.5
"""Seconds a stopped job's processes have to end after SIGTERM, before SIGKILL."""
MAX_FINISHED = 24
MAX_BYTES = 1 << 30


@dataclass
class Job:
    id: str
    kind: str
    client: str
    options: Mapping[str, Any]
    folder: Path
    created: float
    state: str = "queued"  # queued, running, done, failed, cancelled
    process: Any = None
    finished: float | None = None
    result: dict[str, Any] | None = field(default=None, repr=False)
    size: int = 0

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")


class JobManager:
    """The jobs of one server. Thread-safe; :meth:`tick` starts queued jobs, collects finished
    ones and deletes expired ones (the server calls it on a timer and before each answer)."""

    def __init__(
        self,
        *,
        max_running: int = 2,
        max_queued: int = 8,
        ttl: float = JOB_TTL,
        root: Path | None = None,
        max_finished: int = MAX_FINISHED,
        max_bytes: int = MAX_BYTES,
    ) -> None:
        self.max_running = max_running
        self.max_queued = max_queued
        self.max_finished = max_finished
        self.max_bytes = max_bytes
        self.ttl = ttl
        self.root = Path(tempfile.mkdtemp(prefix="runarch-web-", dir=root))
        self._jobs: dict[str, Job] = {}
        # Stopped process groups not yet reaped, with the time SIGTERM was sent.
        self._ending: list[tuple[subprocess.Popen[bytes], float]] = []
        self._lock = threading.RLock()

    # -- submitting ------------------------------------------------------------------------------
    def submit(self, kind: str, client: str, options: Mapping[str, Any]) -> Job:
        if kind not in TASKS:
            raise ValueError(f"unknown job kind {kind!r}")
        with self._lock:
            self.tick()
            mine = [j for j in self._jobs.values() if j.client == client and j.active]
            if any(j.kind == kind for j in mine):
                raise Busy(f"a {kind} job of yours is already queued or running: wait or cancel it")
            queued = sum(j.state == "queued" for j in self._jobs.values())
            running = sum(j.state == "running" for j in self._jobs.values())
            if running >= self.max_running and queued >= self.max_queued:
                raise Busy("the server is busy: too many jobs are waiting, try again later")
            job_id = secrets.token_urlsafe(24)
            folder = self.root / job_id
            folder.mkdir()
            job = Job(job_id, kind, client, dict(options), folder, time.time())
            self._jobs[job_id] = job
            self.tick()
            return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            self.tick()
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return None
            if job.active:
                self._stop(job)
                job.state = "cancelled"
                job.finished = time.time()
                job.result = {"ok": False, "error": "cancelled", "exit_code": 130}
            self.tick()
            return job

    # -- what a job shows ------------------------------------------------------------------------
    def status(self, job: Job) -> dict[str, Any]:
        out: dict[str, Any] = {"id": job.id, "kind": job.kind, "state": job.state}
        progress_file = job.folder / PROGRESS
        if job.state == "running" and progress_file.is_file():
            with contextlib.suppress(OSError, ValueError):  # being replaced this instant
                out["progress"] = json.loads(progress_file.read_text("utf-8"))
        if job.result is not None:
            out["result"] = job.result
            if not job.result.get("ok", False):
                out["error"] = job.result.get("error", "failed")
        if job.state == "done":
            out["files"] = self.files(job)
        out["expires"] = job.created + self.ttl
        return out

    def files(self, job: Job) -> list[str]:
        """The names of the files a job offers: those in its output folder."""
        out = job.folder / OUTPUT
        if job.state != "done" or not out.is_dir():
            return []
        return sorted(p.name for p in out.iterdir() if p.is_file())

    def file_path(self, job: Job, name: str) -> Path | None:
        """The path of the output file called ``name``: found by listing the folder, so the
        name given is only compared, never joined to a path."""
        for listed in self.files(job):
            if listed == name:
                return job.folder / OUTPUT / listed
        return None

    # -- housekeeping ----------------------------------------------------------------------------
    def tick(self) -> None:
        with self._lock:
            now = time.time()
            for job in list(self._jobs.values()):
                if job.state == "running" and job.process.poll() is not None:
                    self._collect(job)
                if now - job.created > self.ttl:
                    self._forget(job)
            self._cap_finished()
            self._reap()
            running = sum(j.state == "running" for j in self._jobs.values())
            for job in sorted(self._jobs.values(), key=lambda j: j.created):
                if running >= self.max_running:
                    break
                if job.state == "queued":
                    self._start(job)
                    running += 1

    def _forget(self, job: Job) -> None:
        self._stop(job)
        shutil.rmtree(job.folder, ignore_errors=True)
        del self._jobs[job.id]

    def _cap_finished(self) -> None:
        """Drop the oldest finished jobs beyond ``max_finished`` of them or ``max_bytes``."""
        finished = sorted(
            (j for j in self._jobs.values() if not j.active), key=lambda j: j.finished or 0.0
        )
        total = sum(j.size for j in finished)
        while finished and (len(finished) > self.max_finished or total > self.max_bytes):
            oldest = finished.pop(0)
            total -= oldest.size
            self._forget(oldest)

    def _reap(self) -> None:
        """Processes stopped earlier: gone, or SIGKILL once their grace is over."""
        for entry in list(self._ending):
            process, stopped = entry
            if process.poll() is not None:
                _kill_group(process)  # anything the command left behind
                self._ending.remove(entry)
            elif time.monotonic() - stopped > GRACE:
                _kill_group(process)

    def _start(self, job: Job) -> None:
        (job.folder / OPTIONS).write_text(json.dumps(dict(job.options)), encoding="utf-8")
        job.process = subprocess.Popen(
            [sys.executable, "-m", "runarch_gen.web.worker", job.kind],
            cwd=job.folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=os.name == "posix",
        )
        job.state = "running"

    def _collect(self, job: Job) -> None:
        job.process.wait()
        job.finished = time.time()
        try:
            result = json.loads((job.folder / RESULT).read_text("utf-8"))
        except (OSError, ValueError):
            result = {"ok": False, "error": "the job stopped without a result", "exit_code": 2}
        job.result = result
        job.state = "done" if result.get("ok") else "failed"
        _kill_group(job.process)  # anything the command left behind
        job.process = None
        job.size = _folder_size(job.folder)

    def _stop(self, job: Job) -> None:
        """SIGTERM to the job's process group (the worker, its command and that command's own
        workers); :meth:`_reap` sends SIGKILL to whatever is left after :data:`GRACE`."""
        process = job.process
        if process is None:
            return
        _signal_group(process, signal.SIGTERM)
        self._ending.append((process, time.monotonic()))
        job.process = None

    def active(self, client: str) -> list[Job]:
        with self._lock:
            return [j for j in self._jobs.values() if j.client == client and j.active]

    def shutdown(self) -> None:
        """Stop every job (within :data:`GRACE` seconds) and delete every file."""
        with self._lock:
            for job in self._jobs.values():
                self._stop(job)
            deadline = time.monotonic() + GRACE
            while self._ending and time.monotonic() < deadline:
                self._reap()
                time.sleep(0.05)
            for process, _ in self._ending:
                _kill_group(process)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(1.0)
            self._ending.clear()
            self._jobs.clear()
            shutil.rmtree(self.root, ignore_errors=True)


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
    except (ProcessLookupError, PermissionError):
        pass


def _folder_size(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            if path.is_file():
                total += path.stat().st_size
    return total


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the worker's process group (on POSIX; elsewhere to the worker)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
