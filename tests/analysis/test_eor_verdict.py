"""The count-vulnerability verdict is one rule for every game (docs/interpretations.md, "The
verdict"): a count is judged by the counter's gain in units an hour at the stated conditions,
exactly 0 where no counter can act, otherwise read through its interval of ± 2 standard errors
over the simulated shoes — Baccarat's coups at their exact edges and Blackjack's bets as settled
alike. (Baccarat's gain used to be taken as exact, with no interval, while Blackjack's had one.)

The expected verdicts are derived here from the rule as documented, not read from the code: by
hand for chosen gains, and for a real Baccarat simulation from each coup's exact par sheet.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from cli_support import run_main
from croupier.analysis.baccarat_shoe import simulate_shoes
from croupier.analysis.eor import CountInShoes
from croupier.analysis.eor_report import eor_report_html
from croupier.analysis.eor_shoes import CounterAtTable
from croupier.analysis.eor_table import (
    VERDICT_RULE,
    CounterConditions,
    Vulnerability,
    vulnerability,
)
from croupier.analysis.parsheet import exact_parsheet
from croupier.cards import Card, Rank, Shoe, Suit
from croupier.games.baccarat import BaccaratRules
from croupier.wagers import get_wager


def rule(win: float, se: float) -> str:
    """The documented rule, written out for the tests."""
    low, high = win - 2 * se, win + 2 * se
    if low > 0:
        return "beatable by counting" if win >= 0.01 else "negligible either way"
    if high < 0:
        return "a counter still loses" if win <= -0.01 else "negligible either way"
    if low > -0.01 and high < 0.01:
        return "negligible either way"
    return "no gain shown"


# gains an hour and their standard errors, with the verdict worked out by hand
BY_HAND = [
    (0.06, 0.05, "no gain shown"),  # -0.04 to +0.16: holds 0 (Baccarat's old reading: beatable)
    (0.30, 0.05, "beatable by counting"),  # +0.20 to +0.40
    (-0.30, 0.05, "a counter still loses"),  # -0.40 to -0.20
    (0.004, 0.002, "negligible either way"),  # 0 to +0.008: within ±0.01
    (0.009, 0.004, "negligible either way"),  # +0.001 to +0.017: positive, under 0.01
    (0.02, 0.004, "beatable by counting"),  # +0.012 to +0.028
    (-0.02, 0.004, "a counter still loses"),
    (0.005, 0.02, "no gain shown"),  # -0.035 to +0.045
    (0.5, 0.0, "beatable by counting"),  # no interval: an exact gain
]


@pytest.fixture(scope="module")
def unsimulated() -> tuple[Vulnerability, Vulnerability]:
    """A Baccarat and a Blackjack row with their counts and nothing simulated."""
    baccarat = vulnerability(get_wager("fortune-7"), "A", 8, CounterConditions(shoes=0))
    blackjack = vulnerability(get_wager("jackpot-party"), "P4", 8, CounterConditions(shoes=0))
    assert baccarat.verdict == blackjack.verdict == "not simulated"
    return baccarat, blackjack


def baccarat_row(base: Vulnerability, win: float, se: float) -> Vulnerability:
    """100 shoes of 80 coups, 400 bet, 60 coups an hour: an hour is 3 × the edge when betting
    (4 bets a shoe over 80 coups, × 60) and its standard error 0.075 × the per-shoe SD."""
    coups = CountInShoes(shoes=100, coups=8_000, trigger=8, bets=400, shoes_with_a_bet=0.9,
                         evaluated=400, average_edge=win / 3, positive_share=0.8,
                         win_per_shoe_sd=se / 0.075)  # fmt: skip
    return replace(base, coups=coups, coups_per_hour=60, not_simulated=None)


def blackjack_row(base: Vulnerability, win: float, se: float) -> Vulnerability:
    """100 shoes of 50 rounds, 60 an hour: an hour is 0.012 × the units won and its standard
    error 0.12 × the per-shoe SD."""
    counter = CounterAtTable(wager="jackpot-party", decks=8, shoes=100, rounds=5_000,
                             penetration=Fraction(3, 4), seats=3, rounds_per_hour=60, seed=1,
                             trigger=6, bets=200, shoes_with_a_bet=80, won=win / 0.012,
                             won_sd=se / 0.12, linear_won=0.0, flat_return=None, overflow=0,
                             soft_17="stands on")  # fmt: skip
    return replace(base, counter=counter, not_simulated=None)


@pytest.mark.parametrize(("win", "se", "verdict"), BY_HAND)
def test_the_same_gain_gets_the_same_verdict_in_every_game(
    unsimulated: tuple[Vulnerability, Vulnerability], win: float, se: float, verdict: str
) -> None:
    assert rule(win, se) == verdict
    for row in (baccarat_row(unsimulated[0], win, se), blackjack_row(unsimulated[1], win, se)):
        assert row.win_per_hour == pytest.approx(win)
        assert row.win_per_hour_se == pytest.approx(se)
        assert row.verdict == verdict, row.wager
        assert row.to_dict()["win_per_hour_se"] == pytest.approx(se)


def _shoe_of(values: np.ndarray) -> Shoe:
    """A shoe holding ``values[v]`` cards of point value v (value 0: the ten-valued ranks)."""
    ranks = {0: [Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING], 1: [Rank.ACE]}
    cards: list[Card] = []
    for v, n in enumerate(values.tolist()):
        kinds = [Card(r, s) for r in (ranks[v] if v in ranks else [Rank(v)]) for s in Suit]
        cards += [kinds[i % len(kinds)] for i in range(n)]
    return Shoe.from_cards(cards)


def test_a_baccarat_counter_is_judged_by_its_interval_worked_out_afresh() -> None:
    """Golden 8 over 10 shoes: each coup bet at its exact par sheet, each shoe's expected win,
    their mean and standard error give the interval the rule reads — a positive gain whose
    interval holds 0, "no gain shown" (the old exact reading made it "beatable by counting")."""
    wager = get_wager("golden-8")
    shoes, seed = 10, 1
    row = vulnerability(wager, "A", 8, CounterConditions(shoes=shoes, seed=seed))
    count = row.count
    assert count is not None and count.trigger is not None and row.coups is not None
    sim = simulate_shoes(shoes, seed, BaccaratRules(decks=8), record=True)
    rec = sim.records
    assert rec is not None
    tag = [count.tag(Rank.TEN), count.tag(Rank.ACE)] + [count.tag(Rank(v)) for v in range(2, 10)]
    running = rec.seen.astype(float) @ np.array(tag, dtype=float)
    true_count = running / ((416 - rec.seen.sum(axis=1)) / 52)
    bet = np.flatnonzero(true_count >= count.trigger - 1e-9)
    assert 0 < bet.size <= row.coups.evaluated  # every coup bet evaluated, none sampled
    table = wager.paytable("A", 8)
    per_shoe = [0.0] * shoes
    for i in bet:
        sheet = exact_parsheet(wager, table, decks=8, shoe=_shoe_of(rec.remaining[i]))
        per_shoe[int(rec.shoe[i])] += float(sheet.expected_return)
    mean = sum(per_shoe) / shoes
    sd = math.sqrt(sum((w - mean) ** 2 for w in per_shoe) / (shoes - 1))
    coups_a_shoe = rec.shoe.size / shoes
    win, se = mean / coups_a_shoe * 60, sd / math.sqrt(shoes) / coups_a_shoe * 60
    assert row.win_per_hour == pytest.approx(win, rel=1e-9)
    assert row.win_per_hour_se == pytest.approx(se, rel=1e-9)
    assert win > 0.01 and win - 2 * se < 0  # positive, but not shown to be
    assert row.verdict == rule(win, se) == "no gain shown"
    assert f"{win:+.3f} ± {se:.3f} units an hour" in row.verdict_basis


def test_a_blackjack_counter_is_judged_by_the_same_rule() -> None:
    row = vulnerability(get_wager("jackpot-party"), "P1", 6, CounterConditions(shoes=300))
    c = row.counter
    assert c is not None
    rounds_a_shoe = c.rounds / c.shoes
    win = c.won / c.shoes / rounds_a_shoe * 60
    se = c.won_sd / math.sqrt(c.shoes) / rounds_a_shoe * 60
    assert row.win_per_hour == pytest.approx(win) and row.win_per_hour_se == pytest.approx(se)
    assert row.verdict == rule(win, se)


def test_a_gain_exactly_zero_says_why() -> None:
    """No counter acts: the verdict names why, and its basis says the gain is exactly 0."""
    aces = vulnerability(get_wager("aces-up"), "pa-casino", 1)
    pairs = vulnerability(get_wager("perfect-pairs"), "A", 6, CounterConditions(shoes=50))
    assert aces.verdict == "no count carries between rounds"
    assert pairs.verdict == "no card count tracks it"
    for row in (aces, pairs):
        assert row.verdict_basis == "the gain is exactly 0"


def test_the_rule_is_stated_in_every_output() -> None:
    assert "one rule for every game" in VERDICT_RULE and "2 standard errors" in VERDICT_RULE
    detail = run_main(["eor", "golden-8", "--shoes", "10", "--json"])
    doc = json.loads(detail.out)
    assert doc["verdict_rule"] == VERDICT_RULE
    assert doc["vulnerability"]["verdict"] == "no gain shown"
    assert doc["shoes"]["win_per_shoe_se"] > 0
    table = json.loads(run_main(["eor", "golden-8", "aces-up", "--shoes", "10", "--json"]).out)
    assert table["verdict_rule"] == VERDICT_RULE
    assert {r["verdict"] for r in table["wagers"]} == {
        "no gain shown",
        "no count carries between rounds",
    }
    text = run_main(["eor", "golden-8", "--shoes", "10"]).out
    assert "verdict: no gain shown (" in text and "the verdict's rule: one rule" in text
    report = eor_report_html([exact_parsheet(get_wager("aces-up"), "pa-casino", decks=1)])
    assert report is not None
    assert "<th>Verdict</th>" in report and ">no count carries between rounds</td>" in report
    assert "one rule for every game" in report
