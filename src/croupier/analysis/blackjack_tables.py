"""The tables the rule-set engine (:mod:`croupier.analysis.blackjack_exact`) values hands from: for
one upcard and one set of cards known to be out of the shoe, every player hand of a family
(:func:`~croupier.analysis.blackjack_strategy._family`) with the value of standing, the chance of
each next card, and the hand each card makes; and the values of playing those hands by a policy.

**Peek or no peek** (§ 633a.7). With the peek (the card reader device), a player who still acts
knows the dealer has no Blackjack: standing is valued given no dealer Blackjack, and each card the
player draws is drawn given that the hole card is not the value that would complete one (the hole
card is an unseen card). Without it (the European no-hole-card game, "ENHC"), the dealer's
Blackjack is one of the dealer's results and beats every player hand but a Blackjack, doubles and
split hands included: standing is valued over all of the dealer's results, and the player's draws
are from the shoe as it is.

Shapes: a table has one row per hand of its family (``rows``); ``stand`` and ``p_blackjack`` are
``(rows,)`` floats, ``probs`` ``(rows, 10)`` (by value, ace first), ``valid`` ``(rows,)`` bools
(the shoe can hold the hand). A bust is the row index ``rows`` in the family's ``child`` array and
is worth −1 (a whole wager). Values are per unit wagered on the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from croupier.analysis.blackjack_dealer import ACE, TEN, VALUES, BoolArray, FloatArray, IntArray
from croupier.analysis.blackjack_strategy import _RADIX, _Family, _family
from croupier.analysis.kernels.dealer_results import dealer_results
from croupier.analysis.kernels.hand_values import next_card_chances, play_hands

__all__ = ["KEPT", "Table", "UpcardShoe", "clear_shoes", "draw_probs", "upcard_shoe"]


def draw_probs(comps: IntArray, upcard: int, peek: bool) -> FloatArray:
    """The chance of each value being the player's next card from each composition (rows of
    ``comps``, by value), given no dealer Blackjack under the peek: the hole card is one of the
    unseen cards and is not the value completing a Blackjack (the ten under an ace, the ace under
    a ten). ``(rows, 10)``; rows that hold no card are zero
    (:func:`~croupier.analysis.kernels.hand_values.next_card_chances`)."""
    x = (TEN if upcard == ACE else ACE if upcard == TEN else -1) if peek else -1
    out = np.empty(comps.shape, dtype=np.float64)
    next_card_chances(np.ascontiguousarray(comps, dtype=np.int64), x, out)
    return out


def _stand_given(dealer: FloatArray, totals: IntArray) -> FloatArray:
    """The value of standing on each total against the dealer's results (rows: P(17), P(18),
    P(19), P(20), P(21), P(bust), summing to one)."""
    d0, d1, d2, d3, d4, bust = (dealer[:, i] for i in range(6))
    return np.select(
        [totals < 17, totals == 17, totals == 18, totals == 19, totals == 20],
        [
            bust - (1.0 - bust),
            bust - (d1 + d2 + d3 + d4),
            bust + d0 - (d2 + d3 + d4),
            bust + d0 + d1 - (d3 + d4),
            bust + d0 + d1 + d2 - d4,
        ],
        default=bust + d0 + d1 + d2 + d3,
    )


@dataclass(frozen=True)
class Table:
    """A family's hands from one shoe (see the module docstring for the shapes)."""

    family: _Family
    stand: FloatArray
    probs: FloatArray
    valid: BoolArray
    p_blackjack: FloatArray
    peek: bool

    def values(self, hits: BoolArray) -> FloatArray:
        """The value of every hand played by the policy ``hits`` (``(rows,)``: draw, else stand)
        from here on; ``(rows + 1,)`` with the bust (−1) last."""
        return self._play(hits, optimal=False)[0]

    def optimal(self) -> tuple[FloatArray, BoolArray]:
        """The values of the optimal (composition-dependent) play of every hand, and where it
        draws: ``((rows + 1,), (rows,))`` (memoised; not to be written to)."""
        return self._optimal

    @cached_property
    def _optimal(self) -> tuple[FloatArray, BoolArray]:
        return self._play(np.zeros(len(self.stand), dtype=np.bool_), optimal=True)

    def _play(self, hits: BoolArray, optimal: bool) -> tuple[FloatArray, BoolArray]:
        """:func:`~croupier.analysis.kernels.hand_values.play_hands` on this table."""
        f = self.family
        rows = len(f.hands)
        out = np.empty(rows + 1, dtype=np.float64)
        draws = np.empty(rows, dtype=np.bool_)
        play_hands(self.probs, f.child, self.stand, f.totals, hits, optimal, out, draws)
        return out, draws

    def hit(self, row: int, values: FloatArray) -> float:
        """The value of drawing one card to ``row`` and playing on as ``values`` say."""
        return float(self.probs[row] @ values[self.family.child[row]])

    @cached_property
    def _stand_or_bust(self) -> FloatArray:
        """The value of standing on each hand, and −1 for the bust (row ``rows``)."""
        out: FloatArray = np.append(self.stand, -1.0)
        return out

    def double(self, row: int) -> float:
        """The value of doubling on ``row``: twice the wager, one card, stand."""
        stand = self._stand_or_bust
        return 2.0 * float(self.probs[row] @ stand[self.family.child[row]])

    def surrender(self, row: int) -> float:
        """The value of late surrender: half the wager back, unless (without the peek) the
        dealer has a Blackjack."""
        if self.peek:
            return -0.5
        q = float(self.p_blackjack[row])
        return -0.5 * (1.0 - q) - q


class UpcardShoe:
    """The shoe less one upcard: the dealer's results for every composition asked of it
    (memoised by the cards out: their keys sorted, for lookups in bulk) and the tables made
    from it (memoised by pair and cards out; none of them depends on the player's rules)."""

    def __init__(self, decks: int, upcard: int, hits_soft_17: bool, peek: bool) -> None:
        base = np.array((4 * decks,) * 9 + (16 * decks,), dtype=np.int64)
        base[upcard] -= 1
        self.base = base
        self.upcard = upcard
        self.h17 = hits_soft_17
        self.peek = peek
        self._keys = np.zeros(0, dtype=np.int64)
        self._dealer = np.zeros((0, 6), dtype=np.float64)
        self._p_bj = np.zeros(0, dtype=np.float64)
        self._tables: dict[tuple[int | None, int], Table] = {}

    def _find(self, keys: IntArray) -> tuple[IntArray, BoolArray]:
        """Where each key is in the memo, and whether it is there."""
        at = np.searchsorted(self._keys, keys)
        if not len(self._keys):
            return at, np.zeros(len(keys), dtype=np.bool_)
        at = np.minimum(at, len(self._keys) - 1)
        found: BoolArray = self._keys[at] == keys
        return at, found

    def dealer(self, taken: IntArray) -> tuple[FloatArray, FloatArray, BoolArray]:
        """The dealer's results from the shoe less each row of ``taken`` (cards by value):
        ``(p, p_blackjack, valid)`` as :func:`~croupier.analysis.kernels.dealer_results.
        dealer_results` gives them, computed once per composition; rows the shoe cannot spare
        (``valid`` false) are zero."""
        comps = self.base - taken
        valid: BoolArray = np.asarray((comps >= 0).all(axis=1), dtype=np.bool_)
        keys = taken @ _RADIX
        at, found = self._find(keys)
        missing = valid & ~found
        if missing.any():
            fresh, first = np.unique(keys[missing], return_index=True)
            p, p_bj = dealer_results(comps[missing][first], self.upcard, self.h17)
            merged = np.concatenate((self._keys, fresh))
            order = np.argsort(merged, kind="stable")
            self._keys = merged[order]
            self._dealer = np.concatenate((self._dealer, p))[order]
            self._p_bj = np.concatenate((self._p_bj, p_bj))[order]
            at, found = self._find(keys)
        if not len(self._keys):  # nothing the shoe can spare, and nothing known
            return np.zeros((len(keys), 6)), np.zeros(len(keys)), valid
        dealer = self._dealer[at]
        p_bj = self._p_bj[at]
        if not valid.all():
            dealer[~valid] = 0.0
            p_bj[~valid] = 0.0
        return dealer, p_bj, valid

    def table(self, pair: int | None, out: int = 0) -> Table:
        """The hands holding a ``pair`` card (any hand: ``None``) from the shoe less ``out`` more
        cards of the pair value (memoised)."""
        got = self._tables.get((pair, out))
        return self.tables([(pair, out)])[0] if got is None else got

    def tables(self, wanted: Sequence[tuple[int | None, int]]) -> list[Table]:
        """The :meth:`table` of each (pair, out), those not yet made built in one pass over all
        their hands: one look-up of the dealer's results (those not yet known computed
        together), the values of standing and the draws' chances of every hand at once."""
        missing = [key for key in dict.fromkeys(wanted) if key not in self._tables]
        if missing:
            self._tables.update(zip(missing, self._build(missing), strict=True))
        return [self._tables[key] for key in wanted]

    def _build(self, wanted: Sequence[tuple[int | None, int]]) -> list[Table]:
        """The tables of ``wanted`` (see :meth:`tables`), slices of arrays made together."""
        requests: list[tuple[_Family, IntArray]] = []
        for pair, out in wanted:
            extra = np.zeros(VALUES, dtype=np.int64)
            if pair is not None:
                extra[pair] = out
            requests.append((_family(pair), extra))
        taken = np.concatenate([f.counts + extra for f, extra in requests])
        totals = np.concatenate([f.totals for f, _ in requests])
        dealer, p_bj, valid = self.dealer(taken)
        stand = _stand_given(dealer, totals)
        if not self.peek:
            stand = (1.0 - p_bj) * stand - p_bj
        probs = draw_probs(np.where(valid[:, None], self.base - taken, 0), self.upcard, self.peek)
        made: list[Table] = []
        start = 0
        for family, _ in requests:
            stop = start + len(family.hands)
            part = slice(start, stop)
            made.append(Table(family, stand[part], probs[part], valid[part], p_bj[part], self.peek))
            start = stop
        return made

    def next_cards(self, extras: IntArray) -> FloatArray:
        """The chance of each value being the next card from the shoe less each row of
        ``extras`` (as a player draws it: given no dealer Blackjack under the peek), zero where
        the shoe cannot spare the row. ``(rows, 10)``"""
        comps = self.base - extras
        comps[(comps < 0).any(axis=1)] = 0
        out: FloatArray = draw_probs(comps, self.upcard, self.peek)
        return out

    def next_card(self, extra: IntArray) -> FloatArray:
        """:meth:`next_cards` of one ``extra``. ``(10,)``"""
        out: FloatArray = self.next_cards(extra[None, :])[0]
        return out


_SHOES: dict[tuple[int, int, bool, bool], UpcardShoe] = {}
KEPT = 20
"""Upcard shoes kept: two shoes' ten upcards (about 8 MB each with 8 decks, the tables of a
rule set that splits to four hands)."""


def clear_shoes() -> None:
    """Forget every kept :class:`UpcardShoe` (their dealer's results and tables): the next rule
    set starts cold (benchmarks/bench_blackjack_rules.py)."""
    _SHOES.clear()


def upcard_shoe(decks: int, upcard: int, hits_soft_17: bool, peek: bool) -> UpcardShoe:
    """The :class:`UpcardShoe` of these rules, kept for the next rule set that shares them (the
    dealer's results and the tables are the same whatever the player's rules); the
    :data:`KEPT` most recent are kept."""
    key = (decks, upcard, hits_soft_17, peek)
    got = _SHOES.pop(key, None)
    if got is None:
        got = UpcardShoe(decks, upcard, hits_soft_17, peek)
    _SHOES[key] = got
    while len(_SHOES) > KEPT:
        del _SHOES[next(iter(_SHOES))]
    return got
