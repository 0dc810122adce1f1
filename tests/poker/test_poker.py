"""The poker evaluator on rank counts and suit patterns, against brute force over what the wild
cards could stand for, hand by hand from the definitions of 58 Pa. Code § 633c.12(l)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import DECK, Card, Rank, Suit, parse_cards
from croupier.errors import CardError
from croupier.poker import Category, WildSuit, achievable, highest_pair, read_hand

KD = Card(Rank.KING, Suit.DIAMONDS)


def wild(c: Card) -> bool:
    return c == KD


def natural_categories(cards: Sequence[tuple[int, int]]) -> set[Category]:
    """What natural cards (rank 2–14, suit 0–3) make, straight from the definitions."""
    n = len(cards)
    ranks = Counter(r for r, _ in cards)
    counts = sorted(ranks.values(), reverse=True)
    made = {Category.HIGH_CARD}
    if counts[0] >= 2:
        made.add(Category.PAIR)
    if counts[0] >= 3:
        made.add(Category.THREE_OF_A_KIND)
    if counts[0] >= 4:
        made.add(Category.FOUR_OF_A_KIND)
    if sum(1 for c in counts if c >= 2) >= 2:
        made.add(Category.TWO_PAIR)
    if n == 5:
        if counts[0] == 5:
            made.add(Category.FIVE_OF_A_KIND)
        if counts[:2] == [3, 2]:
            made.add(Category.FULL_HOUSE)
        flush = len({s for _, s in cards}) == 1
        rs = set(ranks)
        straight = len(rs) == 5 and (max(rs) - min(rs) == 4 or rs == {14, 2, 3, 4, 5})
        if flush:
            made.add(Category.FLUSH)
        if straight:
            made.add(Category.STRAIGHT)
        if straight and flush:
            made.add(Category.STRAIGHT_FLUSH)
    return made


def brute_force(cards: Sequence[Card], any_suit: bool) -> tuple[set[Category], int | None]:
    """Every assignment of rank (and, if ``any_suit``, suit) to the wild cards."""
    naturals = [(int(c.rank), c.suit.value) for c in cards if not wild(c)]
    wilds = [c for c in cards if wild(c)]
    made: set[Category] = set()
    best_pair: int | None = None
    options = [
        [(r, s) for r in range(2, 15) for s in (range(4) if any_suit else [w.suit.value])]
        for w in wilds
    ]
    for assignment in product(*options):
        hand = naturals + list(assignment)
        made |= natural_categories(hand)
        ranks = Counter(r for r, _ in hand)
        pairs = [r for r, k in ranks.items() if k >= 2]
        if pairs and (best_pair is None or max(pairs) > best_pair):
            best_pair = max(pairs)
    return made, best_pair


# mostly high cards (straights, pairs), the wild king of diamonds often, at most two of it
HANDS = st.lists(
    st.sampled_from([*DECK[24:], *DECK[:4], KD, KD, KD]), min_size=2, max_size=5
).filter(lambda cards: cards.count(KD) <= 2)


@settings(max_examples=400, deadline=None)
@given(HANDS, st.booleans())
def test_the_count_evaluator_agrees_with_brute_force(cards: list[Card], any_suit: bool) -> None:
    reading = read_hand(cards, wild, WildSuit.ANY_SUIT if any_suit else WildSuit.KEEPS_SUIT)
    made, best = brute_force(cards, any_suit)
    assert set(reading.categories) == made, cards
    assert (int(reading.highest_pair) if reading.highest_pair else None) == best, cards


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("As 2d 3c 4h 5s", Category.STRAIGHT),  # ace low
        ("Th Jd Qc Kh As", Category.STRAIGHT),  # ace high
        ("Ah 2h 3h 4h 5h", Category.STRAIGHT_FLUSH),  # ace-low straight flush
        ("Ah 3c 4s 5d Kd", Category.STRAIGHT),  # K♦ wild as the deuce: A-2-3-4-5
        ("Ah 2c 3s 4d Kd", Category.STRAIGHT),  # K♦ as the 5
        ("7s 7s 7s 7s Kd", Category.FIVE_OF_A_KIND),
        ("9c 9c 9c 9c 9c", Category.FIVE_OF_A_KIND),  # five identical cards from a 6-deck shoe
        ("Qh Qh 9s 9s 9s", Category.FULL_HOUSE),
        ("2d 5d 9d Jd Kd", Category.FLUSH),  # K♦ keeps its suit: a diamond flush
    ],
)
def test_pinned_hands(hand: str, category: Category) -> None:
    assert category in read_hand(parse_cards(hand), wild).categories


@pytest.mark.parametrize(
    "hand",
    [
        "Qs Ks As 2s 3s",  # no wrap-around
        "Js Qs Ks As 2d",
        "As 2d 3c 4h 6s",
    ],
)
def test_no_wrap_around_straights(hand: str) -> None:
    assert Category.STRAIGHT not in read_hand(parse_cards(hand)).categories


def test_the_wild_card_keeps_its_suit_unless_read_otherwise() -> None:
    hand = parse_cards("2s 5s 9s Js Kd")
    assert Category.FLUSH not in read_hand(hand, wild).categories
    assert Category.FLUSH in read_hand(hand, wild, WildSuit.ANY_SUIT).categories


def test_fewer_than_five_cards_make_no_five_card_hand() -> None:
    made = read_hand(parse_cards("7s 7s 7s 7s"), wild).categories
    assert Category.FOUR_OF_A_KIND in made
    assert Category.FIVE_OF_A_KIND not in made and Category.FULL_HOUSE not in made
    assert Category.FLUSH not in read_hand(parse_cards("2s 5s 9s Js"), wild).categories
    assert highest_pair((0,) * 13, 2) is Rank.ACE  # two wild cards pair as aces
    assert highest_pair((0,) * 13, 1) is None


def test_more_than_five_cards_is_an_error() -> None:
    with pytest.raises(CardError, match="at most five"):
        read_hand(parse_cards("2s 3s 4s 5s 6s 7s"))
    with pytest.raises(CardError):
        achievable((6,) + (0,) * 12, 0, False)
