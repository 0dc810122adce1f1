"""Four Card Poker's exact dealer counts: for every player hand, how many of the dealer's
C(47, 6) = 10,737,573 six-card hands beat it, tie it, and fall in each category (58 Pa. Code
§ 641a.7(d)(1): the dealer plays the best four of six and always qualifies).

Enumerating the dealer's hands for each of the 2,598,960 player hands would take 2.8 × 10¹³ hand
evaluations. Instead (:func:`~croupier.games.four_card_poker_regenerate.regenerate`):

1. the strength of every four-card hand (C(52, 4) = 270,725) is tabulated, and from it the dealer's
   best-four strength ``v`` of every six-card hand of the deck (C(52, 6) = 20,358,520), once;
2. for a player hand P with best-four strength t, the dealer hands that avoid P's cards are counted
   by inclusion–exclusion over the subsets S of P::

       #{D ∩ P = ∅ : v(D) > t} = Σ_{S ⊆ P} (−1)^|S| · #{D ⊇ S : v(D) > t}

   where the inner counts come from histograms of ``v`` over the six-card hands containing each
   set of 0–3 cards (22,100 triples × 2,535 strengths), a sorted array of (four-card subset,
   ``v``) keys for the 270,725 sets of four, and a direct pass for the sets of five;
3. the same structures, binned by category instead of strength, give each player hand's dealer
   category counts — the joint distribution the Bad Beat Bonus (§ 641a.7(d)(6)) needs;
4. with the dealer's face-up card u known, the same sum over S ∪ {u} (sets of up to six cards:
   a sorted key array for sets of five, the strength table for six) counts, for every class and
   each of the 47 face-up cards, the dealer's other five cards that beat the player — the exact
   optimal decision reading the face-up card.

The result is reduced to the 134,459 suit-isomorphism classes of five-card hands and shipped as
``games/data/four-card-poker-dealer.npz``; :func:`load_dealer_table` reads it. Regenerate with
``croupier strategy four-card-poker --regenerate`` (about five minutes on one core, ~7 GB of
memory).
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import combinations, permutations
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.errors import InputError, OutputError
from croupier.poker.four_card import (
    category_of_ordinal,
    comb_table,
    combinations_array,
    distinct_keys,
    value_table,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from croupier.poker.four_card import IntArray

    SUIT_PERMUTATIONS: IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np


def __getattr__(name: str) -> Any:
    """:data:`SUIT_PERMUTATIONS`, numpy imported on first use (PEP 562)."""
    if name == "SUIT_PERMUTATIONS":
        return suit_permutations()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PLAYER_HANDS = comb(52, 5)
"""2,598,960 five-card player hands."""
DEALER_HANDS = comb(47, 6)
"""10,737,573 six-card dealer hands from the 47 cards the player does not hold."""
CATEGORIES = 8
"""Four-card categories (high card 0 … four-of-a-kind 7)."""
DATA_FILE = "four-card-poker-dealer.npz"

Progress = Callable[[str], None]


@dataclass(frozen=True)
class DealerTable:
    """Exact dealer counts per suit-isomorphism class of player hands.

    ``classes[i]`` is the colex index of the class's representative (the least colex index among
    the hands the suit permutations make of it), ``sizes[i]`` how many player hands the class
    holds, ``beats[i]`` / ``ties[i]`` how many of the dealer's 10,737,573 hands beat / tie each of
    them. ``joint[p, d, r]`` counts every deal (player hand × dealer hand) whose player has
    category ``p`` and dealer category ``d``, with result ``r`` (0 the player outranks the dealer,
    1 tie, 2 the dealer outranks the player).
    """

    classes: npt.NDArray[np.int32]
    sizes: npt.NDArray[np.int32]
    beats: npt.NDArray[np.int32]
    ties: npt.NDArray[np.int32]
    joint: npt.NDArray[np.int64]
    up_decisions: npt.NDArray[np.int8]
    """``up_decisions[i, j]``: the optimal Play multiple (0, 1, 3) for class ``i`` when the dealer's
    face-up card is the ``j``-th (in index order) of the 47 cards the representative lacks."""
    up_counts: npt.NDArray[np.int64]
    """Deals (player hand × face-up card × the dealer's other five) under the up-card strategy:
    ``up_counts[m, c, w]`` for multiple index ``m`` (0 fold, 1 play 1×, 2 play 3×), the player's
    category strength ``c``, ``w`` 1 when the player wins or ties, 0 when the player loses."""

    def class_of(self, colex: IntArray) -> IntArray:
        """The class position of each player hand given by its colex index (sorted cards)."""
        canon = canonical_five(colex)
        pos = np.searchsorted(self.classes, canon)
        if not (self.classes[np.minimum(pos, len(self.classes) - 1)] == canon).all():
            raise InputError("a player hand is not in the dealer table (corrupt data file?)")
        return pos

    def digest(self) -> str:
        """SHA-256 of the table's arrays (to pin a regenerated table against the shipped one)."""
        h = hashlib.sha256()
        for a in (
            self.classes,
            self.sizes,
            self.beats,
            self.ties,
            self.joint,
            self.up_decisions,
            self.up_counts,
        ):
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()


# -- suit isomorphism ----------------------------------------------------------------------------


def canonical_five(colex: IntArray) -> IntArray:
    """The class representative (least colex index under the 24 suit permutations) of each
    five-card hand given by its colex index."""
    hands = _hands_of(colex)
    best = np.full(hands.shape[0], np.iinfo(np.int64).max, dtype=np.int64)
    for perm in permutations(range(4)):
        mapped = (hands // 4) * 4 + np.asarray(perm, dtype=np.int64)[hands % 4]
        mapped.sort(axis=1)
        idx = np.zeros(hands.shape[0], dtype=np.int64)
        for i in range(5):
            idx += comb_table()[mapped[:, i], i + 1]
        best = np.minimum(best, idx)
    return best


@functools.cache
def suit_permutations() -> IntArray:
    """The 24 permutations of the four suits, one a row (``SUIT_PERMUTATIONS[k][s]`` is the suit
    ``s`` becomes under the k-th): a hand and its suit-permuted images count alike. Also the
    module attribute ``SUIT_PERMUTATIONS``."""
    table: IntArray = np.array(list(permutations(range(4))), dtype=np.int64)
    return table


def canonical_with_permutation(colex: IntArray) -> tuple[IntArray, IntArray]:
    """As :func:`canonical_five`, with the index (into the 24 suit permutations) of one
    permutation that maps each hand to its representative."""
    hands = _hands_of(colex)
    best = np.full(hands.shape[0], np.iinfo(np.int64).max, dtype=np.int64)
    which = np.zeros(hands.shape[0], dtype=np.int64)
    for k, perm in enumerate(suit_permutations()):
        mapped = (hands // 4) * 4 + perm[hands % 4]
        mapped.sort(axis=1)
        idx = np.zeros(hands.shape[0], dtype=np.int64)
        for i in range(5):
            idx += comb_table()[mapped[:, i], i + 1]
        better = idx < best
        which = np.where(better, k, which)
        best = np.minimum(best, idx)
    return best, which


def upcard_position(colex: IntArray, upcard: IntArray) -> tuple[IntArray, IntArray]:
    """For player hands (colex) and dealer face-up cards (card indices): the class representative
    and the position of the mapped face-up card among the 47 cards the representative lacks."""
    canon, which = canonical_with_permutation(colex)
    perm = suit_permutations()[which]
    mapped = (upcard // 4) * 4 + perm[np.arange(len(upcard)), upcard % 4]
    rep = _hands_of(canon)
    below = (rep < mapped[:, None]).sum(axis=1)
    return canon, mapped - below


_PERM_MAPS: tuple[tuple[int, ...], ...] = tuple(
    tuple((c // 4) * 4 + p[c % 4] for c in range(52)) for p in permutations(range(4))
)
"""``_PERM_MAPS[k][c]``: card ``c`` with its suit relabelled by the ``k``-th suit permutation."""
_COMB_ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(c, k) for c in range(52)) for k in range(6)
)
"""``_COMB_ROWS[k][c]`` = C(c, k) as Python integers, for the scalar colex index."""


def upcard_position_one(cards: Sequence[int], upcard: int) -> tuple[int, int]:
    """:func:`upcard_position` for one player hand, given as its five card indices (any order), and
    one face-up card index: the same permutation (the first of the 24 that reaches the least colex
    index) and so the same class representative and face-up card position, in plain Python (the
    vectorised function costs a millisecond or more for a single hand)."""
    a, b, c, d, e = cards
    _, c1, c2, c3, c4, c5 = _COMB_ROWS
    best = -1
    best_map: tuple[int, ...] = ()
    best_rep: list[int] = []
    for mp in _PERM_MAPS:
        m = sorted((mp[a], mp[b], mp[c], mp[d], mp[e]))
        idx = c1[m[0]] + c2[m[1]] + c3[m[2]] + c4[m[3]] + c5[m[4]]
        if best < 0 or idx < best:
            best, best_map, best_rep = idx, mp, m
    mapped = best_map[upcard]
    below = sum(1 for x in best_rep if x < mapped)
    return best, mapped - below


@functools.cache
def _all_fives() -> IntArray:
    return combinations_array(52, 5)


def _hands_of(colex: IntArray) -> IntArray:
    return _all_fives()[np.asarray(colex, dtype=np.int64)]


# -- colex indices of subsets -----------------------------------------------------------------------


def _subset_colex(sorted_rows: IntArray, positions: tuple[int, ...]) -> IntArray:
    idx = np.zeros(sorted_rows.shape[0], dtype=np.int64)
    for j, p in enumerate(positions):
        idx += comb_table()[sorted_rows[:, p], j + 1]
    return idx


# -- the shipped table ---------------------------------------------------------------------------


def save_dealer_table(table: DealerTable, path: str | Path) -> Path:
    """Write the table as a compressed ``.npz``; :class:`OutputError` when it cannot be written."""
    p = Path(path)
    try:
        with p.open("wb") as f:
            np.savez_compressed(
                f,
                classes=table.classes,
                sizes=table.sizes,
                beats=table.beats,
                ties=table.ties,
                joint=table.joint,
                up_decisions=table.up_decisions,
                up_counts=table.up_counts,
            )
    except OSError as exc:
        raise OutputError(f"cannot write the dealer table to {str(p)!r}: {exc.strerror}") from exc
    return p


def read_dealer_table(source: str | Path) -> DealerTable:
    """Read a dealer table written by :func:`save_dealer_table`, checking its totals."""
    with np.load(source) as data:
        table = DealerTable(
            data["classes"].astype(np.int32),
            data["sizes"].astype(np.int32),
            data["beats"].astype(np.int32),
            data["ties"].astype(np.int32),
            data["joint"].astype(np.int64),
            data["up_decisions"].astype(np.int8),
            data["up_counts"].astype(np.int64),
        )
    if (
        int(table.sizes.astype(np.int64).sum()) != PLAYER_HANDS
        or int(table.joint.sum()) != PLAYER_HANDS * DEALER_HANDS
        or int(table.up_counts.sum()) != PLAYER_HANDS * 47 * comb(46, 5)
    ):
        raise InputError(f"{source}: the dealer table's totals are wrong")
    return table


def shipped_path() -> Path:
    """Where the shipped table lives inside the package."""
    return Path(str(resources.files("croupier.games") / "data" / DATA_FILE))


@functools.cache
def load_dealer_table() -> DealerTable:
    """The shipped dealer table (``croupier strategy four-card-poker --regenerate`` rebuilds it)."""
    path = shipped_path()
    if not path.exists():
        raise InputError(
            f"the Four Card Poker dealer table {path} is missing: run "
            "`croupier strategy four-card-poker --regenerate`"
        )
    return read_dealer_table(path)


# -- a depleted deck: the showdown counts of any set of the deck's cards, and of it less a card --


@dataclass(frozen=True)
class ShowdownRemovals:
    """Exact showdown counts over a deck of any of the 52 cards (``cards``: their indices,
    increasing), and over that deck less each one of its cards.

    ``joint[p, d, r]`` (shape 8 × 8 × 3, the layout of :attr:`DealerTable.joint`) counts every
    deal of the player's five cards and the dealer's six from ``cards``, by the player's best-four
    category ``p``, the dealer's ``d`` and the result ``r`` (0 the player outranks the dealer,
    1 tie, 2 the dealer outranks the player); ``removed[i]`` is the same over ``cards`` less
    ``cards[i]``."""

    cards: tuple[int, ...]
    joint: npt.NDArray[np.int64]
    removed: npt.NDArray[np.int64]

    def without(self, card: int) -> npt.NDArray[np.int64]:
        """The joint counts of the deck less ``card`` (a card index the deck holds)."""
        if card not in self.cards:
            raise InputError(f"card index {card} is not in the deck")
        out: npt.NDArray[np.int64] = self.removed[self.cards.index(card)]
        return out


_EXACT_FLOAT = 2**53
"""Sums below this are exact in float64 (``np.bincount`` with weights adds in float64)."""


def _strengths(cards: IntArray, rows: npt.NDArray[np.int8], chunk: int) -> npt.NDArray[np.int16]:
    """The best-four strength ordinal of each row of positions into ``cards`` (rows increasing)."""
    v4 = value_table()
    out = np.empty(rows.shape[0], dtype=np.int16)
    for s in range(0, rows.shape[0], chunk):
        part = cards[rows[s : s + chunk].astype(np.int64)]
        best = np.zeros(part.shape[0], dtype=np.int16)
        for four in combinations(range(rows.shape[1]), 4):
            best = np.maximum(best, v4[_subset_colex(part, four)])
        out[s : s + chunk] = best
    return out


@dataclass(frozen=True)
class _Containing:
    """Over a family of sets (five- or six-card hands) with strengths: for each set S of 0–3
    positions, ``hist[k][S, v]`` the sets containing S of strength v, ``below[k][S, v]`` those
    weaker than v, ``total[k][S]`` all of them and ``cats[k][S, c]`` those of category c; for
    sets of four, the sorted keys (colex × strengths + strength) of the sets containing each
    (``per_four`` of them) and ``cats[4]``."""

    hist: list[npt.NDArray[np.int32]]
    below: list[npt.NDArray[np.int32]]
    total: list[IntArray]
    cats: list[IntArray]
    keys: npt.NDArray[np.int32]
    per_four: int


def _containing(
    rows: npt.NDArray[np.int8], value: npt.NDArray[np.int16], n: int, n_values: int, chunk: int
) -> _Containing:
    """:class:`_Containing` of the sets ``rows`` (positions, increasing) of strengths ``value``."""
    size = rows.shape[1]
    if comb(n, 4) * n_values >= 2**31:  # pragma: no cover - n ≤ 52
        raise AssertionError("four-set keys overflow int32")
    cat_of_value = category_of_ordinal(np.arange(n_values)).astype(np.int64)
    starts = np.searchsorted(cat_of_value, np.arange(CATEGORIES))
    hist: list[npt.NDArray[np.int32]] = []
    below: list[npt.NDArray[np.int32]] = []
    total: list[IntArray] = []
    cats: list[IntArray] = []
    for k in range(4):
        h = np.zeros(comb(n, k) * n_values, dtype=np.int64)
        for s in range(0, rows.shape[0], chunk):
            part = rows[s : s + chunk].astype(np.int64)
            v = value[s : s + chunk].astype(np.int64)
            keys = np.concatenate(
                [_subset_colex(part, sub) * n_values + v for sub in combinations(range(size), k)]
            )
            h += np.bincount(keys, minlength=h.size)
            del keys
        h2 = h.reshape(comb(n, k), n_values)
        hist.append(h2.astype(np.int32))
        below.append((np.cumsum(h2, axis=1) - h2).astype(np.int32))
        total.append(h2.sum(axis=1))
        cats.append(np.add.reduceat(h2, starts, axis=1))
        del h, h2
    keys4 = np.empty(rows.shape[0] * comb(size, 4), dtype=np.int32)
    cat4 = np.zeros(comb(n, 4) * CATEGORIES, dtype=np.int64)
    pos = 0
    for s in range(0, rows.shape[0], chunk):
        part = rows[s : s + chunk].astype(np.int64)
        v = value[s : s + chunk].astype(np.int64)
        c = cat_of_value[v]
        for sub in combinations(range(size), 4):
            sc = _subset_colex(part, sub)
            keys4[pos : pos + part.shape[0]] = sc * n_values + v
            cat4 += np.bincount(sc * CATEGORIES + c, minlength=cat4.size)
            pos += part.shape[0]
    keys4.sort()
    cats.append(cat4.reshape(comb(n, 4), CATEGORIES))
    return _Containing(hist, below, total, cats, keys4, comb(n - 4, size - 4))


def _four_counts(
    table: _Containing, sc: IntArray, v: IntArray, n_values: int
) -> tuple[IntArray, IntArray]:
    """For sets of four (colex ``sc``) and strengths ``v``: how many of the sets containing each
    are weaker than v, and how many equal it."""
    q = (sc * n_values + v).astype(np.int32)
    lo = np.searchsorted(table.keys, q, side="left").astype(np.int64)
    hi = np.searchsorted(table.keys, q, side="right").astype(np.int64)
    return lo - sc * table.per_four, hi - lo


def _aggregate(
    rows: IntArray, cat: IntArray, figures: IntArray, n: int, out: npt.NDArray[np.float64]
) -> None:
    """Add ``figures`` (one row a set) into ``out[x, category]`` for every position ``x`` the set
    holds (float64 sums, exact below 2⁵³: checked by the caller)."""
    for j in range(rows.shape[1]):
        key = rows[:, j].astype(np.int64) * CATEGORIES + cat
        for col in range(figures.shape[1]):
            out[:, :, col] += np.bincount(
                key, weights=figures[:, col], minlength=n * CATEGORIES
            ).reshape(n, CATEGORIES)


def _player_joint(agg: IntArray) -> npt.NDArray[np.int64]:
    """Joint counts from figures by player category: ``agg[p] = (dealer hands that beat the
    player, that tie, then by dealer category 0–7)`` summed over player hands of category p."""
    joint = np.zeros((CATEGORIES, CATEGORIES, 3), dtype=np.int64)
    for p in range(CATEGORIES):
        beats, ties, cats = agg[p, 0], agg[p, 1], agg[p, 2:]
        joint[p, :p, 0] = cats[:p]
        joint[p, p + 1 :, 2] = cats[p + 1 :]
        own_beats = beats - cats[p + 1 :].sum()
        joint[p, p] = (cats[p] - ties - own_beats, ties, own_beats)
    return joint


def _dealer_joint(agg: IntArray) -> npt.NDArray[np.int64]:
    """Joint counts from figures by dealer category: ``agg[d] = (player hands weaker than the
    dealer's, equal, then by player category 0–7)`` summed over dealer hands of category d."""
    joint = np.zeros((CATEGORIES, CATEGORIES, 3), dtype=np.int64)
    for d in range(CATEGORIES):
        below, ties, cats = agg[d, 0], agg[d, 1], agg[d, 2:]
        joint[:d, d, 2] = cats[:d]
        joint[d + 1 :, d, 0] = cats[d + 1 :]
        own_below = below - cats[:d].sum()
        joint[d, d] = (cats[d] - ties - own_below, ties, own_below)
    return joint


@dataclass(frozen=True, eq=False)
class _Hands:
    """The player's five-card and the dealer's six-card hands of a deck of ``n`` cards (rows of
    positions, increasing), their best-four strengths and categories, walked ``chunk`` rows at a
    time."""

    n: int
    n_values: int
    fives: npt.NDArray[np.int8]
    sixes: npt.NDArray[np.int8]
    t5: npt.NDArray[np.int16]
    v6: npt.NDArray[np.int16]
    c5: IntArray
    c6: IntArray
    chunk: int


_WIDTH = 2 + CATEGORIES
"""Figures of a hand: (beats or weaker, ties, then by category 0–7)."""


def showdown_removals(
    cards: Sequence[int], progress: Progress | None = None, chunk: int = 1_000_000
) -> ShowdownRemovals:
    """The exact showdown counts over the deck ``cards`` (card indices of the 52-card deck,
    distinct, at least 11) and over it less each one of its cards, in one pass (minutes and a
    few GB for the full deck; well under a second for a deck of 14 cards).

    The deals of the deck less a card x are all its deals less those holding x: the player's
    hands holding x, each against every dealer hand avoiding it, and the dealer's hands holding
    x, each against every player hand avoiding it. Both sides are counted as
    :func:`~croupier.games.four_card_poker_regenerate.regenerate`
    counts the dealer's hands avoiding a player hand — inclusion–exclusion over the subsets of
    the hand of the other side's hands containing them — and summed over the hands holding each
    card. The full joint comes out once from each side: the two must agree. Raises
    :class:`~croupier.errors.InputError` for a deck of repeated, unknown or too few cards.
    """
    deck = np.array(sorted(set(cards)), dtype=np.int64)
    n = deck.size
    if n != len(cards) or n < 11 or deck.min() < 0 or deck.max() > 51:
        raise InputError(
            "a Four Card Poker deck for the showdown counts is at least 11 distinct cards of the "
            f"52 (card indices 0–51), not {list(cards)}"
        )
    say = progress or (lambda _msg: None)
    t0 = time.monotonic()

    def step(msg: str) -> None:
        say(f"[{time.monotonic() - t0:6.1f}s] {msg}")

    n_values = len(distinct_keys())
    cat_of_value = category_of_ordinal(np.arange(n_values)).astype(np.int64)
    fives = combinations_array(n, 5).astype(np.int8)
    sixes = combinations_array(n, 6).astype(np.int8)
    t5 = _strengths(deck, fives, chunk)
    v6 = _strengths(deck, sixes, chunk)
    c5 = cat_of_value[t5.astype(np.int64)]
    c6 = cat_of_value[v6.astype(np.int64)]
    hands = _Hands(n, n_values, fives, sixes, t5, v6, c5, c6, chunk)
    step(f"strengths of {fives.shape[0]:,} five-card and {sixes.shape[0]:,} six-card hands")
    p_full, p_agg = _player_side(hands, step)
    step("inclusion-exclusion over the player's cards")
    d_full, d_agg = _dealer_side(hands)
    step("inclusion-exclusion over the dealer's cards")

    joint = _player_joint(p_full)
    if not (joint == _dealer_joint(d_full)).all():
        raise AssertionError("the two sides' joint counts disagree")  # pragma: no cover
    bound = comb(n - 1, 4) * comb(n - 5, 6) + comb(n - 1, 5) * comb(n - 6, 5)
    if bound >= _EXACT_FLOAT:  # pragma: no cover - beyond any deck of 52 cards
        raise AssertionError("float64 sums would not be exact")
    p_int = np.rint(p_agg).astype(np.int64)
    d_int = np.rint(d_agg).astype(np.int64)
    removed = np.stack(
        [joint - _player_joint(p_int[x]) - _dealer_joint(d_int[x]) for x in range(n)]
    )
    return ShowdownRemovals(tuple(int(c) for c in deck), joint, removed)


def _player_side(
    hands: _Hands, step: Progress
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The player's side: for each player hand, the dealer hands avoiding it that beat it, that
    tie it, and by category — summed by the player's category (``[category, figure]``) and by
    each card the hand holds (``[card position, category, figure]``, float64)."""
    n, n_values, chunk = hands.n, hands.n_values, hands.chunk
    fives, t5 = hands.fives, hands.t5
    by_six = _containing(hands.sixes, hands.v6, n, n_values, chunk)
    gt5, ge5, cat5 = _dealer_holding_fives(hands)
    step("the dealer's hands holding each set of the player's cards")
    p_agg = np.zeros((n, CATEGORIES, _WIDTH), dtype=np.float64)
    p_full = np.zeros((CATEGORIES, _WIDTH), dtype=np.int64)
    for s in range(0, fives.shape[0], chunk):
        rows = fives[s : s + chunk].astype(np.int64)
        t = t5[s : s + chunk].astype(np.int64)
        figures = np.zeros((rows.shape[0], _WIDTH), dtype=np.int64)
        for k in range(5):
            sign = -1 if k % 2 else 1
            for sub in combinations(range(5), k):
                sc = _subset_colex(rows, sub)
                if k < 4:
                    ties = by_six.hist[k][sc, t].astype(np.int64)
                    weaker = by_six.below[k][sc, t].astype(np.int64)
                    figures[:, 0] += sign * (by_six.total[k][sc] - weaker - ties)
                else:
                    weaker, ties = _four_counts(by_six, sc, t, n_values)
                    figures[:, 0] += sign * (by_six.per_four - weaker - ties)
                figures[:, 1] += sign * ties
                figures[:, 2:] += sign * by_six.cats[k][sc]
        here = slice(s, s + rows.shape[0])
        figures[:, 0] -= gt5[here]
        figures[:, 1] -= ge5[here] - gt5[here]
        figures[:, 2:] -= cat5[here]
        c = hands.c5[here]
        for cat in range(CATEGORIES):
            p_full[cat] += figures[c == cat].sum(axis=0)
        _aggregate(rows, c, figures, n, p_agg)
    return p_full, p_agg


def _dealer_holding_fives(hands: _Hands) -> tuple[IntArray, IntArray, IntArray]:
    """For each player hand: the dealer hands holding all five of its cards that beat it, that
    beat or tie it, and by category."""
    fives, sixes, v6, t5, chunk = hands.fives, hands.sixes, hands.v6, hands.t5, hands.chunk
    gt5 = np.zeros(fives.shape[0], dtype=np.int64)
    ge5 = np.zeros(fives.shape[0], dtype=np.int64)
    cat5 = np.zeros((fives.shape[0], CATEGORIES), dtype=np.int64)
    for s in range(0, sixes.shape[0], chunk):
        rows = sixes[s : s + chunk].astype(np.int64)
        v = v6[s : s + chunk].astype(np.int64)
        c = hands.c6[s : s + chunk]
        for five in combinations(range(6), 5):
            p = _subset_colex(rows, five)
            gt5 += np.bincount(p[v > t5[p]], minlength=gt5.size)
            ge5 += np.bincount(p[v >= t5[p]], minlength=ge5.size)
            cat5 += np.bincount(p * CATEGORIES + c, minlength=cat5.size).reshape(cat5.shape)
    return gt5, ge5, cat5


def _dealer_side(hands: _Hands) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The dealer's side: for each dealer hand, the player hands avoiding it that are weaker,
    equal, and by category — summed by the dealer's category and by each card the hand holds
    (as :func:`_player_side`)."""
    n, n_values, chunk = hands.n, hands.n_values, hands.chunk
    sixes, v6, t5, c5 = hands.sixes, hands.v6, hands.t5, hands.c5
    by_five = _containing(hands.fives, t5, n, n_values, chunk)
    one_hot = np.eye(CATEGORIES, dtype=np.int64)
    d_agg = np.zeros((n, CATEGORIES, _WIDTH), dtype=np.float64)
    d_full = np.zeros((CATEGORIES, _WIDTH), dtype=np.int64)
    for s in range(0, sixes.shape[0], chunk):
        rows = sixes[s : s + chunk].astype(np.int64)
        v = v6[s : s + chunk].astype(np.int64)
        figures = np.zeros((rows.shape[0], _WIDTH), dtype=np.int64)
        for k in range(6):
            sign = -1 if k % 2 else 1
            for sub in combinations(range(6), k):
                sc = _subset_colex(rows, sub)
                if k < 4:
                    figures[:, 0] += sign * by_five.below[k][sc, v]
                    figures[:, 1] += sign * by_five.hist[k][sc, v]
                    figures[:, 2:] += sign * by_five.cats[k][sc]
                elif k == 4:
                    weaker, ties = _four_counts(by_five, sc, v, n_values)
                    figures[:, 0] += sign * weaker
                    figures[:, 1] += sign * ties
                    figures[:, 2:] += sign * by_five.cats[4][sc]
                else:  # the set of five is the player's hand itself
                    t = t5[sc].astype(np.int64)
                    figures[:, 0] -= t < v
                    figures[:, 1] -= t == v
                    figures[:, 2:] -= one_hot[c5[sc]]
        c = hands.c6[s : s + chunk]
        for cat in range(CATEGORIES):
            d_full[cat] += figures[c == cat].sum(axis=0)
        _aggregate(rows, c, figures, n, d_agg)
    return d_full, d_agg


@functools.cache
def full_deck_removals() -> ShowdownRemovals:
    """:func:`showdown_removals` of the full deck (computed once a process, minutes)."""
    return showdown_removals(range(52))


def showdown_joint(cards: Sequence[int]) -> npt.NDArray[np.int64]:
    """The joint showdown counts (as :attr:`DealerTable.joint`) over the deck ``cards``: the
    shipped table's for the full deck, :func:`full_deck_removals` for the deck less one card,
    else :func:`showdown_removals` of the deck itself."""
    present = sorted(set(cards))
    if len(present) == 52:
        return load_dealer_table().joint
    if len(present) == 51:
        (missing,) = set(range(52)) - set(present)
        return full_deck_removals().without(missing)
    return showdown_removals(present).joint
