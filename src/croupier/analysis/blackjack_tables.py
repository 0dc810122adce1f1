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

from dataclasses import dataclass

import numpy as np

from croupier.analysis.blackjack_dealer import ACE, TEN, VALUES, BoolArray, FloatArray, IntArray
from croupier.analysis.blackjack_strategy import _RADIX, _dealer_batch, _Family

__all__ = ["Table", "UpcardShoe", "draw_probs", "upcard_shoe"]


def draw_probs(comps: IntArray, upcard: int, peek: bool) -> FloatArray:
    """The chance of each value being the player's next card from each composition (rows of
    ``comps``, by value), given no dealer Blackjack under the peek: the hole card is one of the
    unseen cards and is not the value completing a Blackjack (the ten under an ace, the ace under
    a ten). ``(rows, 10)``; rows that hold no card are zero."""
    c = comps.astype(np.float64)
    n = c.sum(axis=1)
    x = (TEN if upcard == ACE else ACE if upcard == TEN else None) if peek else None
    with np.errstate(divide="ignore", invalid="ignore"):
        if x is None:
            probs = np.where((n > 0)[:, None], c / n[:, None], 0.0)
        else:
            other = n - c[:, x]
            probs = np.where(
                ((other > 0) & (n > 1))[:, None], (c - c / other[:, None]) / (n - 1.0)[:, None], 0.0
            )
            probs[:, x] = np.where(n > 1, c[:, x] / (n - 1.0), 0.0)
    return np.nan_to_num(probs)


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
        f = self.family
        rows = len(f.hands)
        out = np.empty(rows + 1, dtype=np.float64)
        out[rows] = -1.0
        for lo, hi in f.levels:
            hit = (self.probs[lo:hi] * out[f.child[lo:hi]]).sum(axis=1)
            out[lo:hi] = np.where(hits[lo:hi], hit, self.stand[lo:hi])
        return out

    def optimal(self) -> tuple[FloatArray, BoolArray]:
        """The values of the optimal (composition-dependent) play of every hand, and where it
        draws: ``((rows + 1,), (rows,))``."""
        f = self.family
        rows = len(f.hands)
        out = np.empty(rows + 1, dtype=np.float64)
        out[rows] = -1.0
        hits = np.zeros(rows, dtype=np.bool_)
        for lo, hi in f.levels:
            hit = (self.probs[lo:hi] * out[f.child[lo:hi]]).sum(axis=1)
            draw = (f.totals[lo:hi] < 21) & (hit > self.stand[lo:hi])
            hits[lo:hi] = draw
            out[lo:hi] = np.where(draw, hit, self.stand[lo:hi])
        return out, hits

    def hit(self, row: int, values: FloatArray) -> float:
        """The value of drawing one card to ``row`` and playing on as ``values`` say."""
        return float(self.probs[row] @ values[self.family.child[row]])

    def double(self, row: int) -> float:
        """The value of doubling on ``row``: twice the wager, one card, stand."""
        f = self.family
        stand = np.append(self.stand, -1.0)
        return 2.0 * float(self.probs[row] @ stand[f.child[row]])

    def surrender(self, row: int) -> float:
        """The value of late surrender: half the wager back, unless (without the peek) the
        dealer has a Blackjack."""
        if self.peek:
            return -0.5
        q = float(self.p_blackjack[row])
        return -0.5 * (1.0 - q) - q


class UpcardShoe:
    """The shoe less one upcard, and the dealer's results for every composition asked of it
    (memoised by the cards out)."""

    def __init__(self, decks: int, upcard: int, hits_soft_17: bool, peek: bool) -> None:
        base = np.array((4 * decks,) * 9 + (16 * decks,), dtype=np.int64)
        base[upcard] -= 1
        self.base = base
        self.upcard = upcard
        self.h17 = hits_soft_17
        self.peek = peek
        self._known: dict[int, int] = {}
        self._dealer: list[FloatArray] = []
        self._p_bj: list[FloatArray] = []

    def table(self, family: _Family, extra: IntArray) -> Table:
        """The family's hands from the shoe less ``extra`` (by value)."""
        taken = family.counts + extra
        comps = self.base - taken
        valid: BoolArray = np.asarray((comps >= 0).all(axis=1), dtype=np.bool_)
        keys = (taken @ _RADIX).tolist()
        missing = [i for i, k in enumerate(keys) if valid[i] and k not in self._known]
        if missing:
            fresh = comps[missing]
            p, p_bj = _dealer_batch(fresh, self.upcard, self.h17)
            start = sum(len(b) for b in self._dealer)
            self._dealer.append(p)
            self._p_bj.append(p_bj)
            for j, i in enumerate(missing):
                self._known.setdefault(keys[i], start + j)
        dealer_all = np.concatenate(self._dealer) if self._dealer else np.zeros((0, 6))
        bj_all = np.concatenate(self._p_bj) if self._p_bj else np.zeros(0)
        self._dealer = [dealer_all]
        self._p_bj = [bj_all]
        at = np.array(
            [self._known.get(k, 0) if v else 0 for k, v in zip(keys, valid.tolist(), strict=True)]
        )
        rows = len(keys)
        dealer = dealer_all[at] if len(dealer_all) else np.zeros((rows, 6))
        p_bj = np.where(valid, bj_all[at] if len(bj_all) else 0.0, 0.0)
        stand = _stand_given(dealer, family.totals)
        if not self.peek:
            stand = (1.0 - p_bj) * stand - p_bj
        probs = draw_probs(np.where(valid[:, None], comps, 0), self.upcard, self.peek)
        return Table(family, stand, probs, valid, p_bj, self.peek)

    def next_card(self, extra: IntArray) -> FloatArray:
        """The chance of each value being the next card from the shoe less ``extra`` (as a
        player draws it: given no dealer Blackjack under the peek). ``(10,)``"""
        comp = (self.base - extra)[None, :]
        if (comp < 0).any():
            return np.zeros(VALUES)
        out: FloatArray = draw_probs(comp, self.upcard, self.peek)[0]
        return out


_SHOES: dict[tuple[int, int, bool, bool], UpcardShoe] = {}


def upcard_shoe(decks: int, upcard: int, hits_soft_17: bool, peek: bool) -> UpcardShoe:
    """The :class:`UpcardShoe` of these rules, kept for the next rule set that shares them (the
    dealer's results are the same whatever the player's rules); the 40 most recent are kept."""
    key = (decks, upcard, hits_soft_17, peek)
    got = _SHOES.pop(key, None)
    if got is None:
        got = UpcardShoe(decks, upcard, hits_soft_17, peek)
    _SHOES[key] = got
    while len(_SHOES) > 40:
        del _SHOES[next(iter(_SHOES))]
    return got
