"""The Blackjack strategy engine's bulk tables (croupier.analysis.blackjack_strategy) are the
one-hand-at-a-time recursion's values to the last bit, and the Switch Hands switch values computed
for many face-up pairs at once are the one-pair values: every figure printed before the tables
existed is printed unchanged.

The reference in each test is the scalar code path with the bulk path switched off: the dealer's
results one composition at a time (``_dealer_results``) and the player's hands by the memoised
recursion (``_Engine.best``), from empty caches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from croupier.analysis import blackjack_dealer
from croupier.analysis import blackjack_strategy as bs
from croupier.analysis import switch_hands as sh
from croupier.analysis.blackjack_strategy import ACE, TEN, VALUES, PlayRules
from croupier.wagers.switch_hands import Variant, blackjack_pays


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Empty engine, hand-value and dealer caches (restored empty afterwards)."""
    monkeypatch.setattr(bs, "_DEALER_CACHE", {})
    monkeypatch.setattr(bs, "_ENGINES", {})
    monkeypatch.setattr(bs, "_TABLED", set())
    bs._hand_values.cache_clear()
    yield
    bs._hand_values.cache_clear()


def _scalar_hand_values(
    monkeypatch: pytest.MonkeyPatch, rules: PlayRules, hands: list[tuple[int, int, int]]
) -> list[bs.HandValues]:
    """hand_values by the recursion alone: no tables, own empty caches."""
    with monkeypatch.context() as m:
        m.setattr(bs, "_table_upcard", lambda *args: None)
        m.setattr(bs, "_DEALER_CACHE", {})
        m.setattr(bs, "_ENGINES", {})
        bs._hand_values.cache_clear()
        out = [bs.hand_values(rules, u, a, b) for u, a, b in hands]
    bs._hand_values.cache_clear()
    return out


def test_dealer_results_for_many_shoes_at_once_are_the_one_shoe_results() -> None:
    rng = np.random.default_rng(633)
    for decks in (1, 2, 8):
        full = np.array([4 * decks] * 9 + [16 * decks], dtype=np.int64)
        for upcard in range(VALUES):
            comps = np.maximum(full - rng.integers(0, 4, size=(40, VALUES)), 0)
            comps[:, upcard] = np.maximum(comps[:, upcard] - 1, 0)
            comps[0] = 0  # an empty shoe: every final hand impossible
            comps[1] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]  # two cards: most final hands impossible
            comps[2, ACE if upcard == TEN else TEN] = 0  # no hole card makes a Blackjack
            for h17 in (False, True):
                p, p_bj = bs._dealer_batch(comps, upcard, h17)
                for row, counts in enumerate(comps.tolist()):
                    one, q = blackjack_dealer._dealer_results(tuple(counts), upcard, h17)
                    assert p[row].tolist() == one.tolist(), (decks, upcard, h17, counts)
                    assert p_bj[row] == q


@pytest.mark.usefixtures("fresh")
@pytest.mark.parametrize("upcard", [ACE, 5, TEN])
def test_tabled_hands_are_the_recursion_to_the_last_bit(
    monkeypatch: pytest.MonkeyPatch, upcard: int
) -> None:
    # one deck: the shoe runs out of some values, so rows the shoe cannot hold appear too
    rules = PlayRules.of(1, hits_soft_17=True)
    extra = bs._hand(3)  # a card known to be out (as for a Switch Hands discard)
    bs._table_upcard(rules, upcard, extra)
    monkeypatch.setattr(bs, "_DEALER_CACHE", {})  # the recursion reads none of the tables' work
    for removed, family in ((extra, bs._family(None)), (bs._add(extra, 7), bs._family(7))):
        tabled = bs._engine(rules, upcard, removed)
        assert family.containing in tabled.tables
        scalar = bs._Engine(rules, upcard, removed)
        checked = 0
        for hand in family.hands:
            if min(scalar.composition(hand)) < 0:
                continue
            assert tabled.stand(hand) == scalar.stand(hand), hand
            assert tabled.best(hand) == scalar.best(hand), hand
            checked += 1
        assert checked > 200


@pytest.mark.usefixtures("fresh")
def test_hand_values_with_tables_are_those_of_the_recursion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = PlayRules.of(2, late_surrender=True)
    hands = [(5, 7, 7), (5, ACE, ACE), (TEN, 4, TEN), (ACE, 4, 5), (ACE, ACE, TEN), (0, 1, 1)]
    expected = _scalar_hand_values(monkeypatch, rules, hands)
    got = [bs.hand_values(rules, u, a, b) for u, a, b in hands]
    assert [dataclasses.astuple(h) for h in got] == [dataclasses.astuple(h) for h in expected]


def test_switch_values_of_many_face_up_pairs_are_the_one_pair_values() -> None:
    rules = PlayRules.of(6)
    pays = blackjack_pays(Variant.SWITCH_HANDS, True, True, tie_pays=True)
    for u_type in (0, 11, 19):
        u = sh._TYPES[u_type][0]
        after_up = sh._colour_counts(6)
        after_up[u_type] -= 1
        hv = {
            (a, b): bs.hand_values(rules, u, a, b) for a in range(VALUES) for b in range(a, VALUES)
        }
        non_bj = {k: h.value(0, 0) for k, h in hv.items() if not h.blackjack}
        q = hv[(ACE, TEN)].p_dealer_blackjack
        face_up = [(i, j) for i, j, _ in sh._pairs(after_up)]
        many = sh._switch_values(face_up, after_up, non_bj, q, pays)
        for (i, j), value in zip(face_up, many, strict=True):
            rest = list(after_up)
            rest[i] -= 1
            rest[j] -= 1
            assert value == sh._switch_value(rest, non_bj, q, pays), (u_type, i, j)


@pytest.mark.slow
@pytest.mark.usefixtures("fresh")
@pytest.mark.parametrize(
    "rules",
    [  # H17 with surrender, re-split and hit split aces, no DAS with one split: every branch
        PlayRules.of(2, hits_soft_17=True, late_surrender=True),
        PlayRules.of(1, split_hands=3, resplit_aces=True, hit_split_aces=True),
        PlayRules.of(8, das=False, split_hands=2),
    ],
    ids=lambda r: r.describe(),
)
def test_every_hand_value_is_the_recursion_to_the_last_bit(
    monkeypatch: pytest.MonkeyPatch, rules: PlayRules
) -> None:
    hands = [(u, a, b) for u in range(VALUES) for a in range(VALUES) for b in range(a, VALUES)]
    expected = _scalar_hand_values(monkeypatch, rules, hands)
    got = [bs.hand_values(rules, u, a, b) for u, a, b in hands]
    assert [dataclasses.astuple(h) for h in got] == [dataclasses.astuple(h) for h in expected]
