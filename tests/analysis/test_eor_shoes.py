"""The whole-shoe Blackjack counter (croupier.analysis.eor_shoes).

Independent anchors: betting every round, the observed return of Perfect Pairs over dealt shoes
agrees with its exact return (hand combinatorics, tests/analysis/test_eor_cards.py) within 4 standard
errors; an unbalanced count of +1 a card makes the true count before a round equal to the cards
seen ÷ the decks unseen, which the shoes must show round after round.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.eor import BalancedCount, balanced_count, effect_of_removal
from croupier.analysis.eor_shoes import (
    _deal_chunk,
    _Rounds,
    pair_payoff,
    pair_return,
    perfect_play,
    play_shoes,
    table_rules,
)
from croupier.analysis.parsheet import exact_parsheet
from croupier.errors import InputError
from croupier.wagers import get_wager
from croupier.wagers.at_table import CardSource
from perfect_pairs_reference import perfect_pairs_return

HI_LO = BalancedCount((-1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1), 1, 0.0, 0.0, None)


def test_betting_every_round_returns_the_exact_figure() -> None:
    pp = get_wager("perfect-pairs")
    sheet = exact_parsheet(pp, "A", decks=6)
    got = play_shoes(pp, "A", 6, HI_LO, sheet.expected_return, trigger=-10_000, shoes=3_000)
    assert got.bets == got.rounds > 3_000 * 15
    assert got.flat_return is not None
    assert got.flat_return == pytest.approx(got.edge_when_betting)
    se = sheet.standard_deviation / math.sqrt(got.rounds)
    assert abs(float(sheet.expected_return) - got.flat_return) < 4 * se
    assert got.overflow == 0 and 20 < got.rounds_per_shoe < 24  # 3 seats, 234 of 312 cards


def test_true_count_is_the_count_seen_over_the_decks_unseen() -> None:
    ones = BalancedCount((1,) * 13, 1, 0.0, 0.0, None)  # counts the cards seen
    out = _Rounds([], [], [], [])
    rules = table_rules(get_wager("perfect-pairs"), 2)
    _deal_chunk(
        np.random.default_rng(5),
        50,
        rules,
        2,
        78,
        ones.tags_by_index(),
        [CardSource.PLAYER],
        out,
        0,
    )
    shoe = np.concatenate(out.shoe)
    tc = np.concatenate(out.true_count)
    for s in range(50):
        seq = tc[shoe == s]
        assert seq[0] == 0  # nothing seen before the first round (the burn card is hidden)
        seen = seq * 104 / (52 + seq)  # tc = seen / ((104 − seen) / 52)
        assert np.all(np.diff(seen) >= 4)  # every round deals at least the 2 × 2 + 2 cards
        assert np.allclose(seen, np.round(seen)) and seen[-1] < 78


def test_axman_counter_is_seeded_and_settled_by_the_scalar_classifier() -> None:
    w = get_wager("axman-h17")
    eor = effect_of_removal(w, "standard", 6)
    count = balanced_count(eor)
    a = play_shoes(w, "standard", 6, count, eor.expected_return, shoes=400, seed=9)
    b = play_shoes(w, "standard", 6, count, eor.expected_return, shoes=400, seed=9)
    assert a == b and a.flat_return is None and a.bets > 0
    assert "dealer hits soft 17" in a.conditions()
    assert a.linear_edge_when_betting is not None and a.linear_edge_when_betting > 0


def test_what_it_cannot_deal_is_refused() -> None:
    with pytest.raises(InputError, match="Blackjack side wagers"):
        play_shoes(get_wager("fortune-7"), "A", 8, HI_LO, Fraction(0), trigger=1)
    with pytest.raises(InputError, match="penetration"):
        play_shoes(
            get_wager("perfect-pairs"),
            "A",
            6,
            HI_LO,
            Fraction(0),
            trigger=1,
            penetration=Fraction(1),
        )
    with pytest.raises(InputError, match="does not turn"):
        play_shoes(get_wager("perfect-pairs"), "A", 6, HI_LO, Fraction(0))


def test_pair_return_is_the_closed_form_of_any_composition() -> None:
    pp = get_wager("perfect-pairs")
    nets = np.array([float(r.net) for r in exact_parsheet(pp, "A", decks=6).rows])
    payoff = pair_payoff(pp, nets)
    assert payoff is not None
    rng = np.random.default_rng(7)
    comps = rng.integers(0, 7, size=(5, 52))
    got = pair_return(comps, payoff)
    for comp, value in zip(comps, got, strict=True):
        assert value == pytest.approx(
            float(perfect_pairs_return(tuple(int(c) for c in comp), (25, 12, 6)))
        )


def test_perfect_information_starts_from_the_full_shoe() -> None:
    pp = get_wager("perfect-pairs")
    nets = np.array([float(r.net) for r in exact_parsheet(pp, "A", decks=2).rows])
    payoff = pair_payoff(pp, nets)
    assert payoff is not None
    out = _Rounds([], [], [], [])
    rules = table_rules(pp, 2)
    zero = np.zeros(52, dtype=np.int64)
    _deal_chunk(
        np.random.default_rng(2), 30, rules, 3, 78, zero, [CardSource.PLAYER], out, 0, payoff
    )
    shoe, exact = np.concatenate(out.shoe), np.concatenate(out.exact)
    full = float(exact_parsheet(pp, "A", decks=2).expected_return)
    for s in range(30):
        assert exact[shoe == s][0] == pytest.approx(full)
    assert len(set(np.round(exact, 12))) > 30  # the return moves as cards are seen
    bound = perfect_play(pp, "A", 6, shoes=500)
    assert bound is not None and bound.bets <= bound.rounds
    assert bound.edge_when_betting is None or bound.edge_when_betting > 0


def test_three_card_return_is_the_exact_count_of_any_composition() -> None:
    from croupier.cards import Shoe

    mtd = get_wager("match-the-dealer")
    nets = np.array([float(r.net) for r in exact_parsheet(mtd, "1", decks=6).rows])
    payoff = pair_payoff(mtd, nets)
    assert payoff is not None and payoff.shape == (52, 52, 52)
    rng = np.random.default_rng(3)
    comp = rng.integers(0, 3, size=52)
    comp[rng.integers(0, 52, 5)] += 4  # lumpy, as the end of a shoe can be
    exact = exact_parsheet(mtd, "1", decks=6, shoe=Shoe(tuple(int(c) for c in comp)))
    assert pair_return(comp[None, :], payoff)[0] == pytest.approx(float(exact.expected_return))
