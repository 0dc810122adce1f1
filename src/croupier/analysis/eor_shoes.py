"""A card counter at a Blackjack table, shoe after shoe: what a balanced count wins on a side wager.

:func:`play_shoes` deals whole shoes: each a uniformly shuffled ``decks``-deck shoe, one card
burned face down, then rounds in the regulated order (a card to each seat, the upcard, a second
card to each seat, the hole card; with the peek a dealer Blackjack ends the round) to ``seats``
seats playing hit/stand basic strategy (:func:`croupier.games.blackjack.basic_hits`), the dealer
completing the hand by the table's soft-17 rule — until the cut card: a round starts while fewer
than ``penetration`` × the shoe's cards have been dealt. Vectorised over shoes with numpy.

The counter sits in the first seat and sees every card dealt (the burn card excepted). Before
each round the true count is the running count ÷ the decks not yet seen; the counter bets one
unit on the side wager when it is at least the trigger (the count's own: ⌈break-even true
count⌉), nothing otherwise. The bets are settled by the wager's own classifier on the first
seat's cards (the cards named by its :class:`~croupier.wagers.base.DealSpec` sources) at the
paytable's pays, progressive lines at their meter seeds — so the figures are observed results,
with standard errors, beside the linear estimate the count predicts.

The generator is numpy's PCG64 seeded with ``seed``; the same seed and conditions give the same
shoes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.eor import BalancedCount
from croupier.analysis.parsheet import exact_parsheet, resolve
from croupier.cards import DECK
from croupier.errors import InputError
from croupier.games.blackjack import BlackjackRules, basic_hits, card_value
from croupier.paytables import Paytable
from croupier.wagers.at_table import CardSource
from croupier.wagers.base import Game, IntArray, Wager

PENETRATION = Fraction(3, 4)
"""Share of the shoe dealt before the cut card comes out (75%)."""
SEATS = 3
"""Seats at the simulated table (the counter in the first)."""
ROUNDS_PER_HOUR = 60
"""Rounds an hour at a Blackjack table of three players (a stated assumption, for the hourly
figure)."""
SHOES = 20_000
"""Shoes :func:`play_shoes` deals by default."""
CHUNK = 8_000
"""Shoes dealt at once."""
PERFECT_THREE_CARD_SHOES = 5_000
"""At most this many shoes for the perfect-information bound of a three-card wager (Match the
Dealer: 52³ products a round)."""
TAIL = 128
"""Filler cards behind a shoe's last card: a round that would run past it finishes on them and
is dropped (counted in ``rounds_not_counted``)."""

_VALUES = np.array([card_value(c) for c in DECK], dtype=np.int64)
_BASIC = np.zeros((32, 2, 11), dtype=bool)
for _t in range(32):
    for _s in (0, 1):
        for _u in range(1, 11):
            _BASIC[_t, _s, _u] = basic_hits(_t, bool(_s), _u)

_FIXED_SOURCES = (CardSource.PLAYER, CardSource.DEALER_UPCARD, CardSource.DEALER_HOLE)


def counts_at_the_table(wager: Wager) -> bool:
    """Whether :func:`play_shoes` can deal the wager's cards: a Blackjack side wager reading the
    seat's two cards, the upcard, the hole card or (read last) the dealer's final hand."""
    if wager.game is not Game.BLACKJACK:
        return False
    sources = [g.source for g in wager.deal.groups]
    fixed = [s for s in sources if s is not CardSource.DEALER]
    return all(s in _FIXED_SOURCES for s in fixed) and sources[: len(fixed)] == fixed


def table_rules(wager: Wager, decks: int) -> BlackjackRules:
    """The table's rules for the wager: its own (AxMan states the soft-17 rule of its par
    sheets), else the Pennsylvania default (dealer stands on soft 17, peek)."""
    own = getattr(wager, "rules", None)
    if callable(own):
        rules = own(decks)
        if isinstance(rules, BlackjackRules):
            return rules
    return BlackjackRules(decks=decks)


@dataclass(frozen=True)
class CounterAtTable:
    """How a count plays over simulated Blackjack shoes, betting one unit at ``trigger`` or more.

    ``won``: units won on the bets (observed, settled by the wager's classifier); ``won_sd``:
    the sample standard deviation of the units won per shoe; ``linear_won``: what the linear
    estimate (full-shoe return + gain per true-count point × true count) predicts for the same
    bets; ``flat_return``: the observed mean return of the wager over every round (a check against
    the exact figure; ``None`` when only the rounds bet were settled).
    """

    wager: str
    decks: int
    shoes: int
    rounds: int
    penetration: Fraction
    seats: int
    rounds_per_hour: int
    seed: int
    trigger: int
    bets: int
    shoes_with_a_bet: int
    won: float
    won_sd: float
    linear_won: float
    flat_return: float | None
    overflow: int
    soft_17: str

    @property
    def rounds_per_shoe(self) -> float:
        """Rounds dealt a shoe."""
        return self.rounds / self.shoes

    @property
    def bet_frequency(self) -> float:
        """Share of rounds at or above the trigger."""
        return self.bets / self.rounds if self.rounds else 0.0

    @property
    def win_per_shoe(self) -> float:
        """Units won a shoe (one-unit bets at the trigger or more)."""
        return self.won / self.shoes

    @property
    def win_per_shoe_se(self) -> float:
        """Standard error of :attr:`win_per_shoe`."""
        return self.won_sd / math.sqrt(self.shoes)

    @property
    def win_per_hour(self) -> float:
        """Units won an hour at :attr:`rounds_per_hour`."""
        return self.won / self.rounds * self.rounds_per_hour if self.rounds else 0.0

    @property
    def win_per_hour_se(self) -> float:
        """Standard error of :attr:`win_per_hour`."""
        return self.win_per_shoe_se / self.rounds_per_shoe * self.rounds_per_hour

    @property
    def edge_when_betting(self) -> float | None:
        """Observed mean return of the bets (per unit)."""
        return self.won / self.bets if self.bets else None

    @property
    def linear_edge_when_betting(self) -> float | None:
        """The linear estimate's mean return of the same bets."""
        return self.linear_won / self.bets if self.bets else None

    @property
    def linear_win_per_hour(self) -> float:
        """Units an hour by the linear estimate."""
        return self.linear_won / self.rounds * self.rounds_per_hour if self.rounds else 0.0

    def conditions(self) -> str:
        """The simulated conditions in words."""
        return (
            f"{self.shoes:,} shuffled {self.decks}-deck shoes, one card burned, {self.seats} seats "
            f"playing hit/stand basic strategy, dealer {self.soft_17} soft 17 with peek, cut card "
            f"at {float(self.penetration):.0%} penetration ({self.rounds_per_shoe:.1f} rounds a "
            f"shoe), {self.rounds_per_hour} rounds an hour; bet 1 unit at true count "
            f"{self.trigger:+d} or more, nothing otherwise; seed {self.seed}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "conditions": self.conditions(),
            "decks": self.decks,
            "shoes": self.shoes,
            "rounds": self.rounds,
            "rounds_per_shoe": self.rounds_per_shoe,
            "penetration": float(self.penetration),
            "seats": self.seats,
            "rounds_per_hour": self.rounds_per_hour,
            "seed": self.seed,
            "trigger_true_count": self.trigger,
            "bets": self.bets,
            "bet_frequency": self.bet_frequency,
            "shoes_with_a_bet": self.shoes_with_a_bet / self.shoes,
            "edge_when_betting": self.edge_when_betting,
            "linear_edge_when_betting": self.linear_edge_when_betting,
            "win_per_shoe": self.win_per_shoe,
            "win_per_shoe_se": self.win_per_shoe_se,
            "win_per_hour": self.win_per_hour,
            "win_per_hour_se": self.win_per_hour_se,
            "linear_win_per_hour": self.linear_win_per_hour,
            "flat_return": self.flat_return,
            "rounds_not_counted": self.overflow,
        }


@dataclass
class _Rounds:
    shoe: list[IntArray]
    true_count: list[npt.NDArray[np.float64]]
    cards: list[IntArray]  # (n, k) fixed-size cards the wager reads, or player + padded dealer
    dealer_len: list[IntArray]
    overflow: int = 0
    exact: list[npt.NDArray[np.float64]] = field(default_factory=list)


def _deal_chunk(
    rng: np.random.Generator,
    n_shoes: int,
    rules: BlackjackRules,
    seats: int,
    cut: int,
    tags: IntArray,
    layout: list[CardSource],
    out: _Rounds,
    shoe_offset: int,
    payoff: npt.NDArray[np.float64] | None = None,
) -> None:
    """Deal ``n_shoes`` whole shoes and append every round's true count and the wager's cards
    (with ``payoff``, a two-card wager's net by card pair: also the exact expected return of the
    cards unseen before each round, :func:`pair_return`)."""
    base = np.repeat(np.arange(52, dtype=np.int8), rules.decks)
    n = base.size
    # cards behind the last one so that a round running past it can finish; it is dropped
    tail = np.zeros((n_shoes, TAIL), dtype=np.int8)
    shoes = np.concatenate([rng.permuted(np.tile(base, (n_shoes, 1)), axis=1), tail], axis=1)
    running = np.zeros((n_shoes, cut + 1), dtype=np.int32)  # counts before a round starts
    np.cumsum(tags[shoes[:, :cut]], axis=1, out=running[:, 1:])
    pos = np.ones(n_shoes, dtype=np.int64)  # card 0 burned
    left = np.full((n_shoes, 52), rules.decks, dtype=np.int64)  # unseen (the burn card too)
    burned = running[:, 1]
    wants_dealer = CardSource.DEALER in layout
    while True:
        rows = np.flatnonzero(pos < cut)
        if rows.size == 0:
            return
        start = pos[rows].copy()
        seen = start - 1
        tc = (running[rows, start] - burned[rows]) / ((n - seen) / 52)
        exact = pair_return(left[rows], payoff) if payoff is not None else None

        def draw(sub: IntArray, rows: IntArray = rows) -> IntArray:
            r = rows[sub]
            c = shoes[r, pos[r]].astype(np.int64)
            pos[r] += 1
            return c

        every = np.arange(rows.size, dtype=np.int64)
        players = np.empty((rows.size, seats, 2), dtype=np.int64)
        for s in range(seats):
            players[:, s, 0] = draw(every)
        up = draw(every)
        for s in range(seats):
            players[:, s, 1] = draw(every)
        hole = draw(every)
        bj = (_VALUES[up] + _VALUES[hole] == 11) & ((_VALUES[up] == 1) | (_VALUES[hole] == 1))
        in_play = ~bj if rules.peek else np.ones(rows.size, dtype=bool)
        for s in range(seats):
            _play_seat(players[:, s, :], up, in_play, draw)
        dealer, length = _dealer_draws(up, hole, bj, rules.hits_soft_17, draw)
        ok = pos[rows] <= n
        out.overflow += int((~ok).sum())
        if payoff is not None:
            assert exact is not None
            out.exact.append(exact[ok])
            dealt = pos[rows] - start
            for j in range(int(dealt.max())):
                m = np.flatnonzero(dealt > j)
                np.subtract.at(left, (rows[m], shoes[rows[m], start[m] + j]), 1)
        cards = _wager_cards(layout, players[:, 0, :], up, hole, dealer)
        out.shoe.append(rows[ok] + shoe_offset)
        out.true_count.append(tc[ok])
        out.cards.append(cards[ok])
        out.dealer_len.append(length[ok] if wants_dealer else np.zeros(int(ok.sum()), np.int64))


def _play_seat(
    cards: IntArray,
    up: IntArray,
    in_play: npt.NDArray[np.bool_],
    draw: Callable[[IntArray], IntArray],
) -> None:
    """A seat's two ``cards`` (one row a shoe) played by basic strategy against the dealer's
    ``up`` card where the round is ``in_play`` (not after a dealer Blackjack; a player
    Blackjack stands), drawing with ``draw``."""
    hard = _VALUES[cards[:, 0]] + _VALUES[cards[:, 1]]
    ace = (_VALUES[cards[:, 0]] == 1) | (_VALUES[cards[:, 1]] == 1)
    active = in_play & ~(ace & (hard == 11))
    while True:
        soft = ace & (hard + 10 <= 21)
        total = np.where(soft, hard + 10, hard)
        hits = np.flatnonzero(
            active & (total < 21) & _BASIC[np.minimum(total, 31), soft.astype(int), _VALUES[up]]
        )
        if hits.size == 0:
            break
        drawn = draw(hits)
        hard[hits] += _VALUES[drawn]
        ace[hits] |= _VALUES[drawn] == 1


def _dealer_draws(
    up: IntArray,
    hole: IntArray,
    bj: npt.NDArray[np.bool_],
    hits_soft_17: bool,
    draw: Callable[[IntArray], IntArray],
) -> tuple[list[IntArray], IntArray]:
    """The dealer's hand drawn to the rule (none after a dealer Blackjack ``bj``): its cards by
    column (-1 where a shoe's hand stopped), and each hand's length."""
    dealer = [up, hole]
    hard = _VALUES[up] + _VALUES[hole]
    ace = (_VALUES[up] == 1) | (_VALUES[hole] == 1)
    length = np.full(up.size, 2, dtype=np.int64)
    while True:
        soft = ace & (hard + 10 <= 21)
        total = np.where(soft, hard + 10, hard)
        must = ~bj & ((total < 17) | ((total == 17) & soft & hits_soft_17))
        more = np.flatnonzero(must)
        if more.size == 0:
            break
        column = np.full(up.size, -1, dtype=np.int64)
        drawn = draw(more)
        column[more] = drawn
        dealer.append(column)
        hard[more] += _VALUES[drawn]
        ace[more] |= _VALUES[drawn] == 1
        length[more] += 1
    return dealer, length


def _wager_cards(
    layout: list[CardSource], player: IntArray, up: IntArray, hole: IntArray, dealer: list[IntArray]
) -> IntArray:
    """The cards the wager reads, in its ``layout``'s order (one row a shoe)."""
    parts: list[IntArray] = []
    for source in layout:
        if source is CardSource.PLAYER:
            parts.append(player)
        elif source is CardSource.DEALER_UPCARD:
            parts.append(up[:, None])
        elif source is CardSource.DEALER_HOLE:
            parts.append(hole[:, None])
        else:
            parts.append(np.stack(dealer, axis=1))
    return np.concatenate(parts, axis=1)


def pair_payoff(wager: Wager, nets: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
    """The net win of every deal by card index, for a wager reading two cards as one unordered
    group (Perfect Pairs: shape 52 × 52) or those two and one more card (Match the Dealer's
    upcard: shape 52 × 52 × 52, the single card first); ``None`` for any other wager."""
    groups = wager.deal.groups
    if not groups or groups[0].size != 2 or groups[0].ordered:
        return None
    if len(groups) == 1:
        a, b = np.meshgrid(np.arange(52), np.arange(52), indexing="ij")
        got = np.asarray(wager.classify_indices(np.stack([a.ravel(), b.ravel()], axis=1)))
        pair: npt.NDArray[np.float64] = nets[got].reshape(52, 52)
        return pair
    if len(groups) == 2 and groups[1].size == 1:
        u3, a3, b3 = np.meshgrid(np.arange(52), np.arange(52), np.arange(52), indexing="ij")
        deals = np.stack([a3.ravel(), b3.ravel(), u3.ravel()], axis=1)
        got = np.asarray(wager.classify_indices(deals))
        triple: npt.NDArray[np.float64] = nets[got].reshape(52, 52, 52)
        return triple
    return None


def pair_return(left: IntArray, payoff: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The exact expected return of the wager of :func:`pair_payoff` dealt from each
    composition (rows of 52 counts by card index). Two cards: ½ (lᵀ M l − Σ l_c M_cc) over
    C(L, 2) pairs. With a single card u first: Σ_u l_u Q_u over L (L − 1)(L − 2), where Q_u is
    twice the pairs' sum from l less one u, lᵀM_u l − 2 (M_u l)_u − Σ l_c M_u[c, c] + 2 M_u[u, u]."""
    lf = left.astype(np.float64)
    total = lf.sum(axis=1)
    if payoff.ndim == 2:
        quad = ((lf @ payoff) * lf).sum(axis=1) - lf @ np.diag(payoff)
        out: npt.NDArray[np.float64] = quad / (total * (total - 1))
        return out
    flat = payoff.reshape(52, 52 * 52).T  # (a·52 + b, u)
    own = np.einsum("uub->bu", payoff)  # M_u[u, b]
    diag = np.einsum("ucc->cu", payoff)  # M_u[c, c]
    twice = np.einsum("uuu->u", payoff)
    outer = (lf[:, :, None] * lf[:, None, :]).reshape(lf.shape[0], 52 * 52)
    q = outer @ flat - 2 * (lf @ own) - lf @ diag + 2 * twice
    triple: npt.NDArray[np.float64] = (lf * q).sum(axis=1) / (total * (total - 1) * (total - 2))
    return triple


def _pad(arrays: list[IntArray]) -> IntArray:
    width = max(a.shape[1] for a in arrays)
    return np.concatenate(
        [np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=-1) for a in arrays]
    )


def play_shoes(
    wager: Wager,
    paytable: str | Paytable,
    decks: int,
    count: BalancedCount,
    expected_return: Fraction,
    trigger: int | None = None,
    shoes: int = SHOES,
    seed: int = 1,
    penetration: Fraction = PENETRATION,
    seats: int = SEATS,
    rounds_per_hour: int = ROUNDS_PER_HOUR,
    progress: Callable[[int], None] | None = None,
) -> CounterAtTable:
    """Deal ``shoes`` whole shoes and play ``count`` on ``wager`` (see the module docstring).

    ``expected_return`` is the full shoe's exact return (the linear estimate's intercept).
    Raises :class:`~croupier.errors.InputError` for a wager it cannot deal, a count that never
    turns the wager positive without a ``trigger``, or conditions out of range.
    """
    if not counts_at_the_table(wager):
        raise InputError(
            f"croupier deals whole shoes for the Blackjack side wagers, not the {wager.name} wager"
        )
    level = trigger if trigger is not None else count.trigger
    if level is None:
        raise InputError(f"the count does not turn the {wager.name} wager positive: give --trigger")
    if not 0 < penetration < 1:
        raise InputError(
            f"the penetration is a share of the shoe above 0 and below 1, not {penetration}"
        )
    if shoes < 2 or seats < 1 or seats > 7 or rounds_per_hour < 1:
        raise InputError(
            f"deal at least 2 shoes to 1–7 seats at 1 or more rounds an hour, not {shoes} shoes, "
            f"{seats} seats, {rounds_per_hour} rounds an hour"
        )
    setup = resolve(wager, paytable, decks=decks)
    nets = np.array([float(r.net) for r in exact_parsheet(wager, setup.paytable, decks=decks).rows])
    rules = table_rules(setup.wager, decks)
    n = 52 * decks
    cut = max(2, math.floor(n * penetration))
    tags = count.tags_by_index()
    layout = [g.source for g in setup.wager.deal.groups if g.source is not None]
    rng = np.random.Generator(np.random.PCG64(seed))
    dealt = _Rounds([], [], [], [])
    done = 0
    while done < shoes:
        k = min(CHUNK, shoes - done)
        _deal_chunk(rng, k, rules, seats, cut, tags, layout, dealt, done)
        done += k
        if progress is not None:
            progress(done)
    shoe = np.concatenate(dealt.shoe)
    tc = np.concatenate(dealt.true_count)
    cards = _pad(dealt.cards)
    bet = tc >= level - 1e-9
    flat: float | None = None
    if CardSource.DEALER in layout:
        outcome = _classify_scalar(setup.wager, cards[bet], np.concatenate(dealt.dealer_len)[bet])
        won_each = nets[outcome]
    else:
        every = np.asarray(setup.wager.classify_indices(cards), dtype=np.int64)
        flat = float(nets[every].mean())
        won_each = nets[every[bet]]
    per_shoe = np.bincount(shoe[bet], weights=won_each, minlength=shoes)
    linear = float(expected_return) + count.gain_per_true_count * tc[bet]
    return CounterAtTable(
        wager=setup.wager.id,
        decks=decks,
        shoes=shoes,
        rounds=int(tc.size),
        penetration=penetration,
        seats=seats,
        rounds_per_hour=rounds_per_hour,
        seed=seed,
        trigger=level,
        bets=int(bet.sum()),
        shoes_with_a_bet=int(np.unique(shoe[bet]).size),
        won=float(won_each.sum()),
        won_sd=float(per_shoe.std(ddof=1)) if shoes > 1 else math.inf,
        linear_won=float(linear.sum()),
        flat_return=flat,
        overflow=dealt.overflow,
        soft_17="hits" if rules.hits_soft_17 else "stands on",
    )


def _classify_scalar(wager: Wager, cards: IntArray, dealer_len: IntArray) -> IntArray:
    """Outcome positions by the wager's scalar classifier: its fixed cards, then the dealer's
    hand of ``dealer_len`` cards (padded with −1), memoised per distinct deal."""
    lose = len(wager.outcomes)
    fixed = sum(g.size for g in wager.deal.groups if g.source is not CardSource.DEALER)
    out = np.empty(cards.shape[0], dtype=np.int64)
    memo: dict[tuple[int, ...], int] = {}
    for i, (row, length) in enumerate(zip(cards.tolist(), dealer_len.tolist(), strict=True)):
        key = tuple(row[: fixed + length])
        got = memo.get(key)
        if got is None:
            o = wager.classify([DECK[c] for c in key])
            got = memo[key] = lose if o is None else o.position
        out[i] = got
    return out


@dataclass(frozen=True)
class PerfectPlay:
    """A counter who knows every card left (a computer, not a count): over simulated shoes, bets
    one unit whenever the exact expected return of the cards unseen is positive — the most any
    count of the cards seen can win on the wagers no tag count tracks (Perfect Pairs, Match the
    Dealer). ``won``: the exact expected units of those bets (no settlement noise)."""

    shoes: int
    rounds: int
    bets: int
    won: float
    rounds_per_hour: int
    best: float
    """The highest exact return of the cards unseen before any round."""

    @property
    def bet_frequency(self) -> float:
        """Share of rounds with a positive exact return."""
        return self.bets / self.rounds if self.rounds else 0.0

    @property
    def edge_when_betting(self) -> float | None:
        """Mean exact return of the rounds bet."""
        return self.won / self.bets if self.bets else None

    @property
    def win_per_shoe(self) -> float:
        """Expected units a shoe."""
        return self.won / self.shoes

    @property
    def win_per_hour(self) -> float:
        """Expected units an hour."""
        return self.won / self.rounds * self.rounds_per_hour if self.rounds else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "shoes": self.shoes,
            "rounds": self.rounds,
            "bets": self.bets,
            "bet_frequency": self.bet_frequency,
            "edge_when_betting": self.edge_when_betting,
            "win_per_shoe": self.win_per_shoe,
            "win_per_hour": self.win_per_hour,
            "best_return": self.best,
        }


def perfect_play(
    wager: Wager,
    paytable: str | Paytable,
    decks: int,
    shoes: int = SHOES,
    seed: int = 1,
    penetration: Fraction = PENETRATION,
    seats: int = SEATS,
    rounds_per_hour: int = ROUNDS_PER_HOUR,
) -> PerfectPlay | None:
    """:class:`PerfectPlay` over ``shoes`` shoes dealt as :func:`play_shoes` deals them, for a
    wager of :func:`pair_payoff` (``None`` for any other)."""
    if not counts_at_the_table(wager):
        return None
    setup = resolve(wager, paytable, decks=decks)
    nets = np.array([float(r.net) for r in exact_parsheet(wager, setup.paytable, decks=decks).rows])
    payoff = pair_payoff(setup.wager, nets)
    if payoff is None:
        return None
    rules = table_rules(setup.wager, decks)
    cut = max(2, math.floor(52 * decks * penetration))
    rng = np.random.Generator(np.random.PCG64(seed))
    dealt = _Rounds([], [], [], [])
    zero = np.zeros(52, dtype=np.int64)
    done = 0
    chunk = CHUNK if payoff.ndim == 2 else CHUNK // 8  # the 52² products of three-card deals
    if payoff.ndim == 3:
        shoes = min(shoes, PERFECT_THREE_CARD_SHOES)
    while done < shoes:
        k = min(chunk, shoes - done)
        _deal_chunk(rng, k, rules, seats, cut, zero, [CardSource.PLAYER], dealt, done, payoff)
        done += k
    exact = np.concatenate(dealt.exact)
    bet = exact > 0
    return PerfectPlay(
        shoes,
        int(exact.size),
        int(bet.sum()),
        float(exact[bet].sum()),
        rounds_per_hour,
        float(exact.max()),
    )
