"""The Blackjack strategy engine (croupier.analysis.blackjack_strategy): published figures, a
second method for the dealer and the player's plays, and the published basic-strategy chart."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.analysis.blackjack_strategy import (
    ACE,
    LABELS,
    TEN,
    Action,
    PlayRules,
    basic_strategy_chart,
    dealer_results,
    game_value,
    hand_values,
)
from croupier.cards import Card, Rank, Shoe, Suit
from croupier.errors import RulesError
from croupier.games.blackjack import (
    BY_VALUE,
    BlackjackRules,
    DealerResult,
    dealer_final_hands,
    dealer_results_by_upcard,
)

# Wizard of Odds' blackjack house edge calculator
# (https://wizardofodds.com/games/blackjack/calculator/), as tabulated for a fresh shoe (no cut
# card) by H. Hoppe's blackjack notebook (github.com/hhoppe/blackjack, "House edge results",
# analyze_number_of_decks(Rules(hit_soft17=False, cut_card=0)), ndecks=6, "wiz: 0.334%"):
# 6 decks, dealer stands on soft 17, double on any two, double after split, split to 4 hands,
# aces split once (one card each), late surrender, peek, Blackjack 3 to 2.
WIZARD_6D_S17_DAS_LS = 0.00334
# The same calculator for 6 decks, S17, DAS, one split only (no re-split), no surrender, 3 to 2
# (Wizard of Odds' review of Play'n GO's standard Blackjack,
# https://wizardofodds.com/online-gambling/playn-go/, 0.460%; Hoppe's notebook: "wiz: 0.460%").
WIZARD_6D_S17_DAS_NORESPLIT = 0.00460

RULES_LS = PlayRules.of(6, hits_soft_17=False, das=True, split_hands=4, late_surrender=True)


def test_reproduces_the_wizard_of_odds_house_edge_6_decks_s17_das_ls() -> None:
    edge = game_value(RULES_LS).house_edge
    assert edge == pytest.approx(WIZARD_6D_S17_DAS_LS, abs=0.0001)


def test_reproduces_the_wizard_of_odds_house_edge_without_resplits_or_surrender() -> None:
    rules = PlayRules.of(6, split_hands=2, late_surrender=False)
    edge = game_value(rules).house_edge
    assert edge == pytest.approx(WIZARD_6D_S17_DAS_NORESPLIT, abs=0.0001)


@pytest.mark.slow
def test_reproduces_the_wizard_of_odds_house_edge_h17() -> None:
    # Hoppe's notebook, analyze_number_of_decks(Rules(cut_card=0)), ndecks=6: "wiz: 0.531%"
    # (H17, DAS, split to 4, late surrender); ndecks=8: "wiz: 0.555%".
    h17 = PlayRules.of(6, hits_soft_17=True, late_surrender=True)
    assert game_value(h17).house_edge == pytest.approx(0.00531, abs=0.0001)
    h17_8 = PlayRules.of(8, hits_soft_17=True, late_surrender=True)
    assert game_value(h17_8).house_edge == pytest.approx(0.00555, abs=0.0001)


# The basic-strategy chart of Wikipedia's Blackjack article ("Basic strategy": four to eight
# decks, dealer stands on soft 17, double after split, late surrender), columns 2 … 10, A.
# S stand, H hit, D double, P split, R surrender (SU in the article; "Ds"/"Dh" are D).
WIKIPEDIA_CHART = {
    "hard 17": "SSSSSSSSSS",
    "hard 16": "SSSSSHHRRR",
    "hard 15": "SSSSSHHHRH",
    "hard 14": "SSSSSHHHHH",
    "hard 13": "SSSSSHHHHH",
    "hard 12": "HHSSSHHHHH",
    "hard 11": "DDDDDDDDDH",
    "hard 10": "DDDDDDDDHH",
    "hard 9": "HDDDDHHHHH",
    "hard 8": "HHHHHHHHHH",
    "hard 5": "HHHHHHHHHH",
    "soft 20": "SSSSSSSSSS",
    "soft 19": "SSSSSSSSSS",
    "soft 18": "SDDDDSSHHH",
    "soft 17": "HDDDDHHHHH",
    "soft 16": "HHDDDHHHHH",
    "soft 15": "HHDDDHHHHH",
    "soft 14": "HHHDDHHHHH",
    "soft 13": "HHHDDHHHHH",
    "A,A": "PPPPPPPPPP",
    "T,T": "SSSSSSSSSS",
    "9,9": "PPPPPSPPSS",
    "8,8": "PPPPPPPPPP",
    "7,7": "PPPPPPHHHH",
    "6,6": "PPPPPHHHHH",
    "5,5": "DDDDDDDDHH",
    "4,4": "HHHPPHHHHH",
    "3,3": "PPPPPPHHHH",
    "2,2": "PPPPPPHHHH",
}


def test_basic_strategy_chart_is_the_published_one() -> None:
    rows = {r.label: r for r in basic_strategy_chart(RULES_LS)}
    ups = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
    for label, expected in WIKIPEDIA_CHART.items():
        got = "".join(rows[label].actions[u].letter for u in ups)
        assert got == expected, label


def test_dealer_results_agree_with_the_exact_fraction_engine() -> None:
    # A second method: croupier.games.blackjack's exact integer recursion, after the peek.
    rules = BlackjackRules(decks=2)
    table = dealer_results_by_upcard(rules, peeked=True)
    full = BY_VALUE.counts(rules.shoe())
    order = [DealerResult.SEVENTEEN, DealerResult.EIGHTEEN, DealerResult.NINETEEN]
    order += [DealerResult.TWENTY, DealerResult.TWENTY_ONE, DealerResult.BUST]
    for u in range(10):
        counts = list(full)
        counts[u] -= 1
        p, p_bj = dealer_results(counts, u, False)
        exact = table[LABELS[u]]
        for i, result in enumerate(order):
            assert p[i] == pytest.approx(float(exact[result]), abs=1e-12)
        if u == ACE:
            assert p_bj == pytest.approx(32 / 103)  # 32 tens among the 103 cards left


def _card(rank: Rank) -> Card:
    return Card(rank, Suit.CLUBS)


def _stand_ev_exact(
    rules: BlackjackRules, upcard: Card, removed: list[Card], total: int
) -> Fraction:
    dist = dealer_final_hands(rules, upcard=upcard, removed=removed, types=BY_VALUE)
    ev = Fraction(0)
    for result, p in dist.results().items():
        if result is DealerResult.BUST:
            ev += p
        elif result is DealerResult.BLACKJACK:
            ev -= p
        else:
            d = int(result.value)
            ev += p if total > d else -p if total < d else 0
    return ev


def test_double_is_twice_one_card_then_stand_by_exact_enumeration() -> None:
    # One deck, 5-6 against a 6 (no peek question): the double's EV by a second method — every
    # third card with its exact chance and the exact dealer distribution of what is left.
    rules = BlackjackRules(decks=1)
    five, six = _card(Rank.FIVE), _card(Rank.SIX)
    up = Card(Rank.SIX, Suit.HEARTS)
    shoe = Shoe.standard(1).remove([five, six, up])
    ev = Fraction(0)
    for rank in Rank:
        left = sum(1 for c in shoe.cards() if c.rank is rank)
        if not left:
            continue
        card = next(c for c in shoe.cards() if c.rank is rank)
        value = 1 if rank is Rank.ACE else min(int(rank), 10)
        total = 11 + (11 if value == 1 else value)
        total = total if total <= 21 else 11 + value
        ev += Fraction(left, shoe.total) * _stand_ev_exact(rules, up, [five, six, card], total)
    hv = hand_values(PlayRules.of(1), 5, 4, 5)
    assert hv.double == pytest.approx(2 * float(ev), abs=1e-12)
    assert hv.action is Action.DOUBLE
    # standing on 11 loses unless the dealer busts
    assert hv.stand == pytest.approx(float(_stand_ev_exact(rules, up, [five, six], 11)), abs=1e-12)


def test_blackjack_value_and_dealer_blackjack_takes_the_original_wager() -> None:
    hv = hand_values(PlayRules.of(6), ACE, ACE, TEN)
    assert hv.blackjack
    q = 95 / 309  # tens left of the 309 cards after A (up), A and T
    assert hv.p_dealer_blackjack == pytest.approx(q)
    assert hv.value(Fraction(3, 2), 0) == pytest.approx(1.5 * (1 - q))
    assert hv.value(Fraction(3, 2), Fraction(1, 2)) == pytest.approx(1.5 * (1 - q) + 0.5 * q)
    hard16 = hand_values(PlayRules.of(6), TEN, TEN, 5)
    q16 = 24 / 309  # the 24 aces among the 309 cards left under a ten
    assert hard16.value() == pytest.approx(-q16 + (1 - q16) * hard16.best)
    assert hard16.surrender is None
    assert hand_values(RULES_LS, TEN, TEN, 5).action is Action.SURRENDER


def test_this_engine_refuses_rules_without_the_peek() -> None:
    # the rules themselves are valid (croupier.analysis.blackjack_exact values them)
    rules = PlayRules(BlackjackRules(6, peek=False))
    with pytest.raises(RulesError, match=r"633a\.7"):
        game_value(rules)
