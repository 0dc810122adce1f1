"""Jackpot Party Progressive (58 Pa. Code § 633b.2): the ten combinations, the rules on decks and
wager sizes, exact counts against closed-form combinatorics, and the return as a function of the
meters.

Counting convention: the player's two cards unordered, the dealer's upcard and hole card in order,
every physical card distinct: C(N, 2)·(N − 2)·(N − 3) deals from an N = 52d card shoe. A dealer
Blackjack is an ace and a 10-valued card in either order: 2 · 4d · 16d = 128d² dealer deals.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations
from math import comb

import numpy as np
import pytest

from croupier.analysis import exact_parsheet, simulate
from croupier.analysis.exact import exact_counts
from croupier.analysis.meters import ReseedFunding, meter_return
from croupier.cards import DECK, Shoe, parse_cards
from croupier.errors import RulesError
from croupier.games.blackjack import hand_total
from croupier.paytables import MeterLevel
from croupier.wagers import get_wager
from croupier.wagers.jackpot_party import JackpotParty, JackpotPartyOutcome, classify_four

Out = JackpotPartyOutcome
JP = JackpotParty()


@pytest.mark.parametrize(
    ("cards", "outcome"),
    [
        ("Kd Qd  Ad Jd", Out.ROYAL_FLUSH_DIAMONDS),
        ("Qd Jd  Kd Ad", Out.ROYAL_FLUSH_DIAMONDS),  # 10-valued card up, ace in the hole
        ("Ks Qs  As Js", Out.ROYAL_FLUSH_OTHER),
        ("Ah As  Ac Kd", Out.THREE_OF_A_KIND),
        ("Kh Ks  Ac Kd", Out.THREE_OF_A_KIND),
        ("Qh Js  Ac Kd", Out.STRAIGHT),  # J-Q-K-A of more than one suit
        ("Qc Jc  Ac Kd", Out.STRAIGHT),
        ("2c 7c  Ac Kc", Out.FLUSH),
        ("As Ks  As Ks", Out.FLUSH),  # multi-deck: also two pair, the flush ranks higher
        ("As As  As Ks", Out.THREE_OF_A_KIND),  # also a flush
        ("As Kh  Ac Kd", Out.TWO_PAIR),  # dealer and player Blackjacks of the same ranks
        ("As Qh  Ac Kd", Out.PAIR),  # Blackjacks of different ranks: a pair of aces
        ("2h 7d  Ah Kd", Out.ALL_SAME_COLOR),
        ("Qh Qs  Ac Kd", Out.PAIR),
        ("9h 9s  Ac Kd", Out.PAIR),
        ("Kh Qh  Ad Td", Out.ALL_SAME_COLOR),  # K and Q count 10 but are not a pair
        ("2h 7s  Ac Kd", Out.DEALER_BLACKJACK),
        ("9s 9h  Ah 7c", Out.DEALER_ACE_UP),
        ("As Ah  Ad 9c", Out.DEALER_ACE_UP),
        ("Ks Qs  Js Ts", None),  # no dealer Blackjack, no ace up
        ("As Ah  Kd 9c", None),
    ],
)
def test_the_ten_combinations(cards: str, outcome: Out | None) -> None:
    assert JP.evaluate(parse_cards(cards)) is outcome


# --------------------------------------------------------------------------- closed forms


def closed_form(d: int) -> dict[Out | None, int]:
    """Each combination's count for d decks, derived by hand (see the module docstring)."""
    n = 52 * d
    c = comb
    dealer_bj = 128 * d**2
    out: dict[Out | None, int] = {}
    # A♦ with one of K♦/Q♦/J♦ (either order), the player the other two: 3 · 2d² · d²
    out[Out.ROYAL_FLUSH_DIAMONDS] = 6 * d**4
    out[Out.ROYAL_FLUSH_OTHER] = 18 * d**4
    # two more aces, or two more of the dealer's 10-valued rank, from the 4d − 1 left
    out[Out.THREE_OF_A_KIND] = dealer_bj * 2 * c(4 * d - 1, 2)
    # dealer A with J, Q or K (96d²): the player one of each other rank (16d²), not all one suit
    out[Out.STRAIGHT] = 96 * d**2 * 16 * d**2 - 24 * d**2 * d**2
    # dealer of one suit (32d²): two more of that suit, less three of a kind and royals
    out[Out.FLUSH] = 32 * d**2 * (c(13 * d - 2, 2) - 2 * c(d - 1, 2)) - 24 * d**4
    # the player's ace and 10-valued card of the dealer's ranks, not all one suit
    out[Out.TWO_PAIR] = dealer_bj * (4 * d - 1) ** 2 - 32 * d**2 * (d - 1) ** 2
    # dealer of one colour: two more of it, less every higher combination of that colour
    same_suit = (
        c(26 * d - 2, 2)
        - c(13 * d - 2, 2)
        - 2 * (c(2 * d - 1, 2) - c(d - 1, 2))
        - ((2 * d - 1) ** 2 - (d - 1) ** 2)
    )
    other_suit = c(26 * d - 2, 2) - 2 * c(2 * d - 1, 2) - (2 * d - 1) ** 2
    out[Out.ALL_SAME_COLOR] = (
        32 * d**2 * same_suit - 24 * d**2 * 3 * d**2 + 32 * d**2 * other_suit - 24 * d**4 * 4
    )
    # four different ranks, not J-Q-K-A, not one colour
    out[Out.DEALER_BLACKJACK] = 97216 * d**4
    out[Out.PAIR] = dealer_bj * c(n - 2, 2) - sum(out.values())
    out[Out.DEALER_ACE_UP] = 4 * d * (n - 1 - 16 * d) * c(n - 2, 2)
    out[None] = c(n, 2) * (n - 2) * (n - 3) - sum(out.values())
    return out


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_exact_counts_match_the_closed_forms(decks: int) -> None:
    got = exact_counts(JP, Shoe.standard(decks))
    expected = closed_form(decks)
    assert got.counts == tuple(expected[o] for o in [*Out, None])
    n = 52 * decks
    assert got.total == comb(n, 2) * (n - 2) * (n - 3)


def test_eight_deck_counts_as_printed_by_the_par_sheet() -> None:
    # the royal flush in diamonds: 3 · 2 · 8⁴ = 24,576 of C(416, 2) · 414 · 413 deals
    sheet = exact_parsheet(JP, "P4", decks=8)
    assert sheet.rows[0].combinations == 24_576
    assert sheet.rows[0].probability == Fraction(24_576, comb(416, 2) * 414 * 413)


def test_the_vectorised_classifier_agrees_on_dealer_blackjacks_and_a_sample() -> None:
    aces = [i for i, c in enumerate(DECK) if c.rank.letter == "A" and c.suit.letter == "d"]
    tens = [i for i, c in enumerate(DECK) if c.rank.letter in "TJQK"]
    rows = []
    for a in aces:
        for t in tens:
            for p1 in range(52):
                for p2 in range(p1, 52):
                    rows.append((p1, p2, a, t) if (p1 + p2) % 2 else (p1, p2, t, a))
    rng = np.random.default_rng(9)
    sample = rng.integers(0, 52, size=(20_000, 4))
    cards = np.vstack([np.array(rows, dtype=np.int64), sample])
    vector = JP.classify_indices(cards)
    for row, got in zip(cards.tolist(), vector.tolist(), strict=True):
        o = classify_four((DECK[row[0]], DECK[row[1]]), DECK[row[2]], DECK[row[3]])
        assert got == (len(Out) if o is None else o.position), row


def test_classify_on_indices_reads_the_cards_as_classify_four_does() -> None:
    """JackpotParty.classify (on card indices, what a table settles by) and classify_four (the
    reading written from the text) agree on every deal: every player pair against every dealer
    Blackjack, either card up; every other dealer hand against a player pair."""
    rng = np.random.default_rng(16)
    blackjacks = 0
    for up in DECK:
        for hole in DECK:
            if hand_total((up, hole)).total != 21:
                p1, p2 = (DECK[i] for i in rng.integers(0, 52, size=2).tolist())
                assert JP.classify((p1, p2, up, hole)) is classify_four((p1, p2), up, hole)
                continue
            blackjacks += 1
            for p1 in DECK:
                for p2 in DECK:
                    assert JP.classify((p1, p2, up, hole)) is classify_four((p1, p2), up, hole)
    assert blackjacks == 2 * 4 * 16


# --------------------------------------------------------------------------- rules


def test_decks_wager_sizes_and_the_paytable_for_the_table() -> None:
    with pytest.raises(RulesError, match=r"633b\.2\(b\)"):
        JP.paytable("P1", 3)
    # P1 is printed for six decks; the section's deck rule is § 633b.2(b)
    with pytest.raises(RulesError, match=r"printed for 6 decks, not 8 .*§ 633b\.2\(b\)"):
        JP.paytable("P1", 8)
    p1 = JP.paytable("P1", 6)
    with pytest.raises(RulesError, match=r"printed for 6 decks, not 8 .*§ 633b\.2\(b\)"):
        JP.settle(parse_cards("2h 7s Ac Kd"), p1, 500, decks=8)
    # $1 is a size of § 633b.2(e), but P1's Wager row is $5: the paytable of § 633b.2(i) binds
    with pytest.raises(RulesError, match=r"P1 .* printed for a \$5 wager.*633b\.2\(i\)"):
        JP.settle(parse_cards("2h 7s Ac Kd"), p1, 100, decks=6)
    p10 = JP.paytable("P10", 6)  # no Wager row printed: read as $5 (docs/interpretations.md)
    with pytest.raises(RulesError, match=r"633b\.2\(i\)"):
        JP.settle(parse_cards("2h 7s Ac Kd"), p10, 100, decks=6)
    for p in (p1, p10):  # $2 is no size of the section (§ 633b.2(e): $1 or $5)
        with pytest.raises(RulesError, match=r"633b\.2\(e\)"):
            JP.settle(parse_cards("2h 7s Ac Kd"), p, 200, decks=6)
    s = JP.settle(parse_cards("2h 7s Ac Kd"), p10, 500, decks=6)
    assert s.win_cents == 2500  # dealer Blackjack 5 to 1 on $5


def test_a_meter_award_is_the_whole_payment_and_waits_for_validation() -> None:
    p1 = JP.paytable("P1", 6)
    s = JP.settle(parse_cards("Kd Qd Ad Jd"), p1, 500, decks=6)
    assert s.returned_cents == 5_000_000 and s.win_cents == 4_999_500
    assert s.pending_validation
    s = JP.settle(
        parse_cards("Ks Qs As Js"),
        p1,
        500,
        decks=6,
        meter_cents={MeterLevel.PROGRESSIVE: 6_000_005},
    )
    assert s.returned_cents == 600_000  # 10% of $60,000.05, rounded down to the cent


# --------------------------------------------------------------------------- meters


def probabilities(decks: int) -> dict[Out | None, Fraction]:
    f = closed_form(decks)
    total = sum(f.values())
    return {o: Fraction(n, total) for o, n in f.items()}


def test_p1_return_against_the_meter_breakeven_and_long_run() -> None:
    p = probabilities(6)
    odds = {Out.THREE_OF_A_KIND: 150, Out.STRAIGHT: 80, Out.FLUSH: 60, Out.TWO_PAIR: 40}
    odds |= {Out.ALL_SAME_COLOR: 20, Out.PAIR: 10, Out.DEALER_BLACKJACK: 5, Out.DEALER_ACE_UP: 2}
    fixed = sum(p[o] * k for o, k in odds.items()) - p[None] - p[Out.ROYAL_FLUSH_DIAMONDS]
    fixed -= p[Out.ROYAL_FLUSH_OTHER]  # the stake of a meter award is collected (reading)
    # a meter of M dollars on the $5 wager is M/5 units: 100% and 10% of it
    slope = p[Out.ROYAL_FLUSH_DIAMONDS] + p[Out.ROYAL_FLUSH_OTHER] / 10
    mr = meter_return(JP, "P1", decks=6)
    assert mr.fixed == fixed
    assert mr.slopes == {MeterLevel.PROGRESSIVE: slope}
    assert mr.at() == exact_parsheet(JP, "P1", decks=6).expected_return
    assert mr.at() == fixed + slope * 10_000
    breakeven = mr.breakeven_cents()
    assert breakeven == -fixed / slope * 500
    assert (
        mr.at({MeterLevel.PROGRESSIVE: 58_344_950})
        < 0
        < mr.at({MeterLevel.PROGRESSIVE: 58_344_951})
    )  # $583,449.50 … 51: the breakeven lies between
    # long run: one $50,000 seed per royal flush in diamonds, plus 16% + 3.75% of every wager
    assert mr.long_run(reseed=ReseedFunding.HOUSE) == (
        fixed + p[Out.ROYAL_FLUSH_DIAMONDS] * 10_000 + Fraction(1975, 10_000)
    )
    # the reserve (3.75% of every wager) pays for the reseeds, so the house adds nothing
    assert p[Out.ROYAL_FLUSH_DIAMONDS] * 10_000 < Fraction(375, 10_000)
    assert mr.long_run() == fixed + Fraction(1975, 10_000)


def test_multi_level_meters_and_envy() -> None:
    mr = meter_return(JP, "P17-A", decks=1, wager_cents=500)
    p = probabilities(1)
    assert mr.slopes[MeterLevel.MEGA] == p[Out.ROYAL_FLUSH_DIAMONDS]
    assert mr.slopes[MeterLevel.MINOR] == p[Out.THREE_OF_A_KIND]
    # envy: $3,000 and $1,000 on a $5 wager for another player's royal flushes
    assert (
        mr.envy_per_other_player
        == p[Out.ROYAL_FLUSH_DIAMONDS] * 600 + p[Out.ROYAL_FLUSH_OTHER] * 200
    )
    assert mr.long_run(other_players=2) - mr.long_run() == 2 * mr.envy_per_other_player
    seeds = (
        p[Out.ROYAL_FLUSH_DIAMONDS] * 10_000
        + p[Out.ROYAL_FLUSH_OTHER] * 1_000
        + p[Out.THREE_OF_A_KIND] * 100
    )
    assert mr.long_run() == mr.fixed + seeds + Fraction(6 + 7 + 7, 100)
    mega = mr.at({MeterLevel.MEGA: 6_000_000}) - mr.at()
    assert mega == p[Out.ROYAL_FLUSH_DIAMONDS] * 2_000  # $10,000 more is 2,000 units


def test_jackpot_party_simulation_agrees() -> None:
    wager = get_wager("jackpot-party")
    exact = exact_parsheet(wager, "P1", decks=6)
    sim = simulate(wager, "P1", 200_000, 21, decks=6)
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error


@pytest.mark.slow
@pytest.mark.parametrize("key", ["P1", "P7", "P9", "P11", "P18-B"])
def test_jackpot_party_simulations_within_4_standard_errors(key: str) -> None:
    wager = get_wager("jackpot-party")
    table = wager.paytable(key)
    exact = exact_parsheet(wager, table, decks=table.decks[0])
    sim = simulate(wager, table, 3_000_000, 300 + len(key), decks=table.decks[0])
    assert sim.standard_error is not None
    z = float(sim.expected_return - exact.expected_return) / sim.standard_error
    assert abs(z) <= 4, z


def test_exact_counts_of_a_partly_dealt_shoe_against_every_deal() -> None:
    """A two-deck remnant of 14 cards with suited royals, pairs and blackjacks: the count by card
    kind against every deal (player's pair unordered, upcard and hole card in order) read by
    :meth:`classify`, card by card."""
    cards = list(parse_cards("Ad Ad Kd Qd Jd As Ks Kh Th Tc 9c 9c 2h Ac"))
    tallies = [0] * (len(Out) + 1)
    for up, hole in permutations(range(len(cards)), 2):
        rest = [c for i, c in enumerate(cards) if i not in (up, hole)]
        for pair in combinations(rest, 2):
            o = JP.classify([*pair, cards[up], cards[hole]])
            tallies[len(Out) if o is None else o.position] += 1
    assert JP.count_exact(Shoe.from_cards(cards)) == tuple(tallies)
