"""Four Card Poker (58 Pa. Code Chapter 641a): the dealt round, the showdown and the optimal
Ante/Play strategy. No paytables and no money here: the Ante bonus pays reach the strategy as net
wins per unit of the Ante.

One deck; the player holds five cards, the dealer six; each plays its best four (§ 641a.7(d)(1),
:mod:`croupier.poker.four_card`). The dealer always qualifies, and a player hand equal to or better
than the dealer's wins (read as in shared/regulations/base-games.md; docs/interpretations.md).

>>> from croupier.cards import parse_cards
>>> r = deal_round(parse_cards("Ah Ad 7c 7s 2d"), parse_cards("Kh Kd Ks 4c 9h 3s"))
>>> r.showdown().result
<Result.DEALER_WINS: 'dealer-wins'>
>>> r.showdown().dealer.describe()
'Three-of-a-kind, kings (Kh Kd Ks 9h)'

The strategy (:class:`AntePlayStrategy`) decides, for each of the 2,598,960 player hands, whether
to fold or to make a Play wager of one or three times the Ante, from the exact count of the
dealer's 10,737,573 possible hands that beat it (:mod:`croupier.games.four_card_poker_exact`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING

from croupier.cards import Card, Rank, format_cards
from croupier.errors import CardError
from croupier.games.four_card_poker_exact import (
    DEALER_HANDS,
    PLAYER_HANDS,
    DealerTable,
    load_dealer_table,
    upcard_position_one,
)
from croupier.poker.four_card import (
    FourCardCategory,
    FourCardHand,
    best_four,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from croupier.poker.four_card import IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np

PLAYER_CARDS = 5
DEALER_CARDS = 6
UPCARD_OTHERS = 1_370_754
"""C(46, 5): the dealer's five face-down cards once the player's five and the face-up card are
known."""


class Result(Enum):
    """The showdown of the player's and the dealer's best four-card hands (§ 641a.7(d)(1))."""

    PLAYER_WINS = "player-wins"
    TIE = "tie"
    DEALER_WINS = "dealer-wins"

    @property
    def player_wins(self) -> bool:
        """Whether the Ante and Play win: the player's hand is equal to or better than the
        dealer's (a tie goes to the player)."""
        return self is not Result.DEALER_WINS


@dataclass(frozen=True)
class Showdown:
    """The two best four-card hands and the result."""

    player: FourCardHand
    dealer: FourCardHand

    @property
    def result(self) -> Result:
        """Who outranks whom; equal hands tie."""
        if self.player > self.dealer:
            return Result.PLAYER_WINS
        if self.player == self.dealer:
            return Result.TIE
        return Result.DEALER_WINS


@dataclass(frozen=True)
class DealtRound:
    """The cards of one player's round: the player's five, the dealer's six (the first of them is
    the dealer's face-up card) and, when a Six Card Bonus wager is placed, the Six Card Bonus card
    (§ 641a.7(d)(8))."""

    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    bonus_card: Card | None = None

    def showdown(self) -> Showdown:
        """The player's best four of five against the dealer's best four of six."""
        return Showdown(best_four(self.player), best_four(self.dealer))

    @property
    def six_cards(self) -> tuple[Card, ...]:
        """The player's five cards and the Six Card Bonus card; :class:`CardError` without it."""
        if self.bonus_card is None:
            raise CardError(
                "the Six Card Bonus wager needs the Six Card Bonus card", format_cards(self.player)
            )
        return (*self.player, self.bonus_card)


def deal_round(
    player: Sequence[Card], dealer: Sequence[Card], bonus_card: Card | None = None
) -> DealtRound:
    """Check and build a dealt round: five player cards, six dealer cards, an optional Six Card
    Bonus card, all different (one deck). Raises :class:`CardError` naming the cards."""
    p, d = tuple(player), tuple(dealer)
    if len(p) != PLAYER_CARDS:
        raise CardError(f"the player holds five cards, not {len(p)}", format_cards(p))
    if len(d) != DEALER_CARDS:
        raise CardError(f"the dealer holds six cards, not {len(d)}", format_cards(d))
    every = (*p, *d, *((bonus_card,) if bonus_card is not None else ()))
    seen: set[Card] = set()
    for c in every:
        if c in seen:
            raise CardError(f"{c} is dealt twice: Four Card Poker uses one deck", str(c))
        seen.add(c)
    return DealtRound(p, d, bonus_card)


# -- the Ante/Play strategy ------------------------------------------------------------------------


class Decision(Enum):
    """What the player does with the Ante after seeing the cards (§ 641a.7(d)(1))."""

    FOLD = "fold"
    PLAY_1X = "play-1x"
    PLAY_3X = "play-3x"

    @property
    def multiple(self) -> int:
        """The Play wager in units of the Ante (0 for a fold)."""
        return {"fold": 0, "play-1x": 1, "play-3x": 3}[self.value]


BonusPays = Mapping[FourCardCategory, Fraction]
"""The Ante bonus: net win per unit of the Ante for each category that earns one."""


def hand_colex(cards: Sequence[Card]) -> int:
    """The colex index of a five-card hand (its position among the C(52, 5) hands)."""
    idx = sorted(c.index for c in cards)
    return sum(comb(c, i + 1) for i, c in enumerate(idx))


@dataclass(frozen=True)
class AntePlayStrategy:
    """The optimal Ante/Play strategy for an Ante bonus, from the exact dealer table.

    For a hand whose best four loses to ``L`` of the dealer's N = 10,737,573 hands (and wins or
    ties the rest), a Play wager of k Antes returns ``bonus + (1 + k)(N − 2L)/N`` per Ante and a
    fold −1; the return is linear in k, so the best Play is 1× or 3× (2× is never better than
    both). Where two choices return exactly the same, the smaller total wager is taken.
    """

    bonus: tuple[tuple[FourCardCategory, Fraction], ...]
    table: DealerTable

    @classmethod
    def for_bonus(cls, bonus: BonusPays, table: DealerTable | None = None) -> AntePlayStrategy:
        """The strategy for the Ante bonus ``bonus`` (default table: the shipped one)."""
        pays = tuple(sorted(bonus.items(), key=lambda kv: kv[0].strength, reverse=True))
        return cls(pays, table if table is not None else load_dealer_table())

    def bonus_for(self, category: FourCardCategory) -> Fraction:
        """The Ante bonus net win for a category (0 when it earns none)."""
        return dict(self.bonus).get(category, Fraction(0))

    @cached_property
    def _class_categories(self) -> IntArray:
        from croupier.games.four_card_poker_exact import _hands_of
        from croupier.poker.four_card import best_four_ordinals, category_of_ordinal

        return np.asarray(
            category_of_ordinal(best_four_ordinals(_hands_of(self.table.classes.astype(np.int64))))
        )

    @cached_property
    def decisions(self) -> npt.NDArray[np.int64]:
        """The multiple (0, 1 or 3) played for each class of the dealer table."""
        n = DEALER_HANDS
        edge = n - 2 * self.table.beats.astype(np.int64)  # N·(P(win) − P(lose))
        # compare exactly in integers scaled by the bonus denominators
        den = 1
        for _c, v in self.bonus:
            den = den * v.denominator // np.gcd(den, v.denominator)
        # the scaled bonus of each of the 8 categories (exact Python ints), then of each class
        by_strength = {c.strength: v for c, v in self.bonus}
        scaled = [int(by_strength.get(s, Fraction(0)) * den) for s in range(len(_CATS))]
        b = np.array(scaled, dtype=object)[self._class_categories]
        fold = -n * den
        one = b * n + 2 * edge.astype(object) * den
        three = b * n + 4 * edge.astype(object) * den
        out = np.where(three > one, 3, 1)
        best = np.where(out == 3, three, one)
        out = np.where(best > fold, out, 0)
        return out.astype(np.int64)

    def decide(self, player: Sequence[Card]) -> Decision:
        """The decision for the player's five cards."""
        if len(player) != PLAYER_CARDS or len(set(player)) != PLAYER_CARDS:
            raise CardError("the player holds five different cards", format_cards(player))
        pos = self.table.class_of(np.array([hand_colex(player)], dtype=np.int64))[0]
        return {0: Decision.FOLD, 1: Decision.PLAY_1X, 3: Decision.PLAY_3X}[
            int(self.decisions[pos])
        ]

    def decisions_for(self, colex: IntArray) -> IntArray:
        """The multiple (0, 1 or 3) for each player hand given by its colex index (vectorised)."""
        return self.decisions[self.table.class_of(colex)]

    def dealer_beats(self, player: Sequence[Card]) -> int:
        """How many of the dealer's 10,737,573 hands from the other 47 cards beat this hand."""
        pos = self.table.class_of(np.array([hand_colex(player)], dtype=np.int64))[0]
        return int(self.table.beats[pos])

    @cached_property
    def analysis(self) -> AntePlayAnalysis:
        """Exact totals of the strategy over every deal of the player's five and dealer's six."""
        n = DEALER_HANDS
        sizes = self.table.sizes.astype(np.int64)
        beats = self.table.beats.astype(np.int64)
        k = self.decisions
        cats = self._class_categories
        counts: dict[tuple[int, int, bool], int] = {}
        for mult in (0, 1, 3):
            for cat in range(8):
                sel = (k == mult) & (cats == cat)
                if not sel.any():
                    continue
                lose = int((sizes[sel] * beats[sel]).sum())
                total = int(sizes[sel].sum()) * n
                counts[(mult, cat, True)] = total - lose
                counts[(mult, cat, False)] = lose
        hands = {m: int(sizes[k == m].sum()) for m in (0, 1, 3)}
        return AntePlayAnalysis(self.bonus, counts, hands, PLAYER_HANDS * DEALER_HANDS)

    # -- the strategy that also reads the dealer's face-up card ------------------------------
    def decide_with_upcard(self, player: Sequence[Card], upcard: Card) -> Decision:
        """The decision for the player's five cards when the dealer's face-up card is
        ``upcard`` (the exact optimum against the dealer's other five from the remaining 46)."""
        if len(player) != PLAYER_CARDS or len(set(player)) != PLAYER_CARDS or upcard in player:
            raise CardError(
                "the player holds five different cards, none of them the dealer's face-up card",
                format_cards((*player, upcard)),
            )
        # the scalar twin of upcard_decisions_for (tests check the two agree)
        canon, position = upcard_position_one([c.index for c in player], upcard.index)
        classes = self.table.classes
        cls = int(classes.searchsorted(classes.dtype.type(canon)))
        return _BY_MULTIPLE[int(self.table.up_decisions[cls, position])]

    def upcard_decisions_for(self, colex: IntArray, upcards: IntArray) -> IntArray:
        """Vectorised :meth:`decide_with_upcard`: the multiple for each (hand, face-up card)."""
        from croupier.games.four_card_poker_exact import upcard_position

        canon, position = upcard_position(colex, upcards)
        cls = np.searchsorted(self.table.classes, canon)
        return self.table.up_decisions[cls, position].astype(np.int64)

    @cached_property
    def upcard_analysis(self) -> AntePlayAnalysis:
        """Exact totals when the player also reads the dealer's face-up card: every deal of the
        player's five, the face-up card and the dealer's other five (C(52,5) × 47 × C(46,5))."""
        up = self.table.up_counts
        counts: dict[tuple[int, int, bool], int] = {}
        situations: dict[int, int] = {}
        for m_index, m in enumerate((0, 1, 3)):
            for c in range(8):
                for w in (0, 1):
                    n = int(up[m_index, c, w])
                    if n:
                        counts[(m, c, bool(w))] = n
            situations[m] = int(up[m_index].sum()) // UPCARD_OTHERS
        return AntePlayAnalysis(
            self.bonus, counts, situations, PLAYER_HANDS * 47 * UPCARD_OTHERS, PLAYER_HANDS * 47
        )


@dataclass(frozen=True)
class AntePlayAnalysis:
    """The exact figures of the Ante and Play under an :class:`AntePlayStrategy`.

    ``counts[(multiple, category strength, player wins)]`` counts deals (player hand × dealer
    hand): how many the strategy plays at that multiple (0: folds) with a best four of that
    category, won (ties included) or lost. ``hands[multiple]`` counts player hands (or, for the
    face-up card strategy, pairs of player hand and face-up card).
    """

    bonus: tuple[tuple[FourCardCategory, Fraction], ...]
    counts: dict[tuple[int, int, bool], int]
    hands: dict[int, int]
    total: int
    """Deals counted: C(52, 5) × C(47, 6), or × 6 with the face-up card apart."""
    situations: int = PLAYER_HANDS
    """What ``hands`` counts: player hands, or (player hand, face-up card) pairs."""

    def _bonus(self, strength: int) -> Fraction:
        return {c.strength: v for c, v in self.bonus}.get(strength, Fraction(0))

    def net(self, multiple: int, strength: int, wins: bool) -> Fraction:
        """Net result per Ante of a deal: fold −1; else the bonus ± (1 + multiple)."""
        if multiple == 0:
            return Fraction(-1)
        return self._bonus(strength) + (1 + multiple) * (1 if wins else -1)

    @property
    def expected_return(self) -> Fraction:
        """E[net] per unit of the Ante."""
        s = sum((n * self.net(m, c, w) for (m, c, w), n in self.counts.items()), Fraction(0))
        return s / self.total

    @property
    def house_edge(self) -> Fraction:
        """−E[net] per Ante."""
        return -self.expected_return

    @property
    def average_wager(self) -> Fraction:
        """E[Ante + Play] per unit of the Ante."""
        return Fraction(sum((1 + m) * n for m, n in self.hands.items()), self.situations)

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per unit of the total wagered (Ante + Play)."""
        return self.house_edge / self.average_wager

    def frequency(self, multiple: int) -> Fraction:
        """How often the strategy folds (0), plays 1× or 3×."""
        return Fraction(self.hands.get(multiple, 0), self.situations)

    @property
    def variance(self) -> Fraction:
        """Var[net] per Ante."""
        mean = self.expected_return
        sq = sum((n * self.net(m, c, w) ** 2 for (m, c, w), n in self.counts.items()), Fraction(0))
        return sq / self.total - mean**2


# -- the strategy as a rule a player can follow ----------------------------------------------------


@dataclass(frozen=True)
class RuleLine:
    """One line of the printed strategy: the hands it covers, what to do, and how many of those
    player hands the optimal strategy plays otherwise (``exceptions``, of ``hands``)."""

    hands_text: str
    decision: Decision
    hands: int
    exceptions: int


_LETTER = "23456789TJQKA"
_BY_MULTIPLE = {0: Decision.FOLD, 1: Decision.PLAY_1X, 3: Decision.PLAY_3X}


def strategy_rule(strategy: AntePlayStrategy) -> tuple[RuleLine, ...]:
    """The optimal decisions summarised by best-four category, pair rank and (where the pair's
    hands split) the highest card beside the pair; each line's exceptions are counted."""
    from croupier.games.four_card_poker_exact import _hands_of
    from croupier.poker.four_card import best_four_ordinals, distinct_keys

    keys = distinct_keys()[best_four_ordinals(_hands_of(strategy.table.classes.astype(np.int64)))]
    cat = keys // 13**4
    top = (keys // 13**3) % 13
    kicker = (keys // 13**2) % 13
    dec = strategy.decisions
    size = strategy.table.sizes.astype(np.int64)

    def line(text: str, sel: npt.NDArray[np.bool_]) -> RuleLine:
        counts = {m: int(size[sel & (dec == m)].sum()) for m in (0, 1, 3)}
        m = max(counts, key=lambda k: counts[k])
        total = sum(counts.values())
        return RuleLine(text, _BY_MULTIPLE[m], total, total - counts[m])

    lines: list[RuleLine] = []
    for c in range(7, 1, -1):
        name = FourCardCategory(_CATS[c]).label
        lines.append(line(name, cat == c))
    # pairs: group consecutive ranks with the same majority decision; split mixed ranks by kicker
    pair_lines: list[RuleLine] = []
    for r in range(12, -1, -1):
        sel = (cat == 1) & (top == r)
        whole = line(f"Pair of {Rank(r + 2).plural}", sel)
        if whole.exceptions * 10 < whole.hands:  # at most 10% exceptions: one line
            pair_lines.append(whole)
            continue
        for k in range(12, -1, -1):
            s2 = sel & (kicker == k)
            if size[s2].sum():
                pair_lines.append(
                    line(f"Pair of {Rank(r + 2).plural}, highest other card {_LETTER[k]}", s2)
                )
    lines.extend(_merge(pair_lines))
    lines.append(line("No pair", cat == 0))
    return tuple(lines)


_CATS = {c.strength: c.value for c in FourCardCategory}


def _merge(lines: list[RuleLine]) -> list[RuleLine]:
    """Join runs of lines with the same decision: whole pair ranks ('Pair of nines to threes'),
    and the highest-other-card lines of one pair ('Pair of tens, highest other card J to A')."""
    out: list[RuleLine] = []
    for ln in lines:
        prev = out[-1] if out else None
        joined: str | None = None
        if prev is not None and prev.decision is ln.decision:
            if "," not in ln.hands_text and "," not in prev.hands_text:
                first = prev.hands_text.split(" to ")[0]
                joined = f"{first} to {ln.hands_text.removeprefix('Pair of ')}"
            elif "," in ln.hands_text and "," in prev.hands_text:
                head, _, card = ln.hands_text.rpartition(" ")
                p_head, _, p_cards = prev.hands_text.rpartition(" card ")
                if p_head + " card" == head:
                    high = p_cards.split(" to ")[-1]
                    joined = f"{head} {card} to {high}"
        if prev is not None and joined is not None:
            out[-1] = RuleLine(
                joined, ln.decision, prev.hands + ln.hands, prev.exceptions + ln.exceptions
            )
        else:
            out.append(ln)
    return out


@dataclass(frozen=True)
class UpcardRow:
    """The face-up-card strategy for one kind of hand: the decision most hands of that kind take
    against each rank of the dealer's face-up card (deuce first), and how many (hand, face-up
    card) deals take another."""

    hands_text: str
    decisions: tuple[Decision, ...]
    situations: int
    exceptions: int


def upcard_rule(strategy: AntePlayStrategy) -> tuple[UpcardRow, ...]:
    """The face-up-card strategy summarised by pair rank (and no pair, two pair or better) against
    each rank of the dealer's face-up card."""
    from croupier.games.four_card_poker_exact import _hands_of
    from croupier.poker.four_card import best_four_ordinals, distinct_keys

    reps = _hands_of(strategy.table.classes.astype(np.int64))
    keys = distinct_keys()[best_four_ordinals(reps)]
    cat = keys // 13**4
    top = (keys // 13**3) % 13
    n = reps.shape[0]
    mask = np.ones((n, 52), dtype=bool)
    mask[np.arange(n)[:, None], reps] = False
    up_rank = (np.nonzero(mask)[1].reshape(n, 47)) // 4
    dec = strategy.table.up_decisions.astype(np.int64)
    weight = np.repeat(strategy.table.sizes.astype(np.int64)[:, None], 47, axis=1)
    texts = ["Two pair or better"]
    texts += [f"Pair of {Rank(r + 2).plural}" for r in range(12, -1, -1)]
    texts.append("No pair")
    # each class's row: 0 two pair or better, 1 + (12 − rank) a pair, 14 no pair
    group = np.where(cat >= 2, 0, np.where(cat == 1, 13 - top, len(texts) - 1))
    # weighted (class size) deals for each (row, face-up rank, multiple 0/1/3), summed exactly
    # in int64 in one pass over the (class, face-up card) cells
    cell_of = (group[:, None] * 13 + up_rank) * 4 + dec
    sums = np.zeros(len(texts) * 13 * 4, dtype=np.int64)
    np.add.at(sums, cell_of.ravel(), weight.ravel())
    table = sums.reshape(len(texts), 13, 4)
    rows = []
    for g, text in enumerate(texts):
        decisions = []
        exceptions = 0
        total = 0
        for ur in range(13):
            counts = {m: int(table[g, ur, m]) for m in (0, 1, 3)}
            m = max(counts, key=lambda k: counts[k])
            decisions.append(_BY_MULTIPLE[m])
            exceptions += sum(counts.values()) - counts[m]
            total += sum(counts.values())
        rows.append(UpcardRow(text, tuple(decisions), total, exceptions))
    return tuple(rows)
