"""Simulations as jobs: ``POST /simulations`` starts one and answers its id at once (202);
``GET /simulations/{id}`` gives its status, its progress in rounds dealt, and, once done, the same
JSON as ``croupier simulate --json`` (the simulated par sheet, the exact house edge beside it, the
z-score and the evidence: confidence intervals, observed against expected counts, the chi-square
test, the run's generator, seed and versions). The seed makes a job repeatable: the same
request, the same figures.

A job's status: ``queued`` (waiting for a job process), ``preparing`` (its process is loading
the wager's simulation kernel — compiling it, the first time: up to a minute), ``running`` (its
rounds dealt: ``done`` moves after every block of 65,536 rounds), then ``done`` or ``failed``;
``cancelled`` when the server stopped before it was done, ``abandoned`` when the server that ran
it stopped answering for it (killed). A job runs in a process of its own, never in the serving
process (:mod:`croupier.service.job_runner`, :mod:`croupier.service.job_work`); its state is in
the database (``service_jobs``), so any worker answers for it. Starting one needs a staff
member's token (a simulation takes CPU the tables' settlements need).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from croupier.errors import LedgerLookupError
from croupier.operations.schemas.simulation import SimulationJob
from croupier.progressive import Role, StaffMember
from croupier.service import store
from croupier.service.dependencies import EngineDep, ReaderDep, require
from croupier.service.job_runner import JobRunner, start_job
from croupier.service.job_work import MAX_ROUNDS, Simulation, checked, run_reporting
from croupier.service.jsontext import answer

router = APIRouter()

Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "starting a simulation"))]
ABANDONED_AFTER = timedelta(minutes=2)
LIVE = ("queued", "preparing", "running")
"""The statuses of a job not finished: its row is touched while its server runs it."""


def runner_of(request: Request) -> JobRunner:
    """The app's job runner (started with the app, stopped with it)."""
    runner: JobRunner = request.app.state.jobs
    return runner


def _view(row: Any) -> dict[str, Any]:
    status = row.status
    updated = row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC)
    if status in LIVE and datetime.now(UTC) - updated > ABANDONED_AFTER:
        status = "abandoned"
    return {
        "job": row.id,
        "status": status,
        "request": json.loads(row.request),
        "done": int(row.done),
        "total": int(row.total),
        "progress": int(row.done) / int(row.total),
        "requested_by": row.requested_by,
        "result": json.loads(row.result) if row.result else None,
        "error": json.loads(row.error) if row.error else None,
    }


@router.post(
    "/simulations", status_code=202, response_model=SimulationJob, summary="Start a simulation job"
)
def start(request: Request, engine: EngineDep, member: Staff, spec: Simulation) -> Response:
    """Check the request (the wager, its paytable and deck count) and start the job in a job
    process of the server's; poll ``GET /simulations/{job}``. As many jobs waiting already as
    the server takes: a 503 problem."""
    checked(spec)  # a bad input is a 4xx now, not a failed job later
    row = start_job(engine, runner_of(request), spec.model_dump_json(), spec.rounds, member.name)
    return answer(_view(row), 202)


@router.get(
    "/simulations/{job}",
    response_model=SimulationJob,
    summary="A simulation job's status, progress and result",
)
def status(reader: ReaderDep, job: str) -> Response:
    """Its status, rounds dealt of the total and, once done, the simulated par sheet."""
    with reader.connect() as conn:  # no writer lock for a look
        row = conn.execute(sa.select(store.jobs).where(store.jobs.c.id == job)).first()
    if row is None:
        raise LedgerLookupError(f"no simulation job {job!r}")
    return answer(_view(row))


__all__ = ["ABANDONED_AFTER", "MAX_ROUNDS", "Simulation", "router", "run_reporting", "runner_of"]
