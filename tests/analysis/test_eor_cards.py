"""Effects of removal card by card (suits apart), checked against independent counts.

Independent anchors:

* Perfect Pairs (§ 633b.1): the pair counts of a composition in closed form — perfect Σ C(n, 2)
  over the 52 card types, coloured n_a·n_b over the same-colour suit pairs of a rank, mixed over
  the red–black ones — so removing any one card leaves the return exactly as it was;
* Match the Dealer (§ 633b.3): the outcome counts in closed form for an upcard u, with s copies of
  u and o other cards of its rank among the N − 1 left for the player's two: two suited C(s, 2)
  (the aces-of-spades line when u is A♠), suited + non-suited s·o, suited s·z, two non-suited
  C(o, 2), non-suited o·z (z: the other cards);
* one-deck enumeration by card held against each wager's own exact count of the deck less the
  card (Ultimate Pairs by the scalar classifier over all C(51, 2) hands; the Five-Card
  Progressive and Aces Up by their own exact counts);
* for every wager, Σ over the 52 cards of the effects of removal is exactly 0 (a card taken at
  random and dealing from the rest deals the full shoe's cards, in distribution).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from croupier.analysis.eor import CARD_ORDER, balanced_count, effect_of_removal
from croupier.analysis.eor_store import card_counts, counted
from croupier.analysis.exact import exact_counts
from croupier.cards import DECK, Card, Color, Rank, Shoe, Suit, parse_card
from croupier.errors import NoCountError
from croupier.wagers import get_wager
from perfect_pairs_reference import perfect_pairs_return


def test_perfect_pairs_every_card_effect_is_zero_by_hand() -> None:
    eor = effect_of_removal(get_wager("perfect-pairs"), "A", decks=6)
    full = Shoe.standard(6).counts
    pays = (25, 12, 6)  # paytable A, § 633b.1(e)
    assert eor.expected_return == perfect_pairs_return(full, pays)
    for text in ("As", "7h", "Kd"):
        card = parse_card(text)
        less = list(full)
        less[card.index] -= 1
        by_hand = perfect_pairs_return(tuple(less), pays)
        assert by_hand == eor.expected_return  # one card alone does not move it
        assert eor.card_effect(card) == by_hand - eor.expected_return == 0
    assert not eor.suits_matter
    with pytest.raises(NoCountError, match="every card's effect of removal is exactly 0"):
        balanced_count(eor)
    assert Color.RED is Suit.HEARTS.color  # the colours the closed form pairs


def _mtd_counts(comp: tuple[int, ...]) -> tuple[int, ...]:
    n = sum(comp)
    out = [0] * 7
    for up in DECK:
        k = comp[up.index]
        if not k:
            continue
        left = list(comp)
        left[up.index] -= 1
        s = left[up.index]
        o = sum(left[Card(up.rank, x).index] for x in Suit if x is not up.suit)
        z = n - 1 - s - o
        ace_spades = up == Card(Rank.ACE, Suit.SPADES)
        row = [0] * 7
        row[0 if ace_spades else 1] = comb(s, 2)
        row[2] = s * o
        row[3] = s * z
        row[4] = comb(o, 2)
        row[5] = o * z
        row[6] = comb(z, 2)
        for i in range(7):
            out[i] += k * row[i]
    return tuple(out)


def test_match_the_dealer_counts_less_a_card_by_hand() -> None:
    counts, _ = card_counts(get_wager("match-the-dealer"), 6)
    full = Shoe.standard(6).counts
    for text in ("As", "Ah", "7c"):
        card = parse_card(text)
        less = list(full)
        less[card.index] -= 1
        assert counts[card.index] == _mtd_counts(tuple(less)), text


def test_match_the_dealer_suits_matter_only_for_the_ace_of_spades() -> None:
    eor = effect_of_removal(get_wager("match-the-dealer"), "1", 6)
    ace = Card(Rank.ACE, Suit.SPADES)
    others = {c.effect for c in eor.card_effects if c.card != ace}
    assert len(others) == 1 and eor.suits_matter
    assert eor.card_effect(ace) == -51 * others.pop() != 0
    assert sum((c.effect for c in eor.card_effects), Fraction(0)) == 0
    with pytest.raises(NoCountError, match="only the A♠ differs"):
        balanced_count(eor)


def test_one_deck_enumeration_matches_the_scalar_classifier() -> None:
    wager = get_wager("ultimate-pairs")
    counts, method = counted(wager, 1, None)  # counted now, not read from the stored file
    assert "one deck" in method
    lose = len(wager.outcomes)
    for text in ("As", "2c", "Th"):
        card = parse_card(text)
        tally = [0] * (lose + 1)
        for a, b in combinations([c for c in DECK if c != card], 2):
            o = wager.classify([a, b])
            tally[lose if o is None else o.position] += 1
        assert counts[card.index] == tuple(tally)


@pytest.mark.parametrize(
    "wager", ["five-card-progressive", pytest.param("aces-up", marks=pytest.mark.slow)]
)
def test_one_deck_enumeration_matches_the_wagers_own_count(wager: str) -> None:
    w = get_wager(wager)
    counts, _ = counted(w, 1, None)
    card = parse_card("7d")
    assert counts[card.index] == exact_counts(w, Shoe.standard(1).remove([card])).counts


@pytest.mark.parametrize(
    ("wager", "paytable", "decks"),
    [("jackpot-party", "P1", 6), ("axman", "standard", 6), ("five-card-progressive", None, 1)],
)
def test_card_effects_sum_to_zero(wager: str, paytable: str | None, decks: int) -> None:
    w = get_wager(wager)
    eor = effect_of_removal(w, paytable or w.paytables()[0].key, decks)
    assert len(eor.card_effects) == 52
    assert sum((c.effect for c in eor.card_effects), Fraction(0)) == 0


def test_axman_count_tags_the_king_of_diamonds_apart() -> None:
    eor = effect_of_removal(get_wager("axman"), "standard", 6)
    kd = Card(Rank.KING, Suit.DIAMONDS)
    assert eor.suits_matter
    assert eor.card_effect(kd) < 0  # the wild card: the bet is worse without it
    count = balanced_count(eor)
    assert count.suit_aware and len(count.tags) == 52
    assert sum(count.tags) == 0
    assert count.card_tag(kd) < 0 < count.card_tag(Card(Rank.KING, Suit.CLUBS)) + 1
    assert [c.symbol for c in CARD_ORDER[:4]] == ["A♣", "A♦", "A♥", "A♠"]


def test_a_count_whose_suits_agree_is_a_count_of_ranks() -> None:
    # Jackpot Party's suited hands make suits differ a little, not enough to tag them apart
    eor = effect_of_removal(get_wager("jackpot-party"), "P1", 6)
    assert eor.suits_matter
    count = balanced_count(eor)
    assert not count.suit_aware and len(count.tags) == 13 and sum(count.tags) == 0
