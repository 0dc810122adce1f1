"""The compiled kernels (croupier.analysis.kernels) against the existing Python code.

Rounds: the kernel plays rounds from given card sequences (``play_given``, the same code as the
shuffled ``deal_rounds``) and must produce the hands a scalar re-play by the library's own rules
gives — :func:`basic_hits` for the players, :func:`play_dealer` for the dealer, in the regulated
dealing order (§ 633a.7). Wagers: each classifier kernel must give, round by round, the position of
the wager's scalar :meth:`classify` (and of its numpy :meth:`classify_indices`). Tallies must land
within 4 standard errors of the exact par sheets.
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.analysis.kernels import blackjack as kb
from croupier.analysis.kernels import count_with, plan_for, rng, shoe_cards
from croupier.analysis.kernels.axman import axman_positions
from croupier.analysis.kernels.plans import hit_table
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.simulate import simulate
from croupier.cards import DECK, Card, Shoe
from croupier.games.blackjack import (
    BlackjackRules,
    DealerCompletion,
    PlayerStrategy,
    SoftSeventeen,
    basic_hits,
    hand_total,
    is_blackjack,
    play_dealer,
)
from croupier.poker import WildSuit
from croupier.wagers import get_wager
from croupier.wagers._axman_hands import AxManReading, WildInFiveHighest, read_dealer_hand
from croupier.wagers.axman import outcome_position

SEATS = 3


def scalar_round(
    seq: list[int], rules: BlackjackRules, seats: int = SEATS
) -> tuple[list[Card], list[Card]]:
    """The first seat's two cards and the dealer's final hand of a round dealt from ``seq``, by
    the library's scalar rules (not the kernel's code)."""
    cards = [DECK[i] for i in seq]
    first = cards[:seats]
    up = cards[seats]
    second = cards[seats + 1 : 2 * seats + 1]
    hole = cards[2 * seats + 1]
    rest = iter(cards[2 * seats + 2 :])
    dealer_bj = is_blackjack((up, hole))
    up_value = hand_total([up]).total if up.rank.letter != "A" else 1
    live = False
    for s in range(seats):
        hand = [first[s], second[s]]
        natural = is_blackjack(hand)
        if not natural and not (rules.peek and dealer_bj):
            while True:
                t = hand_total(hand)
                if t.total >= 21 or not basic_hits(t.total, t.soft, up_value):
                    break
                hand.append(next(rest))
        live |= not natural and not hand_total(hand).bust
    if dealer_bj or (rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS and not live):
        dealer = [up, hole]
    else:
        dealer = list(play_dealer([up, hole, *rest], rules))
    return [first[0], second[0]], dealer


@pytest.mark.parametrize(
    "rules",
    [
        BlackjackRules(decks=6),
        BlackjackRules(decks=8, soft_17=SoftSeventeen.HITS),
        BlackjackRules(decks=6, peek=False),
        BlackjackRules(decks=6, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS),
    ],
)
def test_rounds_from_given_cards_match_the_scalar_rules(rules: BlackjackRules) -> None:
    gen = np.random.default_rng(18)
    cards = shoe_cards(rules.shoe())
    n = 3000
    seqs = np.stack([gen.permutation(cards)[:40] for _ in range(n)])
    records = np.full((n, kb.WIDTH), -1, dtype=np.int8)
    lengths = np.zeros(n, dtype=np.int8)
    status = kb.play_given(
        seqs, SEATS, hit_table(PlayerStrategy.BASIC), rules.hits_soft_17, rules.peek,
        rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS, records, lengths,
    )  # fmt: skip
    assert status == 0
    longest = 0
    for r in range(n):
        player, dealer = scalar_round(seqs[r].tolist(), rules)
        got = records[r, : 2 + lengths[r]].tolist()
        assert got == [c.index for c in player + dealer], r
        longest = max(longest, len(dealer))
    assert longest >= 5  # the sample reaches long dealer hands


def test_dealing_a_fresh_shuffle_each_round_is_uniform() -> None:
    # the first seat's first card over 52 card kinds of a 1-deck shoe: each 1/52 of the rounds
    engine = plan_for(get_wager("perfect-pairs"), Shoe.standard(1))
    assert engine is not None
    n = 200_000
    buffers = engine.engine.buffers(n)
    records, _ = engine.engine.deal(
        shoe_cards(Shoe.standard(1)), rng.seed_state(np.random.SeedSequence(3)), n, buffers
    )
    counts = np.bincount(records[:, 0].astype(np.int64), minlength=52)
    sd = (n * (1 / 52) * (51 / 52)) ** 0.5
    assert np.abs(counts - n / 52).max() <= 5 * sd
    # within a round no physical card is dealt twice: at most one copy of each card in one deck
    both = records[:, :4].astype(np.int64)
    assert all(len(set(row)) == 4 for row in both[:5000].tolist())


def test_xoshiro_matches_the_reference_sequence() -> None:
    # xoshiro256** from the state (1, 2, 3, 4): the reference implementation's first outputs
    # (Blackman & Vigna; the same vector as rand_xoshiro's test suite)
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    got = [int(rng.next_u64(state)) for _ in range(4)]
    assert got == [11520, 0, 1509978240, 1215971899390074240]


def test_bounded_draws_are_uniform() -> None:
    state = rng.seed_state(np.random.SeedSequence(9))
    draws = np.array([rng.below(state, 7) for _ in range(70_000)])
    counts = np.bincount(draws, minlength=7)
    assert counts.size == 7
    sd = (70_000 * (1 / 7) * (6 / 7)) ** 0.5
    assert np.abs(counts - 10_000).max() <= 5 * sd


def _records(n: int, rules: BlackjackRules, seed: int) -> tuple[np.ndarray, np.ndarray]:
    plan = plan_for(get_wager("axman"), rules.shoe())
    assert plan is not None
    buffers = plan.engine.buffers(n)
    recs, lens = plan.engine.deal(
        shoe_cards(rules.shoe()), rng.seed_state(np.random.SeedSequence(seed)), n, buffers
    )
    return recs.copy(), lens.copy()


@pytest.mark.parametrize("wager_id", ["perfect-pairs", "match-the-dealer", "jackpot-party"])
def test_fixed_card_classifiers_match_classify_and_classify_indices(wager_id: str) -> None:
    wager = get_wager(wager_id)
    records, lengths = _records(40_000, BlackjackRules(decks=6), 5)
    plan = plan_for(wager, Shoe.standard(6))
    assert plan is not None
    out = np.empty(len(records), dtype=np.int64)
    plan.classify(records, lengths, out, *plan.args)
    k = wager.deal.size
    cards = records[:, :k].astype(np.int64)
    assert out.tolist() == wager.classify_indices(cards).tolist()
    losing = len(wager.outcomes)
    scalar = []
    for row in cards[:5000].tolist():
        o = wager.classify([DECK[c] for c in row])
        scalar.append(losing if o is None else o.position)
    assert out[:5000].tolist() == scalar


def test_axman_kernel_matches_the_scalar_reading_on_dealt_rounds() -> None:
    wager = get_wager("axman")
    records, lengths = _records(60_000, BlackjackRules(decks=6), 8)
    out = np.empty(len(records), dtype=np.int64)
    axman_positions(records, lengths, out, False, False)
    for r in range(len(records)):
        row = records[r, : 2 + lengths[r]].tolist()
        o = wager.classify([DECK[c] for c in row])
        assert out[r] == (len(wager.outcomes) if o is None else o.position), row


@pytest.mark.parametrize("five", list(WildInFiveHighest))
@pytest.mark.parametrize("suit", list(WildSuit))
def test_axman_kernel_reads_every_hand_shape_like_the_scalar(
    five: WildInFiveHighest, suit: WildSuit
) -> None:
    # random hands of 2–9 cards rich in kings of diamonds, flushes and runs (not only dealer hands)
    reading = AxManReading(five_highest=five, wild_suit=suit)
    gen = np.random.default_rng(633)
    n = 6000
    records = np.full((n, kb.WIDTH), -1, dtype=np.int8)
    lengths = gen.integers(2, 10, size=n).astype(np.int8)
    pool = np.array([45] * 6 + [c for c in range(52) if c % 4 == 1] + list(range(52)))
    for r in range(n):
        records[r, : 2 + lengths[r]] = gen.choice(pool, size=2 + lengths[r])
    out = np.empty(n, dtype=np.int64)
    axman_positions(
        records, lengths, out, five is WildInFiveHighest.ALWAYS_KEPT, suit is WildSuit.ANY_SUIT
    )
    for r in range(n):
        row = records[r, : 2 + lengths[r]].tolist()
        hand = read_dealer_hand([DECK[c] for c in row[2:]], reading)
        assert out[r] == outcome_position(hand, row[:2].count(45)), (row, hand)


def test_several_wagers_read_the_same_rounds() -> None:
    shoe = Shoe.standard(6)
    plans = [plan_for(get_wager(w), shoe) for w in ("perfect-pairs", "match-the-dealer")]
    assert all(p is not None for p in plans)
    state = rng.seed_state(np.random.SeedSequence(4))
    pp, mtd = count_with([p for p in plans if p is not None], shoe, 10_000, state)
    assert sum(pp) == sum(mtd) == 10_000


@pytest.mark.parametrize(
    ("wager_id", "paytable", "decks", "rounds"),
    [
        ("perfect-pairs", "A", 6, 400_000),
        ("match-the-dealer", "1", 8, 400_000),
        ("jackpot-party", None, 6, 400_000),
        ("axman", "standard", 6, 400_000),
        ("axman-h17", "standard", 8, 400_000),
    ],
)
def test_kernel_tallies_within_4_standard_errors(
    wager_id: str, paytable: str | None, decks: int, rounds: int
) -> None:
    wager = get_wager(wager_id)
    key = paytable or wager.paytables()[0].key
    exact = exact_parsheet(wager, key, decks=decks)
    sim = simulate(wager, key, rounds, 1800 + decks, decks=decks)
    assert "compiled kernel" in sim.convention
    assert sim.standard_error is not None
    z = float(sim.expected_return - exact.expected_return) / sim.standard_error
    assert abs(z) <= 4, z


@pytest.mark.slow
@pytest.mark.parametrize(
    "wager_id", ["perfect-pairs", "match-the-dealer", "jackpot-party", "axman"]
)
@pytest.mark.parametrize("decks", [6, 8])
def test_big_kernel_runs_within_4_standard_errors_line_by_line(wager_id: str, decks: int) -> None:
    wager = get_wager(wager_id)
    key = next(t.key for t, d in wager.offerings() if d == decks)
    exact = exact_parsheet(wager, key, decks=decks)
    rounds = 20_000_000
    sim = simulate(wager, key, rounds, 2600 + decks, decks=decks)
    assert sim.standard_error is not None
    z = float(sim.expected_return - exact.expected_return) / sim.standard_error
    assert abs(z) <= 4, z
    for e, s in zip(exact.rows, sim.rows, strict=True):  # each line within 4 binomial SE
        p = float(e.probability)
        sd = (rounds * p * (1 - p)) ** 0.5
        assert abs((s.hits or 0) - rounds * p) <= 4 * sd + 1, e.outcome


def test_a_shoe_smaller_than_a_deck_is_dealt_by_the_top_cards() -> None:
    # a partly dealt shoe of 20 cards: whole rounds could run out, the top two cards cannot
    pp = get_wager("perfect-pairs")
    shoe = Shoe.from_counts({"As": 4, "Ah": 4, "Kd": 4, "2c": 4, "7s": 4})
    assert plan_for(pp, shoe) is None and plan_for(pp, Shoe.standard(1)) is not None
    exact = exact_parsheet(pp, "A", decks=1, shoe=shoe)
    sim = simulate(pp, "A", 200_000, 5, decks=1, shoe=shoe)
    assert "compiled kernel" not in sim.convention
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error
