"""Whole Four Card Poker rounds in a compiled kernel, and every Four Card Poker wager read from them.

The engine (:func:`deal_rounds`) deals each round from a freshly shuffled deck (a partial
Fisher–Yates shuffle over the shoe array, as in :mod:`croupier.analysis.kernels.blackjack`: only
the cards dealt are drawn, and the array is not restored — a partial shuffle of any arrangement
deals a uniformly random sequence). A round record holds :data:`WIDTH` card indices: the player's
five, the dealer's six (the face-up card first) and the Six Card Bonus card (§ 641a.7(d)(8)) —
what every wager of § 641a.7(d) reads (:func:`record_columns` maps a wager's
:class:`~croupier.wagers.base.DealSpec` onto them).

A classifier per kind of wager turns records into the outcome positions the wager's
:meth:`~croupier.wagers.base.Wager.classify_indices` gives, with the evaluators of
:mod:`croupier.analysis.kernels.four_card_eval`:

* the Ante and Play (§ 641a.7(d)(1)): the optimal strategy reading the dealer's face-up card
  (:meth:`~croupier.games.four_card_poker.AntePlayStrategy.upcard_decisions_for`: the player hand's
  suit-isomorphism class and the mapped face-up card looked up in the shipped dealer table), the
  player's best four of five against the dealer's best four of six, a tie to the player;
* Aces Up and the four-card progressive (§ 641a.7(d)(2), (4)): the player's best four;
* the Bad Beat Bonus (§ 641a.7(d)(6)): the losing hand of a showdown that is not a tie;
* the five-card wagers (§ 641a.7(d)(5), (7), (8)): the best five-card category of the cards read.

The plan functions (named by each wager's :attr:`~croupier.wagers.base.Wager.kernel`) build the
look-up tables from the wager's outcomes; no wager id appears here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, uint64

from croupier.analysis.kernels import KernelPlan
from croupier.analysis.kernels.four_card_eval import (
    BASE,
    CATEGORY_UNIT,
    best_five_sorted,
    best_four_sorted,
    sort_desc,
)
from croupier.analysis.kernels.rng import below_half, next_u64
from croupier.cards import Shoe
from croupier.errors import CroupierError, InputError, ShoeError
from croupier.wagers.at_table import CardSource
from croupier.wagers.base import DealSpec, IntArray, Wager

PLAYER_COLUMNS = (0, 1, 2, 3, 4)
DEALER_COLUMNS = (5, 6, 7, 8, 9, 10)
BONUS_COLUMN = 11
WIDTH = 12
"""Columns of a round record: the player's five cards, the dealer's six (face-up card first), the
Six Card Bonus card."""

_SOURCE_COLUMNS: dict[CardSource, tuple[int, ...]] = {
    CardSource.PLAYER: PLAYER_COLUMNS,
    CardSource.DEALER: DEALER_COLUMNS,
    CardSource.DEALER_UPCARD: DEALER_COLUMNS[:1],
    CardSource.DEALER_DOWN: DEALER_COLUMNS[1:],
    CardSource.BONUS: (BONUS_COLUMN,),
}


def record_columns(deal: DealSpec) -> tuple[int, ...]:
    """The record columns holding the cards of ``deal``, in the deal's order (the rows a wager's
    :meth:`~croupier.wagers.base.Wager.classify_indices` reads). Raises
    :class:`~croupier.errors.CroupierError` for a card group a Four Card Poker round does not
    deal."""
    cols: list[int] = []
    for group in deal.groups:
        own = _SOURCE_COLUMNS.get(group.source)  # type: ignore[arg-type]
        if own is None or len(own) != group.size:
            raise CroupierError(
                f"a Four Card Poker round record holds no {group.name} ({group.size} cards)"
            )
        cols.extend(own)
    return tuple(cols)


# -- the engine ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def deal_rounds(shoe, state, records):  # type: ignore[no-untyped-def]
    """Deal ``len(records)`` rounds of :data:`WIDTH` cards, each from a fresh partial shuffle of
    ``shoe`` (card indices, shuffled in place) with the random stream ``state``. Returns 0, or −1
    for a shoe under :data:`WIDTH` cards."""
    n = shoe.size
    if n < WIDTH:
        return -1
    for r in range(records.shape[0]):
        for i in range(0, WIDTH, 2):  # two positions from the halves of one 64-bit output
            x = next_u64(state)
            j = i + below_half(state, int(x >> uint64(32)), n - i)
            c = shoe[j]
            shoe[j] = shoe[i]
            shoe[i] = c
            j = i + 1 + below_half(state, int(x & uint64(0xFFFFFFFF)), n - i - 1)
            c = shoe[j]
            shoe[j] = shoe[i + 1]
            shoe[i + 1] = c
            records[r, i] = shoe[i]
            records[r, i + 1] = shoe[i + 1]
    return 0


@dataclass(frozen=True)
class FourCardPokerRounds:
    """Engine: whole Four Card Poker rounds (:func:`deal_rounds`) — the player's five, the
    dealer's six and the Six Card Bonus card from a freshly shuffled deck each."""

    def buffers(self, rounds: int) -> tuple[np.ndarray, np.ndarray]:
        """Records and lengths."""
        return np.empty((rounds, WIDTH), dtype=np.int8), np.full(rounds, WIDTH, dtype=np.int8)

    def deal(
        self, shoe_cards: IntArray, state: np.ndarray, rounds: int, buffers: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """``rounds`` round records (:data:`WIDTH` cards each) and their lengths."""
        records, lengths = buffers
        if deal_rounds(shoe_cards, state, records[:rounds]) != 0:
            raise ShoeError(f"a Four Card Poker round needs {WIDTH} cards, not {shoe_cards.size}")
        return records[:rounds], lengths[:rounds]

    def describe(self, shoe: Shoe) -> str:
        """One simulated round in words."""
        return (
            f"whole rounds from a freshly shuffled {shoe} each: the player's five cards, the "
            "dealer's six and the Six Card Bonus card (§ 641a.7(d))"
        )


# -- classifiers ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def best_four_positions(records, lengths, out, lut):  # type: ignore[no-untyped-def]
    """Each round's position ``lut[category, top rank]`` of the player's best four (Aces Up, the
    four-card progressive)."""
    s = np.empty(6, dtype=np.int64)
    for r in range(records.shape[0]):
        sort_desc(records[r], 5, s)
        key = best_four_sorted(s, 5)
        out[r] = lut[key // CATEGORY_UNIT, (key // (BASE * BASE * BASE)) % BASE]


@njit(cache=True, nogil=True)
def bad_beat_positions(records, lengths, out, lut, tie):  # type: ignore[no-untyped-def]
    """Each round's position ``lut[category of the losing best four]``, ``tie`` for a tie."""
    s = np.empty(6, dtype=np.int64)
    for r in range(records.shape[0]):
        sort_desc(records[r], 5, s)
        p = best_four_sorted(s, 5)
        sort_desc(records[r, 5:], 6, s)
        d = best_four_sorted(s, 6)
        out[r] = tie if p == d else lut[min(p, d) // CATEGORY_UNIT]


@njit(cache=True, nogil=True)
def five_card_positions(records, lengths, out, lut, columns):  # type: ignore[no-untyped-def]
    """Each round's position ``lut[best five-card category]`` of the cards in ``columns`` (5 or
    6 record columns)."""
    m = columns.size
    hand = np.empty(6, dtype=np.int64)
    s = np.empty(6, dtype=np.int64)
    for r in range(records.shape[0]):
        for i in range(m):
            hand[i] = records[r, columns[i]]
        sort_desc(hand, m, s)
        out[r] = lut[best_five_sorted(s, m)]


@njit(cache=True, nogil=True, inline="always")
def _pattern(h):  # type: ignore[no-untyped-def]
    """The suit pattern of five cards ``h`` sorted highest first: each card's suit (two bits
    each, bits 0–9) and whether it has the rank of the card before it (bits 10–13)."""
    key = 0
    for i in range(5):
        key |= (h[i] % 4) << (2 * i)
        if i > 0 and h[i] // 4 == h[i - 1] // 4:
            key |= 1 << (9 + i)
    return key


@njit(cache=True, nogil=True)
def _first_least(h, perms, comb):  # type: ignore[no-untyped-def]
    """The first of ``perms`` mapping the five cards ``h`` to the least colex index (the
    permutation :func:`croupier.games.four_card_poker_exact.canonical_with_permutation` picks)."""
    m = np.empty(5, dtype=np.int64)
    best = -1
    which = -1
    for k in range(perms.shape[0]):
        for i in range(5):
            x = (h[i] // 4) * 4 + perms[k, h[i] % 4]
            j = i
            while j > 0 and m[j - 1] > x:  # ascending
                m[j] = m[j - 1]
                j -= 1
            m[j] = x
        idx = comb[m[0], 1] + comb[m[1], 2] + comb[m[2], 3] + comb[m[3], 4] + comb[m[4], 5]
        if best < 0 or idx < best:
            best = idx
            which = k
    return which


@njit(cache=True, nogil=True)
def pattern_permutations(perms, comb):  # type: ignore[no-untyped-def]
    """For every suit pattern (:func:`_pattern`), the permutation :func:`_first_least` picks, or
    −1 for a pattern no five different cards make.

    Which permutation reaches the least colex index depends on the pattern only: colex order
    compares the cards from the highest down, the ranks in that order are the same under every
    permutation of the suits, so two permutations compare by the mapped suits of each rank —
    the ranks themselves do not matter. The pattern is played here on ranks of its shape."""
    table = np.full(1 << 14, -1, dtype=np.int64)
    h = np.empty(5, dtype=np.int64)
    for key in range(1 << 14):
        rank = 12
        ok = True
        for i in range(5):
            suit = (key >> (2 * i)) & 3
            if i > 0:
                if (key >> (9 + i)) & 1:
                    ok = ok and suit < h[i - 1] % 4  # one rank, suits highest first
                else:
                    rank -= 1
            h[i] = rank * 4 + suit
        if ok:
            table[key] = _first_least(h, perms, comb)
    return table


@njit(cache=True, nogil=True, inline="always")
def _multiple(h, upcard, perms, comb, classes, up_decisions, patterns, m):  # type: ignore[no-untyped-def]
    """:func:`upcard_multiple` of five cards ``h`` sorted highest first; ``m`` scratch of 5."""
    k = patterns[_pattern(h)]
    for i in range(5):
        x = (h[i] // 4) * 4 + perms[k, h[i] % 4]
        j = i
        while j > 0 and m[j - 1] > x:  # ascending (only cards of one rank move)
            m[j] = m[j - 1]
            j -= 1
        m[j] = x
    idx = comb[m[0], 1] + comb[m[1], 2] + comb[m[2], 3] + comb[m[3], 4] + comb[m[4], 5]
    mapped = (upcard // 4) * 4 + perms[k, upcard % 4]
    lower = 0
    for i in range(5):
        if m[i] < mapped:
            lower += 1
    cls = np.searchsorted(classes, idx)
    if cls >= classes.size or classes[cls] != idx:
        return -1
    return up_decisions[cls, mapped - lower]


@njit(cache=True, nogil=True)
def upcard_multiple(hand, upcard, perms, comb, classes, up_decisions, patterns):  # type: ignore[no-untyped-def]
    """The optimal Play multiple (0 fold, 1, 3) for the player's five cards ``hand`` and the
    dealer's face-up card, or −1 for a hand the dealer table lacks: as
    :func:`croupier.games.four_card_poker_exact.upcard_position` — the first of the 24 suit
    permutations ``perms`` reaching the least colex index (looked up by the hand's suit pattern in
    ``patterns``, :func:`pattern_permutations`) gives the class representative and the mapped
    face-up card's position among the 47 cards it lacks."""
    h = np.empty(5, dtype=np.int64)
    sort_desc(hand, 5, h)
    m = np.empty(5, dtype=np.int64)
    return _multiple(h, upcard, perms, comb, classes, up_decisions, patterns, m)


@njit(cache=True, nogil=True)
def ante_play_positions(  # type: ignore[no-untyped-def]
    records, lengths, out, lut, perms, comb, classes, up_decisions, patterns
):
    """Each round's position ``lut[player's category, Play multiple, player wins or ties]`` under
    the face-up-card strategy (:func:`upcard_multiple`); a fold has multiple 0. Returns how many
    player hands the dealer table lacks (their rounds are given position −1)."""
    s = np.empty(6, dtype=np.int64)
    m = np.empty(5, dtype=np.int64)
    missing = 0
    for r in range(records.shape[0]):
        sort_desc(records[r], 5, s)
        mult = _multiple(s, records[r, 5], perms, comb, classes, up_decisions, patterns, m)
        if mult < 0:
            out[r] = -1
            missing += 1
            continue
        p = best_four_sorted(s, 5)
        sort_desc(records[r, 5:], 6, s)
        d = best_four_sorted(s, 6)
        out[r] = lut[p // CATEGORY_UNIT, mult, 1 if p >= d else 0]
    return missing


def ante_play_classify(records: Any, lengths: Any, out: Any, *args: Any) -> None:
    """:func:`ante_play_positions`, raising :class:`~croupier.errors.InputError` when a player
    hand is not in the dealer table (as :meth:`~croupier.games.four_card_poker_exact.DealerTable.
    class_of` does)."""
    if ante_play_positions(records, lengths, out, *args):
        raise InputError("a player hand is not in the dealer table (corrupt data file?)")


# -- plans ---------------------------------------------------------------------------------------

WHOLE_ROUND_SHOE = WIDTH
"""The fewest cards a shoe needs to be dealt whole rounds; a smaller (partly dealt) shoe is dealt
by the numpy simulator's top cards."""


def _plan(wager: Wager, shoe: Shoe, classify: Any, *args: Any) -> KernelPlan | None:
    if shoe.total < WHOLE_ROUND_SHOE:
        return None
    return KernelPlan(FourCardPokerRounds(), classify, args, len(wager.outcomes) + 1)


def _four_names() -> dict[int, str]:
    from croupier.poker.four_card import FourCardCategory

    return {c.strength: c.value for c in FourCardCategory}


def best_four_plan(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """Aces Up (§ 641a.7(d)(2)) or the Four-Card Progressive (§ 641a.7(d)(4)): the player's best
    four, its category named by the wager's outcomes; a pair only as a pair of aces
    (``pair-of-aces``), when the outcomes hold one."""
    if record_columns(wager.deal) != PLAYER_COLUMNS:
        raise CroupierError(f"the best-four kernel reads the player's five, not {wager.name}'s")
    pos = {o.key: o.position for o in wager.outcomes}
    lose = len(wager.outcomes)
    lut = np.full((8, BASE), lose, dtype=np.int64)
    for strength, name in _four_names().items():
        if name == "pair":
            if "pair-of-aces" in pos:
                lut[strength, BASE - 1] = pos["pair-of-aces"]
        elif name in pos:
            lut[strength, :] = pos[name]
    return _plan(wager, shoe, best_four_positions, lut)


def bad_beat_plan(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """The Bad Beat Bonus (§ 641a.7(d)(6)): the losing best four's category, no win on a tie."""
    if record_columns(wager.deal) != PLAYER_COLUMNS + DEALER_COLUMNS:
        raise CroupierError(f"the Bad Beat kernel reads the showdown, not {wager.name}'s cards")
    pos = {o.key: o.position for o in wager.outcomes}
    lose = len(wager.outcomes)
    lut = np.array([pos.get(_four_names()[s], lose) for s in range(8)], dtype=np.int64)
    return _plan(wager, shoe, bad_beat_positions, lut, lose)


def five_card_plan(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """A five-card wager (§ 641a.7(d)(5), (7), (8)): the best five-card category of the cards the
    wager's deal names (the player's five, the dealer's six, or the player's five and the Six
    Card Bonus card)."""
    from croupier.poker.five_card import FiveCardCategory

    columns = np.array(record_columns(wager.deal), dtype=np.int64)
    if columns.size not in (5, 6):
        raise CroupierError(f"the five-card kernel reads five or six cards, not {columns.size}")
    pos = {o.key: o.position for o in wager.outcomes}
    lose = len(wager.outcomes)
    lut = np.array([pos.get(c.value, lose) for c in FiveCardCategory], dtype=np.int64)
    return _plan(wager, shoe, five_card_positions, lut, columns)


def ante_play_plan(wager: Wager, shoe: Shoe) -> KernelPlan | None:
    """The Ante and Play (§ 641a.7(d)(1)) under the optimal face-up-card strategy: the outcome
    table of :meth:`~croupier.wagers.four_card_poker.AntePlay.classify_indices`, the strategy's
    dealer table."""
    from croupier.wagers.four_card_poker.ante_play import AntePlay

    if not isinstance(wager, AntePlay):
        raise CroupierError(f"the Ante and Play kernel reads the Ante and Play, not {wager.name}")
    if record_columns(wager.deal) != PLAYER_COLUMNS + DEALER_COLUMNS:
        raise CroupierError("the Ante and Play kernel reads the player's five and dealer's six")
    lut = np.ascontiguousarray(wager.outcome_table(), dtype=np.int64)
    return _plan(wager, shoe, ante_play_classify, lut, *_strategy_tables())


@functools.cache
def _strategy_tables() -> tuple[np.ndarray, ...]:
    """The suit permutations, C(n, k), the dealer table's classes and face-up-card decisions and
    the permutation of each suit pattern (built once a process: every chunk's plan reads them)."""
    from croupier.games.four_card_poker_exact import SUIT_PERMUTATIONS
    from croupier.poker.four_card import COMB
    from croupier.wagers.four_card_poker.ante_play import default_strategy

    table = default_strategy().table
    perms = np.ascontiguousarray(SUIT_PERMUTATIONS, dtype=np.int64)
    comb = np.ascontiguousarray(COMB, dtype=np.int64)
    out = (
        perms,
        comb,
        np.ascontiguousarray(table.classes),  # int32 and int8: the look-ups stay in cache
        np.ascontiguousarray(table.up_decisions),
        pattern_permutations(perms, comb),
    )
    for a in out:
        a.setflags(write=False)
    return out


__all__ = [
    "WIDTH",
    "FourCardPokerRounds",
    "ante_play_plan",
    "bad_beat_plan",
    "best_four_plan",
    "deal_rounds",
    "five_card_plan",
    "record_columns",
]
