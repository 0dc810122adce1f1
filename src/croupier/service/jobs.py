"""Simulations as jobs: ``POST /simulations`` starts one and answers its id at once (202);
``GET /simulations/{id}`` gives its status (``queued``, ``running``, ``done``, ``failed``, or
``abandoned`` when the process running it stopped), its progress in rounds dealt, and, once done,
the same JSON as ``croupier simulate --json`` (the simulated par sheet, the exact house edge
beside it and the z-score). The seed makes a job repeatable: the same request, the same figures.

A job runs in a background thread of the process that took the request, one at a time per
process; its state is in the database (``service_jobs``), so any worker answers for it. Starting
one needs a staff member's token (a simulation takes CPU the tables' settlements need).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine

from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.simulate import run_fields, simulate
from croupier.commands.common import _meter_arg, _money
from croupier.errors import CroupierError, LedgerLookupError
from croupier.progressive import Role, StaffMember
from croupier.service import store
from croupier.service.auth import require
from croupier.service.common import engine_of
from croupier.wagers import ProgressiveStake, get_wager

router = APIRouter(tags=["simulations"])
log = logging.getLogger("croupier.service")

Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "starting a simulation"))]
MAX_ROUNDS = 50_000_000
ABANDONED_AFTER = timedelta(minutes=2)
_ONE_AT_A_TIME = threading.Lock()
"""A process runs one simulation at a time (the others wait, ``queued``). The threads are daemons:
stopping the server does not wait for a simulation; it is then ``abandoned``."""


class Simulation(BaseModel):
    """What to simulate (as ``croupier simulate``)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "wager": "perfect-pairs",
                    "paytable": "A",
                    "decks": 6,
                    "rounds": 1_000_000,
                    "seed": 1,
                }
            ]
        },
    )
    wager: str
    paytable: str
    decks: int | None = Field(default=None, ge=1, le=8)
    rounds: int = Field(default=1_000_000, ge=2, le=MAX_ROUNDS)
    seed: int = Field(default=1, ge=0)
    meter: str | None = None
    amount: str | None = None
    stake: ProgressiveStake = ProgressiveStake.COLLECTED


def _result(spec: Simulation, progress: Any) -> dict[str, Any]:
    """The job's result (``croupier simulate --json``), reporting progress to ``progress``."""
    w = get_wager(spec.wager.strip().lower())
    meter = _meter_arg(spec.meter)
    cents = _money(spec.amount, "amount")
    sheet = simulate(
        w,
        spec.paytable,
        rounds=spec.rounds,
        seed=spec.seed,
        decks=spec.decks,
        meter_cents=meter,
        wager_cents=cents,
        stake=spec.stake,
        progress=progress,
    )
    exact = exact_parsheet(
        w,
        spec.paytable,
        decks=sheet.decks,
        meter_cents=sheet.meters or None,
        wager_cents=sheet.wager_cents,
        stake=spec.stake,
    )
    z = (
        float(sheet.house_edge - exact.house_edge) / sheet.standard_error
        if sheet.standard_error
        else None
    )
    d: dict[str, Any] = sheet.to_dict()
    d["exact_house_edge"] = float(exact.house_edge)
    d["z_score"] = z
    d |= run_fields(
        w, spec.seed, decks=sheet.decks
    )  # as croupier simulate --json: the seed's entropy, where it ran
    return d


def _update(engine: Engine, job: str, **values: Any) -> None:
    with engine.begin() as conn:
        conn.execute(
            sa.update(store.jobs)
            .where(store.jobs.c.id == job)
            .values(updated_at=datetime.now(UTC), **values)
        )


def _work(engine: Engine, job: str, spec: Simulation) -> None:
    with _ONE_AT_A_TIME:
        _run_job(engine, job, spec)


def _run_job(engine: Engine, job: str, spec: Simulation) -> None:
    last = [0.0]

    def progress(done: int) -> None:
        if time.monotonic() - last[0] >= 0.5:
            last[0] = time.monotonic()
            _update(engine, job, done=done)

    _update(engine, job, status="running")
    try:
        result = _result(spec, progress)
    except CroupierError as exc:
        _update(
            engine,
            job,
            status="failed",
            error=json.dumps(
                {
                    "error_type": type(exc).__name__,
                    "detail": str(exc),
                    "section": getattr(exc, "section", None),
                }
            ),
        )
        return
    except Exception:  # the job fails; the server goes on
        log.exception("simulation %s failed", job)
        _update(
            engine,
            job,
            status="failed",
            error=json.dumps({"error_type": "InternalError", "detail": "see the log"}),
        )
        return
    _update(
        engine, job, status="done", done=spec.rounds, result=json.dumps(result, ensure_ascii=False)
    )


def _view(row: Any) -> dict[str, Any]:
    status = row.status
    updated = row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC)
    if status in ("queued", "running") and datetime.now(UTC) - updated > ABANDONED_AFTER:
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


@router.post("/simulations", status_code=202, summary="Start a simulation job")
def start(request: Request, member: Staff, spec: Simulation) -> dict[str, Any]:
    """Check the request (the wager, its paytable and deck count) and start the job; poll
    ``GET /simulations/{job}``."""
    # every input checked before the job is accepted (a bad one is a 4xx now, not a failed job)
    exact_parsheet(
        get_wager(spec.wager.strip().lower()),
        spec.paytable,
        decks=spec.decks,
        meter_cents=_meter_arg(spec.meter),
        wager_cents=_money(spec.amount, "amount"),
        stake=spec.stake,
    )
    engine = engine_of(request)
    job = uuid.uuid4().hex
    at = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            sa.insert(store.jobs).values(
                id=job,
                request=spec.model_dump_json(),
                status="queued",
                done=0,
                total=spec.rounds,
                requested_by=member.name,
                created_at=at,
                updated_at=at,
            )
        )
        row = conn.execute(sa.select(store.jobs).where(store.jobs.c.id == job)).one()
    threading.Thread(
        target=_work, args=(engine, job, spec), name=f"simulation-{job}", daemon=True
    ).start()
    return _view(row)


@router.get("/simulations/{job}", summary="A simulation job's status, progress and result")
def status(request: Request, job: str) -> dict[str, Any]:
    """Its status, rounds dealt of the total and, once done, the simulated par sheet."""
    with engine_of(request).connect() as conn:
        row = conn.execute(sa.select(store.jobs).where(store.jobs.c.id == job)).first()
    if row is None:
        raise LedgerLookupError(f"no simulation job {job!r}")
    return _view(row)
