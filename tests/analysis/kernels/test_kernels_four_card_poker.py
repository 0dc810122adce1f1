"""The Four Card Poker kernels against the existing code and hand combinatorics: the compiled
four-card evaluator orders hands as :mod:`croupier.poker.four_card` (every four-card hand, random
best-of-five and best-of-six hands, the category boundaries), its category counts over the
270,725 four-card hands are the ones counted by hand below, the five-card evaluator gives the
published five-card frequencies; every Four Card Poker wager reads the kernel's rounds as its
:meth:`classify` and :meth:`classify_indices` do, and simulated tallies land within 4 standard
errors of the exact par sheets (58 Pa. Code § 641a.7(d))."""

from __future__ import annotations

import json
from math import comb
from typing import Any

import numpy as np
import pytest

from cli_support import run_main
from croupier.analysis.kernels import count_with, plan_for, shoe_cards
from croupier.analysis.kernels import four_card_eval as fe
from croupier.analysis.kernels import four_card_poker as kf
from croupier.analysis.kernels.chunks import run_chunks
from croupier.analysis.kernels.rng import seed_state
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.simulate import simulate
from croupier.cards import DECK, Shoe, parse_cards
from croupier.poker.five_card import best_five_categories, five_card_categories
from croupier.poker.four_card import (
    best_four_ordinals,
    combinations_array,
    distinct_keys,
    evaluate_four,
    four_card_keys,
)
from croupier.wagers import Game, all_wagers, get_wager

FCP = [w.id for w in all_wagers() if w.game is Game.FOUR_CARD_POKER]
ONE_DECK = Shoe.standard(1)


def _key(text: str) -> int:
    return int(fe.four_key(np.array([c.index for c in parse_cards(text)], dtype=np.int64)))


def _cmp(a: Any, b: Any) -> int:
    return int(a > b) - int(a < b)


# -- the four-card evaluator ---------------------------------------------------------------------


def test_four_card_category_counts_over_every_hand_are_the_hand_counts() -> None:
    # over all C(52,4) = 270,725 hands, counted by hand (11 straights: A-2-3-4 up to J-Q-K-A)
    quads = 13
    straight_flush = 11 * 4
    trips = 13 * comb(4, 3) * 48
    flush = 4 * comb(13, 4) - straight_flush
    straight = 11 * 4**4 - straight_flush
    two_pair = comb(13, 2) * comb(4, 2) ** 2
    pair = 13 * comb(4, 2) * comb(12, 2) * 4**2
    high = (comb(13, 4) - 11) * (4**4 - 4)
    expected = [high, pair, two_pair, straight, flush, trips, straight_flush, quads]
    assert sum(expected) == comb(52, 4) == 270_725
    assert (quads, straight_flush, trips, straight) == (13, 44, 2_496, 2_772)
    assert flush == 2_816  # four suits × C(13,4) rank sets, less the 44 straight flushes
    keys = fe.four_keys_of(combinations_array(52, 4))
    assert np.bincount(keys // fe.CATEGORY_UNIT, minlength=8).tolist() == expected


def test_four_card_keys_are_the_python_ranking_on_every_hand() -> None:
    rows = combinations_array(52, 4)
    keys = fe.four_keys_of(rows)
    assert (keys == four_card_keys(rows)).all()
    assert np.array_equal(np.unique(keys), distinct_keys())  # the 3,315 values, in order
    # the scalar ranking on a sample of pairs: the keys compare as the hands do
    gen = np.random.default_rng(641)
    pick = gen.integers(0, rows.shape[0], size=(4_000, 2))
    for i, j in pick.tolist():
        a = evaluate_four([DECK[c] for c in rows[i].tolist()])
        b = evaluate_four([DECK[c] for c in rows[j].tolist()])
        assert _cmp(int(keys[i]), int(keys[j])) == _cmp(a, b), (rows[i], rows[j])


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("Ah Kd Qc 9s", "2h 2d 3c 4s"),  # best high card < lowest pair
        ("Ah Ad Kc Qs", "2h 2d 3c 3s"),  # best pair < lowest two pair
        ("Ah Ad Kc Ks", "Ah 2d 3c 4s"),  # best two pair < the wheel, the lowest straight
        ("Jh Qd Kc As", "2h 3h 4h 6h"),  # best straight < lowest flush
        ("Ah Kh Qh Th", "2h 2d 2c 3s"),  # best flush < lowest three of a kind
        ("Ah Ad Ac Ks", "Ah 2h 3h 4h"),  # best three of a kind < lowest straight flush
        ("Jh Qh Kh Ah", "2h 2d 2c 2s"),  # best straight flush < lowest four of a kind
        ("Qh Kd Ac 2s", "2h 2d 3c 4s"),  # Q-K-A-2 is no straight: a high card, below a pair
        ("Ah 2h 3h 4h", "2d 3d 4d 5d"),  # the wheel is the lowest straight flush
        ("9h 9d 9c 2s", "9h 9d 9c 3s"),  # the kicker breaks a three-of-a-kind tie
        ("Kh Kd 5c 5s", "Kh Kd 6c 6s"),  # the lower pair breaks a two-pair tie
    ],
)
def test_category_boundaries_order_as_the_python_ranking(lower: str, higher: str) -> None:
    assert evaluate_four(parse_cards(lower)) < evaluate_four(parse_cards(higher))
    assert _key(lower) < _key(higher)


def test_ties_are_equal_keys() -> None:
    assert _key("Ah Kd Qc 9s") == _key("Ad Kc Qs 9h")
    assert _key("5h 5d 5c 9s") == _key("5s 5d 5c 9h")


def test_best_four_of_five_and_six_on_random_hands_is_the_python_ranking() -> None:
    gen = np.random.default_rng(7)
    hands = np.argsort(gen.random((100_000, 52)), axis=1)[:, :6]
    for m in (5, 6):
        rows = np.ascontiguousarray(hands[:, :m])
        got = fe.four_keys_of(rows)
        assert (got == distinct_keys()[best_four_ordinals(rows)]).all()
    # the category ordinal and tie-break key of a six-card hand by hand: best four K-K-K-9
    six = np.array([c.index for c in parse_cards("Kh Kd Ks 4c 9h 3s")], dtype=np.int64)
    key = int(fe.best_four_key(six, 6))
    assert key // fe.CATEGORY_UNIT == 5  # three of a kind
    assert key % fe.CATEGORY_UNIT == (11 * 13 + 7) * 13**2  # kings (11), the nine (7) kicker


def test_five_card_categories_are_the_published_frequencies() -> None:
    # the 2,598,960 five-card hands by category, high card first (royal flush last)
    published = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    cats = fe.five_categories_of(combinations_array(52, 5))
    assert np.bincount(cats, minlength=10).tolist() == published
    gen = np.random.default_rng(8)
    # contiguous, as the kernels are given their rows: a strided slice would compile a second
    # ('A' layout) version of the evaluator, ~11 s of CPU for no other check
    hands = np.ascontiguousarray(np.argsort(gen.random((50_000, 52)), axis=1)[:, :6])
    five = np.ascontiguousarray(hands[:, :5])
    assert (fe.five_categories_of(five) == five_card_categories(five)).all()
    assert (fe.five_categories_of(hands) == best_five_categories(np.sort(hands, axis=1))).all()


# -- the rounds and the wagers ---------------------------------------------------------------------


def _rounds(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    engine = kf.FourCardPokerRounds()
    records, lengths = engine.deal(
        shoe_cards(ONE_DECK), seed_state(np.random.SeedSequence(seed)), n, engine.buffers(n)
    )
    return records.copy(), lengths.copy()


def test_each_round_is_twelve_different_cards_uniformly_dealt() -> None:
    records, lengths = _rounds(200_000, 3)
    assert (lengths == kf.WIDTH).all()
    assert all(len(set(row)) == kf.WIDTH for row in records[:5_000].tolist())
    n = records.shape[0]
    sd = (n * (1 / 52) * (51 / 52)) ** 0.5
    for col in (0, 5, 11):  # a player card, the face-up card, the Six Card Bonus card
        counts = np.bincount(records[:, col].astype(np.int64), minlength=52)
        assert np.abs(counts - n / 52).max() <= 5 * sd, col


@pytest.mark.parametrize("wager_id", FCP)
def test_every_wager_reads_the_rounds_like_classify(wager_id: str) -> None:
    wager = get_wager(wager_id)
    plan = plan_for(wager, ONE_DECK)
    assert plan is not None and plan.engine == kf.FourCardPokerRounds()
    records, lengths = _rounds(20_000, 641)
    out = np.empty(records.shape[0], dtype=np.int64)
    plan.classify(records, lengths, out, *plan.args)
    cards = records[:, list(kf.record_columns(wager.deal))].astype(np.int64)
    assert out.tolist() == wager.classify_indices(cards).tolist()
    losing = len(wager.outcomes)
    for r in range(300):
        o = wager.classify([DECK[c] for c in cards[r].tolist()])
        assert out[r] == (losing if o is None else o.position), r
    assert len(set(out.tolist())) > 1


def test_the_ante_and_play_kernel_meets_every_decision() -> None:
    # fold, 1× and 3× all occur, and the decisions match the scalar face-up-card strategy
    from croupier.wagers.four_card_poker.ante_play import default_strategy

    wager = get_wager("four-card-poker")
    plan = plan_for(wager, ONE_DECK)
    assert plan is not None
    records, _ = _rounds(3_000, 17)
    perms, comb_t, classes, up, patterns = plan.args[1:]
    strategy = default_strategy()
    seen = set()
    for row in records[:1_500].tolist():
        hand = np.array(row[:5], dtype=np.int64)
        got = int(kf.upcard_multiple(hand, row[5], perms, comb_t, classes, up, patterns))
        decision = strategy.decide_with_upcard([DECK[c] for c in row[:5]], DECK[row[5]])
        assert got == decision.multiple
        seen.add(got)
    assert seen == {0, 1, 3}


def test_the_suit_pattern_picks_the_permutation_of_the_exact_table() -> None:
    # the permutation looked up by suit pattern is the one canonical_with_permutation finds by
    # trying all 24 (the first reaching the least colex index), on random hands of every shape
    from croupier.games.four_card_poker_exact import SUIT_PERMUTATIONS, canonical_with_permutation
    from croupier.poker.four_card import COMB, colex_index

    table = kf.pattern_permutations(SUIT_PERMUTATIONS.astype(np.int64), COMB)
    gen = np.random.default_rng(5)
    hands = np.sort(np.argsort(gen.random((40_000, 52)), axis=1)[:, :5], axis=1)
    quads = np.array([[0, 1, 2, 3, 51], [4, 5, 6, 7, 8], [8, 9, 10, 11, 12]])  # rare shapes
    hands = np.concatenate([hands, quads]).astype(np.int64)
    _, which = canonical_with_permutation(colex_index(hands))
    for row, k in zip(hands[:, ::-1].tolist(), which.tolist(), strict=True):  # highest first
        key = kf._pattern(np.array(row, dtype=np.int64))
        assert table[key] == k, row
    # the patterns five different cards make: runs of one rank of 1–4 cards, each run's suits
    # all different — a(n) = Σ_g C(4, g)·a(n − g), a(0) = 1: 4, 22, 116, 613, 3,240
    a = [1]
    for n in range(1, 6):
        a.append(sum(comb(4, g) * a[n - g] for g in range(1, min(4, n) + 1)))
    assert a[5] == 3_240 == int((table >= 0).sum())


def test_record_columns_follow_each_wagers_deal() -> None:
    assert kf.record_columns(get_wager("four-card-poker").deal) == tuple(range(11))
    assert kf.record_columns(get_wager("six-card-bonus").deal) == (0, 1, 2, 3, 4, 11)
    assert kf.record_columns(get_wager("five-card-hand-bonus-dealer").deal) == tuple(range(5, 11))


@pytest.mark.parametrize("wager_id", FCP)
def test_kernel_tallies_within_4_standard_errors_of_every_par_sheet(wager_id: str) -> None:
    wager = get_wager(wager_id)
    rounds = 100_000
    for table, decks in wager.offerings():
        exact = exact_parsheet(wager, table.key, decks=decks)
        sim = simulate(wager, table.key, rounds, 6410 + len(wager_id), decks=decks)
        assert "compiled kernel" in sim.convention and "§ 641a.7(d)" in sim.convention
        assert sim.standard_error is not None
        z = float(sim.expected_return - exact.expected_return) / sim.standard_error
        assert abs(z) <= 4, (table.key, z)
        for e, s in zip(exact.rows, sim.rows, strict=True):
            p = float(e.probability)
            sd = (rounds * p * (1 - p)) ** 0.5
            assert abs((s.hits or 0) - rounds * p) <= 4 * sd + 1, e.outcome


@pytest.mark.slow
@pytest.mark.parametrize("wager_id", FCP)
def test_big_kernel_runs_within_4_standard_errors_line_by_line(wager_id: str) -> None:
    wager = get_wager(wager_id)
    rounds = 10_000_000
    for table, decks in wager.offerings():
        exact = exact_parsheet(wager, table.key, decks=decks)
        sim = simulate(wager, table.key, rounds, 64107, decks=decks)
        assert sim.standard_error is not None
        z = float(sim.expected_return - exact.expected_return) / sim.standard_error
        assert abs(z) <= 4, (table.key, z)
        for e, s in zip(exact.rows, sim.rows, strict=True):
            p = float(e.probability)
            sd = (rounds * p * (1 - p)) ** 0.5
            assert abs((s.hits or 0) - rounds * p) <= 4 * sd + 1, e.outcome


def test_several_wagers_read_the_same_rounds() -> None:
    plans = [p for w in FCP if (p := plan_for(get_wager(w), ONE_DECK)) is not None]
    assert len(plans) == len(FCP)
    both = count_with(plans, ONE_DECK, 30_000, seed_state(np.random.SeedSequence(5)))
    alone = count_with(plans[:1], ONE_DECK, 30_000, seed_state(np.random.SeedSequence(5)))
    assert both[0] == alone[0] and all(sum(t) == 30_000 for t in both)


@pytest.mark.parametrize("wager_id", ["four-card-poker", "bad-beat-bonus"])
def test_one_and_two_workers_give_identical_tallies(wager_id: str) -> None:
    wager = get_wager(wager_id)
    args = (wager, ONE_DECK, 130_000, 20261201)
    one = run_chunks(*args, workers=1, chunk_rounds=40_000)
    two = run_chunks(*args, workers=2, chunk_rounds=40_000)
    assert one == two and sum(one) == 130_000
    assert run_chunks(wager, ONE_DECK, 130_000, 20261202, chunk_rounds=40_000) != one


def test_a_shoe_short_of_a_round_is_dealt_by_the_top_cards() -> None:
    aces_up = get_wager("aces-up")
    short = Shoe.from_counts({str(c): 1 for c in DECK[:10]})
    assert plan_for(aces_up, short) is None
    # a deck without its aces (48 cards) is dealt whole rounds: the par sheet of that shoe
    no_aces = Shoe.from_counts({str(c): 1 for c in DECK if c.rank.value != 14})
    assert plan_for(aces_up, no_aces) is not None
    exact = exact_parsheet(aces_up, "pa-casino", decks=1, shoe=no_aces)
    sim = simulate(aces_up, "pa-casino", 200_000, 5, decks=1, shoe=no_aces)
    assert "compiled kernel" in sim.convention and sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error
    assert sim.rows[-2].hits == 0  # no pair of aces without aces


def test_verify_parsheets_uses_the_kernel() -> None:
    run = run_main(
        ["verify-parsheets", "--wager", "bad-beat-bonus", "--wager", "aces-up",
         "--target-se", "0.05", "--seed", "641", "--json"]
    )  # fmt: skip
    assert run.code == 0, run.err
    sheets = json.loads(run.out)["sheets"]
    assert {s["wager"] for s in sheets} == {"bad-beat-bonus", "aces-up"}
    assert all(s["kernel"] and abs(s["z_score"]) <= 4 for s in sheets)
