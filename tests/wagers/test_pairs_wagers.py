"""Classification and settlement of Perfect Pairs (58 Pa. Code § 633b.1), Match the Dealer
(§ 633b.3) and Ultimate Pairs (§ 674b.1).

Every expected outcome and pay is read by hand from the regulation text in shared/regulations
(001: §§ 633b.1, 633b.3; 002: § 674b.1); money is in integer cents.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, Rank, Suit, parse_cards
from croupier.errors import (
    CardError,
    InputError,
    PaytableError,
    RulesError,
    ShoeError,
    UnknownPaytableError,
    UnknownWagerError,
)
from croupier.paytables import MeterLevel
from croupier.wagers import OrderedOutcome, ProgressiveStake, Wager, get_wager
from croupier.wagers.match_the_dealer import MatchTheDealerOutcome as MTD
from croupier.wagers.perfect_pairs import PerfectPairsOutcome as PP
from croupier.wagers.ultimate_pairs import UltimatePairsOutcome as UP


def perfect_pairs() -> Wager:
    return get_wager("perfect-pairs")


def match_the_dealer() -> Wager:
    return get_wager("match-the-dealer")


def ultimate_pairs() -> Wager:
    return get_wager("ultimate-pairs")


# § 633b.1(f), typed from the regulation: "X to 1" wins per paytable.
PP_PAYS: dict[str, dict[PP, int]] = {
    "A": {PP.PERFECT_PAIR: 25, PP.COLORED_PAIR: 12, PP.MIXED_PAIR: 6},
    "B": {PP.PERFECT_PAIR: 30, PP.COLORED_PAIR: 10, PP.MIXED_PAIR: 5},
}

# § 674b.1(f), typed from the regulation, lines in printed order; None is a printed "N/A".
UP_ORDER = (
    UP.ACE_HEARTS_ACE_DIAMONDS,
    UP.ACE_ACE,
    UP.ACE_KING_SUITED,
    UP.ACE_QUEEN_OR_JACK_SUITED,
    UP.ACE_KING,
    UP.KINGS_QUEENS_OR_JACKS,
    UP.ACE_QUEEN_OR_JACK,
    UP.PAIR_TENS_OR_LESS,
)
UP_PAYS: dict[str, tuple[int | None, ...]] = {
    "A": (None, 30, 25, 20, 15, 10, 5, 3),
    "B": (None, 30, 20, 20, 10, 5, 10, 5),
    "C": (100, 30, 20, 20, 10, 4, 10, 4),
    "D": (50, 25, 20, 20, 10, 5, 10, 5),
    "E": (None, 25, 20, 20, 10, 5, 10, 5),
}

# § 633b.3(i), typed from the regulation: the four fixed-odds lines ("1 Non-Suited and 1 Suited
# Match", "1 Suited Match", "2 Non-Suited Matches", "1 Non-Suited Match"), "X to 1".
MTD_FIXED_PAYS: dict[tuple[int, str], tuple[int, int, int, int]] = {
    (6, "1"): (12, 10, 4, 2),
    (6, "4"): (75, 4, 15, 3),
    (6, "8"): (100, 5, 20, 3),
    (8, "1"): (9, 6, 6, 3),
    (8, "6"): (10, 6, 8, 4),
    (8, "9"): (100, 5, 20, 3),
}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


# --------------------------------------------------------------------------- Perfect Pairs


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # § 633b.1(a)(3) Perfect Pair: same rank, color and suit (two copies from a multi-deck shoe)
        ("8s 8s", PP.PERFECT_PAIR),
        ("Ah Ah", PP.PERFECT_PAIR),
        ("Tc Tc", PP.PERFECT_PAIR),
        ("2d 2d", PP.PERFECT_PAIR),
        # (a)(1) Colored Pair: same rank and color, different suits
        ("8h 8d", PP.COLORED_PAIR),
        ("8d 8h", PP.COLORED_PAIR),
        ("Kc Ks", PP.COLORED_PAIR),
        ("As Ac", PP.COLORED_PAIR),
        # (a)(2) Mixed Pair: same rank, different colors
        ("8h 8c", PP.MIXED_PAIR),
        ("8d 8s", PP.MIXED_PAIR),
        ("Qs Qh", PP.MIXED_PAIR),
        ("2c 2d", PP.MIXED_PAIR),
        # not a pair
        ("8h 9h", None),
        ("Ks Qs", None),
        ("Ah 2h", None),
        ("Tc Jd", None),
    ],
)
def test_perfect_pairs_classification(hand: str, expected: PP | None) -> None:
    assert perfect_pairs().evaluate(cards(hand), decks=8) == expected


def test_perfect_pair_needs_two_decks() -> None:
    pp = perfect_pairs()
    assert pp.evaluate(cards("8s 8s"), decks=2) == PP.PERFECT_PAIR
    with pytest.raises(ShoeError, match="8s"):
        pp.evaluate(cards("8s 8s"), decks=1)


def test_outcome_order() -> None:
    assert PP.PERFECT_PAIR > PP.COLORED_PAIR > PP.MIXED_PAIR
    assert MTD.TWO_SUITED_MATCH_ACES_OF_SPADES > MTD.NON_SUITED_MATCH
    assert UP.ACE_HEARTS_ACE_DIAMONDS > UP.PAIR_TENS_OR_LESS


# --------------------------------------------------------------------------- Match the Dealer
# Cards in dealing order: the player's two cards, then the dealer's upcard.


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # (a)(1) both player cards and the upcard are aces of spades
        ("As As As", MTD.TWO_SUITED_MATCH_ACES_OF_SPADES),
        # (a)(2) both match the upcard in suit and rank, any other card
        ("Ks Ks Ks", MTD.TWO_SUITED_MATCH),
        ("Ah Ah Ah", MTD.TWO_SUITED_MATCH),
        ("2c 2c 2c", MTD.TWO_SUITED_MATCH),
        # (a)(3) one suited and one non-suited match, either order
        ("7h 7c 7h", MTD.NON_SUITED_AND_SUITED_MATCH),
        ("7c 7h 7h", MTD.NON_SUITED_AND_SUITED_MATCH),
        ("As Ah As", MTD.NON_SUITED_AND_SUITED_MATCH),
        (
            "As As Ah",
            MTD.TWO_NON_SUITED_MATCHES,
        ),  # the upcard is A♥: both aces of spades non-suited
        # (a)(4) one suited match, the other card not of the rank
        ("7h 2c 7h", MTD.SUITED_MATCH),
        ("2c 7h 7h", MTD.SUITED_MATCH),
        ("As Ks As", MTD.SUITED_MATCH),
        ("Ks As As", MTD.SUITED_MATCH),
        # (a)(5) both of the upcard's rank in other suits (identical copies allowed)
        ("7c 7d 7h", MTD.TWO_NON_SUITED_MATCHES),
        ("7c 7c 7h", MTD.TWO_NON_SUITED_MATCHES),
        ("Ah Ad As", MTD.TWO_NON_SUITED_MATCHES),
        # (a)(6) one of the upcard's rank in another suit
        ("7c 2c 7h", MTD.NON_SUITED_MATCH),
        ("2c 7s 7h", MTD.NON_SUITED_MATCH),
        ("Ah Ks As", MTD.NON_SUITED_MATCH),
        # no match: the player's cards match each other but not the upcard
        ("9c 9d 7h", None),
        ("7h 7h 2c", None),
        ("As As Ks", None),
        ("Ks Ks As", None),
        ("2c 3d 4h", None),
    ],
)
def test_match_the_dealer_classification(hand: str, expected: MTD | None) -> None:
    assert match_the_dealer().evaluate(cards(hand), decks=6) == expected


def test_match_the_dealer_reads_the_upcard_last() -> None:
    mtd = match_the_dealer()
    assert mtd.evaluate(cards("7h 2c 7h")) == MTD.SUITED_MATCH
    assert mtd.evaluate(cards("7h 7h 2c")) is None
    assert mtd.evaluate(cards("As As As")) == MTD.TWO_SUITED_MATCH_ACES_OF_SPADES
    assert mtd.evaluate(cards("Ks Ks Ks")) == MTD.TWO_SUITED_MATCH


def test_match_the_dealer_wrong_number_of_cards() -> None:
    with pytest.raises(CardError):
        match_the_dealer().evaluate(cards("As As"))
    with pytest.raises(CardError):
        perfect_pairs().evaluate(cards("As Ks Qs"))


# --------------------------------------------------------------------------- Ultimate Pairs


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("Ah Ad", UP.ACE_HEARTS_ACE_DIAMONDS),
        ("Ad Ah", UP.ACE_HEARTS_ACE_DIAMONDS),
        ("As Ac", UP.ACE_ACE),
        ("Ah As", UP.ACE_ACE),
        ("Ad Ac", UP.ACE_ACE),
        ("Ah Ac", UP.ACE_ACE),
        ("As Ks", UP.ACE_KING_SUITED),
        ("Kh Ah", UP.ACE_KING_SUITED),
        ("Ah Qh", UP.ACE_QUEEN_OR_JACK_SUITED),
        ("Jd Ad", UP.ACE_QUEEN_OR_JACK_SUITED),
        ("Ac Jc", UP.ACE_QUEEN_OR_JACK_SUITED),
        ("As Kh", UP.ACE_KING),
        ("Kc Ad", UP.ACE_KING),
        ("Kc Kd", UP.KINGS_QUEENS_OR_JACKS),
        ("Qh Qs", UP.KINGS_QUEENS_OR_JACKS),
        ("Jc Jh", UP.KINGS_QUEENS_OR_JACKS),
        ("Ac Qd", UP.ACE_QUEEN_OR_JACK),
        ("Js Ah", UP.ACE_QUEEN_OR_JACK),
        ("Ts Th", UP.PAIR_TENS_OR_LESS),
        ("2c 2d", UP.PAIR_TENS_OR_LESS),
        ("9h 9s", UP.PAIR_TENS_OR_LESS),
        ("5c 5s", UP.PAIR_TENS_OR_LESS),
        # not a winning combination
        ("As Ts", None),
        ("Ah 2c", None),
        ("Ks Qs", None),
        ("Kh Qd", None),
        ("Jh Th", None),
        ("2c 7d", None),
    ],
)
def test_ultimate_pairs_classification(hand: str, expected: UP | None) -> None:
    assert ultimate_pairs().evaluate(cards(hand), decks=1) == expected


def test_ultimate_pairs_red_aces_pay_line() -> None:
    up = ultimate_pairs()
    outcome = up.evaluate(cards("Ah Ad"))
    assert outcome == UP.ACE_HEARTS_ACE_DIAMONDS
    # Paytable A prints N/A for the ace of hearts and ace of diamonds: paid as "Ace/ace", 30 to 1
    line_a = up.pay_line(up.paytable("A"), outcome)
    assert line_a is not None
    assert line_a.outcome == "ace-ace"
    assert str(line_a.pays) == "30 to 1"
    # Paytable C prints 100 to 1 for it
    line_c = up.pay_line(up.paytable("C"), outcome)
    assert line_c is not None
    assert line_c.outcome == "ace-hearts-ace-diamonds"
    assert str(line_c.pays) == "100 to 1"
    assert up.pay_line(up.paytable("C"), None) is None


# --------------------------------------------------------------------------- deck rules, lookups


def test_match_the_dealer_deck_rule() -> None:
    mtd = match_the_dealer()
    for decks in (1, 2, 4, 7):
        with pytest.raises(RulesError) as info:
            mtd.check_decks(decks)
        assert info.value.section == "633b.3(b)"
        assert "633b.3(b)" in str(info.value)
    with pytest.raises(RulesError) as info:
        mtd.paytable("1", decks=2)
    assert info.value.section == "633b.3(b)"
    mtd.check_decks(6)
    mtd.check_decks(8)


def test_match_the_dealer_two_decks_rejected_at_settlement() -> None:
    mtd = match_the_dealer()
    with pytest.raises(RulesError):
        mtd.settle(cards("As As As"), mtd.paytable("1", decks=6), 100, decks=2)


def test_match_the_dealer_two_decks_settlement_cites_633b3b() -> None:
    mtd = match_the_dealer()
    with pytest.raises(RulesError) as info:
        mtd.settle(cards("As As As"), mtd.paytable("1", decks=6), 100, decks=2)
    assert info.value.section == "633b.3(b)"


def test_ultimate_pairs_deck_rule() -> None:
    up = ultimate_pairs()
    with pytest.raises(RulesError) as info:
        up.check_decks(6)
    assert info.value.section.startswith("674b.1")
    with pytest.raises(RulesError):
        up.paytable("A", decks=6)
    up.check_decks(1)


def test_unknown_paytable() -> None:
    with pytest.raises(UnknownPaytableError):
        perfect_pairs().paytable("Z")
    with pytest.raises(UnknownPaytableError):
        ultimate_pairs().paytable("F")
    with pytest.raises(UnknownPaytableError):
        match_the_dealer().paytable("11", decks=6)
    with pytest.raises(KeyError):
        perfect_pairs().paytable("C")


def test_a_paytable_is_looked_up_once_and_refused_every_time() -> None:
    """A found paytable is remembered (the same value every time); a refused one is refused on
    every call, with the same error."""
    pp = perfect_pairs()
    assert pp.paytable("a", decks=6) is pp.paytable("A", decks=6)
    assert pp.paytable("A", decks=6).line("perfect-pair") is not None
    mtd = match_the_dealer()
    for _ in range(2):
        with pytest.raises(RulesError) as info:
            mtd.paytable("1", decks=2)
        assert info.value.section == "633b.3(b)"
        with pytest.raises(UnknownPaytableError, match="no paytable 'Z'"):
            pp.paytable("Z")


def test_unknown_wager() -> None:
    with pytest.raises(UnknownWagerError) as info:
        get_wager("no-such-wager")
    assert "no-such-wager" in str(info.value)
    assert isinstance(info.value, KeyError)
    assert get_wager(" Perfect-Pairs ").id == "perfect-pairs"


# --------------------------------------------------------------------------- settlement


def test_perfect_pairs_settlement_win() -> None:
    pp = perfect_pairs()
    # $10 on a perfect pair under Paytable A: 25 to 1 → wins $250, $260 returned with the stake
    s = pp.settle(cards("8s 8s"), pp.paytable("A"), 1000, decks=8)
    assert s.outcome == PP.PERFECT_PAIR
    assert s.win_cents == 25_000
    assert s.returned_cents == 26_000
    assert s.won
    assert not s.pending_validation
    assert s.rounding_cents_dropped == 0
    assert s.amount_cents == 1000


def test_perfect_pairs_settlement_loss() -> None:
    pp = perfect_pairs()
    s = pp.settle(cards("8h 9h"), pp.paytable("A"), 1000, decks=8)
    assert s.outcome is None
    assert s.line is None
    assert not s.won
    assert s.win_cents == -1000
    assert s.returned_cents == 0


@pytest.mark.parametrize("key", ["A", "B"])
@pytest.mark.parametrize(
    ("hand", "outcome"),
    [("Kd Kd", PP.PERFECT_PAIR), ("Kd Kh", PP.COLORED_PAIR), ("Kd Ks", PP.MIXED_PAIR)],
)
@pytest.mark.parametrize("amount", [100, 500, 2537])
def test_perfect_pairs_settlement_every_line(key: str, hand: str, outcome: PP, amount: int) -> None:
    pp = perfect_pairs()
    s = pp.settle(cards(hand), pp.paytable(key), amount, decks=6)
    to_one = PP_PAYS[key][outcome]
    assert s.outcome == outcome
    assert s.win_cents == amount * to_one
    assert s.returned_cents == amount * (to_one + 1)


UP_HANDS = {
    UP.ACE_HEARTS_ACE_DIAMONDS: "Ah Ad",
    UP.ACE_ACE: "As Ac",
    UP.ACE_KING_SUITED: "As Ks",
    UP.ACE_QUEEN_OR_JACK_SUITED: "Jd Ad",
    UP.ACE_KING: "As Kh",
    UP.KINGS_QUEENS_OR_JACKS: "Qh Qs",
    UP.ACE_QUEEN_OR_JACK: "Ac Qd",
    UP.PAIR_TENS_OR_LESS: "Ts Th",
}


@pytest.mark.parametrize("key", sorted(UP_PAYS))
@pytest.mark.parametrize("position", range(8))
def test_ultimate_pairs_settlement_every_line(key: str, position: int) -> None:
    up = ultimate_pairs()
    outcome = UP_ORDER[position]
    printed = UP_PAYS[key][position]
    # a printed N/A for the red aces: the hand is still an ace/ace, paid on that line
    to_one = printed if printed is not None else UP_PAYS[key][1]
    assert to_one is not None
    s = up.settle(cards(UP_HANDS[outcome]), up.paytable(key), 1000, decks=1)
    assert s.outcome == outcome
    assert s.win_cents == 1000 * to_one
    assert s.returned_cents == 1000 * (to_one + 1)


def test_ultimate_pairs_red_aces_settlement() -> None:
    up = ultimate_pairs()
    red_aces = cards("Ah Ad")
    assert up.settle(red_aces, up.paytable("A"), 1000, decks=1).win_cents == 30 * 1000
    assert up.settle(red_aces, up.paytable("B"), 1000, decks=1).win_cents == 30 * 1000
    assert up.settle(red_aces, up.paytable("C"), 1000, decks=1).win_cents == 100 * 1000
    assert up.settle(red_aces, up.paytable("D"), 1000, decks=1).win_cents == 50 * 1000
    assert up.settle(red_aces, up.paytable("E"), 1000, decks=1).win_cents == 25 * 1000
    loss = up.settle(cards("As Ts"), up.paytable("C"), 1000, decks=1)
    assert loss.win_cents == -1000
    assert loss.returned_cents == 0


def test_match_the_dealer_aces_of_spades_at_seed() -> None:
    mtd = match_the_dealer()
    table = mtd.paytable("1", decks=6)
    # $5 wager; meter at its seed of 1,000 × $5 = $5,000 (§ 633b.3(j)); 100% of the meter is paid
    # and the progressive stake was collected before the deal (§ 633b.3(f))
    s = mtd.settle(cards("As As As"), table, 500, decks=6)
    assert s.outcome == MTD.TWO_SUITED_MATCH_ACES_OF_SPADES
    assert s.returned_cents == 500_000
    assert s.win_cents == 500_000 - 500
    assert s.pending_validation  # § 633b.3(h)(3): a floorperson validates the payout
    assert s.rounding_cents_dropped == 0
    # $1 wager: seed 1,000 × $1 = $1,000
    s1 = mtd.settle(cards("As As As"), table, 100, decks=6)
    assert s1.returned_cents == 100_000
    # stake returned on top, under the other reading of the stake
    s2 = mtd.settle(cards("As As As"), table, 500, decks=6, stake=ProgressiveStake.RETURNED)
    assert s2.returned_cents == 500_500
    assert s2.win_cents == 500_000


def test_match_the_dealer_ten_percent_line_at_seed() -> None:
    mtd = match_the_dealer()
    table = mtd.paytable("4", decks=8)
    # 10% of the $5,000 seed of a $5 wager = $500
    s = mtd.settle(cards("7h 7h 7h"), table, 500, decks=8)
    assert s.outcome == MTD.TWO_SUITED_MATCH
    assert s.returned_cents == 50_000
    assert s.win_cents == 49_500
    assert s.pending_validation


def test_match_the_dealer_meter_rounds_down_to_the_cent() -> None:
    mtd = match_the_dealer()
    table = mtd.paytable("1", decks=6)
    meter = {MeterLevel.PROGRESSIVE: 1_234_567}
    # 10% of $12,345.67 = $1,234.567 → $1,234.56 paid, 0.7 cent dropped
    s = mtd.settle(cards("7h 7h 7h"), table, 100, decks=6, meter_cents=meter)
    assert s.returned_cents == 123_456
    assert s.win_cents == 123_456 - 100
    assert s.rounding_cents_dropped == Fraction(7, 10)
    assert s.pending_validation
    s5 = mtd.settle(cards("7h 7h 7h"), table, 500, decks=6, meter_cents=meter)
    assert s5.returned_cents == 123_456
    assert s5.win_cents == 123_456 - 500
    whole = mtd.settle(cards("As As As"), table, 100, decks=6, meter_cents=meter)
    assert whole.returned_cents == 1_234_567
    assert whole.rounding_cents_dropped == 0


@pytest.mark.parametrize(("decks", "key"), sorted(MTD_FIXED_PAYS))
@pytest.mark.parametrize("amount", [100, 500])
def test_match_the_dealer_fixed_lines(decks: int, key: str, amount: int) -> None:
    mtd = match_the_dealer()
    table = mtd.paytable(key, decks=decks)
    hands = {
        MTD.NON_SUITED_AND_SUITED_MATCH: "9d 9c 9d",
        MTD.SUITED_MATCH: "9d 4c 9d",
        MTD.TWO_NON_SUITED_MATCHES: "9s 9h 9d",
        MTD.NON_SUITED_MATCH: "4c 9h 9d",
    }
    for (outcome, hand), to_one in zip(hands.items(), MTD_FIXED_PAYS[(decks, key)], strict=True):
        s = mtd.settle(cards(hand), table, amount, decks=decks)
        assert s.outcome == outcome
        assert s.win_cents == amount * to_one
        assert s.returned_cents == amount * (to_one + 1)
        assert not s.pending_validation
    loss = mtd.settle(cards("9d 9d 4c"), table, amount, decks=decks)
    assert loss.win_cents == -amount
    assert loss.returned_cents == 0


@pytest.mark.parametrize("amount", [200, 1000, 50, 101])
def test_match_the_dealer_wager_size(amount: int) -> None:
    mtd = match_the_dealer()
    # § 633b.3(e): the wager is $1 or $5
    with pytest.raises(RulesError) as info:
        mtd.settle(cards("As As As"), mtd.paytable("1", decks=6), amount, decks=6)
    assert info.value.section.startswith("633b.3")


def test_match_the_dealer_wager_size_cites_633b3e() -> None:
    mtd = match_the_dealer()
    with pytest.raises(RulesError) as info:
        mtd.settle(cards("As As As"), mtd.paytable("1", decks=6), 200, decks=6)
    assert info.value.section == "633b.3(e)"


def test_settlement_errors() -> None:
    pp, mtd = perfect_pairs(), match_the_dealer()
    table = pp.paytable("A")
    # more copies of a card than a one-deck shoe holds
    with pytest.raises(ShoeError, match="As"):
        pp.settle(cards("As As"), table, 1000, decks=1)
    with pytest.raises(ShoeError):
        ultimate_pairs().settle(cards("Kd Kd"), ultimate_pairs().paytable("A"), 1000, decks=1)
    # wrong number of cards
    with pytest.raises(CardError):
        pp.settle(cards("As"), table, 1000, decks=8)
    # a paytable of another section
    with pytest.raises(PaytableError):
        mtd.settle(cards("As As As"), table, 100, decks=8)
    # a 6-deck paytable with 8 decks
    with pytest.raises(RulesError):
        mtd.settle(cards("As As As"), mtd.paytable("1", decks=6), 100, decks=8)
    # non-positive amounts: bad input, not a rule of the regulation
    for amount in (0, -100):
        with pytest.raises(InputError):
            pp.settle(cards("As Ks"), table, amount, decks=8)


# --------------------------------------------------------------------------- scalar vs vectorised


def _scalar_positions(wager: Wager, rows: np.ndarray) -> np.ndarray:
    losing = len(wager.outcomes)
    out = []
    for row in rows.tolist():
        o: OrderedOutcome | None = wager.classify([Card.from_index(i) for i in row])
        out.append(losing if o is None else o.position)
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("wager_id", ["perfect-pairs", "ultimate-pairs"])
def test_classify_indices_agrees_on_every_two_card_deal(wager_id: str) -> None:
    wager = get_wager(wager_id)
    # every ordered pair of card indices, identical cards included (multi-deck duplicates)
    rows = np.array(list(product(range(52), repeat=2)), dtype=np.int64)
    np.testing.assert_array_equal(wager.classify_indices(rows), _scalar_positions(wager, rows))


def test_classify_indices_agrees_on_every_match_the_dealer_deal() -> None:
    mtd = match_the_dealer()
    rows = np.array(list(product(range(52), repeat=3)), dtype=np.int64)
    np.testing.assert_array_equal(mtd.classify_indices(rows), _scalar_positions(mtd, rows))


def test_classify_indices_agrees_on_a_random_match_the_dealer_sample() -> None:
    mtd = match_the_dealer()
    rng = np.random.default_rng(20240633)
    # cards concentrated on a few ranks so that matches are frequent
    rows = rng.integers(0, 52, size=(60_000, 3), dtype=np.int64)
    rows[::2] = 48 + rng.integers(0, 4, size=(30_000, 3))  # aces only
    np.testing.assert_array_equal(mtd.classify_indices(rows), _scalar_positions(mtd, rows))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["perfect-pairs", "match-the-dealer", "ultimate-pairs"]),
    st.data(),
)
def test_classify_indices_agrees_on_small_batches(wager_id: str, data: st.DataObject) -> None:
    wager = get_wager(wager_id)
    k = wager.deal.size
    batch = data.draw(
        st.lists(st.lists(st.integers(0, 51), min_size=k, max_size=k), min_size=1, max_size=8)
    )
    rows = np.array(batch, dtype=np.int64).reshape(-1, k)
    np.testing.assert_array_equal(wager.classify_indices(rows), _scalar_positions(wager, rows))


def test_scalar_classifiers_by_position() -> None:
    # positions are the printed order of each section's combinations
    assert [o.key for o in PP] == ["perfect-pair", "colored-pair", "mixed-pair"]
    assert [o for o in UP] == list(UP_ORDER)
    assert len(MTD) == 6
    assert Card(Rank.ACE, Suit.SPADES).index == 51


def test_match_the_dealer_counts_of_an_odd_shoe_against_every_deal() -> None:
    """A remnant of three A♠ (suited matches of the A♠ upcard), other aces, sevens and a few
    more: the count by upcard against every deal read by :meth:`classify`, card by card."""
    from itertools import combinations

    from croupier.cards import Shoe

    cards = list(parse_cards("As As As Ah Ad 7h 7h 7c 2c 2d Ks"))
    mtd = match_the_dealer()
    tallies = [0] * (len(MTD) + 1)
    for up in range(len(cards)):
        rest = [c for i, c in enumerate(cards) if i != up]
        for pair in combinations(rest, 2):
            o = mtd.classify([*pair, cards[up]])
            tallies[len(MTD) if o is None else o.position] += 1
    assert mtd.count_exact(Shoe.from_cards(cards)) == tuple(tallies)
    assert tallies[MTD.TWO_SUITED_MATCH_ACES_OF_SPADES.position] == 3  # 3 upcards × C(2, 2)
