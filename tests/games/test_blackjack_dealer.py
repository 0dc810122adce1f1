"""The Blackjack dealer engine: totals, the drawing rule, and the exact final-hand distribution.

The distribution is checked against published dealer-outcome tables — Wizard of Odds' Blackjack
Appendix 2B (before the peek) and Appendix 2 (after it), 1 and 2 decks, dealer stands on soft 17,
and blackjackinfo.com's 1-deck "dealer hits soft 17" chart — and against an independent
infinite-deck computation (a recursion over totals with ranks drawn at 1/13 each), itself checked
against Alan Krigman's published infinite-deck table.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from croupier.cards import Card, Rank, Shoe, Suit, parse_card, parse_cards
from croupier.errors import CardError, PaytableError, RulesError, ShoeError
from croupier.games.blackjack import (
    BY_CARD,
    BY_RANK,
    BY_VALUE,
    BlackjackRules,
    DealerCompletion,
    DealerResult,
    HandTotal,
    SoftSeventeen,
    check_dealer_hand,
    dealer_final_hands,
    dealer_results_by_upcard,
    falling,
    final_hand_weights,
    hand_total,
    is_blackjack,
    play_dealer,
    simulate_rounds,
)

S17 = BlackjackRules(decks=1)
H17 = BlackjackRules(decks=1, soft_17=SoftSeventeen.HITS)
R = DealerResult
COLUMNS = (R.SEVENTEEN, R.EIGHTEEN, R.NINETEEN, R.TWENTY, R.TWENTY_ONE, R.BLACKJACK, R.BUST)
PEEKED = (R.SEVENTEEN, R.EIGHTEEN, R.NINETEEN, R.TWENTY, R.TWENTY_ONE, R.BUST)

# --------------------------------------------------------------------------- totals and rules


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        ("Ah 6c", 17, True),
        ("Ah 6c 9d", 16, False),
        ("As Ad", 12, True),
        ("As Ad 9c", 21, True),
        ("Ks Qd", 20, False),
        ("Ks Qd 5c", 25, False),
        ("5c 6d Ah", 12, False),
        ("2c 3d 4h 5s 6c", 20, False),
    ],
)
def test_hand_totals(cards: str, total: int, soft: bool) -> None:
    assert hand_total(parse_cards(cards)) == HandTotal(total, soft)


def test_blackjack_is_an_ace_and_a_ten_valued_card_as_two_cards() -> None:
    assert is_blackjack(parse_cards("As Jd"))
    assert is_blackjack(parse_cards("Tc Ah"))
    assert not is_blackjack(parse_cards("As 5d 5c"))  # 21 in three cards
    assert not is_blackjack(parse_cards("9s Ah"))


@pytest.mark.parametrize(
    ("cards", "s17", "h17"),
    [
        ("Ah 6c", False, True),  # soft 17
        ("Ah 5c Ad", False, True),  # soft 17 in three cards
        ("Th 7c", False, False),  # hard 17
        ("Th 6c", True, True),
        ("Ah 7c", False, False),  # soft 18
        ("Ah 6c Tc", True, True),  # hard 17? no: A+6+10 = 17 hard → stands
    ],
)
def test_the_drawing_rule(cards: str, s17: bool, h17: bool) -> None:
    hand = parse_cards(cards)
    t = hand_total(hand)
    expect_s17 = t.total < 17
    expect_h17 = t.total < 17 or (t.total == 17 and t.soft)
    assert S17.dealer_draws(hand) is expect_s17
    assert H17.dealer_draws(hand) is expect_h17
    if cards != "Ah 6c Tc":
        assert (expect_s17, expect_h17) == (s17, h17)


def test_play_dealer_stops_where_the_rule_says() -> None:
    cards = parse_cards("Ah 6c 4d 9s")
    assert play_dealer(cards, S17) == cards[:2]  # soft 17 stands
    assert play_dealer(cards, H17) == cards[:3]  # soft 17 hits: 21
    with pytest.raises(ShoeError, match="must draw"):
        play_dealer(parse_cards("5c 6d"), S17)


def test_check_dealer_hand_cites_the_dealing_procedure() -> None:
    check_dealer_hand(parse_cards("Qs 5h Kd"), S17)  # 15 draws, busts
    with pytest.raises(RulesError, match=r"stands on 20 .* draws no 2c.*633a\.7"):
        check_dealer_hand(parse_cards("Ks Qd 2c"), S17)
    with pytest.raises(RulesError, match=r"must draw.*633a\.7"):
        check_dealer_hand(parse_cards("Ks 6d"), S17)
    with pytest.raises(RulesError, match="soft 17"):
        check_dealer_hand(parse_cards("Ah 6c"), H17)
    with pytest.raises(CardError):
        check_dealer_hand(parse_cards("Ks"), S17)
    # the alternative reading: a dealer with no live hand to beat turns the hole card and stops
    stops = BlackjackRules(6, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS)
    check_dealer_hand(parse_cards("Ks 6d"), stops)
    with pytest.raises(RulesError):
        check_dealer_hand(parse_cards("Ks 6d"), stops, live_hands=True)


def test_rules_are_validated() -> None:
    with pytest.raises(ShoeError):
        BlackjackRules(decks=0)
    with pytest.raises(PaytableError):
        BlackjackRules(decks=6, blackjack_pays=Fraction(0))
    assert BlackjackRules().describe() == "6 decks, dealer stands on soft 17"
    assert BlackjackRules().blackjack_pays == Fraction(3, 2)


def test_falling_factorial() -> None:
    assert falling(52, 2) == 52 * 51
    assert falling(3, 4) == 0
    assert falling(7, 0) == 1


# --------------------------------------------------------------------------- published tables

# Wizard of Odds, "Blackjack Appendix 2B: Dealer Probabilities" (wizardofodds.com/games/blackjack/
# appendix/2b/), "1 Deck - Dealer Stands on Soft 17", the dealer not yet having peeked:
# columns 17, 18, 19, 20, 21, BJ, bust; the "All" row averages the upcards.
WOO_2B_1D_S17 = {
    "A": (0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.313726, 0.11654),
    "2": (0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0, 0.352973),
    "3": (0.130313, 0.130946, 0.123761, 0.123345, 0.116047, 0, 0.375588),
    "4": (0.130973, 0.114163, 0.120679, 0.116286, 0.115096, 0, 0.402803),
    "5": (0.119687, 0.123483, 0.116909, 0.104694, 0.106321, 0, 0.428905),
    "6": (0.166948, 0.106454, 0.107192, 0.100705, 0.0978785, 0, 0.420823),
    "7": (0.372345, 0.138583, 0.0773344, 0.0788967, 0.072987, 0, 0.259854),
    "8": (0.130857, 0.362989, 0.129445, 0.0682898, 0.0697914, 0, 0.238627),
    "9": (0.121886, 0.103921, 0.357391, 0.12225, 0.0611088, 0, 0.233442),
    "T": (0.114418, 0.112879, 0.114662, 0.328879, 0.0364661, 0.0784314, 0.214264),
}
WOO_2B_1D_S17_ALL = (0.14583, 0.138063, 0.13482, 0.175806, 0.0736296, 0.0482655, 0.283585)

# Wizard of Odds, "Blackjack Appendix 2: Dealer Probabilities" (wizardofodds.com/blackjack/
# appendix2.html), the dealer having checked for and not had Blackjack; columns 17–21, bust.
WOO_2_1D_S17_PEEKED = {
    "A": (0.183786, 0.19089, 0.18868, 0.191692, 0.075137, 0.169815),
    "T": (0.124156, 0.122486, 0.124421, 0.356869, 0.03957, 0.232499),
}
WOO_2_2D_S17_PEEKED = {
    "A": (0.186367, 0.189883, 0.188851, 0.190272, 0.076531, 0.168096),
    "2": (0.139367, 0.133348, 0.130744, 0.123997, 0.119254, 0.353291),
    "3": (0.132764, 0.130676, 0.124575, 0.121811, 0.11538, 0.374794),
    "4": (0.130704, 0.120208, 0.121038, 0.116366, 0.113145, 0.39854),
    "5": (0.121005, 0.122831, 0.117318, 0.109022, 0.10732, 0.422505),
    "6": (0.166224, 0.10617, 0.106749, 0.101217, 0.097508, 0.422132),
    "7": (0.370478, 0.138195, 0.078013, 0.078781, 0.07339, 0.261143),
    "8": (0.129697, 0.361182, 0.129025, 0.068857, 0.06961, 0.24163),
    "9": (0.12094, 0.112016, 0.354051, 0.121118, 0.060977, 0.230898),
    "T": (0.122412, 0.1216, 0.122524, 0.36387, 0.038449, 0.231144),
}
# the same page's 2-deck table before the peek (Appendix 2B), ace row
WOO_2B_2D_S17_ACE = (0.128467, 0.13089, 0.130179, 0.131159, 0.0527542, 0.31068, 0.115872)

# blackjackinfo.com, "Blackjack Dealer Outcome Probabilities", "Single Deck: Dealer hits soft 17",
# in percent: rows other than BJ after the peek; columns upcards 2–9, Ten, Ace.
BJINFO_1D_H17 = {
    R.BUST: (35.63, 37.81, 40.58, 43.00, 43.78, 25.99, 23.86, 23.34, 23.25, 20.46),
    R.SEVENTEEN: (12.98, 12.35, 12.28, 11.67, 11.61, 37.23, 13.09, 12.19, 12.42, 8.18),
    R.EIGHTEEN: (13.31, 13.19, 11.54, 12.38, 11.38, 13.86, 36.30, 10.39, 12.25, 20.54),
    R.NINETEEN: (13.32, 12.50, 12.19, 11.74, 11.61, 7.73, 12.94, 35.74, 12.44, 20.62),
    R.TWENTY: (12.56, 12.42, 11.78, 10.52, 10.96, 7.89, 6.83, 12.23, 35.69, 20.95),
    R.TWENTY_ONE: (12.20, 11.73, 11.63, 10.69, 10.67, 7.30, 6.98, 6.11, 3.96, 9.26),
}
BJINFO_UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")

# published to 6 decimals (7 significant digits in places): the exact value is within half a
# unit of the last digit, plus a hair for the source's own rounding (2 decks, 2-up 19: printed
# 0.130744, exact 0.13074349…)
SIX_DECIMALS = 6e-7


def test_woo_appendix_2b_one_deck_stands_soft_17() -> None:
    table = dealer_results_by_upcard(S17)
    for up, published in WOO_2B_1D_S17.items():
        for col, value in zip(COLUMNS, published, strict=True):
            assert abs(float(table[up][col]) - value) <= SIX_DECIMALS, (up, col)


def test_woo_appendix_2b_all_row_is_the_average_over_upcards() -> None:
    table = dealer_results_by_upcard(S17)
    for col, value in zip(COLUMNS, WOO_2B_1D_S17_ALL, strict=True):
        avg = sum(table[up][col] * (4 if up == "T" else 1) for up in table) / 13
        assert abs(float(avg) - value) <= SIX_DECIMALS, col


def test_woo_appendix_2_after_the_peek() -> None:
    one = dealer_results_by_upcard(S17, peeked=True)
    for up, published in WOO_2_1D_S17_PEEKED.items():
        for col, value in zip(PEEKED, published, strict=True):
            assert abs(float(one[up][col]) - value) <= SIX_DECIMALS, (up, col)
    two = dealer_results_by_upcard(BlackjackRules(decks=2), peeked=True)
    for up, published in WOO_2_2D_S17_PEEKED.items():
        for col, value in zip(PEEKED, published, strict=True):
            assert abs(float(two[up][col]) - value) <= SIX_DECIMALS, (up, col)
        assert two[up][R.BLACKJACK] == 0
    before = dealer_results_by_upcard(BlackjackRules(decks=2))
    for col, value in zip(COLUMNS, WOO_2B_2D_S17_ACE, strict=True):
        assert abs(float(before["A"][col]) - value) <= SIX_DECIMALS, col


def test_blackjackinfo_one_deck_hits_soft_17() -> None:
    table = dealer_results_by_upcard(H17, peeked=True)
    for col, row in BJINFO_1D_H17.items():
        for up, value in zip(BJINFO_UPCARDS, row, strict=True):
            # two decimals of a percent; one cell (3-up, 19) is printed 12.50, exactly 12.4949…
            assert abs(100 * float(table[up][col]) - value) <= 0.0051, (up, col)
    before = dealer_results_by_upcard(H17)
    assert before["T"][R.BLACKJACK] == Fraction(4, 51)  # an ace among the 51 left: 7.84%
    assert before["A"][R.BLACKJACK] == Fraction(16, 51)  # 31.37%


def test_every_row_sums_to_one_for_one_and_eight_decks() -> None:
    for decks in (1, 8):
        for rules in (BlackjackRules(decks), BlackjackRules(decks, SoftSeventeen.HITS)):
            for up, results in dealer_results_by_upcard(rules).items():
                assert sum(results.values()) == 1, (decks, up)


# --------------------------------------------------------------------------- infinite deck


@cache
def _infinite(total: int, soft: bool, cards: int, h17: bool) -> dict[DealerResult, Fraction]:
    """Dealer results from a hand of ``total`` (``soft``: an ace counted 11) and ``cards`` cards,
    every further card an ace … nine with probability 1/13 and a 10-valued card 4/13."""
    if total > 21:
        return {R.BUST: Fraction(1)}
    if total >= 17 and not (h17 and total == 17 and soft):
        if total == 21 and cards == 2:
            return {R.BLACKJACK: Fraction(1)}
        return {DealerResult(str(total)): Fraction(1)}
    out: dict[DealerResult, Fraction] = {}
    for value in range(1, 11):
        p = Fraction(4 if value == 10 else 1, 13)
        t, s = total + value, soft
        if value == 1 and t + 10 <= 21:
            t, s = t + 10, True
        if t > 21 and s:
            t, s = t - 10, False
        for r, q in _infinite(t, s, cards + 1, h17).items():
            out[r] = out.get(r, Fraction(0)) + p * q
    return out


def _infinite_upcard(up: int, h17: bool) -> dict[DealerResult, Fraction]:
    return _infinite(11 if up == 1 else up, up == 1, 1, h17)


# Alan Krigman, "How Well Can You Predict Dealers' Final Totals from their Upcards?", Casino City
# Times, 25 October 2006: infinite shoe, percent; upcards 7, 8, 9, 10, A; rows 17–21, BJ, bust.
KRIGMAN = {
    7: (36.86, 13.78, 7.86, 7.86, 7.41, 0, 26.23),
    8: (12.86, 35.93, 12.86, 6.94, 6.94, 0, 24.47),
    9: (12.00, 12.00, 35.08, 12.00, 6.08, 0, 22.84),
    10: (11.14, 11.14, 11.14, 34.22, 3.45, 7.69, 21.22),
    1: (13.08, 13.08, 13.08, 13.08, 5.39, 30.77, 11.52),
}


def test_the_independent_infinite_deck_recursion_matches_krigman() -> None:
    for up, row in KRIGMAN.items():
        inf = _infinite_upcard(up, h17=False)
        assert sum(inf.values()) == 1
        for col, value in zip(COLUMNS, row, strict=True):
            # two decimals of a percent, each column made to add up to 100.00: the 10-up bust is
            # printed 21.22 for 21.2109…, so within one unit of the last digit
            assert abs(100 * float(inf.get(col, 0)) - value) <= 0.01, (up, col)


@pytest.mark.parametrize("h17", [False, True])
def test_a_thousand_deck_shoe_approaches_the_infinite_deck(h17: bool) -> None:
    rules = BlackjackRules(decks=1000, soft_17=SoftSeventeen.HITS if h17 else SoftSeventeen.STANDS)
    table = dealer_results_by_upcard(rules)
    for up, label in enumerate(BY_VALUE.labels, start=1):
        inf = _infinite_upcard(up, h17)
        for col in COLUMNS:
            assert abs(float(table[label][col] - inf.get(col, 0))) < 2e-4, (label, col)


# --------------------------------------------------------------------------- final hands


def test_final_hands_are_card_multisets_with_the_bust_card() -> None:
    ten = parse_card("Ts")
    d = dealer_final_hands(S17, upcard=ten, types=BY_RANK)
    hands = {h.cards: h for h in d.hands()}
    # T then a 10-valued hole card: 15 of the 51 cards left, in four ranks (T: 3 left, J/Q/K: 4)
    assert hands["T", "T"].probability == Fraction(3, 51)
    assert hands["T", "K"].probability == Fraction(4, 51)
    # T, 6, then a king busts: 4/51 · 4/50
    assert hands["T", "6", "K"].probability == Fraction(4 * 4, 51 * 50)
    assert hands["T", "6", "K"].result is R.BUST
    assert sum(h.probability for h in d.hands()) == 1


def test_the_three_granularities_agree() -> None:
    shoe = Shoe.standard(1).remove(parse_cards("2c 2d 2h 2s 3c 3d 3h 3s 4c"))
    up = parse_card("9h")
    by_card = dealer_final_hands(S17, shoe, up, types=BY_CARD)
    by_rank = dealer_final_hands(S17, shoe, up, types=BY_RANK)
    by_value = dealer_final_hands(S17, shoe, up, types=BY_VALUE)
    assert by_card.results() == by_rank.results() == by_value.results()
    # the card-level hands add up to the rank-level ones
    totals: dict[tuple[str, ...], Fraction] = {}
    for h in by_card.hands():
        ranks = tuple(sorted(c[0] for c in h.cards[1:]))
        totals[ranks] = totals.get(ranks, Fraction(0)) + h.probability
    for h in by_rank.hands():
        assert totals[tuple(sorted(h.cards[1:]))] == h.probability


def test_removed_cards_change_the_distribution_exactly() -> None:
    # one deck, upcard 6: the final hand {6, 5, K} is 6-5 then a king (21) or 6-K then a 5 (21):
    # 4/51 · 16/50 + 16/51 · 4/50 (the 16 10-valued cards include the king's rank only 4 times,
    # so count the king: 4/51 · 4/50 + 4/51 · 4/50)
    up = parse_card("6c")
    full = {
        h.cards: h.probability for h in dealer_final_hands(S17, upcard=up, types=BY_RANK).hands()
    }
    assert full["6", "5", "K"] == Fraction(4 * 4, 51 * 50) * 2
    # with the 5♥ and 5♦ seen elsewhere (a player's cards), 2 fives of 49 cards are left
    seen = parse_cards("5h 5d")
    fewer = dealer_final_hands(S17, upcard=up, removed=seen, types=BY_RANK)
    less = {h.cards: h.probability for h in fewer.hands()}
    assert less["6", "5", "K"] == Fraction(2 * 4, 49 * 48) * 2
    assert sum(less.values()) == 1


def test_final_hand_weights_count_ordered_physical_sequences() -> None:
    # a shoe of two 9s and one 8: from an empty hand the dealer draws 9-9 (18) in 2 ordered ways,
    # 9-8 / 8-9 (17) in 2 + 2
    counts = (2, 1)
    weights = final_hand_weights(counts, (9, 8), (0, 0), False)
    assert weights == {(2, 0): 2, (1, 1): 4}
    with pytest.raises(ShoeError, match="run out"):
        final_hand_weights((1, 1), (2, 3), (0, 0), False)


def test_the_dealer_recursion_is_memoised() -> None:
    final_hand_weights.cache_clear()
    dealer_results_by_upcard(BlackjackRules(6))
    hits = final_hand_weights.cache_info().hits
    dealer_results_by_upcard(BlackjackRules(6))
    assert final_hand_weights.cache_info().hits == hits + 10


# --------------------------------------------------------------------------- simulated rounds


def test_simulated_rounds_follow_the_rules_and_the_exact_distribution() -> None:
    rules = BlackjackRules(6)
    rng = np.random.Generator(np.random.PCG64(3))
    dealt = simulate_rounds(rules.shoe(), rules, 40_000, rng, seats=3)
    assert dealt.players.shape == (40_000, 3, 2)
    counts = dict.fromkeys(DealerResult, 0)
    deck = [Card(r, s) for r in Rank for s in Suit]
    for row, n in zip(
        dealt.dealer.tolist()[:4000], dealt.dealer_cards.tolist()[:4000], strict=True
    ):
        hand = [deck[c] for c in row[:n]]
        check_dealer_hand(hand, rules)  # every simulated hand follows the drawing rule
    for row, n in zip(dealt.dealer.tolist(), dealt.dealer_cards.tolist(), strict=True):
        hand = [deck[c] for c in row[:n]]
        counts[DealerResult.of(hand_total(hand), n)] += 1
    exact = dealer_final_hands(rules, types=BY_VALUE).results()
    for r, p in exact.items():
        sd = (40_000 * float(p) * (1 - float(p))) ** 0.5
        assert abs(counts[r] - 40_000 * float(p)) <= 4 * sd + 1, r


def test_without_live_hands_the_dealer_may_stop() -> None:
    rules = BlackjackRules(6, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS)
    rng = np.random.Generator(np.random.PCG64(5))
    from croupier.games.blackjack import PlayerStrategy

    dealt = simulate_rounds(rules.shoe(), rules, 5_000, rng, strategy=PlayerStrategy.MIMIC_DEALER)
    deck = [Card(r, s) for r in Rank for s in Suit]
    short = [
        [deck[c] for c in row[:n]]
        for row, n in zip(dealt.dealer.tolist(), dealt.dealer_cards.tolist(), strict=True)
        if n == 2 and rules.dealer_draws([deck[c] for c in row[:2]])
    ]
    assert short  # a player who busts leaves the dealer nothing to draw for
    for hand in short:
        check_dealer_hand(hand, rules)
