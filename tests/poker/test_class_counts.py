"""Counting hands by rank multiset and suit (croupier.poker.class_counts) against published hand
distributions and, on uneven partial decks, against every hand read by the scalar evaluators."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest

from croupier.cards import DECK, Card
from croupier.errors import ShoeError
from croupier.poker.class_counts import Kind, category_counts, pair_counts
from croupier.poker.five_card import best_five
from croupier.poker.four_card import FourCardCategory, best_four

FULL = (1,) * 52


def test_five_card_hands_of_one_deck() -> None:
    """The 2,598,960 five-card hands by category (Wikipedia, "Poker probability"), high card
    first."""
    assert category_counts(FULL, 5, "five") == (
        1_302_540,
        1_098_240,
        123_552,
        54_912,
        10_200,
        5_108,
        3_744,
        624,
        36,
        4,
    )


def test_best_five_of_six_cards() -> None:
    """The 20,358,520 six-card sets by their best five (the Six Card Bonus distribution the
    Wizard of Odds prints, "Six Card Bonus" in Four Card Poker), high card first."""
    assert category_counts(FULL, 6, "five") == (
        6_612_900,
        9_730_740,
        2_532_816,
        732_160,
        361_620,
        205_792,
        165_984,
        14_664,
        1_656,
        188,
    )
    assert sum(category_counts(FULL, 6, "five")) == comb(52, 6)


def test_best_four_of_five_cards() -> None:
    """Four Card Poker's best four of the player's five (the Aces Up distribution the Wizard of
    Odds prints): four-of-a-kind 624, straight flush 2,072, three-of-a-kind 58,656, flush
    114,616, straight 101,808, two pair 123,552, a pair of aces 81,096."""
    counts = category_counts(FULL, 5, "four")
    f = FourCardCategory
    assert [counts[c.strength] for c in (f.FOUR_OF_A_KIND, f.STRAIGHT_FLUSH)] == [624, 2_072]
    assert [counts[c.strength] for c in (f.THREE_OF_A_KIND, f.FLUSH)] == [58_656, 114_616]
    assert [counts[c.strength] for c in (f.STRAIGHT, f.TWO_PAIR)] == [101_808, 123_552]
    assert pair_counts(FULL, 5, "four")[12] == 81_096
    assert sum(counts) == comb(52, 5)


def _brute(cards: list[Card], k: int, kind: Kind) -> tuple[list[int], list[int]]:
    size = 10 if kind == "five" else 8
    out, pairs = [0] * size, [0] * 13
    for hand in combinations(cards, k):
        if kind == "five":
            out[best_five(hand).category.strength] += 1
        else:
            best = best_four(hand)
            out[best.category.strength] += 1
            if best.category is FourCardCategory.PAIR:
                pairs[best.tiebreak[0].index] += 1
    return out, pairs


@pytest.mark.parametrize(
    ("keep", "k", "kind"),
    [
        # seven hearts with four of them suited to a royal, and a few other cards: flushes in one
        # suit only, so the suits are not alike
        ({"Th", "Jh", "Qh", "Kh", "Ah", "9h", "2h", "Ts", "Ac", "Ad", "9c", "3d"}, 6, "five"),
        ({"Th", "Jh", "Qh", "Kh", "Ah", "9h", "2h", "Ts", "Ac", "Ad", "9c", "3d"}, 5, "five"),
        # two suits rich enough for a four-card flush, pairs of aces among them
        ({"Ah", "2h", "3h", "4h", "9h", "As", "Ks", "Qs", "Js", "Ac", "2d", "3c"}, 5, "four"),
        ({"Ah", "2h", "3h", "4h", "9h", "As", "Ks", "Qs", "Js", "Ac", "2d", "3c"}, 6, "four"),
    ],
)
def test_partial_deck_against_every_hand(keep: set[str], k: int, kind: Kind) -> None:
    cards = [c for c in DECK if str(c) in keep]
    assert len(cards) == len(keep)
    composition = tuple(1 if str(c) in keep else 0 for c in DECK)
    by_category, by_pair = _brute(cards, k, kind)
    assert list(category_counts(composition, k, kind)) == by_category
    if kind == "four":
        assert list(pair_counts(composition, k, kind)) == by_pair


def test_more_than_one_deck_is_refused() -> None:
    with pytest.raises(ShoeError, match="one deck"):
        category_counts((2,) * 52, 5, "five")
    with pytest.raises(ShoeError, match="4 to 7"):
        category_counts(FULL, 8, "five")
