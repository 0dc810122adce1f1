"""Cards and shoes (:mod:`croupier.cards`): notation, formatting, ordering, indices, errors, and
shoe compositions (full, partly dealt, invalid).

Expected values are written out by hand (card notation, index layout ``rank * 4 + suit`` with ranks
2..A as 0..12 and suits clubs, diamonds, hearts, spades as 0..3, and deck totals 52·N).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import (
    DECK,
    Card,
    Color,
    Rank,
    Shoe,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from croupier.errors import CardError, CroupierError, ShoeError

R, S = Rank, Suit
ACE_SPADES = Card(R.ACE, S.SPADES)

cards_strategy = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))
card_lists = st.lists(cards_strategy, min_size=1, max_size=12)


# --------------------------------------------------------------------------- parsing one card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Ah", R.ACE, S.HEARTS),
        ("Td", R.TEN, S.DIAMONDS),
        ("10d", R.TEN, S.DIAMONDS),
        ("K♦", R.KING, S.DIAMONDS),
        ("2♣", R.TWO, S.CLUBS),
        ("Q♠", R.QUEEN, S.SPADES),
        ("J♥", R.JACK, S.HEARTS),
        # the white suit symbols
        ("A♤", R.ACE, S.SPADES),
        ("3♡", R.THREE, S.HEARTS),
        ("4♢", R.FOUR, S.DIAMONDS),
        ("5♧", R.FIVE, S.CLUBS),
        ("10♤", R.TEN, S.SPADES),
        # any case, rank and suit
        ("ah", R.ACE, S.HEARTS),
        ("AH", R.ACE, S.HEARTS),
        ("aH", R.ACE, S.HEARTS),
        ("tD", R.TEN, S.DIAMONDS),
        ("qs", R.QUEEN, S.SPADES),
        ("KC", R.KING, S.CLUBS),
        ("10S", R.TEN, S.SPADES),
        ("jc", R.JACK, S.CLUBS),
        ("9s", R.NINE, S.SPADES),
        ("6c", R.SIX, S.CLUBS),
        ("7d", R.SEVEN, S.DIAMONDS),
        ("8h", R.EIGHT, S.HEARTS),
        # surrounding white space
        ("  Ah ", R.ACE, S.HEARTS),
    ],
)
def test_parse_card(text: str, rank: Rank, suit: Suit) -> None:
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ah Kd", [Card(R.ACE, S.HEARTS), Card(R.KING, S.DIAMONDS)]),
        ("AhKd", [Card(R.ACE, S.HEARTS), Card(R.KING, S.DIAMONDS)]),
        ("Ah,Kd", [Card(R.ACE, S.HEARTS), Card(R.KING, S.DIAMONDS)]),
        ("Ah, Kd ,Qs", [Card(R.ACE, S.HEARTS), Card(R.KING, S.DIAMONDS), Card(R.QUEEN, S.SPADES)]),
        ("As\tKs\nQs", [ACE_SPADES, Card(R.KING, S.SPADES), Card(R.QUEEN, S.SPADES)]),
        ("10h10d", [Card(R.TEN, S.HEARTS), Card(R.TEN, S.DIAMONDS)]),
        ("A♠K♠", [ACE_SPADES, Card(R.KING, S.SPADES)]),
        ("AhKd Qs", [Card(R.ACE, S.HEARTS), Card(R.KING, S.DIAMONDS), Card(R.QUEEN, S.SPADES)]),
        ("ahkd", [Card(R.ACE, S.HEARTS), Card(R.KING, S.DIAMONDS)]),
        ("As As", [ACE_SPADES, ACE_SPADES]),
        ("Ah 10d K♦", [Card(R.ACE, S.HEARTS), Card(R.TEN, S.DIAMONDS), Card(R.KING, S.DIAMONDS)]),
        (
            "2♧,3♢,4♡,5♤",
            [
                Card(R.TWO, S.CLUBS),
                Card(R.THREE, S.DIAMONDS),
                Card(R.FOUR, S.HEARTS),
                Card(R.FIVE, S.SPADES),
            ],
        ),
    ],
)
def test_parse_cards(text: str, expected: list[Card]) -> None:
    assert parse_cards(text) == tuple(expected)


def test_parse_cards_from_a_list_of_tokens() -> None:
    assert parse_cards(["Ah", " 10d", "K♦"]) == (
        Card(R.ACE, S.HEARTS),
        Card(R.TEN, S.DIAMONDS),
        Card(R.KING, S.DIAMONDS),
    )


# --------------------------------------------------------------------------- parse errors


@pytest.mark.parametrize(
    ("text", "token", "what"),
    [
        ("1h", "1h", "rank"),
        ("Xh", "Xh", "rank"),
        ("0s", "0s", "rank"),
        ("11h", "11h", "rank"),
        ("hA", "hA", "rank"),
        ("Ax", "Ax", "suit"),
        ("Ae", "Ae", "suit"),
        ("10z", "10z", "suit"),
        ("A♠♠", "A♠♠", "suit"),
        ("A", "A", "no suit"),
        ("10", "10", "no suit"),
        ("K", "K", "no suit"),
        ("AhKd", "AhKd", ""),  # two cards are not one card
    ],
)
def test_parse_card_errors_name_the_token(text: str, token: str, what: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    err = info.value
    assert err.token == token
    assert f"'{token}'" in str(err)
    assert what in str(err)
    assert isinstance(err, ValueError)
    assert isinstance(err, CroupierError)


@pytest.mark.parametrize("text", ["", "   "])
def test_parse_card_empty(text: str) -> None:
    with pytest.raises(CardError, match="empty") as info:
        parse_card(text)
    assert info.value.token == text


@pytest.mark.parametrize(
    ("text", "token", "what"),
    [
        ("Ah Kx", "Kx", "suit"),
        ("Ah,1h", "1h", "rank"),
        ("Qs, Jh, Z9", "Z9", "rank"),
        ("AhXd", "AhXd", "suit"),
        ("Ah Q", "Q", "no suit"),
        ("AhKdx", "AhKdx", ""),
        ("1Ah", "1Ah", "rank"),
    ],
)
def test_parse_cards_errors_name_the_first_bad_token(text: str, token: str, what: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.token == token
    assert f"'{token}'" in str(info.value)
    assert what in str(info.value)


@pytest.mark.parametrize("text", ["", "   ", " , ,"])
def test_parse_cards_empty_is_an_error(text: str) -> None:
    with pytest.raises(CardError):
        parse_cards(text)


def test_parse_cards_list_errors() -> None:
    with pytest.raises(CardError) as info:
        parse_cards(["Ah", "Q"])
    assert info.value.token == "Q"
    with pytest.raises(CardError):
        parse_cards([])
    with pytest.raises(CardError):
        parse_cards(["Ah", ""])


# --------------------------------------------------------------------------- formatting


def test_formatting_examples() -> None:
    ten_diamonds = Card(R.TEN, S.DIAMONDS)
    assert str(ten_diamonds) == "Td"
    assert ten_diamonds.symbol == "T♦"
    assert repr(ten_diamonds) == "Card('Td')"
    assert str(ACE_SPADES) == "As"
    assert ACE_SPADES.symbol == "A♠"
    assert str(Card(R.TWO, S.CLUBS)) == "2c"
    hand = [Card(R.ACE, S.HEARTS), ten_diamonds]
    assert format_cards(hand) == "Ah Td"
    assert format_cards(hand, symbols=True) == "A♥ T♦"


@given(cards_strategy)
def test_card_round_trip(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(card.symbol) == card
    assert parse_card(str(card).lower()) == card
    assert parse_card(str(card).upper()) == card
    assert parse_card(str(card).replace("T", "10")) == card


@given(card_lists)
def test_card_list_round_trip(cards: list[Card]) -> None:
    expected = tuple(cards)
    assert parse_cards(format_cards(cards)) == expected
    assert parse_cards(format_cards(cards, symbols=True)) == expected
    assert parse_cards("".join(str(c) for c in cards)) == expected
    assert parse_cards("".join(c.symbol for c in cards)) == expected
    assert parse_cards(", ".join(str(c) for c in cards)) == expected
    assert parse_cards([str(c) for c in cards]) == expected


# --------------------------------------------------------------------------- identity and order


def test_duplicates_are_equal_and_hash_equal() -> None:
    a, b, c = parse_card("As"), parse_card("A♠"), Card(R.ACE, S.SPADES)
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    counted = Counter(parse_cards("As As Ks"))
    assert counted[ACE_SPADES] == 2
    assert counted[Card(R.KING, S.SPADES)] == 1


def test_ordering_rank_then_suit() -> None:
    # rank first: a deuce of spades is below a three of clubs
    assert Card(R.TWO, S.SPADES) < Card(R.THREE, S.CLUBS)
    # then suit, clubs < diamonds < hearts < spades
    assert Card(R.ACE, S.CLUBS) < Card(R.ACE, S.DIAMONDS) < Card(R.ACE, S.HEARTS) < ACE_SPADES
    assert sorted(parse_cards("As 2c Kd Kc")) == list(parse_cards("2c Kc Kd As"))
    assert max(parse_cards("Ts Jc 9s")) == Card(R.JACK, S.CLUBS)


@given(cards_strategy, cards_strategy)
def test_ordering_matches_rank_suit_and_index(a: Card, b: Card) -> None:
    key_a, key_b = (a.rank.value, a.suit.value), (b.rank.value, b.suit.value)
    assert (a < b) == (key_a < key_b)
    assert (a == b) == (key_a == key_b)
    assert (a < b) == (a.index < b.index)


def test_colors() -> None:
    assert Card(R.TWO, S.HEARTS).color is Color.RED
    assert Card(R.TWO, S.DIAMONDS).color is Color.RED
    assert Card(R.TWO, S.CLUBS).color is Color.BLACK
    assert Card(R.TWO, S.SPADES).color is Color.BLACK


# --------------------------------------------------------------------------- indices


@pytest.mark.parametrize(
    ("text", "index"),
    [("2c", 0), ("2d", 1), ("2h", 2), ("2s", 3), ("3c", 4), ("Tc", 32), ("Kh", 46), ("As", 51)],
)
def test_card_index(text: str, index: int) -> None:
    card = parse_card(text)
    assert card.index == index
    assert Card.from_index(index) == card


def test_index_is_a_bijection() -> None:
    every = [Card(r, s) for r in Rank for s in Suit]
    assert len(set(every)) == 52
    assert sorted(c.index for c in every) == list(range(52))
    for i in range(52):
        assert Card.from_index(i).index == i
    for c in every:
        assert Card.from_index(c.index) == c
    assert [c.index for c in DECK] == list(range(52))


@pytest.mark.parametrize("index", [-1, 52, 1000])
def test_from_index_out_of_range(index: int) -> None:
    with pytest.raises(CardError) as info:
        Card.from_index(index)
    assert info.value.token == str(index)
    assert str(index) in str(info.value)


# --------------------------------------------------------------------------- shoes


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_standard_shoe(decks: int) -> None:
    shoe = Shoe.standard(decks)
    assert shoe.total == 52 * decks
    assert shoe.decks == decks
    assert all(shoe.count(Card(r, s)) == decks for r in Rank for s in Suit)
    assert len(shoe.cards()) == 52 * decks
    assert str(shoe) == f"{decks}-deck shoe"


@pytest.mark.parametrize("decks", [0, -1, 2.0, "6"])
def test_standard_shoe_invalid(decks: object) -> None:
    with pytest.raises(ShoeError):
        Shoe.standard(decks)  # type: ignore[arg-type]


def test_remove_more_copies_than_held() -> None:
    shoe = Shoe.standard(1)
    before = shoe.counts
    with pytest.raises(ShoeError) as info:
        shoe.remove(parse_cards("Kd As As"))
    assert "As" in str(info.value)
    assert shoe.counts == before
    assert shoe.count(ACE_SPADES) == 1
    assert shoe == Shoe.standard(1)

    six = Shoe.standard(6)
    assert six.remove([ACE_SPADES] * 6).count(ACE_SPADES) == 0
    with pytest.raises(ShoeError, match="As"):
        six.remove([ACE_SPADES] * 7)
    assert six.count(ACE_SPADES) == 6
    assert six == Shoe.standard(6)


def test_remove_returns_a_new_shoe() -> None:
    shoe = Shoe.standard(6)
    dealt = shoe.remove(parse_cards("As As Kh"))
    assert dealt.total == 312 - 3
    assert dealt.count(ACE_SPADES) == 4
    assert dealt.count(Card(R.KING, S.HEARTS)) == 5
    assert dealt.decks is None
    assert str(dealt) == "shoe of 309 cards"
    assert shoe.total == 312
    assert shoe.remove([]) == shoe


def test_partly_dealt_compositions_agree() -> None:
    dealt = parse_cards("As As Ah Kd 2c 2c 2d")
    by_remove = Shoe.standard(2).remove(dealt)
    # the same composition written out by hand: two of everything, minus what was dealt
    by_hand: dict[Card | str, int] = {Card(r, s): 2 for r in Rank for s in Suit}
    for text, dealt_copies in {"As": 2, "Ah": 1, "Kd": 1, "2c": 2, "2d": 1}.items():
        by_hand[parse_card(text)] = 2 - dealt_copies
    assert Shoe.from_counts(by_hand) == by_remove
    full = Shoe.standard(2).cards()
    remaining = list(full)
    for c in dealt:
        remaining.remove(c)
    assert Shoe.from_cards(remaining) == by_remove
    assert by_remove.total == 104 - 7
    assert by_remove.count(ACE_SPADES) == 0
    assert by_remove.count(Card(R.TWO, S.DIAMONDS)) == 1
    assert Shoe.from_cards(by_remove.cards()) == by_remove


def test_from_counts_and_from_cards() -> None:
    shoe = Shoe.from_counts({"As": 3, "Kd": 1, Card(R.TWO, S.CLUBS): 2})
    assert shoe.total == 6
    assert shoe.count(ACE_SPADES) == 3
    assert shoe.count(Card(R.KING, S.DIAMONDS)) == 1
    assert shoe.count(Card(R.TWO, S.CLUBS)) == 2
    assert shoe.count(Card(R.TWO, S.DIAMONDS)) == 0
    assert shoe.decks is None
    assert shoe == Shoe.from_cards(parse_cards("2c As Kd As 2c As"))
    assert shoe.cards() == parse_cards("2c 2c Kd As As As")
    # one full deck written as counts is a one-deck shoe
    assert Shoe.from_counts({c: 1 for c in DECK}) == Shoe.standard(1)
    assert Shoe.from_counts({c: 1 for c in DECK}).decks == 1


@given(st.integers(min_value=1, max_value=8), st.lists(cards_strategy, max_size=20))
def test_remove_counts(decks: int, cards: list[Card]) -> None:
    shoe = Shoe.standard(decks)
    copies = Counter(cards)
    if max(copies.values(), default=0) > decks:
        with pytest.raises(ShoeError):
            shoe.remove(cards)
        return
    dealt = shoe.remove(cards)
    assert dealt.total == 52 * decks - len(cards)
    for c in DECK:
        assert dealt.count(c) == decks - copies[c]


@given(st.integers(min_value=1, max_value=3), st.lists(cards_strategy, max_size=12))
def test_check_deal_raises_what_remove_raises(decks: int, cards: list[Card]) -> None:
    """``check_deal`` is ``remove`` without the shoe left: the same ShoeError (naming the same
    card), or none."""
    shoe = Shoe.standard(decks)
    try:
        shoe.remove(cards)
    except ShoeError as removed:
        with pytest.raises(ShoeError) as checked:
            shoe.check_deal(cards)
        assert str(checked.value) == str(removed)
    else:
        shoe.check_deal(cards)
        shoe.check_deal(iter(cards))


def test_check_deal_names_the_card_the_shoe_runs_out_of() -> None:
    partly = Shoe.from_cards(parse_cards("As Kd Kd 2c"))
    partly.check_deal(parse_cards("Kd As Kd"))
    with pytest.raises(ShoeError, match="cannot deal Kd 3 times: the shoe of 4 cards holds 2"):
        partly.check_deal(parse_cards("Kd 2c Kd As Kd"))
    with pytest.raises(ShoeError, match="cannot deal 9h 1 times: the shoe of 4 cards holds 0"):
        partly.check_deal(parse_cards("As 9h"))
    with pytest.raises(ShoeError, match="cannot deal As 2 times: the 1-deck shoe holds 1"):
        Shoe.standard(1).check_deal(parse_cards("Kd As 9h As"))


def test_a_standard_shoe_is_one_immutable_value() -> None:
    """Standard shoes are shared (they cannot change), and compare as any equal composition."""
    assert Shoe.standard(6) is Shoe.standard(6)
    assert Shoe.standard(6) == Shoe((6,) * 52)
    assert Shoe.standard(6).cards() == Shoe((6,) * 52).cards()
    assert Shoe.standard(6).remove(parse_cards("As")).count(ACE_SPADES) == 5
    assert Shoe.standard(6).count(ACE_SPADES) == 6


@pytest.mark.parametrize(
    "counts",
    [
        (1,) * 51,
        (1,) * 53,
        (),
        (-1,) + (1,) * 51,
        (1.5,) * 52,
        ("1",) * 52,
    ],
)
def test_invalid_compositions(counts: tuple[object, ...]) -> None:
    with pytest.raises(ShoeError):
        Shoe(counts)  # type: ignore[arg-type]


def test_from_counts_invalid() -> None:
    with pytest.raises(ShoeError, match="As"):
        Shoe.from_counts({"As": -1})
    with pytest.raises(CardError) as info:
        Shoe.from_counts({"Zz": 1})
    assert info.value.token == "Zz"
