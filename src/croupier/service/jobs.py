"""Simulations as jobs: ``POST /simulations`` starts one and answers its id at once (202);
``GET /simulations/{id}`` gives its status (``queued``, ``running``, ``done``, ``failed``, or
``abandoned`` when the process running it stopped), its progress in rounds dealt, and, once done,
the same JSON as ``croupier simulate --json`` (the simulated par sheet, the exact house edge
beside it and the z-score). The seed makes a job repeatable: the same request, the same figures.

Progress: the rounds are dealt in the chunks ``croupier simulate`` deals (1,048,576 rounds each,
:mod:`croupier.analysis.kernels.chunks`: the chunking is part of a seed's figures, so it is kept),
and a job reports its progress *within* each chunk too, after each block of the kernel
(:data:`~croupier.analysis.kernels.BLOCK`, 65,536 rounds; the numpy simulator reports its own
blocks): the same blocks on the same stream, so the same tallies (:func:`run_reporting`). A
million rounds report 16 times.

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
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import numpy as np
import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine

from croupier.analysis.kernels import BLOCK, KernelPlan, plan_for, shoe_cards
from croupier.analysis.kernels.chunks import CHUNK_ROUNDS, chunk_seed, chunks
from croupier.analysis.kernels.numpy_sim import simulate_counts
from croupier.analysis.kernels.rng import seed_state
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.simulate import run_fields, simulate
from croupier.cards import Shoe
from croupier.commands.common import _meter_arg, _money
from croupier.errors import CroupierError, LedgerLookupError
from croupier.progressive import Role, StaffMember
from croupier.service import store
from croupier.service.auth import require
from croupier.service.common import MAX_STORED_INT, engine_of
from croupier.wagers import ProgressiveStake, Wager, get_wager

router = APIRouter(tags=["simulations"])
log = logging.getLogger("croupier.service")

Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "starting a simulation"))]
MAX_ROUNDS = 50_000_000
METER, AMOUNT = "the meter field", "the amount field"
"""How a problem names the request's fields (not the CLI's ``--meter``, ``--amount``)."""
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
    seed: int = Field(default=1, ge=0, le=MAX_STORED_INT)
    meter: str | None = None
    amount: str | None = None
    stake: ProgressiveStake = ProgressiveStake.COLLECTED


Tallies = tuple[int, ...]


def _add(a: Tallies | None, b: Tallies) -> Tallies:
    return b if a is None else tuple(x + y for x, y in zip(a, b, strict=True))


def _offset(progress: Callable[[int], None] | None, base: int) -> Callable[[int], None] | None:
    """``progress`` of the rounds done before a chunk plus those done within it."""
    if progress is None:
        return None
    report = progress
    return lambda done: report(base + done)


def _count_kernel(
    plan: KernelPlan,
    shoe: Shoe,
    rounds: int,
    state: np.ndarray,
    progress: Callable[[int], None] | None,
) -> Tallies:
    """:func:`~croupier.analysis.kernels.count_with` for one plan, ``progress`` called after each
    block: the same blocks on the same shoe array and stream state (the shoe's order carries from
    one block to the next, so a chunk cannot be cut into separate calls)."""
    engine = plan.engine
    cards = shoe_cards(shoe)
    tally = np.zeros(plan.positions, dtype=np.int64)
    buffers = engine.buffers(min(BLOCK, rounds))
    out = np.empty(min(BLOCK, rounds), dtype=np.int64)
    done = 0
    while done < rounds:
        n = min(BLOCK, rounds - done)
        records, lengths = engine.deal(cards, state, n, buffers)
        plan.classify(records, lengths, out[:n], *plan.args)
        tally += np.bincount(out[:n], minlength=plan.positions)
        done += n
        if progress is not None:
            progress(done)
    return tuple(int(x) for x in tally)


def run_reporting(
    wager: Wager,
    shoe: Shoe,
    rounds: int,
    entropy: int,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    client: Any = None,
    chunk_rounds: int = CHUNK_ROUNDS,
) -> Tallies:
    """:func:`~croupier.analysis.kernels.chunks.run_chunks` here, one chunk after the other, with
    ``progress`` (rounds done) called within each chunk as well: a compiled kernel's chunk is dealt
    from its one stream (:func:`~croupier.analysis.kernels.chunks.chunk_seed`) block by block as
    :func:`~croupier.analysis.kernels.count_with` deals it (:func:`_count_kernel`), and the
    numpy simulator reports its own blocks. The tallies are
    :func:`~croupier.analysis.kernels.chunks.count_chunk`'s (tests/test_f2_job_progress.py checks
    it). ``workers``, ``scheduler`` and ``client`` are for the signature only (a job runs here).
    """
    assert workers == 1 and scheduler is None and client is None
    plan = plan_for(wager, shoe)
    total: Tallies | None = None
    done = 0
    for index, n in chunks(rounds, 0, chunk_rounds):
        seq = chunk_seed(entropy, index)
        base = done
        if plan is not None:
            part = _count_kernel(plan, shoe, n, seed_state(seq), _offset(progress, base))
        else:
            seed = int.from_bytes(seq.generate_state(4, np.uint32).tobytes(), "little")
            part = simulate_counts(wager, shoe, n, seed, _offset(progress, base))
        total = _add(total, part)
        done += n
        if progress is not None:
            progress(done)
    if total is None:
        raise CroupierError("simulate at least one round")
    return total


def _result(spec: Simulation, progress: Any) -> dict[str, Any]:
    """The job's result (``croupier simulate --json``), reporting progress to ``progress``."""
    w = get_wager(spec.wager.strip().lower())
    meter = _meter_arg(spec.meter, METER)
    cents = _money(spec.amount, AMOUNT)
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
        runner=run_reporting,
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
        meter_cents=_meter_arg(spec.meter, METER),
        wager_cents=_money(spec.amount, AMOUNT),
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
