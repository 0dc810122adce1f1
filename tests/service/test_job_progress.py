"""Simulation jobs report progress within a chunk (trial findings, item 14: a million rounds are one
chunk of 1,048,576, and ``GET /simulations/{job}`` stayed at 0.0 until done), and their tallies
stay those of ``croupier simulate`` for the same seed: the second method here is
:func:`croupier.analysis.kernels.chunks.run_chunks`, which deals each chunk in one call."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.analysis.kernels import BLOCK
from croupier.analysis.kernels.chunks import run_chunks
from croupier.analysis.kernels.numpy_sim import BLOCK as NUMPY_BLOCK
from croupier.cards import Shoe
from croupier.service import job_work
from croupier.service.routes import simulations as jobs
from croupier.wagers import get_wager


@pytest.mark.parametrize(
    ("wager", "rounds", "chunk", "block"),
    [
        ("perfect-pairs", 300_000, 1 << 20, BLOCK),  # a compiled kernel: one chunk of 5 blocks
        ("perfect-pairs", 250_000, 100_000, BLOCK),  # chunks that end inside a block
        ("aces-up", 450_000, 1 << 20, NUMPY_BLOCK),  # no kernel: the numpy simulator's blocks
    ],
)
def test_progress_within_a_chunk_keeps_the_tallies(
    wager: str, rounds: int, chunk: int, block: int
) -> None:
    w, shoe = get_wager(wager), Shoe.standard(6 if wager == "perfect-pairs" else 1)
    seen: list[int] = []
    got = jobs.run_reporting(w, shoe, rounds, 11, progress=seen.append, chunk_rounds=chunk)
    assert got == run_chunks(w, shoe, rounds, 11, chunk_rounds=chunk)
    assert sum(got) == rounds
    assert seen == sorted(seen) and seen[-1] == rounds and 0 < seen[0] < rounds
    # at least one report per block of rounds (one chunk used to report once, at its end)
    assert len(set(seen)) >= -(-rounds // block)


def test_a_job_reports_its_progress_while_it_runs() -> None:
    """The job's process reports within its one chunk, after every block (the server writes at
    most one report every half second to the job's row)."""
    events: list[list[Any]] = []
    spec = jobs.Simulation(wager="perfect-pairs", paytable="A", decks=6, rounds=200_000, seed=3)
    job_work.run_job("j", spec, events.append)
    done = [e[2] for e in events if e[0] == "progress"]
    statuses = [e[2] for e in events if e[0] == "status"]
    assert statuses == ["preparing", "running"] and events[-1][0] == "done"
    # 200,000 rounds: blocks end at 65,536, 131,072 and 196,608, then the chunk's end
    assert done[:3] == [65_536, 131_072, 196_608] and done[-1] == 200_000


def test_a_jobs_result_is_croupier_simulate_json_with_its_evidence() -> None:
    """A job's result is the document ``croupier simulate --json`` prints for the same request
    and seed, the evidence (intervals, counts, chi-square test, run) included."""
    import json

    from cli_support import run_main

    events: list[list[Any]] = []
    spec = jobs.Simulation(wager="perfect-pairs", paytable="A", decks=6, rounds=20_000, seed=4)
    job_work.run_job("e", spec, events.append)
    assert events[-1][0] == "done", events[-1]
    found = events[-1][2]
    args = ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "20000", "-s", "4", "--json"]
    assert found == json.loads(run_main(args).out)
    fit = found["evidence"]["goodness_of_fit"]
    assert fit["degrees_of_freedom"] == len(fit["cells"]) - 1 and fit["p_value"] is not None
