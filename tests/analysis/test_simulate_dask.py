"""Chunked simulation on Dask: the same seed gives the same tallies whatever the number of workers,
the chunks' streams are SeedSequence children, and ``croupier simulate --workers/--scheduler``."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from jsonschema import Draft202012Validator

from cli_support import assert_one_error_line, run_main
from croupier.analysis.kernels import plan_for
from croupier.analysis.kernels.chunks import chunk_seed, count_chunk, dask_client, run_chunks
from croupier.analysis.simulate import simulate
from croupier.cards import Shoe
from croupier.wagers import get_wager
from repo_paths import ROOT

SCHEMA = ROOT / "docs" / "schemas" / "simulate.schema.json"


@pytest.mark.parametrize("wager_id", ["axman", "ultimate-pairs"])
def test_one_and_two_workers_give_identical_tallies(wager_id: str) -> None:
    wager = get_wager(wager_id)
    shoe = Shoe.standard(6 if wager.allowed_decks else 1)
    args = (wager, shoe, 230_000, 20261201)
    one = run_chunks(*args, workers=1, chunk_rounds=50_000)
    two = run_chunks(*args, workers=2, chunk_rounds=50_000)
    assert one == two
    assert sum(one) == 230_000
    # and the sum of the chunks dealt one by one (5 chunks: 4 × 50,000 + 30,000)
    by_chunk = [count_chunk(wager, shoe, i, n, 20261201) for i, n in enumerate([50_000] * 4)]
    by_chunk.append(count_chunk(wager, shoe, 4, 30_000, 20261201))
    assert one == tuple(sum(c) for c in zip(*by_chunk, strict=True))
    # another seed deals other rounds
    assert run_chunks(wager, shoe, 230_000, 20261202, chunk_rounds=50_000) != one


def test_the_par_sheet_is_the_same_on_one_and_two_workers() -> None:
    axman = get_wager("axman")
    a = simulate(axman, "standard", 120_000, 5, decks=6, chunk_rounds=40_000)
    b = simulate(axman, "standard", 120_000, 5, decks=6, workers=2, chunk_rounds=40_000)
    assert [r.hits for r in a.rows] == [r.hits for r in b.rows]
    assert a.standard_error == b.standard_error
    assert "seed entropy 5" in a.convention


def test_chunk_streams_are_the_seed_sequence_children() -> None:
    children = np.random.SeedSequence(99).spawn(4)
    for i, child in enumerate(children):
        assert chunk_seed(99, i).generate_state(4).tolist() == child.generate_state(4).tolist()
    assert plan_for(get_wager("ultimate-pairs"), Shoe.standard(1)) is None  # numpy simulator


def _validate(doc: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(doc)]
    assert errors == []


def test_cli_on_two_workers_matches_one_and_reports_the_entropy() -> None:
    base = ["simulate", "match-the-dealer", "-p", "1", "-d", "6", "-n", "40000", "--json"]
    one = run_main([*base, "--seed", "77"])
    two = run_main([*base, "--seed", "77", "--workers", "2"])
    assert one.code == two.code == 0, (one.err, two.err)
    a, b = json.loads(one.out), json.loads(two.out)
    _validate(a)
    _validate(b)
    assert [r["hits"] for r in a["outcomes"]] == [r["hits"] for r in b["outcomes"]]
    assert (a["seed_entropy"], a["workers"], b["workers"]) == ("77", 1, 2)
    assert a["kernel"] is True


def test_cli_without_a_seed_prints_fresh_entropy_that_repeats_the_run() -> None:
    base = ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "20000"]
    first = run_main([*base, "--json"])
    assert first.code == 0, first.err
    doc = json.loads(first.out)
    entropy = doc["seed_entropy"]
    assert int(entropy) > 2**64  # 128 bits from the operating system, not a small default
    again = json.loads(run_main([*base, "--json", "--seed", entropy]).out)
    assert [r["hits"] for r in again["outcomes"]] == [r["hits"] for r in doc["outcomes"]]
    text = run_main([*base, "--seed", "5"])
    assert "seed entropy 5 (repeat with --seed 5); dealt in this process" in text.out


def test_cli_on_a_users_scheduler() -> None:
    with dask_client(1, None) as client:
        address = client.scheduler.address
        run = run_main(
            ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "30000", "-s", "3",
             "--scheduler", address, "--json"]
        )  # fmt: skip
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert doc["scheduler"] == address
    local = json.loads(
        run_main(["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "30000", "-s", "3",
                  "--json"]).out
    )  # fmt: skip
    assert [r["hits"] for r in doc["outcomes"]] == [r["hits"] for r in local["outcomes"]]


def test_cli_refuses_an_unreachable_scheduler_in_one_line() -> None:
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        run = run_main(
            ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "1000", "--scheduler",
             "tcp://127.0.0.1:9"]
        )  # fmt: skip
    line = assert_one_error_line(run)
    assert "no Dask scheduler at 'tcp://127.0.0.1:9'" in line
