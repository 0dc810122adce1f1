"""Reading Blackjack rounds while dealing them (``deal_count``) and the batched bounded draws.

The fused engine must give exactly the tallies of dealing the same rounds into records and
classifying them (the record classifiers are checked card for card against the wagers' scalar
``classify`` in tests/analysis/kernels/test_kernels.py); the batched draws must be exactly uniform, checked
exhaustively on a small word against the mixed-radix argument, and the compiled draw must be that
algorithm on 32-bit words.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from croupier.analysis.kernels import count_with, plan_for, rng
from croupier.analysis.kernels.plans import BlackjackRounds
from croupier.cards import Shoe
from croupier.games.blackjack import BlackjackRules, DealerCompletion, SoftSeventeen
from croupier.wagers import get_wager

SIDE_WAGERS = ("perfect-pairs", "match-the-dealer", "jackpot-party", "axman")


def _batched(word: int, n: int, bits: int) -> tuple[int, int, int, int]:
    """The batched draw of three digits below n, n−1, n−2 from a ``bits``-bit word, by plain
    integer arithmetic: the digits and the word's leftover (what Lemire's test reads)."""
    mask = (1 << bits) - 1
    m = word * n
    a, low = m >> bits, m & mask
    m = low * (n - 1)
    b, low = m >> bits, m & mask
    m = low * (n - 2)
    c, low = m >> bits, m & mask
    return a, b, c, low


@pytest.mark.parametrize("n", [3, 5, 7, 12, 16])
def test_batched_draws_are_exactly_uniform_on_a_small_word(n: int) -> None:
    # every 12-bit word: after rejecting leftovers below 2^12 mod p, each digit triple occurs
    # equally often (p = n (n-1) (n-2) <= 2^12 triples)
    bits = 12
    p = n * (n - 1) * (n - 2)
    threshold = (1 << bits) % p
    seen = Counter(
        (a, b, c)
        for a, b, c, low in (_batched(w, n, bits) for w in range(1 << bits))
        if low >= threshold
    )
    assert set(seen) == set(itertools.product(range(n), range(n - 1), range(n - 2)))
    assert len(set(seen.values())) == 1


def test_compiled_batched_draw_is_the_algorithm_on_32_bit_words() -> None:
    gen = np.random.default_rng(633)
    s = [np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)]
    for n in (3, 52, 312, 416, rng.TRIPLE_MAX):
        p = n * (n - 1) * (n - 2)
        for word in gen.integers(0, 1 << 32, size=2000).tolist():
            a, b, c, low = _batched(word, n, 32)
            if low < (1 << 32) % p:
                continue  # rejected: the compiled draw takes a fresh word
            got = rng.three_below(np.uint64(word), n, *s)[:3]
            assert got == (a, b, c), (n, word)


def test_step_is_next_u64_on_local_words() -> None:
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    words: tuple[np.uint64, ...] = (np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4))
    for _ in range(5):
        out, *rest = rng.step(*words)
        words = tuple(np.uint64(w) for w in rest)  # back to uint64 (numba returns ints)
        assert int(out) == int(rng.next_u64(state))
    assert [int(w) for w in words] == state.tolist()


@pytest.mark.parametrize("seats", [1, 3])
@pytest.mark.parametrize(
    "rules",
    [
        BlackjackRules(decks=6),
        BlackjackRules(decks=8, soft_17=SoftSeventeen.HITS),
        BlackjackRules(decks=2, peek=False),
        BlackjackRules(decks=6, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS),
    ],
)
def test_reading_while_dealing_gives_the_record_tallies(seats: int, rules: BlackjackRules) -> None:
    shoe = rules.shoe()
    engine = BlackjackRounds(rules, seats=seats)
    plans = []
    for w in SIDE_WAGERS:
        plan = plan_for(get_wager(w), shoe)
        assert plan is not None and plan.reader is not None
        plans.append(replace(plan, engine=engine))
    records = [replace(p, reader=None) for p in plans]
    n = 150_000  # more than one record block, not a whole number of them
    fused = count_with(plans, shoe, n, rng.seed_state(np.random.SeedSequence(18)))
    dealt = count_with(records, shoe, n, rng.seed_state(np.random.SeedSequence(18)))
    assert fused == dealt
    assert all(sum(t) == n for t in fused)
    assert fused[3][-1] < n  # AxMan hands were read, not all losses


def test_a_small_shoe_runs_out_the_same_way_both_ways() -> None:
    # eight cards: three seats need eight before any draw; a draw then runs out
    shoe = Shoe.from_counts({"As": 2, "Kd": 2, "2c": 2, "3h": 2})
    engine = BlackjackRounds(BlackjackRules(decks=1), seats=3)
    plan = plan_for(get_wager("perfect-pairs"), Shoe.standard(1))
    assert plan is not None
    fused = replace(plan, engine=engine)
    for p in (fused, replace(fused, reader=None)):
        with pytest.raises(Exception, match="ran out of cards"):
            count_with([p], shoe, 1000, rng.seed_state(np.random.SeedSequence(1)))
