"""Four Card Poker (58 Pa. Code § 641a.7): rankings, wagers, settlement, strategy and par sheets,
against independently derived values — published hand distributions, hand combinatorics, brute
force, and simulation."""

from __future__ import annotations

import hashlib
import json
import random
from fractions import Fraction
from itertools import combinations, pairwise
from math import comb

import numpy as np
import pytest
from typer.testing import CliRunner

from cli_support import run_main_once
from croupier.analysis import exact_parsheet, simulate
from croupier.cards import DECK, Card, parse_card, parse_cards
from croupier.cli import app
from croupier.errors import CardError, RulesError, UnknownPaytableError
from croupier.games.four_card_poker import (
    AntePlayStrategy,
    Decision,
    Result,
    deal_round,
    hand_colex,
    strategy_rule,
)
from croupier.games.four_card_poker_exact import DEALER_HANDS, PLAYER_HANDS, load_dealer_table
from croupier.poker.five_card import (
    FiveCardCategory,
    best_five,
    evaluate_five,
    five_card_category_table,
)
from croupier.poker.four_card import (
    FourCardCategory,
    best_four,
    best_four_ordinals,
    category_of_ordinal,
    combinations_array,
    distinct_keys,
    evaluate_four,
    ordinal_of,
    value_table,
)
from croupier.wagers import get_wager
from croupier.wagers.four_card_poker import AntePlay, FourCardPokerBets, settle_round

F = FourCardCategory
C52_5 = comb(52, 5)

# -- rankings -------------------------------------------------------------------------------------


def test_four_card_hands_of_one_deck_by_category() -> None:
    """C(52, 4) four-card hands, counted by hand combinatorics."""
    counts = np.bincount(category_of_ordinal(value_table().astype(np.int64)), minlength=8)
    expected = {
        F.FOUR_OF_A_KIND: 13,
        F.STRAIGHT_FLUSH: 11 * 4,  # A-2-3-4 … J-Q-K-A, four suits
        F.THREE_OF_A_KIND: 13 * 4 * 48,
        F.FLUSH: 4 * (comb(13, 4) - 11),
        F.STRAIGHT: 11 * (4**4 - 4),
        F.TWO_PAIR: comb(13, 2) * 6 * 6,
        F.PAIR: 13 * 6 * comb(12, 2) * 16,
        F.HIGH_CARD: (comb(13, 4) - 11) * (4**4 - 4),
    }
    assert {c: int(counts[c.strength]) for c in F} == expected
    assert sum(expected.values()) == comb(52, 4)
    assert len(distinct_keys()) == 13 + 11 + 13 * 12 + 704 + 11 + 78 + 13 * 66 + 704


def _five_rank_sets_without_four_run() -> int:
    runs = [set(range(lo, lo + 4)) for lo in range(2, 12)] + [{14, 2, 3, 4}]
    return sum(
        1 for ranks in combinations(range(2, 15), 5) if not any(r <= set(ranks) for r in runs)
    )


def test_best_four_of_five_distribution() -> None:
    """The known distribution of the player's best four of five (issue 5; Wizard of Odds' Four
    Card Poker hand table), the rest derived here."""
    best = best_four_ordinals(combinations_array(52, 5))
    counts = np.bincount(category_of_ordinal(best), minlength=8)
    got = {c: int(counts[c.strength]) for c in F}
    assert got[F.FOUR_OF_A_KIND] == 624
    assert got[F.STRAIGHT_FLUSH] == 2_072
    assert got[F.THREE_OF_A_KIND] == 58_656
    assert got[F.FLUSH] == 114_616
    assert got[F.STRAIGHT] == 101_808
    assert got[F.TWO_PAIR] == 123_552
    # no pair: five distinct ranks with no four in a row, suits with no four alike
    high = _five_rank_sets_without_four_run() * (4**5 - 4 * (1 + 5 * 3))
    assert got[F.HIGH_CARD] == high == 1_150_080
    assert got[F.PAIR] == C52_5 - sum(v for c, v in got.items() if c is not F.PAIR)
    keys = distinct_keys()[best]
    aces = (keys // 13**4 == 1) & ((keys // 13**3) % 13 == 12)
    assert int(aces.sum()) == 81_096


def test_golden_hashes_pin_the_orderings() -> None:
    """The strength ordinal of every four-card hand (colex order) and of every player's best four
    of five: any change to the ranking changes these."""
    four = value_table().astype("<i2").tobytes()
    assert (
        hashlib.sha256(four).hexdigest()
        == "2edfb6a3a516e78bbab99b1e84736ccabccb64ed8d30a542c707c6faa6567104"
    )
    five = best_four_ordinals(combinations_array(52, 5)).astype("<i2").tobytes()
    assert (
        hashlib.sha256(five).hexdigest()
        == "3d237cdc8ce6eb15d973f34e8520e7befeb572715b9f391cb91d8af794c2c7b1"
    )


def test_scalar_and_vectorised_four_card_rankings_agree() -> None:
    rng = random.Random(641)
    fours = combinations_array(52, 4)
    rows = rng.sample(range(fours.shape[0]), 3000)
    hands = [evaluate_four([DECK[i] for i in fours[r]]) for r in rows]
    table = value_table()
    for r, h in zip(rows, hands, strict=True):
        assert ordinal_of(h) == table[r]
    for a, b in pairwise(hands):  # order agrees pairwise
        assert (a < b) == (ordinal_of(a) < ordinal_of(b))
        assert (a == b) == (ordinal_of(a) == ordinal_of(b))


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("Ah 2c 3d 4s", "2h 3c 4d 5s"),  # A-2-3-4 is the lowest straight
        ("Jh Qc Kd As", "2h 2c 2d 5s"),  # trips beat a straight
        ("2h 5h 9h Kh", "3c 3d 3h 4s"),  # ... and a flush
        ("Kh Kd Qc Qs", "Ac Ad 2c 2s"),  # higher pair first
        ("9h 9c Ks 4d", "9d 9s Ks 5c"),  # card by card
        ("Qh Kc Ad 2s", "2c 2d 3h 4s"),  # Q-K-A-2 is no straight
        ("As Ks Qs Js", "2d 2c 2h 2s"),  # four-of-a-kind beats a straight flush
    ],
)
def test_four_card_order(low: str, high: str) -> None:
    assert evaluate_four(parse_cards(low)) < evaluate_four(parse_cards(high))


def test_equal_hands_tie_and_bad_hands_are_refused() -> None:
    assert evaluate_four(parse_cards("9h 9c Ks 4d")) == evaluate_four(parse_cards("9d 9s Kh 4c"))
    with pytest.raises(CardError):
        evaluate_four(parse_cards("9h 9h Ks 4d"))
    with pytest.raises(CardError):
        best_four(parse_cards("9h Ks 4d"))


def test_best_four_of_six() -> None:
    h = best_four(parse_cards("Kh Kd Ks 4c 9h 3s"))
    assert h.category is F.THREE_OF_A_KIND and h.describe().startswith("Three-of-a-kind, kings")


def test_best_four_is_the_first_best_of_every_four() -> None:
    """``best_four`` is, by definition, the best value among ``evaluate_four`` of every four cards,
    and of equal best values the first four in dealing order (the cards it shows)."""
    rng = random.Random(4)
    for n in (4, 5, 5, 6, 6, 7):
        for _ in range(400):
            cards = rng.sample(DECK, n)
            values = [evaluate_four(four) for four in combinations(cards, 4)]
            top = max((v.category.strength, v.tiebreak) for v in values)
            first = next(v for v in values if (v.category.strength, v.tiebreak) == top)
            got = best_four(cards)
            assert (got.category, got.tiebreak, got.cards) == (
                first.category,
                first.tiebreak,
                first.cards,
            )
    # nines with a four kicker, from 4d or 4s: the first four in dealing order (4d) is shown
    assert best_four(parse_cards("9h 9c 4d 4s 9d 2c")).cards == parse_cards("9h 9c 4d 9d")
    assert best_four(parse_cards("Kh Qd Kc Qs 3h 3d")).cards == parse_cards("Kh Qd Kc Qs")


def test_five_card_distribution() -> None:
    """The standard five-card distribution over C(52, 5)."""
    counts = np.bincount(five_card_category_table(), minlength=10)
    expected = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    assert counts.tolist() == expected


def test_five_card_scalar_order() -> None:
    assert best_five(parse_cards("Th Jh Qh Kh Ah 2c")).category is FiveCardCategory.ROYAL_FLUSH
    wheel = evaluate_five(parse_cards("Ah 2c 3d 4s 5h"))
    assert wheel.category is FiveCardCategory.STRAIGHT and wheel < evaluate_five(
        parse_cards("2h 3c 4d 5s 6h")
    )
    assert evaluate_five(parse_cards("Kh Kd Kc 5c 5s")) > evaluate_five(
        parse_cards("Ah Jh 9h 5h 2h")
    )


def _six_card_counts_by_formula() -> list[int]:
    """Best five-card category of six cards from one deck, by rank multisets: a second method."""
    out = [0] * 10
    windows = [set(range(lo, lo + 5)) for lo in range(2, 11)] + [{14, 2, 3, 4, 5}]

    def straight(ranks: set[int]) -> bool:
        return any(w <= ranks for w in windows)

    # flush hands: five or six cards of one suit
    for k in (6, 5):
        for suited in combinations(range(2, 15), k):
            s = set(suited)
            ways = 4 * (1 if k == 6 else 39)
            if {10, 11, 12, 13, 14} <= s:
                out[9] += ways
            elif straight(s):
                out[8] += ways
            else:
                out[5] += ways

    # the rest by the rank multiset (with 13 ranks, multiplicities 0-4, six cards)
    def walk(rank: int, left: int, mult: list[int]) -> None:
        if rank == 15:
            if left:
                return
            ways = 1
            for m in mult:
                ways *= comb(4, m)
            counts = sorted((m for m in mult if m), reverse=True)
            distinct = sum(1 for m in mult if m)
            flushes = 76 if distinct == 6 else 12 if distinct == 5 else 0
            ways -= flushes
            ranks = {r for r, m in zip(range(2, 15), mult, strict=True) if m}
            if counts[0] >= 4:
                cat = 7
            elif counts[0] == 3 and counts[1] >= 2:
                cat = 6
            elif straight(ranks):
                cat = 4
            elif counts[0] == 3:
                cat = 3
            elif counts[0] == 2 and counts[1] == 2:
                cat = 2
            elif counts[0] == 2:
                cat = 1
            else:
                cat = 0
            out[cat] += ways
            return
        for m in range(0, min(4, left) + 1):
            mult.append(m)
            walk(rank + 1, left - m, mult)
            mult.pop()

    walk(2, 6, [])
    return out


def test_six_card_formula_is_the_known_distribution() -> None:
    """Six cards, best five (the Six Card Bonus): the second method against the known figures."""
    assert _six_card_counts_by_formula() == [
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
    ]


@pytest.mark.slow
def test_six_card_bonus_enumeration_matches_the_formula() -> None:
    sheet = exact_parsheet(get_wager("six-card-bonus"), "example-six-card-bonus", decks=1)
    by_formula = _six_card_counts_by_formula()
    expected = [6 * n for n in reversed(by_formula[3:])]  # player's five + the card: 6 ways
    assert [r.combinations for r in sheet.rows[:-1]] == expected
    assert sheet.total == comb(52, 5) * 47


# -- the dealer table and the strategy ------------------------------------------------------------


def test_dealer_table_shape() -> None:
    t = load_dealer_table()
    assert len(t.classes) == 134_459  # suit-isomorphism classes of five-card hands
    assert int(t.sizes.astype(np.int64).sum()) == PLAYER_HANDS
    assert int(t.joint.sum()) == PLAYER_HANDS * DEALER_HANDS
    assert int(t.up_counts.sum()) == PLAYER_HANDS * DEALER_HANDS * 6
    assert t.up_decisions.shape == (134_459, 47)


def test_dealer_counts_by_hand_combinatorics() -> None:
    """Four kings lose only to the dealer's four aces: C(43, 2) of the 47-card dealer hands
    hold all four; four aces never lose, and neither ever ties."""
    s = AntePlayStrategy.for_bonus({})
    kings = parse_cards("Ks Kh Kd Kc 2c")
    assert s.dealer_beats(kings) == comb(43, 2)
    assert s.dealer_beats(parse_cards("As Ah Ad Ac Kc")) == 0
    t = load_dealer_table()
    pos = t.class_of(np.array([hand_colex(kings)]))[0]
    assert t.ties[pos] == 0


def test_player_marginal_of_the_joint_distribution() -> None:
    """Summing the dealer out leaves the published player distribution × C(47, 6)."""
    joint = load_dealer_table().joint
    player = joint.sum(axis=(1, 2))
    published = {7: 624, 6: 2_072, 5: 58_656, 4: 114_616, 3: 101_808, 2: 123_552}
    for strength, n in published.items():
        assert int(player[strength]) == n * DEALER_HANDS


@pytest.mark.slow
def test_dealer_counts_against_brute_force() -> None:
    """Enumerate all C(47, 6) dealer hands for a few player hands (a second method)."""
    s = AntePlayStrategy.for_bonus({})
    dealers = combinations_array(47, 6)
    for text in ("2c 3d 5h 8s Jc", "Ah Ad 7c 7s 2d", "Kh Qh Jh Th 2c", "Tc Td 4h 9s Kc"):
        p = parse_cards(text)
        idx = sorted(c.index for c in p)
        rest = np.array([i for i in range(52) if i not in idx])
        t = best_four_ordinals(np.array([idx]))[0]
        beats = 0
        for a in range(0, dealers.shape[0], 2_000_000):
            beats += int((best_four_ordinals(rest[dealers[a : a + 2_000_000]]) > t).sum())
        assert s.dealer_beats(p) == beats, text


@pytest.mark.slow
def test_face_up_card_counts_against_brute_force() -> None:
    """Every dealer hand from the other 47, bucketed by each of its cards as the face-up card."""
    from croupier.games.four_card_poker import UPCARD_OTHERS

    s = AntePlayStrategy.for_bonus({})
    dealers = combinations_array(47, 6)
    for text in ("Tc Td 4h 9s Kc", "3h 3s 8d Jc Ac"):
        p = parse_cards(text)
        idx = sorted(c.index for c in p)
        rest = np.array([i for i in range(52) if i not in idx])
        t = best_four_ordinals(np.array([idx]))[0]
        beats = np.zeros(52, dtype=np.int64)
        for a in range(0, dealers.shape[0], 2_000_000):
            d = rest[dealers[a : a + 2_000_000]]
            won = best_four_ordinals(d) > t
            for j in range(6):
                beats += np.bincount(d[won, j], minlength=52)
        for u in rest:
            edge = UPCARD_OTHERS - 2 * int(beats[u])
            best = max((4 * edge, 3), (2 * edge, 1), (-UPCARD_OTHERS, 0), key=lambda x: x[0])
            want = {3: Decision.PLAY_3X, 1: Decision.PLAY_1X, 0: Decision.FOLD}[best[1]]
            assert s.decide_with_upcard(p, DECK[int(u)]) is want, (text, DECK[int(u)])


def test_strategy_follows_the_exact_edge() -> None:
    """Play 3x when winning is likelier than losing, 1x when the Play still beats folding, else
    fold (bonus hands always play 3x)."""
    s = AntePlayStrategy.for_bonus({F.FOUR_OF_A_KIND: Fraction(25)})
    t = load_dealer_table()
    edge = DEALER_HANDS - 2 * t.beats.astype(np.int64)
    plain = s.decisions
    assert ((edge > 0) <= (plain == 3)).all()
    # without a bonus: 1x exactly when −N < 2·edge ≤ 0
    nobonus = AntePlayStrategy.for_bonus({}).decisions
    one = (2 * edge > -DEALER_HANDS) & (edge <= 0)
    assert ((nobonus == 1) == one).all()
    assert s.decide(parse_cards("2c 3d 5h 8s Jc")) is Decision.FOLD
    assert s.decide(parse_cards("As Ah 7c 5d 2h")) is Decision.PLAY_3X
    assert s.decide(parse_cards("5s 5h 7c 9d 2h")) is Decision.PLAY_1X


def test_house_edge_without_the_face_up_card() -> None:
    """Optimal strategy not reading the dealer's face-up card, Ante bonus 25/20/2. Published:
    "about 3.36% of the initial bet" (Wikipedia, Four card poker, citing the Wizard of Odds);
    Elliot Frome's basic strategy pays back about 98.41% of the total wagered (Casino City Times,
    2004) — the optimal strategy does at least as well."""
    w = get_wager("four-card-poker")
    assert isinstance(w, AntePlay)
    a = w.strategy().analysis
    assert abs(float(a.house_edge) - 0.0336) < 0.00005
    assert float(a.element_of_risk) < 0.0159
    assert sum(a.hands.values()) == PLAYER_HANDS


def test_house_edge_reading_the_face_up_card() -> None:
    """The published figure (issue 5; Wizard of Odds, Four Card Poker: 2.79% of the Ante, element
    of risk 1.30%) is that of the strategy that also reads the dealer's face-up card."""
    w = get_wager("four-card-poker")
    assert isinstance(w, AntePlay)
    up = w.strategy().upcard_analysis
    assert 0.0277 < float(up.house_edge) < 0.0280
    assert abs(float(up.element_of_risk) - 0.0130) < 0.00006
    # reading more cannot do worse, card by card
    assert up.house_edge < w.strategy().analysis.house_edge
    sheet = exact_parsheet(w, "25-20-2", decks=1)
    assert sheet.house_edge == up.house_edge
    assert sheet.total == PLAYER_HANDS * DEALER_HANDS * 6
    assert up.total == sheet.total


def test_face_up_card_decisions_are_suit_blind() -> None:
    """Relabelling the suits of the player's cards and the face-up card changes nothing."""
    s = AntePlayStrategy.for_bonus({})
    rng = random.Random(7)
    swap = {0: 2, 1: 3, 2: 0, 3: 1}
    for _ in range(200):
        cards = rng.sample(DECK, 6)
        mapped = [Card(c.rank, type(c.suit)(swap[c.suit.value])) for c in cards]
        assert s.decide_with_upcard(cards[:5], cards[5]) is s.decide_with_upcard(
            mapped[:5], mapped[5]
        )


def test_scalar_face_up_card_decision_agrees_with_the_vectorised_one() -> None:
    """``decide_with_upcard`` (one hand, plain Python) against ``upcard_decisions_for`` (numpy, many
    hands at once) — random hands, and hands of one or two suits, where several suit relabellings
    reach the class representative and the face-up card must follow the first of them."""
    from croupier.games.four_card_poker_exact import upcard_position, upcard_position_one

    s = AntePlayStrategy.for_bonus({})
    rng = random.Random(2024)
    deals = [rng.sample(range(52), 6) for _ in range(3000)]
    for _ in range(3000):
        suits = rng.sample(range(4), rng.randint(1, 2))
        ranks = rng.sample(range(13), 5)
        hand = [r * 4 + rng.choice(suits) for r in ranks]
        up = rng.choice([i for i in range(52) if i not in hand])
        deals.append([*hand, up])
    colex = np.array([hand_colex([DECK[i] for i in d[:5]]) for d in deals], dtype=np.int64)
    ups = np.array([d[5] for d in deals], dtype=np.int64)
    canon, position = upcard_position(colex, ups)
    want = s.upcard_decisions_for(colex, ups)
    for i, d in enumerate(deals):
        assert upcard_position_one(d[:5], d[5]) == (canon[i], position[i]), d
        got = s.decide_with_upcard([DECK[c] for c in d[:5]], DECK[d[5]])
        assert got.multiple == want[i], d


def test_printed_rule() -> None:
    rule = {ln.hands_text: ln for ln in strategy_rule(AntePlayStrategy.for_bonus({}))}
    assert rule["No pair"].decision is Decision.FOLD and rule["No pair"].exceptions == 0
    assert rule["Pair of twos"].decision is Decision.FOLD
    assert rule["Two pair"].decision is Decision.PLAY_3X
    assert sum(ln.hands for ln in rule.values()) == PLAYER_HANDS


# -- wagers and par sheets ------------------------------------------------------------------------


def test_aces_up_par_sheet_from_the_published_distribution() -> None:
    sheet = exact_parsheet(get_wager("aces-up"), "pa-casino", decks=1)
    counts = [624, 2_072, 58_656, 114_616, 101_808, 123_552, 81_096]
    pays = [50, 40, 8, 6, 4, 2, 1]
    assert [r.combinations for r in sheet.rows[:-1]] == counts
    losers = C52_5 - sum(counts)
    expected = Fraction(sum(n * p for n, p in zip(counts, pays, strict=True)) - losers, C52_5)
    assert sheet.expected_return == expected
    assert not sheet.regulation  # not PA text: marked so on every par sheet


def test_progressive_and_five_card_counts() -> None:
    four = exact_parsheet(
        get_wager("four-card-progressive"), "example-four-card-progressive", decks=1
    )
    assert [r.combinations for r in four.rows[:-1]] == [624, 2_072, 58_656]
    five = exact_parsheet(
        get_wager("five-card-progressive"), "example-five-card-progressive", decks=1
    )
    assert [r.combinations for r in five.rows[:-1]] == [4, 36, 624, 3_744, 5_108, 10_200, 54_912]
    bonus = exact_parsheet(get_wager("five-card-hand-bonus"), "example-five-card-bonus", decks=1)
    assert [r.combinations for r in bonus.rows[:-1]] == [4, 36, 624, 3_744, 5_108]
    for sheet in (four, five, bonus):
        assert not sheet.regulation and "examples/" in sheet.paytable_source


def test_bad_beat_counts_cover_every_deal() -> None:
    sheet = exact_parsheet(get_wager("bad-beat-bonus"), "example-bad-beat", decks=1)
    assert sheet.total == PLAYER_HANDS * DEALER_HANDS
    joint = load_dealer_table().joint
    # a player four-of-a-kind that loses (only to higher quads) is a bad beat paid on the player
    player_quads_lose = int(joint[7, :, 2].sum())
    dealer_quads_lose = int(joint[:, 7, 0].sum())
    assert sheet.rows[0].combinations == player_quads_lose + dealer_quads_lose


def test_partly_dealt_deck_by_brute_force() -> None:
    """Aces Up over the 16 cards ten to king: the vectorised count against scalar hands."""
    from croupier.cards import Shoe

    cards = [c for c in DECK if 10 <= c.rank.value <= 13]
    shoe = Shoe.from_cards(cards)
    w = get_wager("aces-up")
    got = w.count_exact(shoe)
    assert got is not None
    tallies = [0] * (len(w.outcomes) + 1)
    for hand in combinations(cards, 5):
        o = w.classify(hand)
        tallies[len(w.outcomes) if o is None else o.position] += 1
    assert list(got) == tallies


def test_wager_paytables_are_kept_apart() -> None:
    with pytest.raises(UnknownPaytableError):
        get_wager("aces-up").paytable("25-20-2")
    with pytest.raises(RulesError):
        get_wager("aces-up").paytable("pa-casino", decks=2)


def test_simulation_of_the_strategy_agrees() -> None:
    sim = simulate(get_wager("four-card-poker"), "25-20-2", rounds=200_000, seed=5, decks=1)
    exact = exact_parsheet(get_wager("four-card-poker"), "25-20-2", decks=1)
    assert sim.standard_error is not None
    assert abs(float(sim.house_edge - exact.house_edge)) < 4 * sim.standard_error


@pytest.mark.slow
@pytest.mark.parametrize(
    ("wager", "table"),
    [
        ("four-card-poker", "25-20-2"),
        ("aces-up", "pa-casino"),
        ("bad-beat-bonus", "example-bad-beat"),
        ("six-card-bonus", "example-six-card-bonus"),
        ("five-card-hand-bonus", "example-five-card-bonus"),
        ("five-card-hand-bonus-dealer", "example-five-card-bonus-dealer"),
        ("four-card-progressive", "example-four-card-progressive"),
        ("five-card-progressive", "example-five-card-progressive"),
    ],
)
def test_every_wager_simulates_within_four_standard_errors(wager: str, table: str) -> None:
    w = get_wager(wager)
    sim = simulate(w, table, rounds=3_000_000, seed=17, decks=1)
    exact = exact_parsheet(w, table, decks=1)
    assert sim.standard_error is not None
    assert abs(float(sim.house_edge - exact.house_edge)) < 4 * sim.standard_error


# -- settling a round -----------------------------------------------------------------------------

PLAYER_TRIPS = parse_cards("9h 9c 9d Ks 2s")
DEALER_TWO_PAIR = parse_cards("Ah Ad 7c 7s 3d 4h")


def test_round_with_trips_against_two_pair() -> None:
    r = settle_round(
        PLAYER_TRIPS,
        DEALER_TWO_PAIR,
        FourCardPokerBets(ante_cents=500, play_cents=1500, aces_up_cents=500, bad_beat_cents=100),
    )
    got = {x.name: x.win_cents for x in r.results}
    # Ante and Play 1 to 1, bonus 2 to 1 on the Ante, Aces Up 8 to 1, Bad Beat (dealer's two
    # pair lost) 7 to 1 on the example table
    assert got == {
        "Ante": 500,
        "Play": 1500,
        "Ante bonus": 1000,
        "Aces Up": 4000,
        "Bad Beat Bonus": 700,
    }
    assert r.round.showdown().result is Result.PLAYER_WINS


def test_tie_goes_to_the_player_and_a_fold_loses_the_ante() -> None:
    player = parse_cards("9h 9c Ks 4d 2c")
    dealer = parse_cards("9d 9s Kh 4c 3h 2h")  # best four 9 9 K 4: a tie
    assert deal_round(player, dealer).showdown().result is Result.TIE
    r = settle_round(player, dealer, FourCardPokerBets(ante_cents=1000, play_cents=1000))
    assert r.win_cents == 2000
    folded = settle_round(player, dealer, FourCardPokerBets(ante_cents=1000, aces_up_cents=500))
    assert [(x.name, x.win_cents) for x in folded.results] == [("Ante", -1000), ("Aces Up", -500)]


@pytest.mark.parametrize(
    ("bets", "section"),
    [
        (FourCardPokerBets(ante_cents=500, play_cents=1600), "641a.7(d)(1)"),
        (FourCardPokerBets(ante_cents=500, play_cents=400), "641a.7(d)(1)"),
        (FourCardPokerBets(aces_up_cents=500, play_cents=500), "641a.7(d)(1)"),
        (FourCardPokerBets(bad_beat_cents=100), "641a.7(d)(1)–(3)"),
        (FourCardPokerBets(aces_up_cents=500, six_card_bonus_cents=100), "641a.7(d)(8)"),
        (FourCardPokerBets(aces_up_cents=500, five_card_bonus_cents=100), "641a.7(d)(7)"),
    ],
)
def test_rules_errors_cite_the_paragraph(bets: FourCardPokerBets, section: str) -> None:
    with pytest.raises(RulesError) as e:
        settle_round(PLAYER_TRIPS, DEALER_TWO_PAIR, bets)
    assert e.value.section == section


def test_bad_cards_and_missing_bonus_card() -> None:
    with pytest.raises(CardError):
        settle_round(
            PLAYER_TRIPS, parse_cards("9h Ad 7c 7s 3d 4h"), FourCardPokerBets(ante_cents=1)
        )
    with pytest.raises(RulesError):
        settle_round(
            PLAYER_TRIPS, DEALER_TWO_PAIR, FourCardPokerBets(ante_cents=100, six_card_bonus_cents=1)
        )


def test_six_card_bonus_and_envy() -> None:
    r = settle_round(
        PLAYER_TRIPS,
        DEALER_TWO_PAIR,
        FourCardPokerBets(
            ante_cents=100, six_card_bonus_cents=100, four_card_progressive_cents=100
        ),
        bonus_card=parse_card("9s"),
        other_hands=[parse_cards("Qs Qh Qd Qc 2c")],
    )
    got = {x.wager: x for x in r.results}
    assert got["six-card-bonus"].win_cents == 100 * 100  # four nines: 100 to 1 (example table)
    prog = got["four-card-progressive"]
    assert prog.envy_cents == 100_00 and prog.win_cents == 20 * 100 + 100_00


# -- the command line -----------------------------------------------------------------------------

runner = CliRunner()


def test_cli_analyze_json() -> None:
    res = runner.invoke(app, ["analyze", "four-card-poker", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert round(d["house_edge_per_ante"], 4) == 0.0279  # published: 2.78%-2.79%
    assert round(d["house_edge_per_total_wagered"], 4) == 0.0130  # published: 1.30%
    assert abs(d["house_edge"] - d["house_edge_per_ante"]) < 1e-15
    assert round(d["without_the_face_up_card"]["house_edge_per_ante"], 4) == 0.0336
    assert abs(sum(d["strategy"].values()) - 1) < 1e-12
    assert d["paytable_in_regulation"] is False


def test_cli_strategy_and_round() -> None:
    # the strategy only computes: its output is shared with the other tests that read it
    strategy = run_main_once("strategy", "four-card-poker", "--json")
    assert strategy.code == 0, strategy.err
    assert json.loads(strategy.out)["rule"][-1]["decision"] == "fold"
    res = runner.invoke(
        app,
        [
            "four-card-poker",
            "9h 9c 9d Ks 2s",
            "Ah Ad 7c 7s 3d 4h",
            *("--bet", "ante=5", "--bet", "play=best"),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["optimal_decision"] == "play-3x" and d["net_cents"] == 500 + 1500 + 1000
    res = runner.invoke(
        app,
        [
            "four-card-poker",
            "9h 9c 9d Ks 2s",
            "Ah Ad 7c 7s 3d 4h",
            "--bet",
            "ante=5",
            "--bet",
            "play=20",
        ],
    )
    assert res.exit_code != 0 and "641a.7(d)(1)" in str(res.exception)


def test_cards_in_the_scalar_round_are_one_deck() -> None:
    with pytest.raises(CardError):
        deal_round(PLAYER_TRIPS, DEALER_TWO_PAIR, bonus_card=Card.from_index(PLAYER_TRIPS[0].index))
