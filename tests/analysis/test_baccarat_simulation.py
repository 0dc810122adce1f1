"""Simulated Baccarat against the exact figures, and the whole-shoe dealing procedure by hand.

The exact figures are pinned to published counts and a second method in tests/analysis/test_baccarat_exact.py;
here the simulators must land within 4 standard errors of them (fixed seeds).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.baccarat_shoe import (
    CoupRecords,
    _deal_batch,
    shoe_parsheet,
    simulate_shoes,
)
from croupier.cards import Shoe
from croupier.errors import CroupierError
from croupier.games.baccarat import BaccaratRules, BurnRule, CoupSummary, value_counts
from croupier.wagers import get_wager
from croupier.wagers.baccarat import BaccaratWager, baccarat_wagers

FULL_8 = np.array(value_counts(Shoe.standard(8)), dtype=np.int64)


def _zeros_shoe(rules: BaccaratRules) -> npt.NDArray[np.int8]:
    """416 ten-valued cards: every coup is 0 against 0, both hands draw: six cards a coup."""
    return np.zeros((1, rules.cards), dtype=np.int8)


def test_cut_card_with_the_first_card_burn_by_hand() -> None:
    rules = BaccaratRules(decks=8, cut_card=14, burn=BurnRule.FIRST_CARD)
    # the face-up first card is a 0, so 10 more are burned: coups start at 11, 17, …, 401.
    # The coup at 401 takes cards 401–406: the cut card (before card 402) comes out; one more
    # coup (407–412) is dealt: (401 − 11)/6 + 1 = 66 coups, plus 1.
    counts = _deal_batch(_zeros_shoe(rules), rules, FULL_8, 0, None)
    tie_zero = CoupSummary(0, 0, 3, 3).index
    assert counts[tie_zero] == 67 and counts.sum() == 67


def test_cut_card_without_a_burn_by_hand() -> None:
    rules = BaccaratRules(decks=8, cut_card=14, burn=BurnRule.NONE)
    # coups start at 0, 6, …, 396 (67 coups; the last ends at card 401, before the cut card),
    # then the coup starting at 402 finds the cut card first and is the one more coup: 68
    parts: list[CoupRecords] = []
    counts = _deal_batch(_zeros_shoe(rules), rules, FULL_8, 0, parts)
    assert counts.sum() == 68
    seen = np.concatenate([p.seen for p in parts])
    assert seen.sum(axis=1).tolist() == [6 * k for k in range(68)]


def test_records_keep_what_was_seen_and_what_is_left() -> None:
    sim = simulate_shoes(50, 3, record=True)
    r = sim.records
    assert r is not None and len(r.shoe) == sim.coups
    assert (np.diff(r.shoe) >= 0).all()  # shoe by shoe
    seen, left = r.seen.sum(axis=1).astype(int), r.remaining.sum(axis=1).astype(int)
    hidden = 416 - seen - left  # the burned cards nobody saw: 1 to 10 of them
    assert ((hidden >= 1) & (hidden <= 10)).all()
    for shoe in range(50):
        assert len(set(hidden[r.shoe == shoe].tolist())) == 1
    # every coup is dealt with at least the cut card's 14 cards still to come, less one coup
    assert left.min() >= 14 - 5
    assert (r.remaining <= FULL_8).all() and (r.remaining >= 0).all()


def test_simulate_shoes_refuses_no_shoes() -> None:
    with pytest.raises(CroupierError):
        simulate_shoes(0, 1)


def test_whole_shoes_within_4_standard_errors_small() -> None:
    sim = simulate_shoes(3_000, 11)
    for wager in baccarat_wagers():
        for table in wager.paytables():
            observed = shoe_parsheet(sim, wager, table)
            exact = exact_parsheet(wager, table, decks=8)
            assert observed.standard_error is not None
            z = float(observed.expected_return - exact.expected_return) / observed.standard_error
            assert abs(z) <= 4, (wager.id, table.key, z)


@pytest.mark.parametrize(("wager_id", "paytable"), [("fortune-7", "A"), ("banker", "ez")])
def test_fresh_shoe_simulation_reads_six_cards(wager_id: str, paytable: str) -> None:
    wager = get_wager(wager_id)
    sim = simulate(wager, paytable, 100_000, 17, decks=8)
    exact = exact_parsheet(wager, paytable, decks=8)
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error


@pytest.mark.slow
def test_whole_shoes_every_wager_and_line_within_4_standard_errors() -> None:
    sim = simulate_shoes(120_000, 2026)
    coups = sim.coups
    for wager in baccarat_wagers():
        assert isinstance(wager, BaccaratWager)
        for table in wager.paytables():
            observed = shoe_parsheet(sim, wager, table)
            exact = exact_parsheet(wager, table, decks=8)
            assert observed.standard_error is not None
            diff = float(observed.expected_return - exact.expected_return)
            assert abs(diff) <= 4 * observed.standard_error, (wager.id, table.key)
            for e, s in zip(exact.rows, observed.rows, strict=True):
                p = float(e.probability)
                sd = math.sqrt(coups * p * (1 - p))
                assert abs((s.hits or 0) - p * coups) <= 4 * sd + 1, (wager.id, e.outcome)


@pytest.mark.slow
def test_fresh_shoes_every_wager_within_4_standard_errors() -> None:
    for seed, wager in enumerate(baccarat_wagers()):
        for table in wager.paytables():
            for decks in (1, 6):
                sim = simulate(wager, table, 400_000, 100 + seed, decks=decks)
                exact = exact_parsheet(wager, table, decks=decks)
                assert sim.standard_error is not None
                diff = float(sim.expected_return - exact.expected_return)
                assert abs(diff) <= 4 * sim.standard_error, (wager.id, table.key, decks)
