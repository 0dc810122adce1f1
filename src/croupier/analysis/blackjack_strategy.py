"""The Blackjack player's strategy engine: the expected value of every play, and the house edge.

58 Pa. Code Chapter 633a (Blackjack; § 633a.9 surrender, § 633a.10 doubling, § 633a.11 splitting)
and § 633b.4 (Switch Hands and Blackjack Premium), as summarised in base-games.md.

**Method** (a combinatorial analysis, the usual one):

* The shoe is a composition by blackjack value (ace, 2 … 9, ten-valued). For a dealer upcard, the
  dealer's *final hands* are enumerated once as multisets of drawn values with the number of
  orders in which the dealer can draw each (a draw order is valid when no shorter prefix stands).
  The probability of a final hand from any composition ``n`` is then
  ``orders × Π falling(n_v, d_v) / falling(N, Σd)`` — exact for every composition, and evaluated
  for thousands of compositions at once with numpy. Under the peek (§ 633a.7, the card reader
  device) the dealer's two-card Blackjack is removed and the rest renormalised: what a player who
  still has a decision to make faces.
* The player's hands are multisets of values; the cards the player holds (and any card removed
  elsewhere, e.g. the other card of a split pair) are taken out of the shoe before the dealer's
  distribution is read, so standing, hitting and doubling are valued against the *exact* dealer
  distribution of the remaining shoe. Hitting is a memoised recursion over the player's hand
  (computed in bulk: every hand the player can reach against an upcard is tabled at once, most
  cards first, with the recursion's own arithmetic — :func:`_table_upcard`);
  after the first decision only standing and hitting remain. Each hand composition is played
  optimally (a composition-dependent strategy; :func:`basic_strategy_chart` reads the
  total-dependent chart off it).
* A player's draw after the peek is conditioned on the dealer's hole card not making a
  Blackjack: the hole card is an unseen card whose value is not the one that would complete it.
* **Splitting is approximated** in the standard way: each split hand is valued as one card of
  the pair plus a draw from the shoe less the pair (and the upcard); the other hands' cards are
  not removed. Re-splits up to :attr:`PlayRules.split_hands` hands are counted by the expected
  number of hands a pair card re-opens, all from that one composition. Split aces take one card
  each unless :attr:`PlayRules.hit_split_aces`; an ace and a ten-valued card after a split is 21,
  not a Blackjack.

Probabilities inside this recursion are floats (``numpy.float64``): exact fractions are far too
slow for thousands of dealer distributions per upcard. The rounding error is far below the
0.001% the figures are printed to; the house edge of a published rule set is reproduced within
0.01% (tests/analysis/test_blackjack_strategy.py cites the source).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache
from itertools import pairwise
from math import comb

import numpy as np

from croupier.analysis.blackjack_dealer import (
    _DEALER_CACHE,
    _dealer_hands,
)
from croupier.analysis.blackjack_dealer import (
    ACE as ACE,
)
from croupier.analysis.blackjack_dealer import (
    LABELS as LABELS,
)
from croupier.analysis.blackjack_dealer import (
    TEN as TEN,
)
from croupier.analysis.blackjack_dealer import (
    VALUES as VALUES,
)
from croupier.analysis.blackjack_dealer import (
    BoolArray as BoolArray,
)
from croupier.analysis.blackjack_dealer import (
    FloatArray as FloatArray,
)
from croupier.analysis.blackjack_dealer import (
    IntArray as IntArray,
)
from croupier.analysis.blackjack_dealer import (
    dealer_results as dealer_results,
)
from croupier.analysis.blackjack_dealer import (
    value_index as value_index,
)
from croupier.errors import CroupierError, RulesError
from croupier.games.blackjack_rules import PlayRules as PlayRules


class Action(Enum):
    """A player's decision on a two-card hand."""

    STAND = "stand"
    HIT = "hit"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"

    @property
    def letter(self) -> str:
        """One letter for a chart: S, H, D, P, R."""
        return {"stand": "S", "hit": "H", "double": "D", "split": "P", "surrender": "R"}[self.value]


# -- the player ------------------------------------------------------------------------------------


def counts_total(hand: Sequence[int]) -> tuple[int, bool]:
    """Total and softness of a hand given as counts by value."""
    hard = (
        hand[0]
        + 2 * hand[1]
        + 3 * hand[2]
        + 4 * hand[3]
        + 5 * hand[4]
        + 6 * hand[5]
        + 7 * hand[6]
        + 8 * hand[7]
        + 9 * hand[8]
        + 10 * hand[9]
    )
    if hand[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _stand_ev(total: int, dealer: FloatArray) -> float:
    """Expected value of standing on ``total`` (not a Blackjack) against ``dealer`` results."""
    if total > 21:
        return -1.0
    bust = float(dealer[5])
    if total < 17:
        return bust - (1.0 - bust)
    idx = total - 17
    win = bust + float(dealer[:idx].sum())
    lose = float(dealer[idx + 1 : 5].sum())
    return win - lose


class _Engine:
    """Memoised values of a player's hands against one upcard, the shoe less ``extra``."""

    def __init__(self, rules: PlayRules, upcard: int, extra: tuple[int, ...]) -> None:
        self.rules = rules
        self.upcard = upcard
        base = list(_shoe_counts(rules.table.decks))
        base[upcard] -= 1
        for v, k in enumerate(extra):
            base[v] -= k
        if min(base) < 0:
            raise CroupierError("the shoe lacks a card removed")
        self.base = tuple(base)
        self.h17 = rules.table.hits_soft_17
        self.excluded = TEN if upcard == ACE else ACE if upcard == TEN else None
        self._best: dict[tuple[int, ...], float] = {}
        self.tables: dict[int | None, tuple[_Family, FloatArray, FloatArray, BoolArray]] = {}
        """By family (:func:`_family`): the best and stand values :meth:`table` found, by row, and
        which rows the shoe can hold."""

    def composition(self, hand: Sequence[int]) -> tuple[int, ...]:
        """The shoe the dealer and the player draw from with ``hand`` held."""
        return tuple(b - h for b, h in zip(self.base, hand, strict=True))

    def dealer(self, hand: tuple[int, ...]) -> tuple[FloatArray, float]:
        """Dealer results given no Blackjack, and the Blackjack probability, with ``hand`` out."""
        return dealer_results(self.composition(hand), self.upcard, self.h17)

    def draw_probs(self, hand: Sequence[int]) -> list[float]:
        """The player's next card given no dealer Blackjack (the hole card is not the value that
        would complete one)."""
        n = self.composition(hand)
        total = sum(n)
        x = self.excluded
        if x is None:
            return [c / total for c in n]
        other = total - n[x]
        out = []
        for v, c in enumerate(n):
            if v == x:
                out.append(c / (total - 1))
            else:
                out.append((c - c / other) / (total - 1) if other else 0.0)
        return out

    def stand(self, hand: tuple[int, ...]) -> float:
        """EV of standing (given no dealer Blackjack)."""
        got = self._tabled(hand, stand=True)
        if got is not None:
            return got
        total, _ = counts_total(hand)
        if total > 21:
            return -1.0
        return _stand_ev(total, self.dealer(hand)[0])

    def _tabled(self, hand: tuple[int, ...], stand: bool) -> float | None:
        for family, best, stands, valid in self.tables.values():
            row = family.row.get(hand)
            if row is not None and valid[row]:
                return float(stands[row] if stand else best[row])
        return None

    def best(self, hand: tuple[int, ...]) -> float:
        """EV of the best of standing and hitting (any hand after the first decision)."""
        got = self._best.get(hand)
        if got is None:
            got = self._tabled(hand, stand=False)
        if got is not None:
            return got
        total, _ = counts_total(hand)
        if total > 21:
            return -1.0
        value = self.stand(hand)
        if total < 21:
            value = max(value, self.hit(hand))
        self._best[hand] = value
        return value

    def hit(self, hand: tuple[int, ...]) -> float:
        """EV of taking one card and then playing on optimally."""
        return self._one_card(hand, self.best)

    def double(self, hand: tuple[int, ...]) -> float:
        """EV of doubling: twice the wager, one card, stand."""
        return 2.0 * self._one_card(hand, self.stand)

    def _one_card(self, hand: tuple[int, ...], then: Callable[[tuple[int, ...]], float]) -> float:
        """EV of taking one card to ``hand`` and then ``then`` (the EV of the hand it makes),
        summed over the card values in order."""
        ev = 0.0
        for v, p in enumerate(self.draw_probs(hand)):
            if p:
                ev += p * then(_add(hand, v))
        return ev

    def table(self, family: _Family, dealer: FloatArray) -> None:
        """Fill the memos with the stand and best values of every hand of ``family`` at once, from
        ``dealer`` (the dealer's results given no Blackjack for each hand's composition, rows as
        the family's; any for a hand the shoe cannot hold).

        Each value is computed with the float operations :meth:`stand` and :meth:`best` perform,
        in the same order, so it is the same to the last bit: the draw probabilities of
        :meth:`draw_probs`, the partial sums of :func:`_stand_ev` (numpy sums a slice of fewer than
        eight from the left), and the hit sum over the card values in order — a value that cannot
        be drawn (probability 0) adds ±0.0, which changes no sum. Hands are taken level by level,
        the most cards first, so every hand's draws are known before it."""
        comps = np.asarray(self.base, dtype=np.int64) - family.counts
        valid: BoolArray = np.all(comps >= 0, axis=1)
        c = comps.astype(np.float64)
        n = c.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            x = self.excluded
            if x is None:
                probs = c / n[:, None]
            else:
                other = n - c[:, x]
                probs = np.where(
                    (other > 0)[:, None], (c - c / other[:, None]) / (n - 1.0)[:, None], 0.0
                )
                probs[:, x] = c[:, x] / (n - 1.0)
        probs[~valid] = 0.0
        totals = family.totals
        d0, d1, d2, d3, d4, bust = (dealer[:, i] for i in range(6))
        stand = np.select(
            [totals < 17, totals == 17, totals == 18, totals == 19, totals == 20],
            [
                bust - (1.0 - bust),
                bust - (((d1 + d2) + d3) + d4),
                (bust + d0) - ((d2 + d3) + d4),
                (bust + (d0 + d1)) - (d3 + d4),
                (bust + ((d0 + d1) + d2)) - d4,
            ],
            default=bust + (((d0 + d1) + d2) + d3),
        )
        rows = len(family.hands)
        best = np.empty(rows + 1, dtype=np.float64)
        best[rows] = -1.0  # a bust
        for lo, hi in family.levels:
            hit = np.zeros(hi - lo, dtype=np.float64)
            p, child = probs[lo:hi], family.child[lo:hi]
            for v in range(VALUES):
                hit = hit + p[:, v] * best[child[:, v]]
            s = stand[lo:hi]
            best[lo:hi] = np.where((totals[lo:hi] < 21) & (hit > s), hit, s)
        self.tables[family.containing] = (family, best[:rows], stand, valid)


def _add(hand: tuple[int, ...], v: int) -> tuple[int, ...]:
    return (*hand[:v], hand[v] + 1, *hand[v + 1 :])


def _hand(*values: int) -> tuple[int, ...]:
    out = [0] * VALUES
    for v in values:
        out[v] += 1
    return tuple(out)


@lru_cache(maxsize=16)
def _shoe_counts(decks: int) -> tuple[int, ...]:
    return (4 * decks,) * 9 + (16 * decks,)


_ENGINES: dict[tuple[PlayRules, int, tuple[int, ...]], _Engine] = {}


def _engine(rules: PlayRules, upcard: int, extra: tuple[int, ...] = (0,) * VALUES) -> _Engine:
    key = (rules, upcard, extra)
    got = _ENGINES.get(key)
    if got is None:
        if not rules.table.peek:
            raise RulesError(
                "this engine models the peek (card reader device) only; "
                "croupier.analysis.blackjack_exact values a game without it",
                section="633a.7",
            )
        if len(_ENGINES) > 4096:
            _ENGINES.clear()
            _TABLED.clear()
        got = _Engine(rules, upcard, extra)
        _ENGINES[key] = got
    return got


# -- every hand at once ----------------------------------------------------------------------------
#
# The recursion above walks one hand at a time. Before the first two-card hand against an upcard is
# valued (:func:`_hand_values`), every hand the player can reach there is tabled in bulk instead:
# the dealer's results for every composition those hands leave, one numpy pass per final dealer hand
# over all of them (:func:`_dealer_batch`), then each hand's values (:meth:`_Engine.table`). Both
# repeat the scalar code's float operations in its order, so every figure is unchanged to the last
# bit (tests/analysis/test_strategy_tables.py compares them); a hand not tabled is valued by the
# recursion.


@dataclass(frozen=True)
class _Family:
    """Player hands of two or more cards with a hard total of 21 or less — all of them, or those
    holding a ``containing`` card (the hands a split pair card grows into) — in rows of equal card
    count, the most cards first."""

    containing: int | None
    hands: tuple[tuple[int, ...], ...]
    row: dict[tuple[int, ...], int]
    counts: IntArray  # (n, 10)
    totals: IntArray  # (n,) the hand's total (counts_total)
    child: IntArray  # (n, 10) the row of the hand plus a card of each value; n for a bust
    levels: tuple[tuple[int, int], ...]  # row ranges of equal card count


_RADIX = 32 ** np.arange(VALUES, dtype=np.int64)
"""Weights that turn a hand (or cards removed) of fewer than 32 of each value into one integer."""


@cache
def _family(containing: int | None) -> _Family:
    if containing is None:
        found: list[tuple[int, ...]] = []

        def walk(v: int, hard: int, hand: tuple[int, ...]) -> None:
            if v == VALUES:
                if sum(hand) >= 2:
                    found.append(hand)
                return
            k = 0
            while hard + k * (v + 1) <= 21:
                walk(v + 1, hard + k * (v + 1), (*hand, k))
                k += 1

        walk(0, 0, ())
        found.sort(key=sum, reverse=True)
    else:
        found = [h for h in _family(None).hands if h[containing]]
    counts = np.array(found, dtype=np.int64)
    keys = counts @ _RADIX
    order = np.argsort(keys)
    ordered = keys[order]
    wanted = keys[:, None] + _RADIX[None, :]
    at = np.minimum(np.searchsorted(ordered, wanted), len(found) - 1)
    child = np.where(ordered[at] == wanted, order[at], len(found))
    sizes = counts.sum(axis=1)
    edges = np.flatnonzero(np.diff(sizes)) + 1
    bounds = [0, *edges.tolist(), len(found)]
    return _Family(
        containing,
        tuple(found),
        {h: i for i, h in enumerate(found)},
        counts,
        np.array([counts_total(h)[0] for h in found], dtype=np.int64),
        child.astype(np.int64),
        tuple(pairwise(bounds)),
    )


def _dealer_batch(
    comps: IntArray, upcard: int, hits_soft_17: bool
) -> tuple[FloatArray, FloatArray]:
    """:func:`dealer_results` of each row of ``comps`` (compositions by value, the upcard out),
    as ``(p, p_blackjack)`` with rows of ``p`` as the compositions'. The same float operations as
    :func:`_dealer_results` in the same order — the falling factorials by repeated
    multiplication, each final hand's product of them over the values in order (the factors of
    1.0 for values it does not hold change nothing), the results summed over the final hands in
    order — over all compositions at once."""
    hands = _dealer_hands(upcard, hits_soft_17)
    size = comps.shape[0]
    n = np.empty((VALUES + 1, size), dtype=np.float64)
    n[:VALUES] = comps.T
    n[VALUES] = comps.sum(axis=1)
    table = np.empty((VALUES + 1, hands.kmax + 1, size), dtype=np.float64)
    table[:, 0] = 1.0
    for j in range(1, hands.kmax + 1):
        table[:, j] = table[:, j - 1] * np.maximum(n - float(j - 1), 0.0)
    out = np.zeros((6, size), dtype=np.float64)
    p_bj = np.zeros(size, dtype=np.float64)
    positive = (table[VALUES] > 0).all(axis=1).tolist()
    for drawn, orders, k, result, blackjack in zip(
        hands.drawn.tolist(),
        hands.orders.tolist(),
        hands.size.tolist(),
        hands.result.tolist(),
        hands.blackjack.tolist(),
        strict=True,
    ):
        weight: FloatArray | None = None
        for v, d in enumerate(drawn):
            if d:
                weight = table[v, d] if weight is None else weight * table[v, d]
        assert weight is not None  # the dealer draws at least one card
        denominator = table[VALUES, k]
        if positive[k]:
            probs = (orders * weight) / denominator
        else:
            probs = np.divide(
                orders * weight, denominator, out=np.zeros(size), where=denominator > 0
            )
        if blackjack:
            p_bj = probs
        else:
            out[result] += probs
    below = p_bj < 1.0
    out[:, below] /= 1.0 - p_bj[below]
    return np.ascontiguousarray(out.T), p_bj


def _table_upcard(rules: PlayRules, upcard: int, extra: tuple[int, ...]) -> None:
    """Table every hand the player can reach against ``upcard`` from the shoe less ``extra``:
    the two-card hands and their draws, and (when splitting is allowed) each pair card's split
    hands, whose shoe also lacks the other card of the pair."""
    key = (rules, upcard, extra)
    if key in _TABLED:
        return
    if len(_ENGINES) > 4096 - VALUES - 1:  # room for this upcard's engines, kept together
        _ENGINES.clear()
        _TABLED.clear()
    main = _engine(rules, upcard, extra)
    jobs = [] if None in main.tables else [(main, _family(None))]
    if rules.split_hands >= 2:
        for pair in range(VALUES):
            if main.base[pair] < 2:
                continue
            eng = _engine(rules, upcard, _add(extra, pair))
            if pair not in eng.tables:
                jobs.append((eng, _family(pair)))
    if jobs:
        h17 = rules.table.hits_soft_17
        base = np.asarray(main.base, dtype=np.int64)
        # the cards each hand's shoe lacks beyond the main shoe's (fewer than 32 of a value)
        taken = np.concatenate([f.counts + (base - e.base) for e, f in jobs])
        comps = base - taken
        valid = (comps >= 0).all(axis=1)
        _, first, inverse = np.unique(taken[valid] @ _RADIX, return_index=True, return_inverse=True)
        unique = comps[valid][first]
        p, p_bj = _dealer_batch(unique, upcard, h17)
        if len(_DEALER_CACHE) > 400_000:
            _DEALER_CACHE.clear()
        for i in np.flatnonzero(unique.sum(axis=1) == base.sum() - 2).tolist():
            # the shoes of the two-card hands, which _hand_values reads
            composition = tuple(unique[i].tolist())
            _DEALER_CACHE.setdefault((upcard, h17, composition), (p[i], float(p_bj[i])))
        dealer = np.zeros((comps.shape[0], 6), dtype=np.float64)
        dealer[valid] = p[inverse.reshape(-1)]
        start = 0
        for eng, family in jobs:
            stop = start + len(family.hands)
            eng.table(family, dealer[start:stop])
            start = stop
    _TABLED.add(key)


_TABLED: set[tuple[PlayRules, int, tuple[int, ...]]] = set()
"""The (rules, upcard, cards removed) whose engines :func:`_table_upcard` has filled in (cleared
with the engines)."""


@dataclass(frozen=True)
class HandValues:
    """The expected value of each play of a two-card hand against an upcard, per unit wagered.

    ``stand`` … ``surrender`` are conditional on the dealer not having a Blackjack (the player
    decides after the peek); a play the rules do not allow is ``None``. ``p_dealer_blackjack`` is
    the chance of a dealer Blackjack, which takes the original wager only (§ 633a.11, base-games.md).
    A two-card 21 is a Blackjack (``blackjack``): it has no decision.
    """

    cards: tuple[int, int]
    upcard: int
    p_dealer_blackjack: float
    blackjack: bool
    stand: float
    hit: float | None
    double: float | None
    split: float | None
    surrender: float | None

    def options(self) -> dict[Action, float]:
        """The allowed plays and their EVs (given no dealer Blackjack)."""
        out = {Action.STAND: self.stand}
        for action, ev in (
            (Action.HIT, self.hit),
            (Action.DOUBLE, self.double),
            (Action.SPLIT, self.split),
            (Action.SURRENDER, self.surrender),
        ):
            if ev is not None:
                out[action] = ev
        return out

    @property
    def action(self) -> Action:
        """The best play (standing on a Blackjack)."""
        if self.blackjack:
            return Action.STAND
        opts = self.options()
        return max(opts, key=lambda a: opts[a])

    @property
    def best(self) -> float:
        """The EV of the best play, given no dealer Blackjack."""
        return self.options()[self.action]

    def value(
        self,
        blackjack_pays: Fraction | float = Fraction(3, 2),
        tie_blackjack_pays: Fraction | float = 0,
    ) -> float:
        """The expected net result of the hand before the peek (what a player who has not yet seen
        the hole card can expect), with the best play: a player Blackjack pays ``blackjack_pays``
        (or ``tie_blackjack_pays`` against a dealer Blackjack); otherwise a dealer Blackjack takes
        the wager."""
        q = self.p_dealer_blackjack
        if self.blackjack:
            return q * float(tie_blackjack_pays) + (1 - q) * float(blackjack_pays)
        return -q + (1 - q) * self.best


def hand_values(
    rules: PlayRules, upcard: int, first: int, second: int, removed: Iterable[int] = ()
) -> HandValues:
    """The EV of every play of the two-card hand ``first``, ``second`` (value indices) against
    ``upcard``, from the shoe less those three cards and ``removed`` (value indices of other cards
    known to be out, e.g. a discarded Switch Hands pair). Memoised."""
    return _hand_values(rules, upcard, first, second, tuple(sorted(removed)))


@lru_cache(maxsize=65536)
def _hand_values(
    rules: PlayRules, upcard: int, first: int, second: int, removed: tuple[int, ...]
) -> HandValues:
    extra = _hand(*removed)
    eng = _engine(rules, upcard, extra)
    hand = _hand(first, second)
    composition = eng.composition(hand)
    if min(composition) < 0:
        raise CroupierError("the shoe lacks a card of the hand")
    _table_upcard(rules, upcard, extra)
    eng = _engine(rules, upcard, extra)  # the tabled one (the cache may have made room for it)
    dealer, p_bj = eng.dealer(hand)
    total, _ = counts_total(hand)
    if total == 21:
        return HandValues((first, second), upcard, p_bj, True, 1.0, None, None, None, None)
    stand = _stand_ev(total, dealer)
    hit = eng.hit(hand)
    double = eng.double(hand) if rules.double_on.allows(*counts_total(hand)) else None
    split = _split_ev(rules, upcard, first, extra) if first == second else None
    surrender = -0.5 if rules.late_surrender else None
    return HandValues((first, second), upcard, p_bj, False, stand, hit, double, split, surrender)


def _split_ev(rules: PlayRules, upcard: int, pair: int, extra: tuple[int, ...]) -> float | None:
    """EV of splitting a pair (both hands together, per unit of the original wager), given no
    dealer Blackjack. See the module docstring for the approximation."""
    if rules.split_hands < 2:
        return None
    eng = _engine(rules, upcard, _add(extra, pair))
    one = _hand(pair)
    probs = eng.draw_probs(one)
    aces = pair == ACE
    can_play = not aces or rules.hit_split_aces
    non_pair = 0.0
    pair_value = 0.0
    for v, p in enumerate(probs):
        if not p:
            continue
        h = _add(one, v)
        value = eng.stand(h)
        if can_play:
            value = max(value, eng.hit(h))
            if rules.double_after_split and rules.double_on.allows(*counts_total(h)):
                value = max(value, eng.double(h))
        if v == pair:
            pair_value = value
        else:
            non_pair += p * value
    q = probs[pair]
    resplit = not aces or rules.resplit_aces
    limit = rules.split_hands if resplit else 2

    @cache
    def f(hands: int, pending: int) -> float:
        if pending == 0:
            return 0.0
        out = non_pair + (1 - q) * f(hands, pending - 1)
        if hands < limit:
            out += q * f(hands + 1, pending + 1)
        else:
            out += q * (pair_value + f(hands, pending - 1))
        return out

    return f(2, 2)


# -- the whole game ----------------------------------------------------------------------------


def initial_deals(decks: int) -> list[tuple[int, int, int, float]]:
    """Every (upcard, first, second) by value with its probability from a full shoe (the player's
    two cards unordered, ``first <= second``)."""
    counts = _shoe_counts(decks)
    total = sum(counts)
    out = []
    for u in range(VALUES):
        pu = counts[u] / total
        left = list(counts)
        left[u] -= 1
        m = total - 1
        pairs = comb(m, 2)
        for a in range(VALUES):
            for b in range(a, VALUES):
                ways = comb(left[a], 2) if a == b else left[a] * left[b]
                out.append((u, a, b, pu * ways / pairs))
    return out


@dataclass(frozen=True)
class GameValue:
    """The player's expected result per unit of the Blackjack wager, and the house edge."""

    rules: PlayRules
    expected: float
    blackjack_pays: float
    tie_blackjack_pays: float

    @property
    def house_edge(self) -> float:
        """−expected, per unit of the initial Blackjack wager."""
        return -self.expected


def game_value(
    rules: PlayRules,
    blackjack_pays: Fraction | float | None = None,
    tie_blackjack_pays: Fraction | float = 0,
) -> GameValue:
    """The expected result of a round of Blackjack played with the optimal (composition-dependent)
    strategy, per unit wagered, from a full shoe."""
    bj = float(rules.table.blackjack_pays if blackjack_pays is None else blackjack_pays)
    ev = 0.0
    for u, a, b, p in initial_deals(rules.table.decks):
        if p:
            ev += p * hand_values(rules, u, a, b).value(bj, tie_blackjack_pays)
    return GameValue(rules, ev, bj, float(tie_blackjack_pays))


# -- the chart ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRow:
    """One row of a basic-strategy chart: the hands it covers and the play against each upcard
    (``'A'``, ``'2'`` … ``'T'``), with the probability-weighted EV of each allowed play."""

    kind: str  # "hard", "soft" or "pair"
    label: str
    actions: dict[str, Action]
    values: dict[str, dict[Action, float]]


def basic_strategy_chart(rules: PlayRules) -> list[ChartRow]:
    """The total-dependent basic strategy for two-card hands: hard 5–20 (no pair), soft 13–20,
    and pairs. For a total made by several two-card hands (hard 12 is 2-T, 3-9, 4-8, 5-7) each
    play's EV is averaged over those hands, weighted by their chance from the full shoe, and the
    best average is the chart's play (surrender, where allowed, is only taken where it is best)."""
    counts = _shoe_counts(rules.table.decks)
    groups: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for a in range(VALUES):
        for b in range(a, VALUES):
            hand = _hand(a, b)
            total, soft = counts_total(hand)
            if a == b:
                key = ("pair", f"{LABELS[a]},{LABELS[b]}")
            elif total == 21:
                continue
            elif soft:
                key = ("soft", f"soft {total}")
            else:
                key = ("hard", f"hard {total}")
            groups.setdefault(key, []).append((a, b))
    rows = []
    order = {"hard": 0, "soft": 1, "pair": 2}

    def sort_key(item: tuple[tuple[str, str], list[tuple[int, int]]]) -> tuple[int, int]:
        (kind, _), hands = item
        a, b = hands[0]
        if kind == "pair":
            return (order[kind], -(11 if a == ACE else a + 1))
        return (order[kind], -counts_total(_hand(a, b))[0])

    for (kind, label), hands in sorted(groups.items(), key=sort_key):
        actions: dict[str, Action] = {}
        values: dict[str, dict[Action, float]] = {}
        for u in (1, 2, 3, 4, 5, 6, 7, 8, TEN, ACE):
            sums: dict[Action, float] = {}
            weight = 0.0
            for a, b in hands:
                w = (counts[a] * (counts[a] - 1) / 2) if a == b else counts[a] * counts[b]
                hv = hand_values(rules, u, a, b)
                for act, ev in hv.options().items():
                    sums[act] = sums.get(act, 0.0) + w * ev
                weight += w
            avg = {act: s / weight for act, s in sums.items()}
            actions[LABELS[u]] = max(avg, key=lambda act: avg[act])
            values[LABELS[u]] = avg
        rows.append(ChartRow(kind, label, actions, values))
    return rows
