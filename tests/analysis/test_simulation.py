"""The Monte Carlo simulator against the exact par sheets.

The exact par sheets are pinned to hand-derived combinatorics in tests/analysis/test_exact.py; here the
simulator (random deals from :func:`deal_positions`, vectorised ``classify_indices``) must land
within 4 standard errors of them. Seeds are fixed, so every run deals the same rounds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.simulate import deal_positions
from croupier.cards import Shoe, parse_cards
from croupier.errors import CroupierError
from croupier.paytables import Paytable
from croupier.wagers import Wager, get_wager

ROUNDS = 300_000
WAGERS = ("perfect-pairs", "match-the-dealer", "ultimate-pairs")


def check_within_4_se(
    wager: Wager, paytable: str | Paytable, decks: int, rounds: int, seed: int
) -> None:
    exact = exact_parsheet(wager, paytable, decks=decks)
    sim = simulate(wager, paytable, rounds, seed, decks=decks)
    assert sim.total == rounds
    assert sum(r.hits or 0 for r in sim.rows) == rounds
    assert sim.standard_error is not None
    assert sim.standard_error > 0
    # the standard error is the sample standard deviation over √rounds
    assert math.isclose(sim.standard_error, sim.standard_deviation / math.sqrt(rounds))
    diff = float(sim.expected_return - exact.expected_return)
    assert abs(diff) <= 4 * sim.standard_error, (
        f"{wager.id} {exact.paytable} {decks} decks: simulated {float(sim.expected_return):.5f}, "
        f"exact {float(exact.expected_return):.5f}, {diff / sim.standard_error:.2f} SE"
    )
    # each line's frequency within 5 binomial standard errors of its exact probability
    for e, s in zip(exact.rows, sim.rows, strict=True):
        p = float(e.probability)
        expected_hits = p * rounds
        sd = math.sqrt(rounds * p * (1 - p))
        assert abs((s.hits or 0) - expected_hits) <= 5 * sd + 1, (e.outcome, s.hits, expected_hits)


@pytest.mark.parametrize(
    ("wager_id", "paytable", "decks", "seed"),
    [
        ("perfect-pairs", "A", 8, 11),
        ("perfect-pairs", "B", 1, 12),
        ("match-the-dealer", "1", 6, 13),
        ("match-the-dealer", "4", 8, 14),
        ("ultimate-pairs", "A", 1, 15),
        ("ultimate-pairs", "C", 1, 16),
    ],
)
def test_simulation_within_4_standard_errors(
    wager_id: str, paytable: str, decks: int, seed: int
) -> None:
    check_within_4_se(get_wager(wager_id), paytable, decks, ROUNDS, seed)


def test_simulation_on_a_partly_dealt_shoe() -> None:
    pp = get_wager("perfect-pairs")
    shoe = Shoe.standard(2).remove(parse_cards("As As Ah Kd 2c 2c 2d"))
    exact = exact_parsheet(pp, "A", decks=2, shoe=shoe)
    sim = simulate(pp, "A", ROUNDS, seed=21, decks=2, shoe=shoe)
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error
    assert [r.outcome for r in sim.rows] == [r.outcome for r in exact.rows]


def test_same_seed_same_results() -> None:
    mtd = get_wager("match-the-dealer")
    a = simulate(mtd, "2", 50_000, seed=99, decks=8)
    b = simulate(mtd, "2", 50_000, seed=99, decks=8)
    c = simulate(mtd, "2", 50_000, seed=100, decks=8)
    assert [r.hits for r in a.rows] == [r.hits for r in b.rows]
    assert a.expected_return == b.expected_return
    assert a.standard_error == b.standard_error
    assert [r.hits for r in a.rows] != [r.hits for r in c.rows]


def test_simulation_rejects_bad_requests() -> None:
    pp = get_wager("perfect-pairs")
    with pytest.raises(CroupierError):
        simulate(pp, "A", 0, seed=1, decks=8)
    with pytest.raises(CroupierError, match="at most 1,000,000,000,000"):
        simulate(pp, "A", 10**12 + 1, seed=1, decks=8)
    with pytest.raises(CroupierError):
        simulate(pp, "A", 10, seed=1, decks=1, shoe=Shoe.from_counts({"As": 1}))


# --------------------------------------------------------------------------- deal_positions


def test_deal_positions_distinct_and_uniform() -> None:
    rng = np.random.default_rng(2024)
    n_cards, rounds, k = 10, 200_000, 3
    pos = deal_positions(rng, n_cards, rounds, k)
    assert pos.shape == (rounds, k)
    assert pos.min() >= 0
    assert pos.max() < n_cards
    ordered = np.sort(pos, axis=1)
    assert (ordered[:, 1:] != ordered[:, :-1]).all(), "a position dealt twice in one round"
    # each dealing position is uniform over the n cards
    p = 1 / n_cards
    sd = math.sqrt(rounds * p * (1 - p))
    for j in range(k):
        counts = np.bincount(pos[:, j], minlength=n_cards)
        assert np.abs(counts - rounds * p).max() <= 5 * sd, (j, counts)
    # the first two positions are uniform over the n(n − 1) ordered pairs
    pair = pos[:, 0] * n_cards + pos[:, 1]
    counts = np.bincount(pair, minlength=n_cards * n_cards).reshape(n_cards, n_cards)
    assert (np.diag(counts) == 0).all()
    q = 1 / (n_cards * (n_cards - 1))
    off = counts[~np.eye(n_cards, dtype=bool)]
    assert np.abs(off - rounds * q).max() <= 5 * math.sqrt(rounds * q * (1 - q))


def test_deal_positions_whole_shoe_is_a_permutation() -> None:
    rng = np.random.default_rng(7)
    pos = deal_positions(rng, 6, 50_000, 6)
    assert (np.sort(pos, axis=1) == np.arange(6)).all()
    # each of the 6! = 720 orders appears about 50,000 / 720 ≈ 69 times
    codes = (pos * (6 ** np.arange(6))).sum(axis=1)
    _, counts = np.unique(codes, return_counts=True)
    assert len(counts) == 720
    mean, sd = 50_000 / 720, math.sqrt(50_000 / 720)
    assert np.abs(counts - mean).max() <= 5 * sd


def test_deal_positions_reproducible() -> None:
    a = deal_positions(np.random.default_rng(5), 52, 1000, 3)
    b = deal_positions(np.random.default_rng(5), 52, 1000, 3)
    np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------- every offering


OFFERINGS = [
    (wager_id, table.key, decks)
    for wager_id in WAGERS
    for table, decks in get_wager(wager_id).offerings()
]


@pytest.mark.slow
@pytest.mark.parametrize(("wager_id", "paytable", "decks"), OFFERINGS)
def test_every_offering_simulates_within_4_standard_errors(
    wager_id: str, paytable: str, decks: int
) -> None:
    wager = get_wager(wager_id)
    table = wager.paytable(paytable, decks=decks)
    seed = 1000 + OFFERINGS.index((wager_id, paytable, decks))
    check_within_4_se(wager, table, decks, 5_000_000, seed)
