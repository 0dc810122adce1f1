"""Blackjack's house edge by rule set, for the two strategies the published tables name, with
splits counted as those tables count them (58 Pa. Code §§ 633a.7–633a.11; issue 32).

The figures are those of a continuous shuffler (every round from a full shoe, no cut card), as
H. Hoppe's exact probabilistic analysis ("prob", github.com/hhoppe/blackjack) and the Wizard of
Odds' house-edge calculator tabulate them (tests/blackjack_rules_reference.py).

**Strategies** (:class:`Strategy`):

* ``COMPOSITION`` — composition-dependent: every decision is the best for the cards of the hand
  against the upcard (and, on a split hand, for the number of cards of the pair value split so
  far), valued against the exact shoe. Hoppe's ``HAND_AND_NUM_PRIOR_SPLITS``; the Wizard of Odds'
  calculator tables are of this strategy.
* ``BASIC`` — total-dependent basic strategy, as Hoppe's ``TOTAL_OF_CARDS`` defines it: the first
  decision on a hand that is not a pair is the best, for its total, softness and the upcard, of
  the EVs averaged over the two-card hands of that total (weighted by their chance from the shoe
  less the upcard; the pairs are left to the pair rows, but for A-A, 2-2 and T-T, the only
  hands of soft 12, hard 4 and hard 20), each valued against its own shoe with optimal drawing
  after the first card; every later hit-or-stand decision is the same averaged two-card choice
  for the hand's total (a three-card 16 plays as a two-card 16); a pair's first decision is the
  best for that pair, and after a split a pair that may not be split again plays as that pair
  against the full shoe. Each decision is then valued against the hand's exact shoe.

**Splits** are counted as Hoppe's analysis counts them: the hands are played one after the
other; each is valued against the shoe less the upcard, every card of the pair value dealt so far
(the pair, and any dealt to a hand and re-split) and the second cards of the hands already played
(the cards those hands drew after their second card are not removed); a pair card dealt to a hand
is re-split while :attr:`~croupier.games.blackjack_rules.PlayRules.split_hands` allows (aces only
with :attr:`~croupier.games.blackjack_rules.PlayRules.resplit_aces`). The decisions on a split
hand depend on its cards and the number of pair cards split, not on the other hands' cards, so
the removal of those second cards — each known only not to be a pair card — is counted exactly
from shoes that lack pair cards only: for any fixed way of playing, removing a card drawn at
random from the shoe changes nothing on average, and "a card that is not a pair card" is "a random
card" less "a pair card" (:func:`_split_terms`). Hoppe's program keeps at most three such cards
(its ``EFFORT=3``) and stops tracking a hand's cards after ten; croupier removes all of them — the
difference is far below the published figures' last digit (docs/interpretations.md).

Doubling after a split follows :attr:`PlayRules.double_after_split` and the doubling rule; split
aces are never doubled; a split ace and a ten is 21, not a Blackjack. Probabilities inside are
floats (numpy): the figures are printed to 0.001 %, many orders above the rounding.

**Speed**: an upcard's tables — the main one and every split table its splits can read
(:func:`_split_outs`) — are made in one pass and kept by the shoe
(:func:`~croupier.analysis.blackjack_tables.upcard_shoe`), their dealer's results and hand values
from compiled kernels (:mod:`croupier.analysis.kernels.dealer_results`,
:mod:`croupier.analysis.kernels.hand_values`) that repeat the numpy code's float operations in
order; a split hand's decision and value are memoised. A rule set takes about a second cold,
a fraction of one when its shoe's tables are kept (benchmarks/bench_blackjack_rules.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

import numpy as np

from croupier.analysis.blackjack_dealer import ACE, TEN, VALUES, BoolArray, FloatArray
from croupier.analysis.blackjack_strategy import (
    Action,
    _family,
    _hand,
    counts_total,
    initial_deals,
)
from croupier.analysis.blackjack_tables import Table, upcard_shoe
from croupier.games.blackjack_rules import PlayRules

__all__ = ["RuleSetValue", "Strategy", "rule_set_value"]


class Strategy(Enum):
    """The player's strategy a house edge assumes (see the module docstring)."""

    BASIC = "basic"
    COMPOSITION = "composition"

    def describe(self) -> str:
        """One line for a report."""
        if self is Strategy.BASIC:
            return (
                "total-dependent basic strategy: each decision by the hand's total and softness "
                "and the upcard (a pair's first decision by the pair), valued exactly"
            )
        return (
            "composition-dependent: each decision the best for the hand's own cards and the "
            "upcard (and the pair cards split), valued exactly"
        )


@dataclass(frozen=True)
class RuleSetValue:
    """The house edge of a rule set under a strategy: ``expected`` is the player's expected
    result per unit of the initial Blackjack wager (doubles and splits add to what is risked but
    not to the unit), ``house_edge`` its negative."""

    rules: PlayRules
    strategy: Strategy
    expected: float

    @property
    def house_edge(self) -> float:
        """−expected, a fraction of the initial wager."""
        return -self.expected


_PIPS = np.arange(1, VALUES + 1, dtype=np.int64)


@cache
def _softness(containing: int | None) -> BoolArray:
    """Whether each hand of a family is soft (an ace counted as 11)."""
    f = _family(containing)
    hard = f.counts @ _PIPS
    out: BoolArray = f.totals != hard
    return out


def _two_card_cells() -> dict[tuple[int, bool], list[tuple[int, int]]]:
    """The two-card hands of each basic-strategy cell (total, soft): no pairs, but A-A (soft 12),
    2-2 (hard 4) and T-T (hard 20), the only hands of their totals."""
    cells: dict[tuple[int, bool], list[tuple[int, int]]] = {}
    for a in range(VALUES):
        for b in range(a, VALUES):
            if a == b and a not in (ACE, 1, TEN):
                continue
            total, soft = counts_total(_hand(a, b))
            cells.setdefault((total, soft), []).append((a, b))
    return cells


_CELLS = _two_card_cells()


@dataclass
class _Basic:
    """One upcard's basic strategy: the averaged two-card EVs of each cell, by action."""

    cells: dict[tuple[int, bool], dict[Action, float]]
    _masks: dict[int | None, BoolArray] = field(default_factory=dict)

    def draws(self, total: int, soft: bool) -> bool:
        """Whether a hand of ``total`` that has drawn (or may only draw or stand) hits."""
        if total >= 21:
            return False
        cell = self.cells[(21, True) if total == 21 else (total, soft)]
        return cell[Action.HIT] > cell[Action.STAND]

    def first(self, total: int, soft: bool, allowed: frozenset[Action]) -> Action:
        """The first decision for a two-card hand that is not a pair, among ``allowed``."""
        cell = self.cells[(total, soft)]
        return max((a for a in cell if a in allowed), key=lambda a: (cell[a], _ORDER[a]))

    def mask(self, containing: int | None) -> BoolArray:
        """The draw-or-stand decision of every hand of a family."""
        got = self._masks.get(containing)
        if got is not None:
            return got
        f = _family(containing)
        soft = _softness(containing)
        table = {
            key: self.draws(*key)
            for key in {(t, s) for t in range(4, 22) for s in (False, True)}
            if key in self.cells or key[0] == 21
        }
        lookup = np.ones((22, 2), dtype=np.bool_)  # by total and softness; a total of 21 stands
        lookup[21] = False
        for (t, s), draws in table.items():
            if t < 21:
                lookup[t, int(s)] = draws
        out: BoolArray = lookup[f.totals, soft.astype(np.int64)]
        self._masks[containing] = out
        return out


_ORDER = {Action.STAND: 1, Action.HIT: 2, Action.DOUBLE: 3, Action.SPLIT: 4, Action.SURRENDER: 5}
"""Hoppe's order of the actions, which breaks an exact tie (the later wins)."""


class _Upcard:
    """Everything about one upcard under one rule set."""

    def __init__(self, rules: PlayRules, upcard: int) -> None:
        self.rules = rules
        self.upcard = upcard
        t = rules.table
        self.shoe = upcard_shoe(t.decks, upcard, t.hits_soft_17, t.peek)
        self._nexts: dict[tuple[int | None, int], FloatArray] = {}
        self.main = self._prepare()
        self.cd_values, self.cd_hits = self.main.optimal()
        self.basic = self._basic()
        self.basic_values = self.main.values(self.basic.mask(None))
        # memos keyed by the pair, cards and whether the strategy is basic
        self._played: dict[tuple[int, int, int, bool], FloatArray] = {}
        self._split_hands: dict[tuple[int, int, int, int, bool], float] = {}
        self._decisions: dict[tuple[int, int, int, bool], Action] = {}

    def _prepare(self) -> Table:
        """The main table, and every split table the splits will read (:func:`_split_outs`),
        built together (and kept by the shoe for the next rule set that shares it)."""
        rules = self.rules
        wanted: list[tuple[int | None, int]] = [(None, 0)]
        if rules.split_hands >= 2:
            for pair in range(VALUES):
                if self.shoe.base[pair] >= 1:
                    outs = _split_outs(rules.split_hands, pair != ACE or rules.resplit_aces)
                    wanted.extend((pair, out) for out in outs)
        splits = [(pair, out) for pair, out in wanted if pair is not None]
        if splits:
            extras = np.zeros((len(splits), VALUES), dtype=np.int64)
            for i, (pair, out) in enumerate(splits):
                extras[i, pair] = out + 1
            self._nexts.update(zip(splits, self.shoe.next_cards(extras), strict=True))
        return self.shoe.tables(wanted)[0]

    # -- basic strategy ------------------------------------------------------------------------

    def _basic(self) -> _Basic:
        counts = self.shoe.base
        cells: dict[tuple[int, bool], dict[Action, float]] = {}
        f = self.main.family
        for key, hands in _CELLS.items():
            sums: dict[Action, float] = {}
            weight = 0.0
            for a, b in hands:
                w = float(counts[a] * (counts[a] - 1) / 2 if a == b else counts[a] * counts[b])
                if not w:
                    continue
                row = f.row[_hand(a, b)]
                opts = self._options(self.main, row, self.cd_values, _INITIAL)
                for act, ev in opts.items():
                    sums[act] = sums.get(act, 0.0) + w * ev
                weight += w
            if weight:
                cells[key] = {act: s / weight for act, s in sums.items()}
        return _Basic(cells)

    # -- one hand ------------------------------------------------------------------------------

    def _options(
        self, table: Table, row: int, values: FloatArray, allowed: frozenset[Action]
    ) -> dict[Action, float]:
        """The value of each allowed first action on the two-card hand ``row`` (after the first
        card, play continues as ``values``); doubling only where the doubling rule allows it."""
        rules = self.rules
        total, soft = int(table.family.totals[row]), bool(_softness(table.family.containing)[row])
        out = {Action.STAND: float(table.stand[row])}
        if Action.HIT in allowed and total < 21:
            out[Action.HIT] = table.hit(row, values)
        if Action.DOUBLE in allowed and rules.double_on.allows(total, soft):
            out[Action.DOUBLE] = table.double(row)
        if Action.SURRENDER in allowed and rules.late_surrender:
            out[Action.SURRENDER] = table.surrender(row)
        return out

    def hand(self, a: int, b: int, strategy: Strategy) -> float:
        """The expected result of the initial hand ``a``, ``b`` per unit wagered (before the
        peek: a dealer Blackjack and a player Blackjack are settled here)."""
        main = self.main
        row = main.family.row[_hand(a, b)]
        q = float(main.p_blackjack[row])
        total, soft = counts_total(_hand(a, b))
        if total == 21:
            pays = float(self.rules.table.blackjack_pays)
            return (1.0 - q) * pays
        values = self.cd_values if strategy is Strategy.COMPOSITION else self.basic_values
        opts = self._options(main, row, values, _INITIAL)
        if a == b and self.rules.split_hands >= 2:
            opts[Action.SPLIT] = self.split(a, strategy)
        if strategy is Strategy.BASIC and a != b:
            ev = opts[self.basic.first(total, soft, frozenset(opts))]
        else:
            ev = max(opts.values())
        return -q + (1.0 - q) * ev if self.rules.table.peek else ev

    # -- splits --------------------------------------------------------------------------------

    def split_table(self, pair: int, out: int) -> Table:
        """Hands holding a ``pair`` card, from the shoe less the upcard and ``out`` more cards
        of the pair value."""
        return self.shoe.table(pair, out)

    def _optimal_split(self, pair: int, out: int) -> tuple[FloatArray, BoolArray]:
        return self.split_table(pair, out).optimal()

    def _split_allowed(self, pair: int) -> frozenset[Action]:
        allowed = {Action.STAND}
        if pair != ACE or self.rules.hit_split_aces:
            allowed.add(Action.HIT)
        if self.rules.double_after_split and pair != ACE:
            allowed.add(Action.DOUBLE)
        return frozenset(allowed)

    def split_hand(self, pair: int, second: int, k: int, out: int, strategy: Strategy) -> float:
        """The value of a split hand ``pair``, ``second`` (after the peek, if any), from the shoe
        less the upcard and ``out`` more pair cards, decided as the strategy decides with ``k``
        pair cards known out (basic strategy decides alike whatever ``k``)."""
        basic = strategy is Strategy.BASIC
        if basic:
            k = 0
        key = (pair, second, k, out, basic)
        got = self._split_hands.get(key)
        if got is not None:
            return got
        evaluate = self.split_table(pair, out)
        row = evaluate.family.row[_hand(pair, second)]
        act = self._split_decision(pair, second, k, strategy)
        if strategy is Strategy.COMPOSITION:
            decide_values, hits = self._optimal_split(pair, k)
            values = decide_values if out == k else self._play(pair, k, out, strategy, hits)
        else:
            values = self._play(pair, 0, out, strategy, self.basic.mask(pair))
        got = self._split_hands[key] = self._value_of(evaluate, row, values, act)
        return got

    def _split_decision(self, pair: int, second: int, k: int, strategy: Strategy) -> Action:
        """The strategy's first decision on the split hand ``pair``, ``second`` with ``k`` pair
        cards known out (memoised)."""
        key = (pair, second, k, strategy is Strategy.BASIC)
        got = self._decisions.get(key)
        if got is not None:
            return got
        allowed = self._split_allowed(pair)
        row = _family(pair).row[_hand(pair, second)]
        if strategy is Strategy.COMPOSITION:
            decide_values, _ = self._optimal_split(pair, k)
            choices = self._options(self.split_table(pair, k), row, decide_values, allowed)
            act = max(choices, key=lambda x: (choices[x], _ORDER[x]))
        elif second == pair:  # a pair not split again: decided as that pair, full shoe
            hits = self.basic.mask(pair)
            decide = self.split_table(pair, 0)
            choices = self._options(decide, row, self._play(pair, 0, 0, strategy, hits), allowed)
            act = max(choices, key=lambda x: (choices[x], _ORDER[x]))
        else:
            total, soft = counts_total(_hand(pair, second))
            options = frozenset(a for a in allowed if a is not Action.DOUBLE) | (
                {Action.DOUBLE}
                if Action.DOUBLE in allowed and self.rules.double_on.allows(total, soft)
                else frozenset()
            )
            act = self.basic.first(total, soft, options)
        self._decisions[key] = act
        return act

    @staticmethod
    def _value_of(table: Table, row: int, values: FloatArray, act: Action) -> float:
        """The value of the action ``act`` (one :meth:`_options` allowed) on ``row`` of
        ``table``, play continuing as ``values`` say."""
        if act is Action.HIT:
            return table.hit(row, values)
        if act is Action.DOUBLE:
            return table.double(row)
        if act is Action.SURRENDER:
            return table.surrender(row)
        return float(table.stand[row])

    def _play(self, pair: int, k: int, out: int, strategy: Strategy, hits: BoolArray) -> FloatArray:
        key = (pair, k, out, strategy is Strategy.BASIC)
        got = self._played.get(key)
        if got is None:
            got = self._played[key] = self.split_table(pair, out).values(hits)
        return got

    def split(self, pair: int, strategy: Strategy) -> float:
        """The value of splitting ``pair`` (all hands, per unit of the original wager), after
        the peek if any; the pair cards are re-split whenever allowed."""
        terms = _split_terms(
            self.rules.split_hands,
            pair != ACE or self.rules.resplit_aces,
            lambda a: float(self._next(pair, a)[pair]),
        )
        total = 0.0
        for (kind, k, a), coef in terms.items():
            probs = self._next(pair, a)
            if kind == "pair":
                total += coef * float(probs[pair]) * self.split_hand(pair, pair, k, a, strategy)
            else:
                for x in range(VALUES):
                    if x != pair and probs[x] > 0:
                        total += coef * float(probs[x]) * self.split_hand(pair, x, k, a, strategy)
        return total

    def _next(self, pair: int, out: int) -> FloatArray:
        """The next card's chances for a split hand: the shoe less the upcard, the hand's own
        pair card and ``out`` more (memoised)."""
        got = self._nexts.get((pair, out))
        if got is None:
            extra = np.zeros(VALUES, dtype=np.int64)
            extra[pair] = out + 1
            got = self._nexts[(pair, out)] = self.shoe.next_card(extra)
        return got


_INITIAL = frozenset({Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER})

_Terms = dict[tuple[str, int, int], float]


def _split_terms(limit: int, resplit: bool, p_pair: Callable[[int], float]) -> _Terms:
    """The split's value as a sum of hand values: ``{(kind, k, a): coefficient}`` where a term is
    a split hand's expected value from the shoe less ``a`` more pair cards, decided with ``k``
    known — ``kind`` ``"other"`` summed over second cards that are not a pair card, ``"pair"``
    for a pair card the hand keeps (no further split allowed). ``p_pair(a)`` is the chance the
    next card is a pair card from the shoe less ``a`` more.

    The recursion follows the hands in order (``hands`` made so far, ``pending`` still to take a
    second card): a pair card re-splits while allowed; any other card completes a hand and is
    then out of the shoe for the later hands. That card is only known not to be a pair card, so
    the later hands' value is their value from the shoe as it was less their value with a pair
    card out, times its chance (each value for a fixed way of playing). Coefficients below
    1e-14 are dropped (their hands' values are bounded by 4 wagers)."""

    @cache
    def value(
        hands: int, k: int, pending: int, a: int
    ) -> tuple[tuple[tuple[str, int, int], float], ...]:
        if pending == 0:
            return ()
        q = p_pair(a)
        out: dict[tuple[str, int, int], float] = {}

        def add(terms: tuple[tuple[tuple[str, int, int], float], ...], scale: float) -> None:
            if scale == 0.0:
                return
            for key, c in terms:
                out[key] = out.get(key, 0.0) + scale * c

        if hands < limit and resplit:
            add(value(hands + 1, k + 1, pending + 1, a + 1), q)
            add(((("other", k, a), 1.0),), 1.0)
            add(value(hands, k, pending - 1, a), 1.0)
            add(value(hands, k, pending - 1, a + 1), -q)
        else:
            add(((("other", k, a), 1.0), (("pair", k, a), 1.0)), 1.0)
            add(value(hands, k, pending - 1, a), 1.0)
            add(value(hands, k, pending - 1, a + 1), -q)
            add(value(hands, k + 1, pending - 1, a + 1), q)
        return tuple((key, c) for key, c in out.items() if abs(c) > 1e-14)

    return dict(value(2, 1, 2, 1))


@cache
def _split_outs(limit: int, resplit: bool) -> tuple[int, ...]:
    """The numbers of further pair cards out of the shoe whose split tables a split may read:
    those of :func:`_split_terms`'s terms (with any chance of a pair card, all of them appear),
    their numbers known, and none (basic strategy's decisions)."""
    terms = _split_terms(limit, resplit, lambda a: 0.5)
    return tuple(sorted({0} | {a for _, _, a in terms} | {k for _, k, _ in terms}))


def rule_set_value(rules: PlayRules, strategy: Strategy = Strategy.COMPOSITION) -> RuleSetValue:
    """The player's expected result per unit of the initial wager under ``rules`` played with
    ``strategy``, every round from a full shoe (no cut card)."""
    ev = 0.0
    upcards: dict[int, _Upcard] = {}
    for u, a, b, p in initial_deals(rules.table.decks):
        if not p:
            continue
        up = upcards.get(u)
        if up is None:
            up = upcards[u] = _Upcard(rules, u)
        ev += p * up.hand(a, b, strategy)
    return RuleSetValue(rules, strategy, ev)
