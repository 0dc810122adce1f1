"""AxMan (58 Pa. Code § 633c.12): reading the dealer's hand, settling, and the exact analysis.

The exact analysis (dealer recursion over ranks with the king of diamonds apart, suits counted by
falling factorials, the player's pair by Bayes' rule) is checked against a second method that
shares none of that: the dealer recursion over all 52 cards, every final hand read by the scalar
reader (which enumerates the choices of the five highest), the player's pair counted directly —
exactly, on small shoes built to make every AxMan hand. The whole-round simulation (three seats
playing basic strategy before the dealer draws) must agree within 4 standard errors.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.axman import axman_given
from croupier.cards import DECK, Card, Rank, Shoe, Suit, parse_card, parse_cards
from croupier.errors import CardError, RulesError, ShoeError
from croupier.games.blackjack import (
    BY_CARD,
    BlackjackRules,
    SoftSeventeen,
    dealer_final_hands,
    falling,
    final_hand_weights,
)
from croupier.poker import WildSuit
from croupier.wagers import get_wager
from croupier.wagers._axman_exact import hand_distribution, round_counts
from croupier.wagers.axman import (
    DEFAULT_READING,
    KING_OF_DIAMONDS,
    AxMan,
    AxManHand,
    AxManHitsSoft17,
    AxManOutcome,
    AxManReading,
    WildInFiveHighest,
    axman_for,
    five_highest,
    outcome_position,
    read_dealer_hand,
)

H = AxManHand
ANY_SUIT = AxManReading(wild_suit=WildSuit.ANY_SUIT)

# --------------------------------------------------------------------------- reading the hand


@pytest.mark.parametrize(
    ("dealer", "hand"),
    [
        ("Qs Qh", H.JACKS_OR_BETTER),
        ("Ts Th", None),  # a pair below jacks loses (§ 633c.12(i))
        ("As Kd", H.JACKS_OR_BETTER),  # Blackjack: K♦ wild pairs the ace
        ("Kd Kd", H.JACKS_OR_BETTER),  # two wild cards: a pair of aces
        ("Kd 7c", None),  # K♦ with a 7: a pair of sevens at best
        ("7s 7h 7c", H.THREE_OF_A_KIND),
        ("Kd 7c 7s", H.THREE_OF_A_KIND),
        ("Qs 5h Kd", H.JACKS_OR_BETTER),  # the bust card counts: K♦ pairs the queen
        ("5s 5h 5c 5d", H.FOUR_OF_A_KIND),  # four cards: no five-card hand (§ 633c.12(g))
        ("4s 4h 4c 4d Ad", H.FOUR_OF_A_KIND),
        ("2s 2h 3s 3h 9c", H.TWO_PAIR),
        ("3s 3h 3c 2d 2c Kd", H.FOUR_OF_A_KIND),  # six cards, K♦ among the five highest: 3333 2
        ("Ah 3c 4s 5d Kd", H.STRAIGHT),  # K♦ as the deuce: A-2-3-4-5 (ace low)
        ("Ah 2c 3s 4d 5c 2h", H.STRAIGHT),  # six cards, five highest A-5-4-3-2
        ("5s 4s 3s 2h 2s As", H.STRAIGHT_FLUSH),  # the 2♠ taken at the cut: A-2-3-4-5 of spades
        ("5s 4s 3s 2h 2c As", H.STRAIGHT),
        ("2h 4h 6h 3h Kd", H.STRAIGHT),  # K♦ as the 5: 2-3-4-5-6, not a flush (K♦ is a diamond)
        ("2d 4d 6d 3d Kd", H.STRAIGHT_FLUSH),
        ("2h 2h 3h 3h Ah", H.FLUSH),  # multi-deck: a flush holding two pair
        ("2s 2s 2s 2s 2s 7c", H.FOUR_OF_A_KIND),  # the five highest are 7 2 2 2 2: not five 2s
        ("3s 3s 3s 3s 3s 2c", H.FIVE_OF_A_KIND),  # the 3s are the five highest
    ],
)
def test_reading_the_dealers_hand(dealer: str, hand: AxManHand | None) -> None:
    assert read_dealer_hand(parse_cards(dealer)) is hand


def test_the_wild_card_takes_any_suit_only_under_that_reading() -> None:
    cards = parse_cards("2h 4h 6h 3h Kd")
    assert read_dealer_hand(cards) is H.STRAIGHT
    assert read_dealer_hand(cards, ANY_SUIT) is H.STRAIGHT_FLUSH


def test_five_highest_chooses_at_the_cut() -> None:
    picks = five_highest(parse_cards("5s 4s 3s 2h 2s As"))
    assert len(picks) == 2  # which deuce is read
    kept = AxManReading(WildInFiveHighest.ALWAYS_KEPT)
    cards = parse_cards("As As As As As Kd 2c")
    assert KING_OF_DIAMONDS not in five_highest(cards)[0]  # five aces outrank the king
    assert KING_OF_DIAMONDS in five_highest(cards, kept)[0]
    assert read_dealer_hand(cards) is read_dealer_hand(cards, kept) is H.FIVE_OF_A_KIND


def test_outcomes_name_their_line_and_multiplier() -> None:
    o = AxManOutcome.of(H.FLUSH, 2)
    assert o is AxManOutcome.FLUSH_TWO_KD
    assert (o.line_key, o.multiplier_condition, o.kings_of_diamonds) == (
        "flush",
        "two-kings-of-diamonds",
        2,
    )
    assert AxManOutcome.FLUSH.multiplier_condition is None
    assert [outcome_position(h, k) for h in (H.STRAIGHT_FLUSH,) for k in (2, 1, 0)] == [0, 1, 2]
    assert outcome_position(None, 1) == 27


# --------------------------------------------------------------------------- settling


@pytest.mark.parametrize(
    ("cards", "win_cents", "factor"),
    [
        ("9c 8c  Qh Qs", 2500, 1),  # jacks or better, 5 to 1 on $5
        ("Kd 9c  Qh Qs", 5000, 2),  # one K♦ in the player's two cards: ×2
        ("Kd Kd  Qh Qs", 12500, 5),  # two: ×5
        ("Kd Kd  Th 9s", -500, 1),  # a losing hand is not multiplied
        ("2c 3c  7s 7h 7c", 10000, 1),  # three of a kind, 20 to 1
    ],
)
def test_settlement_with_the_kings_of_diamonds(cards: str, win_cents: int, factor: int) -> None:
    ax = AxMan()
    s = ax.settle(parse_cards(cards), ax.paytable("standard", 6), 500, decks=6)
    assert s.win_cents == win_cents
    assert s.factor == factor
    if factor > 1:
        assert f"×{factor}" in s.describe()


def test_axman_is_offered_only_with_six_or_eight_decks() -> None:
    ax = AxMan()
    for decks in (1, 2, 4):
        with pytest.raises(RulesError, match=r"633c\.12\(a\)"):
            ax.paytable("standard", decks)
        with pytest.raises(RulesError, match=r"633c\.12\(a\)"):
            ax.settle(parse_cards("9c 8c Qh Qs"), ax.paytable("standard", 6), 500, decks=decks)
    with pytest.raises(RulesError, match=r"633c\.12\(a\)"):
        exact_parsheet(ax, "standard", decks=2)


def test_the_dealers_hand_must_be_finished_by_the_rule() -> None:
    ax, h17 = AxMan(), AxManHitsSoft17()
    with pytest.raises(RulesError, match=r"633a\.7"):
        ax.evaluate(parse_cards("9c 8c Qh 6s"))  # 16 must draw
    with pytest.raises(RulesError, match=r"633a\.7"):
        ax.evaluate(parse_cards("9c 8c As 6s 4d"))  # soft 17 stands under S17
    assert h17.evaluate(parse_cards("9c 8c As 6s 4d")) is None  # … and draws under H17
    with pytest.raises(CardError):
        ax.evaluate(parse_cards("9c 8c Qh"))
    with pytest.raises(ShoeError):  # seven 2♠ from six decks
        ax.evaluate(parse_cards("2s 2s  2s 2s 2s 2s 2s 7s"), decks=6)
    assert axman_for(BlackjackRules(8, SoftSeventeen.HITS)).id == "axman-h17"


# --------------------------------------------------------------------------- exact: second method

SHOES = {
    "spades-and-wilds": "2s 2s 3s 3s 4s 5s As As Kd Kd 7h 9c Qs Js Ts 6d 2h 3h",
    "low-cards": "As Ad 2s 2s 2h 3s 3d 4s 4c 5s 5h Kd Kd Kd 6s 7s 8s Th",
}


def brute_force_counts(shoe: Shoe, hits_soft_17: bool, reading: AxManReading) -> tuple[int, ...]:
    """Every final hand of the 52-card dealer recursion, read by :func:`read_dealer_hand`; the
    player's pair counted from what is left; hands padded to the longest as in the convention."""
    weights = final_hand_weights(BY_CARD.counts(shoe), BY_CARD.values, (0,) * 52, hits_soft_17)
    n = shoe.total
    longest = max(sum(d) for d in weights)
    kd = KING_OF_DIAMONDS.index
    tallies = [0] * 28
    for drawn, w in weights.items():
        cards = [DECK[i] for i, k in enumerate(drawn) for _ in range(k)]
        hand = read_dealer_hand(cards, reading)
        left = n - len(cards)
        kd_left = shoe.counts[kd] - drawn[kd]
        others = left - kd_left
        pad = falling(left - 2, longest - len(cards))
        for m, pairs in enumerate((comb(others, 2), kd_left * others, comb(kd_left, 2))):
            tallies[outcome_position(hand, m)] += w * pairs * pad
    return tuple(tallies)


@pytest.mark.parametrize(
    ("name", "hits_soft_17", "reading"),
    [
        ("spades-and-wilds", False, DEFAULT_READING),
        ("spades-and-wilds", True, ANY_SUIT),
        ("low-cards", False, ANY_SUIT),
        ("low-cards", True, DEFAULT_READING),
    ],
)
def test_exact_counts_equal_a_card_by_card_enumeration(
    name: str, hits_soft_17: bool, reading: AxManReading
) -> None:
    shoe = Shoe.from_cards(parse_cards(SHOES[name]))
    exact = round_counts(shoe, hits_soft_17, reading)
    assert exact.counts == brute_force_counts(shoe, hits_soft_17, reading)
    # the shoe really makes (nearly) every hand, with and without kings of diamonds
    assert sum(1 for c in exact.counts[:27] if c) >= 23


def test_the_player_pair_by_bayes_rule_equals_conditioning_on_every_pair() -> None:
    shoe = Shoe.from_cards(parse_cards("2s 2s 3s 4s 5s As Kd Kd 7h 9c Qs Ts 2h"))
    counts = round_counts(shoe, False, DEFAULT_READING)
    joint = {i: Fraction(c, counts.total) for i, c in enumerate(counts.counts)}
    cards = shoe.cards()
    direct: dict[int, Fraction] = {}
    pairs = comb(len(cards), 2)
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            player = (cards[i], cards[j])
            kd = sum(1 for c in player if c == KING_OF_DIAMONDS)
            for hand, p in hand_distribution(shoe.remove(player), False, DEFAULT_READING).items():
                k = outcome_position(hand, kd)
                direct[k] = direct.get(k, Fraction(0)) + p / pairs
    assert {k: v for k, v in joint.items() if v} == {k: v for k, v in direct.items() if v}


def test_given_the_upcard_equals_the_card_by_card_distribution() -> None:
    shoe = Shoe.from_cards(parse_cards(SHOES["spades-and-wilds"]))
    player = parse_cards("Kd 9c")
    up = parse_card("4s")
    given = axman_given(player, BlackjackRules(6), upcard=up, shoe=shoe)
    assert given.factor == 2
    rest = shoe.remove(player)
    dist = dealer_final_hands(BlackjackRules(6), rest, up, types=BY_CARD)
    expected: dict[AxManHand | None, Fraction] = {}
    for drawn in dist.weights:
        hand = [up] + [DECK[i] for i, k in enumerate(drawn) for _ in range(k)]
        h = read_dealer_hand(hand)
        expected[h] = expected.get(h, Fraction(0)) + dist.probability(drawn)
    assert {h: p for h, p in given.hands.items() if p} == {h: p for h, p in expected.items() if p}
    # net wins doubled by the player's king of diamonds: jacks or better 5 to 1 → +10
    assert given.nets[H.JACKS_OR_BETTER] == 10


def test_the_five_highest_reading_of_the_wild_card_never_matters_for_a_dealer_hand() -> None:
    # the king of diamonds is left out of the five highest only behind five aces — five of a
    # kind either way — so both readings give the same counts
    kept = AxManReading(WildInFiveHighest.ALWAYS_KEPT)
    shoe = Shoe.standard(2)
    assert round_counts(shoe, True, DEFAULT_READING).counts == round_counts(shoe, True, kept).counts


def test_par_sheet_totals_and_convention() -> None:
    sheet = exact_parsheet(get_wager("axman"), "standard", decks=6)
    n = 312
    longest = round_counts(Shoe.standard(6), False, DEFAULT_READING).longest_dealer_hand
    assert sheet.total == comb(n, 2) * falling(n - 2, longest)
    assert len(sheet.rows) == 28
    assert "longest dealer hand" in sheet.convention
    # the multiplied rows pay the printed odds times the factor
    rows = {r.outcome: r for r in sheet.rows}
    assert rows["straight-flush-two-kd"].net == 5000
    assert rows["jacks-or-better-one-kd"].net == 10
    # P(player holds two K♦) ≥ P(two K♦ and any winning hand)
    two = Fraction(comb(6, 2), comb(n, 2))
    assert sum(r.probability for r in sheet.rows if r.outcome.endswith("-two-kd")) < two


def test_the_simulation_of_whole_rounds_agrees() -> None:
    wager = get_wager("axman")
    exact = exact_parsheet(wager, "standard", decks=6)
    sim = simulate(wager, "standard", 60_000, 4, decks=6)
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error
    assert "whole rounds" in sim.convention


@pytest.mark.slow
@pytest.mark.parametrize("wager_id", ["axman", "axman-h17"])
@pytest.mark.parametrize("decks", [6, 8])
def test_whole_round_simulations_agree_within_4_standard_errors(wager_id: str, decks: int) -> None:
    wager = get_wager(wager_id)
    exact = exact_parsheet(wager, "standard", decks=decks)
    sim = simulate(wager, "standard", 2_000_000, 100 + decks, decks=decks)
    assert sim.standard_error is not None
    z = float(sim.expected_return - exact.expected_return) / sim.standard_error
    assert abs(z) <= 4, z
    for e, s in zip(exact.rows, sim.rows, strict=True):  # each line within 5 binomial SE
        p = float(e.probability)
        sd = (2_000_000 * p * (1 - p)) ** 0.5
        assert abs((s.hits or 0) - 2_000_000 * p) <= 5 * sd + 1, e.outcome


@pytest.mark.slow
def test_one_deck_exact_counts_equal_the_card_by_card_enumeration() -> None:
    shoe = Shoe.standard(1).remove([Card(r, Suit.CLUBS) for r in Rank if r >= Rank.SIX])
    for reading in (DEFAULT_READING, ANY_SUIT):
        assert round_counts(shoe, True, reading).counts == brute_force_counts(shoe, True, reading)


def test_the_alternative_completion_reading_is_simulated_not_counted() -> None:
    from croupier.errors import CroupierError
    from croupier.games.blackjack import DealerCompletion
    from croupier.wagers.axman import simulate_axman

    alt = AxMan(dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS)
    with pytest.raises(CroupierError, match="always completes"):
        exact_parsheet(alt, "standard", decks=6)
    counts = simulate_axman(alt, Shoe.standard(6), 20_000, 3, seats=1)
    assert sum(counts) == 20_000
