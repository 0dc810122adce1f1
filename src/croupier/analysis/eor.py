"""Effect of removal and a balanced card count built from it: can a wager be beaten by counting?

*Effect of removal* (EoR) of a card: the change in a wager's exact expected return (per unit
wagered) when that one card is taken out of a full shoe. croupier computes it for each of the 52
cards (suits kept apart: Match the Dealer's suited matches and aces of spades, Jackpot Party's
Royal Flush of diamonds and AxMan's wild king of diamonds make suits matter) and reports the EoR
of a rank as the average over its four suits. Exact fractions, from the exact par sheets of the shoe less
one card — or, for a wager read from one single deck, from one enumeration of every hand tallied
by the cards it holds (:mod:`croupier.analysis.eor_store`, which also ships the counts).

*Balanced count*: integer tags, at most ``level`` in size, proportional to the EoRs and summing
to zero over a deck (so a full shoe counts zero) — one tag per rank when every rank's suits have
the same effect, else one per card (a *suit-aware* count: Match the Dealer's ace of spades is not
its other aces). Among levels 1–4 croupier takes the smallest whose betting correlation is within
0.02 of the best level's; within a level the tags minimise Σ (tag − scaled EoR)² subject to
balance (cards with equal EoR get equal tags), found by dynamic programming. A counter adds the
tag of every card seen; the *true count* is the running count divided by the decks still unseen.

*When the wager turns positive* (linear estimate, the standard one): with EoRs e_c and tags t_c
over the 52 cards of a deck and an N-card shoe, the expected return moves by

    gain per true-count point = (N − 1)/52 · Σ e_c t_c / Σ t_c²

so the wager turns positive at true count −E₀ / gain (E₀ the full-shoe expected return). The
whole-shoe simulations (:func:`count_in_shoes` for Baccarat,
:mod:`croupier.analysis.eor_shoes` for the Blackjack side wagers) then measure how often a
realistic shoe reaches that count and what a counter betting there wins.

>>> from croupier.wagers import get_wager
>>> eor = effect_of_removal(get_wager("fortune-7"), "A", decks=8)
>>> [r.rank.letter for r in eor.effects][:3], eor.effect(Rank.NINE) > 0 > eor.effect(Rank.FIVE)
(['A', '2', '3'], True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.analysis.baccarat_shoe import ShoeSimulation, summary_nets
from croupier.analysis.eor_store import EOR_BUDGET_SECONDS, card_counts
from croupier.analysis.parsheet import exact_parsheet, resolve
from croupier.cards import DECK, Card, Rank, Suit, decks_phrase
from croupier.errors import CroupierError, NoCountError
from croupier.games.baccarat import expected_values
from croupier.paytables import Paytable
from croupier.wagers.baccarat import BaccaratWager
from croupier.wagers.base import Wager

RANK_ORDER: tuple[Rank, ...] = (Rank.ACE, *(r for r in Rank if r is not Rank.ACE))
"""Ranks as analysts list them: A, 2, …, 10, J, Q, K."""

CARD_ORDER: tuple[Card, ...] = tuple(Card(r, s) for r in RANK_ORDER for s in Suit)
"""The 52 cards as a suit-aware count lists them: A♣ A♦ A♥ A♠, 2♣ …, K♠."""

MAX_LEVEL = 4
"""The largest tag a derived count may use."""

BACCARAT_EXACT_SAMPLE = 10_000
"""Coups bet whose exact edge a Baccarat counter's figures evaluate (all of them up to this many,
a seeded sample beyond): the one default of :func:`count_in_shoes`, ``croupier eor``,
``GET /eor/{wager}`` and the HTML report, so they show the same figures for the same shoes."""


@dataclass(frozen=True)
class RankEffect:
    """One rank's effect of removal: the exact expected return with one card of the rank removed,
    and its difference from the full shoe's (per unit wagered), averaged over the four suits."""

    rank: Rank
    expected_return: Fraction
    effect: Fraction


@dataclass(frozen=True)
class CardEffect:
    """One card's effect of removal: the exact expected return of the full shoe less that card,
    and its difference from the full shoe's (per unit wagered)."""

    card: Card
    expected_return: Fraction
    effect: Fraction


@dataclass(frozen=True)
class EffectOfRemoval:
    """A wager's effects of removal for one paytable and a full ``decks``-deck shoe.

    ``effects``: by rank (:data:`RANK_ORDER`), averaged over suits; ``cards``: the 52 cards' own
    (:data:`CARD_ORDER`; empty when only the rank averages are known); ``method``: how the exact
    counts were made."""

    wager: str
    wager_name: str
    section: str
    paytable: str
    decks: int
    expected_return: Fraction
    effects: tuple[RankEffect, ...]
    card_effects: tuple[CardEffect, ...] = ()
    method: str = ""

    @property
    def cards(self) -> int:
        """Cards in the full shoe."""
        return 52 * self.decks

    def effect(self, rank: Rank) -> Fraction:
        """The effect of removing one card of ``rank`` (averaged over its suits)."""
        for r in self.effects:
            if r.rank is rank:
                return r.effect
        raise KeyError(rank)  # pragma: no cover - every rank is present

    def card_effect(self, card: Card) -> Fraction:
        """The effect of removing ``card`` itself."""
        for c in self.card_effects:
            if c.card == card:
                return c.effect
        raise KeyError(card)

    @property
    def suits_matter(self) -> bool:
        """Whether some rank's four suits have different effects of removal."""
        by_rank: dict[Rank, set[Fraction]] = {}
        for c in self.card_effects:
            by_rank.setdefault(c.card.rank, set()).add(c.effect)
        return any(len(v) > 1 for v in by_rank.values())


@dataclass(frozen=True)
class BalancedCount:
    """A balanced count for a wager (see the module docstring for how it is built).

    ``tags`` follow :data:`RANK_ORDER` (13, a count of ranks) or :data:`CARD_ORDER` (52, a
    suit-aware count). ``gain_per_true_count`` is the linear change in expected return per
    true-count point; ``threshold`` the true count at which the wager turns positive (``None``
    when the count's correlation with the wager's EoRs is not positive); ``trigger`` the whole
    true count a counter would bet at, ⌈threshold⌉.
    """

    tags: tuple[int, ...]
    level: int
    betting_correlation: float
    gain_per_true_count: float
    threshold: float | None

    @property
    def trigger(self) -> int | None:
        """The smallest whole true count at or above the threshold."""
        return None if self.threshold is None else math.ceil(self.threshold - 1e-12)

    @property
    def suit_aware(self) -> bool:
        """Whether the count tags cards (52 tags), not ranks."""
        return len(self.tags) == 52

    def card_tag(self, card: Card) -> int:
        """The tag of ``card``."""
        if self.suit_aware:
            return self.tags[CARD_ORDER.index(card)]
        return self.tags[RANK_ORDER.index(card.rank)]

    def tag(self, rank: Rank) -> int:
        """The tag of ``rank``; raises :class:`~croupier.errors.CroupierError` for a rank whose
        suits a suit-aware count tags differently."""
        if not self.suit_aware:
            return self.tags[RANK_ORDER.index(rank)]
        tags = {self.card_tag(Card(rank, s)) for s in Suit}
        if len(tags) != 1:
            raise CroupierError(f"the count tags the suits of rank {rank.letter} differently")
        return tags.pop()

    def tags_by_index(self) -> npt.NDArray[np.int64]:
        """The tag of every card by :attr:`Card.index` (for integer card arrays)."""
        return np.array([self.card_tag(c) for c in DECK], dtype=np.int64)


def effect_of_removal(
    wager: Wager,
    paytable: str | Paytable,
    decks: int,
    budget_seconds: float | None = EOR_BUDGET_SECONDS,
) -> EffectOfRemoval:
    """The exact effect of removal of every card and rank for ``wager`` under ``paytable`` from a
    full ``decks``-deck shoe (checked as :func:`~croupier.analysis.parsheet.resolve` checks it).

    The exact outcome counts of the shoe less each card come from
    :func:`croupier.analysis.eor_store.card_counts` (stored, one enumeration of a single deck, or
    52 exact counts); each is priced at the paytable's pays. Raises
    :class:`~croupier.errors.InputError` when the wager's exact analysis does not take a partly
    dealt shoe, or when the 52 counts would take longer than ``budget_seconds`` (``None``: no
    limit).
    """
    setup = resolve(wager, paytable, decks=decks)
    sheet = exact_parsheet(wager, setup.paytable, decks=decks)
    base = sheet.expected_return
    per_card, method = card_counts(setup.wager, decks, budget_seconds)
    nets = [row.net for row in sheet.rows]
    if len(nets) != len(per_card[0]):  # pragma: no cover - a par sheet of other lines
        raise CroupierError(f"the {wager.name} par sheet has {len(nets)} lines, not one an outcome")
    returns: dict[Card, Fraction] = {}
    for card in DECK:
        counts = per_card[card.index]
        returns[card] = Fraction(
            sum(n * net for n, net in zip(counts, nets, strict=True)), sum(counts)
        )
    cards = tuple(CardEffect(c, returns[c], returns[c] - base) for c in CARD_ORDER)
    effects = []
    for rank in RANK_ORDER:
        removed = [returns[Card(rank, suit)] for suit in Suit]
        mean = sum(removed, Fraction(0)) / len(removed)
        effects.append(RankEffect(rank, mean, mean - base))
    return EffectOfRemoval(
        wager.id,
        wager.name,
        wager.section,
        setup.paytable.key,
        decks,
        base,
        tuple(effects),
        cards,
        method,
    )


def _correlation(effects: Sequence[float], tags: Sequence[int]) -> float:
    mean = sum(effects) / len(effects)
    e = [x - mean for x in effects]
    num = sum(a * b for a, b in zip(e, tags, strict=True))
    den = math.sqrt(sum(a * a for a in e) * sum(b * b for b in tags))
    return num / den if den else 0.0


def _balanced_tags(raw: Sequence[float], level: int) -> tuple[int, ...]:
    """Integer tags in [−level, level] minimising Σ (tag − raw)² with Σ tags = 0, equal raw values
    sharing a tag (dynamic programming over groups of equal raw values and the running sum)."""
    groups: dict[float, list[int]] = {}
    for i, x in enumerate(raw):
        groups.setdefault(x, []).append(i)
    # state: running sum → (cost, tags chosen per group so far)
    states: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    keys = list(groups)
    for x in keys:
        size = len(groups[x])
        nxt: dict[int, tuple[float, tuple[int, ...]]] = {}
        for total, (cost, chosen) in states.items():
            for t in range(-level, level + 1):
                c = cost + size * (t - x) ** 2
                s = total + size * t
                if s not in nxt or c < nxt[s][0]:
                    nxt[s] = (c, (*chosen, t))
        states = nxt
    _, chosen = states[0]
    tags = [0] * len(raw)
    for x, t in zip(keys, chosen, strict=True):
        for i in groups[x]:
            tags[i] = t
    return tuple(tags)


def _one_apart(eor: EffectOfRemoval) -> str:
    """'only the A♠ differs …' when one card alone has an effect unlike the other 51's."""
    values: dict[Fraction, list[Card]] = {}
    for c in eor.card_effects:
        values.setdefault(c.effect, []).append(c.card)
    if len(values) != 2:
        return ""
    (a, cards_a), (b, _) = sorted(values.items(), key=lambda kv: len(kv[1]))
    if len(cards_a) != 1 or b == 0:
        return ""
    return (
        f"only the {cards_a[0].symbol} differs (its effect of removal is {a / b} times each "
        f"other card's, so only a count of the {cards_a[0].symbol} alone, unbalanced, follows "
        "it)"
    )


def balanced_count(eor: EffectOfRemoval, max_level: int = MAX_LEVEL) -> BalancedCount:
    """The balanced count built from ``eor`` (see the module docstring): tags by rank, or by
    card when some rank's suits have different effects (:attr:`EffectOfRemoval.suits_matter`).

    Raises :class:`~croupier.errors.NoCountError` when there is none: every effect is zero (a
    wager whose cards all play alike, e.g. Perfect Pairs), or no tags up to ``max_level`` other
    than all zeros balance.
    """
    by_card = eor.suits_matter
    exact = [c.effect for c in eor.card_effects] if by_card else [r.effect for r in eor.effects]
    what = "card" if eor.card_effects else "rank"
    if all(e == 0 for e in exact):
        raise NoCountError(
            f"every {what}'s effect of removal is exactly 0 for the {eor.wager_name} wager "
            f"(paytable {eor.paytable}, {decks_phrase(eor.decks)}): taking any one card from the full "
            "shoe leaves the expected return as it was, so no count of cards seen can track it"
        )
    effects = [float(e) for e in exact]
    biggest = max(abs(x) for x in effects)
    candidates = []
    for level in range(1, max_level + 1):
        raw = [x / biggest * level for x in effects]
        tags = _balanced_tags(raw, level)
        candidates.append((level, tags, _correlation(effects, tags)))
    candidates = [c for c in candidates if any(c[1])]
    if not candidates:
        apart = _one_apart(eor) if by_card else ""
        raise NoCountError(
            f"no balanced count with tags of at most ±{max_level} follows the effects of removal "
            f"of the {eor.wager_name} wager (paytable {eor.paytable}, {decks_phrase(eor.decks)}): "
            f"{what}s with equal effects share a tag, and no such tags other than all zeros sum "
            "to zero over a deck" + (f"; {apart}" if apart else "")
        )
    best = max(c for _, _, c in candidates)
    level, tags, corr = next(c for c in candidates if c[2] >= best - 0.02)
    if by_card and all(len(set(tags[i : i + 4])) == 1 for i in range(0, 52, 4)):
        # the suits differ, but not enough to tag them apart: a count of ranks
        effects = [float(r.effect) for r in eor.effects]
        tags = tags[::4]
    gain = (eor.cards - 1) / 52 * sum(e * t for e, t in zip(effects, tags, strict=True))
    gain /= sum(t * t for t in tags)
    threshold = -float(eor.expected_return) / gain if gain > 0 else None
    return BalancedCount(tags, level, corr, gain, threshold)


def tags_by_value(count: BalancedCount) -> tuple[int, ...]:
    """The count's tags by Baccarat point value 0–9 (ten-valued ranks must share a tag)."""
    tens = {count.tag(r) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)}
    if len(tens) != 1:
        raise CroupierError("a Baccarat count gives the ten-valued ranks one tag")
    out = [tens.pop()] + [0] * 9
    out[1] = count.tag(Rank.ACE)
    for r in Rank:
        if Rank.TWO <= r <= Rank.NINE:
            out[int(r)] = count.tag(r)
    return tuple(out)


@dataclass(frozen=True)
class CountInShoes:
    """How a count plays in simulated whole shoes (Baccarat): bet one unit whenever the true count
    before a coup is at least ``trigger``.

    ``bets``: coups at or above the trigger; ``shoes_with_a_bet``: share of shoes with at least
    one; ``average_edge``: mean *exact* expected return of the shoe as it stood at the coups bet
    (the composition actually left, hidden burned cards included), over ``evaluated`` of them (all,
    or a seeded random sample); ``positive_share``: share of those whose exact expected return was
    positive; ``win_per_shoe``: expected units won per shoe, ``average_edge × bets ÷ shoes``.

    Each coup's edge is exact, but which coups a shoe brings to the trigger is simulated:
    ``win_per_shoe_sd`` is the sample standard deviation over the shoes of each shoe's expected
    win (the exact edges of its coups bet, each sampled coup standing for ``bets ÷ evaluated``),
    so :attr:`win_per_shoe_se` is the simulation's standard error, as the Blackjack counter's is
    (:class:`croupier.analysis.eor_shoes.CounterAtTable`).
    """

    shoes: int
    coups: int
    trigger: int
    bets: int
    shoes_with_a_bet: float
    evaluated: int
    average_edge: float | None
    positive_share: float | None
    win_per_shoe_sd: float

    @property
    def bet_frequency(self) -> float:
        """Share of coups at or above the trigger."""
        return self.bets / self.coups if self.coups else 0.0

    @property
    def win_per_shoe(self) -> float:
        """Expected units won per shoe betting one unit at every coup at or above the trigger."""
        return (self.average_edge or 0.0) * self.bets / self.shoes

    @property
    def win_per_shoe_se(self) -> float:
        """Standard error of :attr:`win_per_shoe` over the simulated shoes."""
        return self.win_per_shoe_sd / math.sqrt(self.shoes)

    def to_dict(self) -> dict[str, float | int | None]:
        """JSON-ready figures."""
        return {
            "shoes": self.shoes,
            "coups": self.coups,
            "trigger_true_count": self.trigger,
            "bets": self.bets,
            "bet_frequency": self.bet_frequency,
            "shoes_with_a_bet": self.shoes_with_a_bet,
            "coups_evaluated_exactly": self.evaluated,
            "average_edge_when_betting": self.average_edge,
            "positive_share_when_betting": self.positive_share,
            "win_per_shoe": self.win_per_shoe,
            "win_per_shoe_se": self.win_per_shoe_se,
        }


def true_counts(simulation: ShoeSimulation, count: BalancedCount) -> npt.NDArray[np.float64]:
    """The true count before every recorded coup: running count (tags of the cards seen) ÷ decks
    unseen."""
    records = simulation.records
    if records is None:
        raise CroupierError("the shoe simulation kept no coup records (record=True)")
    tags = np.array(tags_by_value(count), dtype=np.float64)
    seen = records.seen.astype(np.float64)
    unseen = 52 * simulation.rules.decks - seen.sum(axis=1)
    out: npt.NDArray[np.float64] = (seen @ tags) / (unseen / 52)
    return out


def count_in_shoes(
    wager: Wager,
    paytable: str | Paytable,
    count: BalancedCount,
    simulation: ShoeSimulation,
    trigger: int | None = None,
    sample: int = BACCARAT_EXACT_SAMPLE,
) -> CountInShoes:
    """Play ``count`` over the coups recorded by a whole-shoe Baccarat simulation
    (:func:`croupier.analysis.baccarat_shoe.simulate_shoes` with ``record=True``), betting at
    ``trigger`` (default: the count's own). The exact expected return of each coup bet is computed
    from the shoe's remaining composition (six-card convention), for all of them or, beyond
    ``sample``, a random sample seeded by the simulation's seed."""
    if not isinstance(wager, BaccaratWager):
        raise CroupierError(f"whole-shoe counting is simulated for Baccarat wagers, not {wager.id}")
    level = trigger if trigger is not None else count.trigger
    if level is None:
        raise CroupierError(
            f"the count does not turn the {wager.name} wager positive: give a trigger"
        )
    records = simulation.records
    tc = true_counts(simulation, count)
    assert records is not None
    table = resolve(wager, paytable, decks=simulation.rules.decks).paytable
    bet = np.flatnonzero(tc >= level - 1e-9)
    chosen = bet
    if bet.size > sample:
        rng = np.random.Generator(np.random.PCG64(simulation.seed))
        chosen = np.sort(rng.choice(bet, size=sample, replace=False))
    edges = expected_values(records.remaining[chosen], summary_nets(wager, table))
    stands_for = bet.size / chosen.size if chosen.size else 0.0
    per_shoe = stands_for * np.bincount(
        records.shoe[chosen], weights=edges, minlength=simulation.shoes
    )
    return CountInShoes(
        shoes=simulation.shoes,
        coups=int(tc.size),
        trigger=level,
        bets=int(bet.size),
        shoes_with_a_bet=np.unique(records.shoe[bet]).size / simulation.shoes,
        evaluated=int(chosen.size),
        average_edge=float(edges.mean()) if edges.size else None,
        positive_share=float((edges > 0).mean()) if edges.size else None,
        win_per_shoe_sd=float(per_shoe.std(ddof=1)) if simulation.shoes > 1 else math.inf,
    )
