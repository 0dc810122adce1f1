"""Blackjack — 58 Pa. Code Chapter 633a: card values, hand totals, the dealer's drawing, rounds.

What the base game fixes (shared/regulations/base-games.md; how sure each fact is, in brackets):

* Values: 2–10 count face value, jacks, queens and kings 10, an ace 11 unless that would take the
  hand over 21, then 1. A *soft* total counts an ace as 11 [PA].
* A *Blackjack* is an ace and a 10-valued card as the first two cards of a hand [PA].
* The dealer stands on soft 17 — PA's fundamental rule; hitting soft 17 is an option here because a
  later amendment could not be read [PA, via the Board's preamble]. See :class:`BlackjackRules`.
* Dealing order: one card to each box, the dealer's upcard, a second card to each box, the dealer's
  hole card [PA-like]. With an ace or 10-valued upcard the dealer checks the hole card with the card
  reader device (*peek*); a dealer Blackjack ends the round [industry; the device is PA].
* The dealer completes the hand by the drawing rule (§ 633a.7). Whether the dealer draws when every
  player hand has busted is not readable in the PA text; croupier's default is that the dealer
  always completes the hand (:class:`DealerCompletion`, docs/interpretations.md).

The heart of this module is :func:`final_hand_weights`, the exact distribution of the dealer's
*final hands* — card multisets including the bust card, not only totals — over a finite shoe
composition, given the cards already in the dealer's hand (e.g. the upcard). The distribution is
built by dynamic programming over compositions: a state is the multiset of cards the dealer has
drawn, i.e. the composition left in the shoe, and every path that reaches the same composition is
merged (memoised) before the next card is drawn. Weights are exact integers: the number of ordered
sequences of physical cards that deal the hand. It works for any composition, so for 1–8 decks
and partly dealt shoes alike; the state space depends on how finely cards are told apart
(:class:`CardTypes`: by card, by rank or by blackjack value).

>>> from croupier.cards import parse_cards
>>> hand_total(parse_cards("Ah 6c")), hand_total(parse_cards("Ah 6c 9d"))
(HandTotal(total=17, soft=True), HandTotal(total=16, soft=False))
>>> rules = BlackjackRules(decks=6)
>>> h17 = BlackjackRules(6, SoftSeventeen.HITS)
>>> rules.dealer_draws(parse_cards("Ah 6c")), h17.dealer_draws(parse_cards("Ah 6c"))
(False, True)
>>> play_dealer(parse_cards("6h Tc 2d 5s 9c"), rules)   # 16 draws, 18 stands
(Card('6h'), Card('Tc'), Card('2d'))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cache, lru_cache
from math import perm
from typing import TYPE_CHECKING

from croupier.cards import DECK, Card, Rank, Shoe, format_cards
from croupier.errors import CardError, CroupierError, PaytableError, RulesError, ShoeError

if TYPE_CHECKING:  # numpy is imported by the simulation only (start-up: a round needs none)
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]

DEALING_RULE = "633a.7"
"""The section of the dealing procedure and the completion of each round (cited by § 633c.12(d))."""


class SoftSeventeen(Enum):
    """What the dealer does with a soft 17 (an ace counted as 11 plus cards totalling 6)."""

    STANDS = "stands"
    HITS = "hits"


class DealerCompletion(Enum):
    """Whether the dealer completes the hand when no player hand is left to beat.

    ``ALWAYS`` (default): the dealer draws to the rule whatever the players hold — the usual rule
    while a wager on the dealer's final hand (AxMan, § 633c.12) is live. ``ONLY_WITH_LIVE_HANDS``:
    when every player hand has busted (or was a Blackjack, already paid), the dealer turns the hole
    card and draws nothing. See docs/interpretations.md.
    """

    ALWAYS = "always"
    ONLY_WITH_LIVE_HANDS = "only-with-live-hands"


@dataclass(frozen=True)
class BlackjackRules:
    """The house rules of a Blackjack table that the dealer's play depends on.

    Raises :class:`~croupier.errors.ShoeError` for a deck count below one and
    :class:`~croupier.errors.PaytableError` for a Blackjack pay that is not positive.
    """

    decks: int = 6
    """Decks in the shoe (the operator chooses in its Rules Submission; side wagers may restrict it)."""

    soft_17: SoftSeventeen = SoftSeventeen.STANDS
    """Whether the dealer stands (PA's fundamental rule, the default) or hits on soft 17."""

    peek: bool = True
    """Whether the dealer checks the hole card with the card reader device under an ace or a 10-valued
    upcard, so that a dealer Blackjack ends the round before the players draw."""

    blackjack_pays: Fraction = Fraction(3, 2)
    """What a player Blackjack pays per unit wagered (3 to 2 in Pennsylvania)."""

    dealer_completion: DealerCompletion = DealerCompletion.ALWAYS
    """Whether the dealer draws when no player hand is live (see :class:`DealerCompletion`)."""

    def __post_init__(self) -> None:
        if not isinstance(self.decks, int) or isinstance(self.decks, bool) or self.decks < 1:
            raise ShoeError(f"a Blackjack shoe needs at least one deck, not {self.decks!r}")
        if Fraction(self.blackjack_pays) <= 0:
            raise PaytableError(
                f"a Blackjack must pay a positive amount, not {self.blackjack_pays}"
            )

    @property
    def hits_soft_17(self) -> bool:
        """Whether the dealer hits soft 17."""
        return self.soft_17 is SoftSeventeen.HITS

    def shoe(self) -> Shoe:
        """A full shoe of :attr:`decks` decks."""
        return Shoe.standard(self.decks)

    def dealer_draws(self, cards: Sequence[Card]) -> bool:
        """Whether the dealer must draw to ``cards`` (the drawing rule of § 633a.7)."""
        return _must_draw(hand_total(cards), self.hits_soft_17)

    def describe(self) -> str:
        """e.g. ``'6 decks, dealer stands on soft 17'``."""
        return (
            f"{self.decks} deck{'s' if self.decks != 1 else ''}, dealer "
            f"{'hits' if self.hits_soft_17 else 'stands on'} soft 17"
        )


# -- values and totals ----------------------------------------------------------------------


def rank_value(rank: Rank) -> int:
    """Blackjack value of a rank with an ace as 1: 2–10 face value, J/Q/K 10, ace 1 [PA]."""
    if rank is Rank.ACE:
        return 1
    return min(int(rank), 10)


_VALUES = tuple(rank_value(Rank(v)) if v >= 2 else 0 for v in range(15))
""":func:`rank_value` by the rank's number (2–14)."""


def card_value(card: Card) -> int:
    """Blackjack value of a card with an ace as 1 (see :func:`rank_value`)."""
    return _VALUES[card.rank]


@dataclass(frozen=True)
class HandTotal:
    """A hand's total, counting one ace as 11 when that keeps it at 21 or less (``soft``)."""

    total: int
    soft: bool

    @property
    def bust(self) -> bool:
        """Whether the total is over 21."""
        return self.total > 21


@lru_cache(maxsize=1024)  # pure, and a HandTotal is immutable: one value per total
def total_of(hard: int, has_ace: bool) -> HandTotal:
    """The total of a hand whose cards sum to ``hard`` with aces as 1."""
    if has_ace and hard + 10 <= 21:
        return HandTotal(hard + 10, True)
    return HandTotal(hard, False)


def hand_total(cards: Iterable[Card]) -> HandTotal:
    """The total of a Blackjack hand.

    >>> from croupier.cards import parse_cards
    >>> hand_total(parse_cards("As Ad 9c")), hand_total(parse_cards("Ks Qd 5c")).bust
    (HandTotal(total=21, soft=True), True)
    """
    values = [_VALUES[c.rank] for c in cards]
    return total_of(sum(values), 1 in values)


def is_blackjack(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are a Blackjack: an ace and a 10-valued card as a hand's first two cards."""
    return len(cards) == 2 and hand_total(cards).total == 21


def _must_draw(t: HandTotal, hits_soft_17: bool) -> bool:
    return t.total < 17 or (t.total == 17 and t.soft and hits_soft_17)


class DealerResult(Enum):
    """The dealer's final result, in order: 17–21, Blackjack, bust (a dealer-outcome table's columns)."""

    SEVENTEEN = "17"
    EIGHTEEN = "18"
    NINETEEN = "19"
    TWENTY = "20"
    TWENTY_ONE = "21"
    BLACKJACK = "BJ"
    BUST = "bust"

    @staticmethod
    def of(total: HandTotal, cards: int) -> DealerResult:
        """The result of a finished dealer hand of ``cards`` cards totalling ``total``.

        A finished hand below 17 (the dealer stopped with no live player hand) has no result here:
        :class:`RulesError` citing § 633a.7.
        """
        if total.bust:
            return DealerResult.BUST
        if total.total == 21 and cards == 2:
            return DealerResult.BLACKJACK
        if total.total < 17:
            raise RulesError(
                f"a dealer total of {total.total} is not a finished hand", section=DEALING_RULE
            )
        return _RESULT_BY_TOTAL[total.total]


_RESULT_BY_TOTAL = {
    17: DealerResult.SEVENTEEN,
    18: DealerResult.EIGHTEEN,
    19: DealerResult.NINETEEN,
    20: DealerResult.TWENTY,
    21: DealerResult.TWENTY_ONE,
}


# -- the dealer's play on dealt cards --------------------------------------------------------


def play_dealer(cards: Iterable[Card], rules: BlackjackRules) -> tuple[Card, ...]:
    """The dealer's final hand from ``cards`` in dealing order (upcard, hole card, then the next
    cards of the shoe): the hand draws while the rule says so and stops there; the cards after it
    are not used. Raises :class:`~croupier.errors.ShoeError` when the cards run out first.
    """
    hand: list[Card] = []
    for c in cards:
        hand.append(c)
        if len(hand) >= 2 and not rules.dealer_draws(hand):
            return tuple(hand)
    raise ShoeError(
        f"the dealer's hand {format_cards(hand) or '(none)'} must draw but no more cards were given"
    )


def check_dealer_hand(
    cards: Sequence[Card], rules: BlackjackRules, live_hands: bool | None = None
) -> None:
    """Check that ``cards`` (upcard, hole card, draws, in order) is a hand the dealer finishes with
    under ``rules`` (§ 633a.7): every card after the second was drawn to a hand that had to draw,
    and the hand stops when the rule says stand.

    Under :attr:`DealerCompletion.ONLY_WITH_LIVE_HANDS` a two-card hand that would draw is also
    finished when ``live_hands`` is False (or unknown, ``None``). Raises :class:`CardError` for
    fewer than two cards and :class:`RulesError` naming the card or the total otherwise.
    """
    if len(cards) < 2:
        raise CardError(
            f"the dealer's hand has at least two cards (upcard and hole card), got {len(cards)}",
            format_cards(cards),
        )
    for i in range(2, len(cards)):
        if not rules.dealer_draws(cards[:i]):
            t = hand_total(cards[:i])
            raise RulesError(
                f"the dealer stands on {'soft ' if t.soft else ''}{t.total} "
                f"({format_cards(cards[:i])}) and draws no {cards[i]}",
                section=DEALING_RULE,
            )
    if rules.dealer_draws(cards):
        stopped_early = (
            rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS
            and len(cards) == 2
            and live_hands is not True
        )
        if not stopped_early:
            t = hand_total(cards)
            raise RulesError(
                f"the dealer's hand {format_cards(cards)} ({'soft ' if t.soft else ''}{t.total}) "
                "is not finished: the dealer must draw",
                section=DEALING_RULE,
            )


# -- card types and the exact final-hand distribution ---------------------------------------


@dataclass(frozen=True)
class CardTypes:
    """A partition of the 52 cards into the types the dealer recursion tells apart.

    ``of_card[i]`` is the type of ``Card.from_index(i)``; ``values[t]`` the blackjack value of type
    ``t`` (ace 1); ``labels[t]`` its name. The dealer's drawing depends on values only, so any
    partition finer than :data:`BY_VALUE` gives the same totals; finer partitions keep more of the
    final hand (suits, ranks) at the price of more states.
    """

    name: str
    of_card: tuple[int, ...]
    values: tuple[int, ...]
    labels: tuple[str, ...]
    _members: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.of_card) != 52 or len(self.values) != len(self.labels):
            raise CroupierError(f"card types {self.name!r}: 52 cards and one value per type")
        members: list[list[int]] = [[] for _ in self.values]
        for i, t in enumerate(self.of_card):
            members[t].append(i)
            if rank_value(DECK[i].rank) != self.values[t]:
                raise CroupierError(f"card types {self.name!r}: {DECK[i]} has another value")
        object.__setattr__(self, "_members", tuple(tuple(m) for m in members))

    @property
    def size(self) -> int:
        """How many types there are."""
        return len(self.values)

    def members(self, t: int) -> tuple[int, ...]:
        """The card indices of type ``t``."""
        return self._members[t]

    def counts(self, shoe: Shoe) -> tuple[int, ...]:
        """The shoe's composition by type."""
        out = [0] * self.size
        for i, n in enumerate(shoe.counts):
            out[self.of_card[i]] += n
        return tuple(out)

    def of(self, cards: Iterable[Card]) -> tuple[int, ...]:
        """How many of each type ``cards`` hold."""
        out = [0] * self.size
        for c in cards:
            out[self.of_card[c.index]] += 1
        return tuple(out)


BY_CARD = CardTypes(
    "card",
    tuple(range(52)),
    tuple(card_value(c) for c in DECK),
    tuple(str(c) for c in DECK),
)
"""Every one of the 52 cards is its own type: final hands as multisets of cards (suits kept)."""

BY_RANK = CardTypes(
    "rank",
    tuple(c.rank.index for c in DECK),
    tuple(rank_value(r) for r in Rank),
    tuple(r.letter for r in Rank),
)
"""Thirteen types, one per rank (2 … A): final hands as multisets of ranks."""

BY_VALUE = CardTypes(
    "value",
    tuple(card_value(c) - 1 for c in DECK),
    tuple(range(1, 11)),
    ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T"),
)
"""Ten types, one per blackjack value (ace, 2 … 9, any 10-valued card): enough for totals."""


def falling(n: int, k: int) -> int:
    """n·(n−1)·…·(n−k+1): ordered ways to draw k of n distinct cards (0 when k > n).

    >>> falling(52, 2), falling(3, 4), falling(5, 0)
    (2652, 0, 1)
    """
    return perm(n, k) if k <= n else 0


@lru_cache(maxsize=64)
def final_hand_weights(
    counts: tuple[int, ...],
    values: tuple[int, ...],
    start: tuple[int, ...],
    hits_soft_17: bool,
) -> dict[tuple[int, ...], int]:
    """Exact weights of the dealer's final hands.

    ``counts`` is the composition the dealer draws from, by type (the cards in ``start`` already
    removed); ``values`` the blackjack value of each type; ``start`` how many of each type the
    dealer's hand already holds (e.g. the upcard; all zero to deal the upcard too). The result maps
    each final hand — as the vector of how many cards of each type the dealer *drew* from
    ``counts`` — to the number of ordered sequences of physical cards that deal it, so its
    probability is ``weight / falling(sum(counts), cards drawn)``. A final hand stands by the rule,
    or is bust (the bust card included). Memoised on its arguments.
    """
    types = len(counts)
    if len(values) != types or len(start) != types:
        raise CroupierError("counts, values and start need one entry per card type")
    start_hard = sum(s * v for s, v in zip(start, values, strict=True))
    start_ace = any(s and v == 1 for s, v in zip(start, values, strict=True))
    ace_types = frozenset(t for t in range(types) if values[t] == 1)
    zero = (0,) * types
    # level k: hands of k drawn cards that must still draw → (weight, hard total, holds an ace)
    level: dict[tuple[int, ...], list[int]] = {zero: [1, start_hard, int(start_ace)]}
    finals: dict[tuple[int, ...], int] = defaultdict(int)
    start_cards = sum(start)
    total_cards = sum(counts)
    while level:
        nxt: dict[tuple[int, ...], list[int]] = {}
        for drawn, (weight, hard, ace) in level.items():
            cards = start_cards + sum(drawn)
            if cards >= 2 and not _must_draw(total_of(hard, bool(ace)), hits_soft_17):
                finals[drawn] += weight
                continue
            if sum(drawn) >= total_cards:
                raise ShoeError(
                    f"the shoe ({total_cards} cards) can run out before the dealer's hand is "
                    "finished"
                )
            for t in range(types):
                left = counts[t] - drawn[t]
                if left <= 0:
                    continue
                key = (*drawn[:t], drawn[t] + 1, *drawn[t + 1 :])
                entry = nxt.get(key)
                if entry is None:
                    nxt[key] = [weight * left, hard + values[t], int(ace or t in ace_types)]
                else:
                    entry[0] += weight * left
        level = nxt
    return dict(finals)


@dataclass(frozen=True)
class FinalHand:
    """One final dealer hand: the cards (upcard first if it was given, the rest sorted), its total,
    the number of cards and its exact probability."""

    cards: tuple[str, ...]
    total: HandTotal
    probability: Fraction

    @property
    def result(self) -> DealerResult:
        """17–21, Blackjack or bust."""
        return DealerResult.of(self.total, len(self.cards))


@dataclass(frozen=True)
class DealerDistribution:
    """The exact distribution of the dealer's final hands over a shoe, given the cards already
    in the dealer's hand (see :func:`dealer_final_hands`)."""

    rules: BlackjackRules
    types: CardTypes
    counts: tuple[int, ...]
    start: tuple[int, ...]
    weights: dict[tuple[int, ...], int]

    @property
    def cards_left(self) -> int:
        """How many cards the dealer draws from."""
        return sum(self.counts)

    def probability(self, drawn: tuple[int, ...]) -> Fraction:
        """The probability of the final hand that drew ``drawn`` (a key of :attr:`weights`)."""
        return Fraction(self.weights[drawn], falling(self.cards_left, sum(drawn)))

    def hands(self) -> list[FinalHand]:
        """Every final hand with its probability, most likely first."""
        out = []
        labels = self.types.labels
        for drawn in self.weights:
            hand = [t for t, k in enumerate(self.start) for _ in range(k)]
            hand += [t for t, k in enumerate(drawn) for _ in range(k)]
            hard = sum(self.types.values[t] for t in hand)
            total = total_of(hard, any(self.types.values[t] == 1 for t in hand))
            out.append(FinalHand(tuple(labels[t] for t in hand), total, self.probability(drawn)))
        out.sort(key=lambda h: (-h.probability, h.cards))
        return out

    def results(self) -> dict[DealerResult, Fraction]:
        """The probability of each dealer result (17–21, Blackjack, bust); they sum to 1."""
        out = dict.fromkeys(DealerResult, Fraction(0))
        values = self.types.values
        start_hard = sum(k * values[t] for t, k in enumerate(self.start))
        start_ace = any(k and values[t] == 1 for t, k in enumerate(self.start))
        start_cards = sum(self.start)
        for drawn in self.weights:
            hard = start_hard + sum(k * values[t] for t, k in enumerate(drawn))
            ace = start_ace or any(k and values[t] == 1 for t, k in enumerate(drawn))
            result = DealerResult.of(total_of(hard, ace), start_cards + sum(drawn))
            out[result] += self.probability(drawn)
        return out

    def __len__(self) -> int:
        return len(self.weights)


def dealer_final_hands(
    rules: BlackjackRules,
    shoe: Shoe | None = None,
    upcard: Card | None = None,
    removed: Iterable[Card] = (),
    types: CardTypes = BY_CARD,
) -> DealerDistribution:
    """The exact distribution of the dealer's final hands, bust card included.

    ``shoe`` (default: the rules' full shoe) less ``removed`` (cards already seen elsewhere, e.g. the
    player's two cards) less ``upcard`` is what the dealer draws the hole card and any further cards
    from. With ``upcard=None`` the upcard is drawn too. ``types`` sets how finely cards are told
    apart; :data:`BY_CARD` keeps every card (exact multisets of cards, the most states),
    :data:`BY_RANK` ranks, :data:`BY_VALUE` blackjack values. Raises
    :class:`~croupier.errors.ShoeError` when the shoe lacks a removed card or the upcard.

    >>> from croupier.cards import parse_card
    >>> d = dealer_final_hands(BlackjackRules(decks=1), upcard=parse_card("Ts"), types=BY_VALUE)
    >>> d.results()[DealerResult.BLACKJACK]   # the hole card is one of the 4 aces left of 51
    Fraction(4, 51)
    """
    base = (shoe or rules.shoe()).remove(removed)
    start = (0,) * types.size
    if upcard is not None:
        base = base.remove([upcard])
        start = types.of([upcard])
    counts = types.counts(base)
    weights = final_hand_weights(counts, types.values, start, rules.hits_soft_17)
    return DealerDistribution(rules, types, counts, start, weights)


def dealer_results_by_upcard(
    rules: BlackjackRules, shoe: Shoe | None = None, peeked: bool = False
) -> dict[str, dict[DealerResult, Fraction]]:
    """The dealer-outcome table: for each upcard (``'A'``, ``'2'`` … ``'9'``, ``'T'`` for any
    10-valued card), the probability of each final result, dealt from ``shoe`` less the upcard.

    With ``peeked`` the probabilities are conditional on the dealer not having a Blackjack (the
    table after the peek, as players see it); the Blackjack column is then 0.
    """
    base = shoe or rules.shoe()
    counts = BY_VALUE.counts(base)
    table: dict[str, dict[DealerResult, Fraction]] = {}
    for t, label in enumerate(BY_VALUE.labels):
        if counts[t] == 0:
            continue
        left = (*counts[:t], counts[t] - 1, *counts[t + 1 :])
        start = tuple(int(i == t) for i in range(BY_VALUE.size))
        weights = final_hand_weights(left, BY_VALUE.values, start, rules.hits_soft_17)
        dist = DealerDistribution(rules, BY_VALUE, left, start, weights)
        results = dist.results()
        if peeked:
            no_bj = 1 - results[DealerResult.BLACKJACK]
            results = {
                r: (Fraction(0) if r is DealerResult.BLACKJACK else p / no_bj)
                for r, p in results.items()
            }
        table[label] = results
    return table


# -- simulation of full rounds ---------------------------------------------------------------


class PlayerStrategy(Enum):
    """How simulated players play their hands (hit or stand only: doubling and splitting change no
    card the dealer receives, because every card drawn is random)."""

    STAND = "stand"
    MIMIC_DEALER = "mimic-dealer"
    BASIC = "basic"


def basic_hits(total: int, soft: bool, up_value: int) -> bool:
    """Whether a simple hit-or-stand basic strategy hits ``total`` (``soft``: an ace counted 11)
    against an upcard of value ``up_value`` (1 for an ace, 2–10): hard 12 against 2, 3 or 7 and
    up, hard 13–16 against 7 and up, hard 11 or less always, soft 17 or less, soft 18 against 9,
    10 or an ace. Used by simulated and training players."""
    up = 11 if up_value == 1 else up_value
    if soft:
        return total <= 17 or (total == 18 and up >= 9)
    if total <= 11:
        return True
    if total == 12:
        return up in (2, 3) or up >= 7
    if total <= 16:
        return up >= 7
    return False


@cache
def _card_values() -> IntArray:
    """Each card index's value (an ace 1), numpy imported on first use."""
    import numpy as np

    return np.array([card_value(c) for c in DECK], dtype=np.int64)


@dataclass(frozen=True)
class DealtRounds:
    """Simulated Blackjack rounds: every seat's initial two cards and the dealer's final hand.

    ``players`` has shape ``(rounds, seats, 2)``; ``dealer`` shape ``(rounds, L)`` with the dealer's
    cards in dealing order padded with −1; ``dealer_cards`` how many cards each dealer hand has.
    Cards are indices 0–51 (``Card.index``).
    """

    players: IntArray
    dealer: IntArray
    dealer_cards: IntArray


class _Deal:
    """Cards dealt one at a time from the top of a uniformly shuffled shoe, for many rounds at once:
    the j-th card of a round is a uniform choice among the positions not yet dealt in that round."""

    def __init__(self, rng: np.random.Generator, shoe_cards: IntArray, rounds: int) -> None:
        import numpy as np

        self.rng = rng
        self.cards = shoe_cards
        self.n = shoe_cards.size
        self.taken = np.full((rounds, 8), self.n, dtype=np.int64)
        self.count = np.zeros(rounds, dtype=np.int64)

    def draw(self, rows: IntArray) -> IntArray:
        import numpy as np

        if rows.size == 0:
            return np.empty(0, dtype=np.int64)
        j = self.count[rows]
        if int(j.max()) >= self.n:
            raise ShoeError(f"a round ran out of cards: the shoe holds {self.n}")
        if int(j.max()) >= self.taken.shape[1]:
            pad = np.full((self.taken.shape[0], self.taken.shape[1]), self.n, dtype=np.int64)
            self.taken = np.concatenate([self.taken, pad], axis=1)
        r = self.rng.integers(0, self.n - j, dtype=np.int64)
        width = int(j.max())
        if width:
            ts = np.sort(self.taken[rows, :width], axis=1)
            for t in range(width):  # map r to the r-th position not yet dealt
                r += r >= ts[:, t]
        self.taken[rows, j] = r
        self.count[rows] += 1
        return self.cards[r]


def simulate_rounds(
    shoe: Shoe,
    rules: BlackjackRules,
    rounds: int,
    rng: np.random.Generator,
    seats: int = 1,
    strategy: PlayerStrategy = PlayerStrategy.BASIC,
) -> DealtRounds:
    """Deal and play ``rounds`` full rounds from a freshly shuffled ``shoe`` each.

    Dealing order: a card to each seat, the upcard, a second card to each seat, the hole card. With
    :attr:`BlackjackRules.peek` and an ace or 10-valued upcard a dealer Blackjack ends the round.
    Then each seat in turn hits by ``strategy`` (a two-card 21 stands), and the dealer completes the
    hand by the drawing rule — or, under :attr:`DealerCompletion.ONLY_WITH_LIVE_HANDS`, draws
    nothing when every seat busted or holds a Blackjack.
    """
    if rounds < 1 or seats < 1:
        raise CroupierError(f"simulate at least one round and one seat, not {rounds} × {seats}")
    import numpy as np

    values = _card_values()
    cards = np.repeat(np.arange(52, dtype=np.int64), shoe.counts)
    deal = _Deal(rng, cards, rounds)
    every = np.arange(rounds, dtype=np.int64)
    players = np.empty((rounds, seats, 2), dtype=np.int64)
    for s in range(seats):
        players[:, s, 0] = deal.draw(every)
    up = deal.draw(every)
    for s in range(seats):
        players[:, s, 1] = deal.draw(every)
    hole = deal.draw(every)
    dealer_bj = (values[up] + values[hole] == 11) & ((values[up] == 1) | (values[hole] == 1))
    in_play = ~dealer_bj if rules.peek else np.ones(rounds, dtype=bool)
    any_live = np.zeros(rounds, dtype=bool)
    up_value = values[up]
    for s in range(seats):
        hard = values[players[:, s, 0]] + values[players[:, s, 1]]
        ace = (values[players[:, s, 0]] == 1) | (values[players[:, s, 1]] == 1)
        natural = ace & (hard == 11)
        active = in_play & ~natural
        while True:
            total = np.where(ace & (hard + 10 <= 21), hard + 10, hard)
            soft = ace & (hard + 10 <= 21)
            hits = active & (total < 21) & _hits(strategy, total, soft, up_value)
            rows = np.flatnonzero(hits)
            if rows.size == 0:
                break
            drawn = deal.draw(rows)
            hard[rows] += values[drawn]
            ace[rows] |= values[drawn] == 1
        any_live |= ~natural & (hard <= 21)
    dealer = [up, hole]
    hard = values[up] + values[hole]
    ace = (values[up] == 1) | (values[hole] == 1)
    n_cards = np.full(rounds, 2, dtype=np.int64)
    drawing = ~dealer_bj
    if rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS:
        drawing &= any_live
    while True:
        total = np.where(ace & (hard + 10 <= 21), hard + 10, hard)
        soft = ace & (hard + 10 <= 21)
        must = (total < 17) | ((total == 17) & soft & rules.hits_soft_17)
        rows = np.flatnonzero(drawing & must)
        if rows.size == 0:
            break
        column = np.full(rounds, -1, dtype=np.int64)
        drawn = deal.draw(rows)
        column[rows] = drawn
        dealer.append(column)
        hard[rows] += values[drawn]
        ace[rows] |= values[drawn] == 1
        n_cards[rows] += 1
    return DealtRounds(players, np.stack(dealer, axis=1), n_cards)


def _hits(
    strategy: PlayerStrategy, total: IntArray, soft: npt.NDArray[np.bool_], up_value: IntArray
) -> npt.NDArray[np.bool_]:
    import numpy as np

    if strategy is PlayerStrategy.STAND:
        return np.zeros(total.shape, dtype=bool)
    if strategy is PlayerStrategy.MIMIC_DEALER:
        return np.asarray(total < 17)
    return np.asarray(_basic_table()[np.minimum(total, 31), soft.astype(np.int64), up_value])


@cache
def _basic_table() -> npt.NDArray[np.bool_]:
    """:func:`basic_hits` as a ``[total, soft, upcard value]`` array."""
    import numpy as np

    table = np.zeros((32, 2, 11), dtype=bool)
    for t in range(32):
        for s in (0, 1):
            for u in range(1, 11):
                table[t, s, u] = basic_hits(t, bool(s), u)
    return table
