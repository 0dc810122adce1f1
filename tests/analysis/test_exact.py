"""Exact counts and par sheets checked against combinatorics derived by hand.

Nothing here compares the library's enumeration with itself: every expected count is a closed-form
formula (or a hand count) written in this file, and every expected return is summed here from those
counts and the pays typed from the regulation text (shared/regulations: § 633b.1(f), § 633b.3(i)
and (j), § 674b.1(f)).

Counting convention (croupier.analysis.exact): every physical card is distinct; the player's two
cards are an unordered pair, the dealer's upcard a separate ordered position.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from croupier.analysis import exact_counts, exact_parsheet, total_deals
from croupier.cards import Card, Rank, Shoe, Suit, parse_cards
from croupier.errors import RulesError, ShoeError
from croupier.paytables import MeterLevel
from croupier.wagers import ProgressiveStake, get_wager

PP_PAYS = {"A": (25, 12, 6), "B": (30, 10, 5)}  # § 633b.1(f): perfect, colored, mixed ("X to 1")

# § 633b.3(i): "1 Non-Suited and 1 Suited Match", "1 Suited Match", "2 Non-Suited Matches",
# "1 Non-Suited Match" ("X to 1") for Paytables 1–10, six decks then eight decks. The two
# suited-match lines pay 100% and 10% of the progressive meter in every paytable.
MTD_PAYS: dict[int, dict[str, tuple[int, int, int, int]]] = {
    6: {
        "1": (12, 10, 4, 2),
        "2": (10, 7, 6, 3),
        "3": (8, 4, 8, 4),
        "4": (75, 4, 15, 3),
        "5": (12, 9, 6, 3),
        "6": (13, 10, 6, 3),
        "7": (11, 7, 8, 4),
        "8": (100, 5, 20, 3),
        "9": (15, 12, 6, 3),
        "10": (13, 9, 8, 4),
    },
    8: {
        "1": (9, 6, 6, 3),
        "2": (12, 10, 4, 2),
        "3": (8, 4, 8, 4),
        "4": (75, 4, 15, 3),
        "5": (12, 9, 6, 3),
        "6": (10, 6, 8, 4),
        "7": (13, 10, 6, 3),
        "8": (14, 11, 6, 3),
        "9": (100, 5, 20, 3),
        "10": (15, 12, 6, 3),
    },
}
MTD_SHARES = (Fraction(1), Fraction(1, 10))  # 100% / 10% of the progressive meter
MTD_SEED_MULTIPLE = 1000  # § 633b.3(j): the seed is 1,000 times the wager

# § 674b.1(f), lines in printed order; None is a printed "N/A" (the hand is then an ace/ace).
UP_PAYS: dict[str, tuple[int | None, ...]] = {
    "A": (None, 30, 25, 20, 15, 10, 5, 3),
    "B": (None, 30, 20, 20, 10, 5, 10, 5),
    "C": (100, 30, 20, 20, 10, 4, 10, 4),
    "D": (50, 25, 20, 20, 10, 5, 10, 5),
    "E": (None, 25, 20, 20, 10, 5, 10, 5),
}


# --------------------------------------------------------------------------- Perfect Pairs


def pp_counts(d: int) -> tuple[int, int, int, int]:
    """(perfect, colored, mixed, no pair) two-card hands from d decks."""
    perfect = 52 * comb(d, 2)  # two of the d copies of one card
    colored = 13 * 2 * d * d  # per rank: clubs×spades and diamonds×hearts, d copies each
    mixed = 13 * 4 * d * d  # per rank: {clubs, spades} × {diamonds, hearts}
    total = comb(52 * d, 2)
    return perfect, colored, mixed, total - perfect - colored - mixed


def pp_expected_return(d: int, key: str) -> Fraction:
    counts = pp_counts(d)
    pays = (*PP_PAYS[key], -1)
    return Fraction(sum(n * p for n, p in zip(counts, pays, strict=True)), comb(52 * d, 2))


def test_perfect_pairs_published_eight_deck_anchors() -> None:
    # Published 8-deck figures (as quoted in the project brief): 1,456 perfect, 1,664 colored,
    # 3,328 mixed of C(416, 2) = 86,320 hands; house edge 4.0964% (A) and 3.3735% (B).
    assert comb(416, 2) == 86_320
    counted = exact_counts(get_wager("perfect-pairs"), Shoe.standard(8))
    assert counted.counts[:3] == (1456, 1664, 3328)
    assert counted.total == 86_320
    pp = get_wager("perfect-pairs")
    assert round(float(exact_parsheet(pp, "A", decks=8).house_edge) * 100, 4) == 4.0964
    assert round(float(exact_parsheet(pp, "B", decks=8).house_edge) * 100, 4) == 3.3735
    # and by the formula: 8 decks, paytable A nets −3,536 over 86,320 hands
    assert pp_expected_return(8, "A") == Fraction(-3536, 86_320)
    assert pp_expected_return(8, "B") == Fraction(-2912, 86_320)


@pytest.mark.parametrize("d", [1, 2, 4, 6, 8])
def test_perfect_pairs_counts(d: int) -> None:
    pp = get_wager("perfect-pairs")
    counted = exact_counts(pp, Shoe.standard(d))
    assert counted.counts == pp_counts(d)
    assert counted.total == comb(52 * d, 2)
    assert total_deals(pp, Shoe.standard(d)) == comb(52 * d, 2)


@pytest.mark.parametrize("d", [1, 2, 4, 6, 8])
@pytest.mark.parametrize("key", ["A", "B"])
def test_perfect_pairs_house_edge(d: int, key: str) -> None:
    sheet = exact_parsheet(get_wager("perfect-pairs"), key, decks=d)
    assert sheet.expected_return == pp_expected_return(d, key)
    assert sheet.house_edge == -pp_expected_return(d, key)
    perfect, colored, mixed, _ = pp_counts(d)
    assert sheet.hit_frequency == Fraction(perfect + colored + mixed, comb(52 * d, 2))
    assert [r.combinations for r in sheet.rows] == list(pp_counts(d))


def test_perfect_pairs_one_deck_has_no_perfect_pair() -> None:
    assert pp_counts(1)[0] == 0
    assert exact_counts(get_wager("perfect-pairs"), Shoe.standard(1)).counts[0] == 0


# --------------------------------------------------------------------------- Match the Dealer


def mtd_counts(d: int) -> tuple[int, ...]:
    """Counts of the six § 633b.3(a) combinations and of no match, for d decks.

    The upcard is any of N = 52d cards; the other N − 1 cards hold d − 1 suited copies of it,
    3d non-suited cards of its rank and N − 4d others; the player's pair is unordered.
    """
    n = 52 * d
    suited, non_suited, others = d - 1, 3 * d, n - 1 - (4 * d - 1)
    aces_of_spades = d * comb(suited, 2)  # only the d A♠ upcards
    two_suited_other = (n - d) * comb(suited, 2)
    return (
        aces_of_spades,
        two_suited_other,
        n * suited * non_suited,
        n * suited * others,
        n * comb(non_suited, 2),
        n * non_suited * others,
        n * comb(others, 2),
    )


def mtd_nets(key: str, d: int, meter_units: Fraction, stake: ProgressiveStake) -> list[Fraction]:
    """Net win per unit wagered of each line (and −1 for no match)."""
    minus = 1 if stake is ProgressiveStake.COLLECTED else 0
    meter_lines = [share * meter_units - minus for share in MTD_SHARES]
    return [*meter_lines, *(Fraction(p) for p in MTD_PAYS[d][key]), Fraction(-1)]


@pytest.mark.parametrize("d", [6, 8])
def test_match_the_dealer_counts(d: int) -> None:
    n = 52 * d
    expected = mtd_counts(d)
    assert sum(expected) == n * comb(n - 1, 2)
    counted = exact_counts(get_wager("match-the-dealer"), Shoe.standard(d))
    assert counted.counts == expected
    assert counted.total == n * comb(n - 1, 2)


def test_match_the_dealer_counts_spelled_out() -> None:
    # six decks: N = 312; upcard fixed, 5 suited copies, 18 non-suited, 288 others remain
    assert mtd_counts(6) == (
        6 * 10,  # 6 A♠ upcards × C(5, 2)
        306 * 10,
        312 * 5 * 18,
        312 * 5 * 288,
        312 * 153,  # C(18, 2)
        312 * 18 * 288,
        312 * 41_328,  # C(288, 2)
    )
    # eight decks: N = 416; 7 suited copies, 24 non-suited, 384 others
    assert mtd_counts(8)[:2] == (8 * 21, 408 * 21)
    assert mtd_counts(8)[4] == 416 * 276


@pytest.mark.parametrize("d", [6, 8])
@pytest.mark.parametrize("key", [str(i) for i in range(1, 11)])
def test_match_the_dealer_expected_return_at_seed(d: int, key: str) -> None:
    n = 52 * d
    total = n * comb(n - 1, 2)
    # at the seed the meter is 1,000 wagers: 100% nets 999, 10% nets 99 (stake collected)
    nets = mtd_nets(key, d, Fraction(MTD_SEED_MULTIPLE), ProgressiveStake.COLLECTED)
    assert nets[:2] == [999, 99]
    expected = Fraction(sum(c * x for c, x in zip(mtd_counts(d), nets, strict=True)), total)
    mtd = get_wager("match-the-dealer")
    for wager_cents in (100, 500):
        sheet = exact_parsheet(mtd, key, decks=d, wager_cents=wager_cents)
        assert sheet.expected_return == expected
        assert sheet.meters == {MeterLevel.PROGRESSIVE: MTD_SEED_MULTIPLE * wager_cents}


@pytest.mark.parametrize(("d", "key"), [(6, "1"), (8, "4")])
def test_match_the_dealer_expected_return_other_meters(d: int, key: str) -> None:
    n = 52 * d
    total = n * comb(n - 1, 2)
    mtd = get_wager("match-the-dealer")
    # a $1 wager with the meter at $2,500: 2,500 wagers
    for stake in ProgressiveStake:
        nets = mtd_nets(key, d, Fraction(2500), stake)
        expected = Fraction(sum(c * x for c, x in zip(mtd_counts(d), nets, strict=True)), total)
        sheet = exact_parsheet(mtd, key, decks=d, wager_cents=100, meter_cents=250_000, stake=stake)
        assert sheet.expected_return == expected
    # "returned" adds the stake back on the two meter lines only
    collected = exact_parsheet(mtd, key, decks=d)
    returned = exact_parsheet(mtd, key, decks=d, stake=ProgressiveStake.RETURNED)
    counts = mtd_counts(d)
    assert returned.expected_return - collected.expected_return == Fraction(
        counts[0] + counts[1], total
    )


def test_match_the_dealer_deck_rule_in_par_sheets() -> None:
    with pytest.raises(RulesError) as info:
        exact_parsheet(get_wager("match-the-dealer"), "1", decks=2)
    assert info.value.section == "633b.3(b)"


# --------------------------------------------------------------------------- Ultimate Pairs

# One deck, C(52, 2) = 1,326 two-card hands, counted by hand in printed line order.
UP_COUNTS = (
    1,  # A♥A♦
    5,  # the other C(4, 2) − 1 ace pairs
    4,  # AK suited: one per suit
    8,  # AQ or AJ suited: 2 ranks × 4 suits
    12,  # AK offsuit: 4 × 4 − 4
    18,  # KK, QQ, JJ: 3 × C(4, 2)
    24,  # AQ or AJ offsuit: 2 × (4 × 4 − 4)
    54,  # pairs of 2s to 10s: 9 × C(4, 2)
)


def up_expected_return(key: str) -> Fraction:
    pays = list(UP_PAYS[key])
    if pays[0] is None:
        pays[0] = pays[1]  # N/A: the ace of hearts and ace of diamonds is an ace/ace
    won = sum(n * p for n, p in zip(UP_COUNTS, pays, strict=True) if p is not None)
    lost = comb(52, 2) - sum(UP_COUNTS)
    return Fraction(won - lost, comb(52, 2))


def test_ultimate_pairs_counts() -> None:
    assert sum(UP_COUNTS) == 126
    counted = exact_counts(get_wager("ultimate-pairs"), Shoe.standard(1))
    assert counted.counts == (*UP_COUNTS, 1326 - 126)
    assert counted.total == comb(52, 2) == 1326


@pytest.mark.parametrize("key", sorted(UP_PAYS))
def test_ultimate_pairs_house_edge(key: str) -> None:
    sheet = exact_parsheet(get_wager("ultimate-pairs"), key)
    assert sheet.expected_return == up_expected_return(key)


def test_ultimate_pairs_house_edge_values() -> None:
    # the sums spelled out (wins − 1,200 losing hands) / 1,326
    assert up_expected_return("A") == Fraction(1082 - 1200, 1326)
    assert up_expected_return("B") == Fraction(1140 - 1200, 1326)
    assert up_expected_return("C") == Fraction(1138 - 1200, 1326)
    assert up_expected_return("D") == Fraction(1135 - 1200, 1326)
    assert up_expected_return("E") == Fraction(1110 - 1200, 1326)


# --------------------------------------------------------------------------- partly dealt shoes


def suit_counts_after(decks: int, dealt: str) -> dict[tuple[Rank, Suit], int]:
    """The composition by hand: ``decks`` of every card minus the dealt cards."""
    comp = {(r, s): decks for r in Rank for s in Suit}
    for c in parse_cards(dealt) if dealt else ():
        comp[(c.rank, c.suit)] -= 1
    return comp


def pp_counts_for(comp: dict[tuple[Rank, Suit], int]) -> tuple[int, int, int, int]:
    perfect = colored = mixed = 0
    for r in Rank:
        c, d, h, s = (
            comp[(r, suit)] for suit in (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
        )
        perfect += sum(comb(n, 2) for n in (c, d, h, s))
        colored += c * s + d * h
        mixed += (c + s) * (d + h)
    total = comb(sum(comp.values()), 2)
    return perfect, colored, mixed, total - perfect - colored - mixed


def test_perfect_pairs_partly_dealt_shoe_hand_count() -> None:
    dealt = "As As Ah Kd 2c 2c 2d"
    # By hand, two decks less those seven cards (97 left, C(97, 2) = 4,656 hands):
    #   ten untouched ranks (2 of each suit): perfect 4, colored 2·2+2·2 = 8, mixed 4·4 = 16 each;
    #   aces (c2 d2 h1 s0): perfect 1+1 = 2, colored 2·0+2·1 = 2, mixed (2+0)(2+1) = 6;
    #   kings (c2 d1 h2 s2): perfect 3, colored 2·2+1·2 = 6, mixed (2+2)(1+2) = 12;
    #   deuces (c0 d1 h2 s2): perfect 2, colored 0·2+1·2 = 2, mixed (0+2)(1+2) = 6.
    perfect, colored, mixed = 40 + 2 + 3 + 2, 80 + 2 + 6 + 2, 160 + 6 + 12 + 6
    expected = (perfect, colored, mixed, 4656 - perfect - colored - mixed)
    assert pp_counts_for(suit_counts_after(2, dealt)) == expected

    shoe = Shoe.standard(2).remove(parse_cards(dealt))
    pp = get_wager("perfect-pairs")
    counted = exact_counts(pp, shoe)
    assert counted.counts == expected
    assert counted.total == 4656
    sheet = exact_parsheet(pp, "A", decks=2, shoe=shoe)
    assert sheet.expected_return == Fraction(
        25 * perfect + 12 * colored + 6 * mixed - expected[3], 4656
    )


@pytest.mark.parametrize(("decks", "dealt"), [(6, "As As As 7h Kd Kd 2c"), (8, "")])
def test_perfect_pairs_general_formula(decks: int, dealt: str) -> None:
    comp = suit_counts_after(decks, dealt)
    shoe = Shoe.standard(decks).remove(parse_cards(dealt)) if dealt else Shoe.standard(decks)
    assert exact_counts(get_wager("perfect-pairs"), shoe).counts == pp_counts_for(comp)
    if not dealt:
        assert pp_counts_for(comp) == pp_counts(decks)


def mtd_counts_for(comp: dict[tuple[Rank, Suit], int]) -> tuple[int, ...]:
    """The Match the Dealer counts for any composition, upcard by upcard type."""
    total_cards = sum(comp.values())
    out = [0] * 7
    for (rank, suit), n_up in comp.items():
        if n_up == 0:
            continue
        suited = n_up - 1
        non_suited = sum(comp[(rank, s)] for s in Suit if s is not suit)
        others = total_cards - 1 - suited - non_suited
        two_suited = n_up * comb(suited, 2)
        if (rank, suit) == (Rank.ACE, Suit.SPADES):
            out[0] += two_suited
        else:
            out[1] += two_suited
        out[2] += n_up * suited * non_suited
        out[3] += n_up * suited * others
        out[4] += n_up * comb(non_suited, 2)
        out[5] += n_up * non_suited * others
        out[6] += n_up * comb(others, 2)
    return tuple(out)


@pytest.mark.parametrize("d", [6, 8])
def test_match_the_dealer_general_formula_agrees_with_closed_form(d: int) -> None:
    assert mtd_counts_for(suit_counts_after(d, "")) == mtd_counts(d)


def test_match_the_dealer_partly_dealt_shoe() -> None:
    dealt = "As As As 7h Kd Kd 2c"
    shoe = Shoe.standard(6).remove(parse_cards(dealt))
    expected = mtd_counts_for(suit_counts_after(6, dealt))
    n = 312 - 7
    assert sum(expected) == n * comb(n - 1, 2)
    counted = exact_counts(get_wager("match-the-dealer"), shoe)
    assert counted.counts == expected
    assert counted.total == n * comb(n - 1, 2)
    # three A♠ upcards remain, each leaving two more A♠: 3 × C(2, 2) = 3 aces-of-spades deals
    assert expected[0] == 3


def test_ultimate_pairs_partly_dealt_deck() -> None:
    # one deck less A♥ and K♠: 50 cards, C(50, 2) = 1,225 hands
    shoe = Shoe.standard(1).remove(parse_cards("Ah Ks"))
    by_hand = (
        0,  # A♥A♦: the A♥ is gone
        3,  # C(3, 2) pairs of A♣ A♦ A♠
        2,  # AK suited: A♣K♣, A♦K♦ (A♥ and K♠ gone)
        6,  # AQ/AJ suited: 3 aces × 2
        7,  # AK offsuit: 3 aces × 3 kings − 2 suited
        15,  # KK C(3, 2) = 3, QQ 6, JJ 6
        18,  # AQ/AJ offsuit: 3 aces × 8 − 6 suited
        54,  # pairs 2–10 untouched
    )
    counted = exact_counts(get_wager("ultimate-pairs"), shoe)
    assert counted.counts == (*by_hand, 1225 - sum(by_hand))
    assert counted.total == 1225


def test_exact_counts_needs_enough_cards() -> None:
    with pytest.raises(ShoeError):
        exact_counts(get_wager("perfect-pairs"), Shoe.from_counts({"As": 1}))
    with pytest.raises(ShoeError):
        exact_counts(
            get_wager("match-the-dealer"), Shoe.from_cards([Card(Rank.ACE, Suit.SPADES)] * 2)
        )
    # the smallest shoes that can deal the cards
    assert exact_counts(get_wager("perfect-pairs"), Shoe.from_counts({"As": 2})).counts == (
        1,
        0,
        0,
        0,
    )
    # three A♠: the upcard is any of the 3, the player's pair the other two (unordered)
    assert exact_counts(get_wager("match-the-dealer"), Shoe.from_counts({"As": 3})).counts == (
        3,
        0,
        0,
        0,
        0,
        0,
        0,
    )
