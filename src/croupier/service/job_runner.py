"""Simulation jobs run in processes the server owns (:class:`JobRunner`), never in the serving
process: each job process (``python -m croupier.service.job_work``) deals its rounds at a lower
priority and reports back over a pipe; a thread of the server per process relays what it reports
to the job's row (``service_jobs``), where any worker of the service answers for it.

Bounded: at most ``processes`` job processes per serving process (``$CROUPIER_JOB_PROCESSES``,
default 1), each started when a job comes and stopped after :data:`IDLE_SECONDS` without one;
at most ``queued`` jobs wait for one (``$CROUPIER_JOB_QUEUE``, default 8) — one more is a 503
problem. On shutdown every job process is stopped and its job, and every job still waiting, is
``cancelled``; a job process whose server is killed ends by itself (it watches its parent).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from croupier.errors import InputError
from croupier.service import store
from croupier.service.job_work import NICENESS
from croupier.service.problems import ServiceProblem

log = logging.getLogger("croupier.service")

ENV_PROCESSES = "CROUPIER_JOB_PROCESSES"
ENV_QUEUE = "CROUPIER_JOB_QUEUE"
IDLE_SECONDS = 300.0
"""A job process with no job for this long is stopped (the next job starts another)."""
WRITE_EVERY = 0.5
"""Seconds between two writes of a job's progress (each block's is reported; the last is kept)."""
HEARTBEAT = 20.0
"""Seconds between two touches of a live job's row while nothing else is written (a kernel
compiling): a job whose row is not touched for two minutes is shown ``abandoned``."""


def _count(env: str, default: int, low: int) -> int:
    text = os.environ.get(env, "").strip()
    try:
        value = int(text) if text else default
    except ValueError:
        value = low - 1
    if not low <= value <= 64:
        raise InputError(f"${env} is a whole number from {low} to 64, not {text!r}")
    return value


def _update(engine: Engine, job: str, **values: Any) -> None:
    with engine.begin() as conn:
        conn.execute(
            sa.update(store.jobs)
            .where(store.jobs.c.id == job)
            .values(updated_at=datetime.now(UTC), **values)
        )


def _command() -> list[str]:
    """How a job process is started: :mod:`croupier.service.job_work` at a lower priority, set
    before the interpreter starts (``nice``) where the system has it, else as its first act."""
    nice = shutil.which("nice")
    if nice is not None:
        return [nice, "-n", str(NICENESS), sys.executable, "-m", "croupier.service.job_work"]
    start = (
        f"import os; os.nice({NICENESS}); import runpy; "
        "runpy.run_module('croupier.service.job_work', run_name='__main__', alter_sys=True)"
    )
    return [sys.executable, "-c", start]


@dataclass
class _Process:
    """One job process, the pipe of its jobs and the lines of its events."""

    proc: subprocess.Popen[str]
    jobs: IO[str]
    events: _Lines

    @classmethod
    def start(cls) -> _Process:
        proc = subprocess.Popen(
            _command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        assert proc.stdin is not None and proc.stdout is not None
        return cls(proc, proc.stdin, _Lines(proc.stdout))

    def stop(self, at_once: bool = False) -> None:
        """End the process: at the end of its input, or (``at_once``) by a signal."""
        try:
            if at_once:
                self.proc.kill()
            else:
                self.jobs.close()
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(10)


@dataclass
class JobRunner:
    """Runs simulation jobs in job processes (module docstring)."""

    engine: Engine
    processes: int = 1
    queued: int = 8
    _waiting: queue.Queue[tuple[str, str] | None] = field(init=False)
    _threads: list[threading.Thread] = field(default_factory=list, init=False)
    _running: dict[str, _Process] = field(default_factory=dict, init=False)
    _queued: set[str] = field(default_factory=set, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _closed: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self._waiting = queue.Queue(maxsize=self.queued)

    @classmethod
    def from_env(cls, engine: Engine) -> JobRunner:
        """With ``$CROUPIER_JOB_PROCESSES`` processes and ``$CROUPIER_JOB_QUEUE`` waiting."""
        return cls(engine, _count(ENV_PROCESSES, 1, 1), _count(ENV_QUEUE, 8, 0))

    def submit(self, job: str, request: str) -> None:
        """Queue job ``job`` (its row written, its request as JSON); a 503 problem when as many
        jobs wait already as the runner takes, or the server is stopping."""
        with self._lock:
            if self._closed:
                raise ServiceProblem(503, "ServiceUnavailable", "the service is stopping")
            try:
                self._waiting.put_nowait((job, request))
                self._queued.add(job)
            except queue.Full:
                raise ServiceProblem(
                    503,
                    "TooManyJobs",
                    f"{self.queued} simulation jobs wait already for the {self.processes} "
                    "job process(es) of this server: start this one once one has finished",
                ) from None
            if len(self._threads) < self.processes:
                t = threading.Thread(
                    target=self._serve, name=f"simulation-jobs-{len(self._threads)}", daemon=True
                )
                self._threads.append(t)
                t.start()

    def close(self) -> None:
        """Stop every job process; every job running or waiting is ``cancelled``."""
        with self._lock:
            self._closed = True
            running = dict(self._running)
        cancelled = list(running)
        while True:
            try:
                item = self._waiting.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                cancelled.append(item[0])
        for _ in self._threads:
            self._waiting.put(None)
        for process in running.values():
            process.stop(at_once=True)
        for t in self._threads:
            t.join(15)
        for job in cancelled:
            try:
                _update(self.engine, job, status="cancelled")
            except Exception:  # pragma: no cover - the database went first: shown abandoned
                log.exception("simulation %s: could not record its cancellation", job)

    def _serve(self) -> None:
        """One slot: take the next job, run it in this slot's process (started when needed,
        stopped when idle)."""
        process: _Process | None = None
        while True:
            try:
                item = self._waiting.get(timeout=IDLE_SECONDS)
            except queue.Empty:
                if process is not None:
                    process.stop()
                    process = None
                continue
            if item is None or self._closed:
                break
            job, request = item
            with self._lock:
                self._queued.discard(job)
            if process is None or process.proc.poll() is not None:
                process = _Process.start()
            with self._lock:
                if self._closed:
                    break
                self._running[job] = process
            try:
                ok = self._run(process, job, request)
            finally:
                with self._lock:
                    self._running.pop(job, None)
            if not ok:
                process.stop(at_once=True)
                process = None
        if process is not None:
            process.stop(at_once=True)

    def _run(self, process: _Process, job: str, request: str) -> bool:
        """Send the job and relay what the process reports until it is done; ``False`` when the
        process ended (killed, crashed) before it was."""
        _update(self.engine, job, status="preparing")
        try:
            process.jobs.write(json.dumps([job, json.loads(request)]) + "\n")
            process.jobs.flush()
        except OSError:
            self._lost(process, job)
            return False
        last_write = last_touch = time.monotonic()
        while True:
            line = process.events.next(HEARTBEAT)
            now = time.monotonic()
            if now - last_touch >= HEARTBEAT:  # the job and those waiting are alive
                self._touch(job)
                last_write = last_touch = now
            if line is None:  # nothing for a while (a kernel compiling)
                if process.proc.poll() is not None:
                    self._lost(process, job)
                    return False
                continue
            if line == "":
                self._lost(process, job)
                return False
            kind, _, value = json.loads(line)
            if kind == "status":
                _update(self.engine, job, status=value)
                last_write = now
            elif kind == "progress":
                if now - last_write >= WRITE_EVERY:
                    _update(self.engine, job, done=int(value))
                    last_write = now
            elif kind == "done":
                text = json.dumps(value, ensure_ascii=False)
                _update(self.engine, job, status="done", result=text, done=store.jobs.c.total)
                return True
            elif kind == "failed":
                _update(self.engine, job, status="failed", error=json.dumps(value))
                return True

    def _touch(self, job: str) -> None:
        """Mark the running job and every job waiting as alive (a row untouched for two minutes
        is shown ``abandoned``)."""
        with self._lock:
            jobs = [job, *self._queued]
        with self.engine.begin() as conn:
            conn.execute(
                sa.update(store.jobs)
                .where(store.jobs.c.id.in_(jobs))
                .values(updated_at=datetime.now(UTC))
            )

    def _lost(self, process: _Process, job: str) -> None:
        """The job's process ended before its job did: ``cancelled`` when the server is
        stopping, else ``failed``."""
        code = process.proc.poll()
        if self._closed:
            return  # close() records it
        log.error("simulation %s: its process ended (exit status %s)", job, code)
        error = {
            "error_type": "InternalError",
            "detail": f"the simulation's process ended before the job did (exit status {code})",
        }
        _update(self.engine, job, status="failed", error=json.dumps(error))


class _Lines:
    """The lines of a pipe, each waited for at most a given time (a thread reads them)."""

    def __init__(self, pipe: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._thread.start()

    def _read(self, pipe: IO[str]) -> None:
        try:
            for line in iter(pipe.readline, ""):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put("")  # the end of the pipe

    def next(self, timeout: float) -> str | None:
        """The next line (``""`` at the end of the pipe), or ``None`` if none came in time."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return None


def start_job(engine: Engine, runner: JobRunner, request: str, rounds: int, by: str) -> Any:
    """A new job of ``rounds`` rounds for member ``by`` (``request``: its checked simulation as
    JSON text): its row, queued, and the job handed to ``runner``. A runner with as many jobs
    waiting as it takes refuses it (:class:`~croupier.service.problems.ServiceProblem`, 503):
    nothing is left of it. Answers the job's row as written."""
    job = uuid.uuid4().hex
    at = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            sa.insert(store.jobs).values(
                id=job,
                request=request,
                status="queued",
                done=0,
                total=rounds,
                requested_by=by,
                created_at=at,
                updated_at=at,
            )
        )
        row = conn.execute(sa.select(store.jobs).where(store.jobs.c.id == job)).one()
    try:
        runner.submit(job, request)
    except ServiceProblem:
        with engine.begin() as conn:  # refused: nothing is left of it
            conn.execute(sa.delete(store.jobs).where(store.jobs.c.id == job))
        raise
    return row


__all__ = ["ENV_PROCESSES", "ENV_QUEUE", "JobRunner", "start_job"]
