"""A simulation job's work, in a process of its own (:mod:`croupier.service.job_runner` starts it
as ``python -m croupier.service.job_work`` would run, at a lower priority — :data:`NICENESS` — set
before anything is imported): it reads one job at a time from its standard input
and writes what happens to its standard output, one JSON line each — ``["status", job,
"preparing" | "running"]``, ``["progress", job, rounds]``, then ``["done", job, result]`` or
``["failed", job, error]``. A job never runs in the serving process: the settlements it serves
keep their CPU and their GIL (a 5M-round AxMan job in the serving process raised the median
``GET /tables/T-1`` from 62 ms to 171 ms). The process ends when the serving process is gone.

Progress: the rounds are dealt in the chunks ``croupier simulate`` deals (1,048,576 rounds each,
:mod:`croupier.analysis.kernels.chunks`: the chunking is part of a seed's figures, so it is kept),
and a job reports its progress *within* each chunk too, after each block of the kernel
(:data:`~croupier.analysis.kernels.BLOCK`, 65,536 rounds; the numpy simulator reports its own
blocks): the same blocks on the same stream, so the same tallies (:func:`run_reporting`). A
compiled kernel is compiled (or loaded from numba's cache) *before* the first block, on copies of
the shoe and the stream: while it is, the job is ``preparing`` — the trial saw a 2M-round job
read ``running 0 0.0`` for its first 12 seconds, the kernel's compilation, then ``done``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from croupier.cards import Shoe
from croupier.errors import CroupierError, InputError, UnknownWagerError
from croupier.units import amount_schema
from croupier.wagers import ProgressiveStake, Wager

if TYPE_CHECKING:
    import numpy as np

    from croupier.analysis.kernels import KernelPlan
else:  # the serving process imports this module for its request model (Simulation) only
    from croupier.lazy import numpy as np

MAX_ROUNDS = 50_000_000
MAX_SEED = 2**63 - 1
"""The largest seed a job takes (the largest integer the service takes anywhere)."""
METER, AMOUNT = "the meter field", "the amount field"
"""How a problem names the request's fields (not the CLI's ``--meter``, ``--amount``)."""
NICENESS = 10
"""How much lower than the server's the job process's scheduling priority is."""

Report = Callable[[str, Any], None]
"""``report(kind, value)``: ``("status", "running")``, ``("progress", rounds)``."""


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
    decks: StrictInt | None = Field(default=None, ge=1, le=8)
    rounds: StrictInt = Field(default=1_000_000, ge=2, le=MAX_ROUNDS)
    seed: StrictInt = Field(default=1, ge=0, le=MAX_SEED)
    meter: str | None = None
    amount: Annotated[str, Field(json_schema_extra=amount_schema())] | None = None
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
    from croupier.analysis.kernels import count_blocks, shoe_cards

    return count_blocks([plan], shoe_cards(shoe), state, rounds, progress)[0]


def prepare(plan: KernelPlan, shoe: Shoe) -> None:
    """Compile ``plan``'s kernels (or load them from numba's cache) by dealing and reading a few
    rounds on copies of a shoe and a stream the job does not use: its own rounds are untouched."""
    from croupier.analysis.kernels import shoe_cards
    from croupier.analysis.kernels.rng import seed_state

    n = 8
    state = seed_state(np.random.SeedSequence(0))
    records, lengths = plan.engine.deal(shoe_cards(shoe), state, n, plan.engine.buffers(n))
    plan.classify(records, lengths, np.empty(n, dtype=np.int64), *plan.args)


def run_reporting(
    wager: Wager,
    shoe: Shoe,
    rounds: int,
    entropy: int,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    client: Any = None,
    chunk_rounds: int | None = None,
    prepared: Callable[[], None] | None = None,
) -> Tallies:
    """:func:`~croupier.analysis.kernels.chunks.run_chunks` here, one chunk after the other, with
    ``progress`` (rounds done) called within each chunk as well: a compiled kernel's chunk is dealt
    from its one stream (:func:`~croupier.analysis.kernels.chunks.chunk_seed`) block by block as
    :func:`~croupier.analysis.kernels.count_with` deals it (:func:`_count_kernel`), and the
    numpy simulator reports its own blocks. ``prepared()`` is called once the kernel is
    compiled (:func:`prepare`), before the first round. The tallies are
    :func:`~croupier.analysis.kernels.chunks.count_chunk`'s (tests/test_f2_job_progress.py checks
    it). ``workers``, ``scheduler`` and ``client`` are for the signature only (a job runs here).
    """
    from croupier.analysis.kernels import plan_for
    from croupier.analysis.kernels.chunks import CHUNK_ROUNDS, chunk_seed, chunks
    from croupier.analysis.kernels.numpy_sim import simulate_counts
    from croupier.analysis.kernels.rng import seed_state

    assert workers == 1 and scheduler is None and client is None
    plan = plan_for(wager, shoe)
    if plan is not None:
        prepare(plan, shoe)
    if prepared is not None:
        prepared()
    total: Tallies | None = None
    done = 0
    for index, n in chunks(rounds, 0, chunk_rounds or CHUNK_ROUNDS):
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


def checked(spec: Simulation) -> None:
    """Every input of ``spec`` checked (the wager, its paytable and deck count, the meter and
    amount) before the job is accepted: a bad one is a 4xx now, not a failed job later."""
    from croupier.analysis.parsheet import exact_parsheet
    from croupier.operations.presenters.arguments import meter_arg, money
    from croupier.table.submission import offered_paytable
    from croupier.wagers import get_wager

    try:
        wager = get_wager(spec.wager.strip().lower())
    except UnknownWagerError as exc:  # the body names no wager: its own mistake (422), no path's
        raise InputError(str(exc)) from None
    offered_paytable(wager, spec.paytable, spec.decks)  # refused as a Rules Submission's is
    exact_parsheet(
        wager,
        spec.paytable,
        decks=spec.decks,
        meter_cents=meter_arg(spec.meter, METER),
        wager_cents=money(spec.amount, AMOUNT),
        stake=spec.stake,
    )


def result(spec: Simulation, report: Report) -> dict[str, Any]:
    """The job's result (``croupier simulate --json``), reporting to ``report`` the job's status
    (``running`` once the kernel is ready) and its progress in rounds."""
    from croupier.analysis.evidence import run_info, simulation_evidence
    from croupier.analysis.simulate import beside_exact, run_fields, simulate
    from croupier.operations.presenters.arguments import meter_arg, money
    from croupier.wagers import get_wager

    w = get_wager(spec.wager.strip().lower())
    stake = spec.stake

    def runner(*args: Any, **kw: Any) -> Tallies:
        kw["prepared"] = lambda: report("status", "running")
        return run_reporting(*args, **kw)

    sheet = simulate(
        w,
        spec.paytable,
        rounds=spec.rounds,
        seed=spec.seed,
        decks=spec.decks,
        meter_cents=meter_arg(spec.meter, METER),
        wager_cents=money(spec.amount, AMOUNT),
        stake=stake,
        progress=lambda done: report("progress", done),
        runner=runner,
    )
    exact, _ = beside_exact(w, spec.paytable, sheet, stake)
    run = run_info(run_fields(w, spec.seed, decks=sheet.decks), spec.rounds, spec.seed)
    return simulation_evidence(exact, sheet, run).document()  # as croupier simulate --json


def run_job(job: str, spec: Simulation, send: Callable[[list[Any]], None]) -> None:
    """Run one job, sending each event as a list (``["progress", job, 65536]``): ``preparing``,
    then ``running`` and its progress, then ``done`` with the result or ``failed`` with the
    error (a croupier error's type, detail and section; anything else is an internal error, its
    traceback on the process's standard error)."""
    send(["status", job, "preparing"])
    try:
        found = result(spec, lambda kind, value: send([kind, job, value]))
    except CroupierError as exc:
        error = {
            "error_type": type(exc).__name__,
            "detail": str(exc),
            "section": getattr(exc, "section", None),
        }
        send(["failed", job, error])
        return
    except Exception:  # the job fails; the process goes on
        import traceback

        traceback.print_exc()
        send(["failed", job, {"error_type": "InternalError", "detail": "see the log"}])
        return
    send(["done", job, found])


def _watch(parent: int) -> None:
    """End this process as soon as the process that started it is gone (killed, or crashed):
    a job is never left running on its own."""
    while True:
        if os.getppid() != parent:
            os._exit(3)
        time.sleep(1.0)


def main(parent: int | None = None) -> None:
    """The job process: jobs from standard input, one JSON line each (``[job, request]``, the
    request as ``POST /simulations`` takes it), events to standard output; it ends at the end of
    its input. Anything else written to standard output goes to standard error."""
    out: IO[str] = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print cannot break a line
    threading.Thread(target=_watch, args=(parent or os.getppid(),), daemon=True).start()
    lock = threading.Lock()

    def send(event: list[Any]) -> None:
        with lock:
            out.write(json.dumps(event, ensure_ascii=False) + "\n")
            out.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        job, request = json.loads(line)
        run_job(str(job), Simulation.model_validate(request), send)


if __name__ == "__main__":  # pragma: no cover - run by croupier.service.job_runner
    main()
