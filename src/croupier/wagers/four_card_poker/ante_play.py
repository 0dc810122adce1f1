"""The Ante and Play of Four Card Poker (§ 641a.7(d)(1)) and the settlement of a dealt round, every
wager of one seat in one pass."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from croupier.cards import Card, Shoe, format_cards
from croupier.errors import InputError, PaytableError, RulesError
from croupier.games.four_card_poker import (
    UPCARD_OTHERS,
    AntePlayStrategy,
    DealtRound,
    Decision,
    Result,
    Showdown,
    deal_round,
)
from croupier.games.four_card_poker_exact import PLAYER_HANDS
from croupier.paytables import (
    NotAvailable,
    OddsFor,
    OddsTo,
    Paytable,
    PaytableBook,
)
from croupier.poker.four_card import (
    FourCardCategory,
    best_four_ordinals,
    category_of_ordinal,
    comb_table,
)
from croupier.units import format_money
from croupier.wagers.at_table import SettlementLine, TableContext, signed_money
from croupier.wagers.base import (
    DealSpec,
    OrderedOutcome,
    PricedOutcome,
    ProgressiveStake,
    Settlement,
    Wager,
    line_of,
    net_win,
)
from croupier.wagers.four_card_poker.common import (
    DEALER_DOWN,
    FOUR_CARD_POKER_WAGER,
    PLAYER,
    UPCARD,
    FourCardPokerBets,
    FourCardPokerWager,
)
from croupier.wagers.four_card_poker.side import (
    _FOUR_KEYS,
    FiveCardProgressive,
    FourCardProgressive,
    _full_deck,
)
from croupier.wagers.registry import register

if TYPE_CHECKING:
    import numpy as np

    from croupier.poker.four_card import IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np


class AntePlayOutcome(OrderedOutcome):
    """The result of the Ante and Play under the optimal strategy, with the Ante bonus."""

    FOUR_OF_A_KIND_WINS = "four-of-a-kind-wins"
    FOUR_OF_A_KIND_LOSES = "four-of-a-kind-loses"
    STRAIGHT_FLUSH_WINS = "straight-flush-wins"
    STRAIGHT_FLUSH_LOSES = "straight-flush-loses"
    THREE_OF_A_KIND_WINS = "three-of-a-kind-wins"
    THREE_OF_A_KIND_LOSES = "three-of-a-kind-loses"
    PLAY_3X_WINS = "play-3x-wins"
    PLAY_3X_LOSES = "play-3x-loses"
    PLAY_1X_WINS = "play-1x-wins"
    PLAY_1X_LOSES = "play-1x-loses"

    @property
    def bonus_category(self) -> FourCardCategory | None:
        """The Ante bonus category the outcome holds, if any."""
        head = self.value.rsplit("-", 1)[0]
        return None if head.startswith("play") else FourCardCategory(head)

    @property
    def multiple(self) -> int:
        """The Play wager in Antes (bonus hands are always played 3×)."""
        return 1 if self.value.startswith("play-1x") else 3

    @property
    def wins(self) -> bool:
        """Whether the player's hand is equal to or better than the dealer's."""
        return self.value.endswith("-wins")


_BONUS_KEYS = ("four-of-a-kind", "straight-flush", "three-of-a-kind")


@register
class AntePlay(FourCardPokerWager):
    """The Ante and Play of Four Card Poker (58 Pa. Code § 641a.7(d)(1)), played with the optimal
    strategy; settled per unit of the Ante. Its paytable is the Ante bonus."""

    spec = FOUR_CARD_POKER_WAGER(
        id="four-card-poker",
        name="Four Card Poker Ante and Play",
        settle_rule="641a.7(d)(1)",
        outcomes=AntePlayOutcome,
        deal=DealSpec((PLAYER, UPCARD, DEALER_DOWN)),
        settles_with=None,
        kernel="croupier.analysis.kernels.four_card_poker:ante_play_plan",
    )

    def settle_at_table(self, ctx: TableContext) -> tuple[SettlementLine, ...]:
        """§ 641a.7(d): every wager of § 641a.7 at each seat of ``ctx.bets`` in one pass
        (:func:`settle_round`): the Ante and Play against the dealer's hand (the Play made after
        the cards, ``ctx.decisions``), the bonuses, the progressives with the envy bonuses of the
        other seats holding them.

        Raises what :func:`settle_round` raises.
        """
        progressive = (FourCardProgressive.id, FiveCardProgressive.id)
        holders = ctx.seats_with(progressive)
        lines: list[SettlementLine] = []
        for seat in dict.fromkeys(b.seat for b in ctx.bets):
            bets = {b.wager: b.amount_cents for b in ctx.bets if b.seat == seat}
            others = (
                [ctx.cards.hand(s) for s in holders if s != seat]
                if any(p in bets for p in progressive)
                else []
            )
            rs = settle_round(
                ctx.cards.hand(seat),
                ctx.cards.dealer,
                FourCardPokerBets.of(bets, ctx.decisions.get(seat, 0)),
                ctx.cards.bonus,
                dict(ctx.paytables),
                others,
            )
            lines += (_table_line(seat, res) for res in rs.results)
        return tuple(lines)

    def _check_paytable(self, table: Paytable) -> None:
        keys = {line.outcome for line in table.lines if line.wager in (None, self.spec.id)}
        unknown = sorted(keys - set(_BONUS_KEYS))
        missing = [k for k in _BONUS_KEYS if k not in keys]
        if unknown or missing:
            raise PaytableError(
                f"paytable {table.key} of § {table.section} ({table.source}): an Ante bonus "
                f"has lines {', '.join(_BONUS_KEYS)}"
                + (f"; unknown: {', '.join(unknown)}" if unknown else "")
                + (f"; missing: {', '.join(missing)}" if missing else "")
            )
        for line in table.lines:
            if not isinstance(line.pays, OddsTo | OddsFor | NotAvailable):
                raise PaytableError(
                    f"paytable {table.key}: the Ante bonus pays odds, not {line.pays}"
                )
        for d in table.decks:
            self.check_decks(d)

    def bonus_pays(self, table: Paytable) -> dict[FourCardCategory, Fraction]:
        """Net win per Ante of each Ante bonus line ("N/A": no bonus)."""
        out: dict[FourCardCategory, Fraction] = {}
        for key in _BONUS_KEYS:
            line = table.line(key)
            if line is not None and not isinstance(line.pays, NotAvailable):
                out[FourCardCategory(key)] = net_win(line)
        return out

    def strategy(self, table: Paytable | None = None) -> AntePlayStrategy:
        """The optimal strategy for ``table``'s Ante bonus (default: the shipped 25-20-2)."""
        t = table if table is not None else self.paytable("25-20-2")
        return AntePlayStrategy.for_bonus(self.bonus_pays(t))

    # -- classification (the optimal strategy plays) ------------------------------------------
    def classify(self, cards: Sequence[Card]) -> AntePlayOutcome | None:
        """The outcome when the optimal strategy plays the player's five; ``None``: it folds."""
        rnd = DealtRound(tuple(cards[:5]), tuple(cards[5:]))
        decision = default_strategy().decide_with_upcard(rnd.player, rnd.dealer[0])
        if decision is Decision.FOLD:
            return None
        show = rnd.showdown()
        return _ante_outcome(show.player.category, decision.multiple, show.result.player_wins)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 11)`` card indices."""
        srt = np.sort(cards[:, :5], axis=1)
        colex = np.zeros(srt.shape[0], dtype=np.int64)
        for i in range(5):
            colex += comb_table()[srt[:, i], i + 1]
        mult = default_strategy().upcard_decisions_for(colex, cards[:, 5])
        p = best_four_ordinals(cards[:, :5])
        d = best_four_ordinals(cards[:, 5:])
        cat = category_of_ordinal(p)
        wins = p >= d
        out: IntArray = self.outcome_table()[cat, mult, wins.astype(np.int64)]
        return out

    def outcome_table(self) -> IntArray:
        """``table[category strength, Play multiple, player wins or ties]``: the outcome position
        (shape (8, 4, 2); multiple 0 is a fold, the last position, as is a bonus hand played 1×)."""
        lut = np.full((8, 4, 2), len(AntePlayOutcome), dtype=np.int64)
        for o in AntePlayOutcome:
            cats = (
                [o.bonus_category.strength]
                if o.bonus_category is not None
                else [s for s in range(8) if _FOUR_KEYS[s] not in _BONUS_KEYS]
            )
            for s in cats:
                lut[s, o.multiple, int(o.wins)] = o.position
        return lut

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """From the shipped dealer table: every deal of the player's five and dealer's six, the
        player following the optimal strategy."""
        _full_deck(shoe, self.spec.name)
        analysis = default_strategy().upcard_analysis
        tallies = [0] * (len(AntePlayOutcome) + 1)
        for (mult, strength, wins), n in analysis.counts.items():
            if mult == 0:
                tallies[-1] += n
                continue
            o = _ante_outcome(FourCardCategory(_FOUR_KEYS[strength]), mult, wins)
            if o is None:  # pragma: no cover - a bonus hand the strategy plays 1x
                raise AssertionError("the optimal strategy plays every Ante bonus hand 3x")
            tallies[o.position] += n
        return tuple(tallies)

    def counting_convention(self, shoe: Shoe) -> str:
        """Player's five, the dealer's face-up card and other five, with the strategy."""
        total = PLAYER_HANDS * 47 * UPCARD_OTHERS
        return (
            "every deal of the player's five cards, the dealer's face-up card and the dealer's "
            f"other five from one deck (C(52,5) × 47 × C(46,5) = {total:,}); each card "
            "distinct; the player sees the face-up card and folds or plays 1× or 3× optimally"
        )

    def priced_outcomes(self, table: Paytable) -> tuple[PricedOutcome, ...]:
        """Net per Ante: the bonus, plus or minus the Ante and the Play; a fold loses the Ante."""
        bonus = self.bonus_pays(table)
        out = []
        for o in AntePlayOutcome:
            cat = o.bonus_category
            b = bonus.get(cat, Fraction(0)) if cat is not None else Fraction(0)
            play = f"Play {o.multiple}×"
            result = f"Ante and {play} win 1 to 1" if o.wins else f"Ante and {play} lose"
            if cat is not None:
                line = table.line(cat.value)
                assert line is not None
                label = f"{line.label}, {'wins' if o.wins else 'loses'} (Play 3×)"
                pays = f"bonus {line.pays}; {result}"
            else:
                label = f"Play {o.multiple}×, {'wins or ties' if o.wins else 'loses'}"
                pays = result
            out.append(PricedOutcome(label, pays, b + (1 + o.multiple) * (1 if o.wins else -1)))
        out.append(PricedOutcome("Fold", "the Ante loses", Fraction(-1)))
        return tuple(out)

    def extra_figures(self, table: Paytable) -> tuple[tuple[str, str, Any], ...]:
        """House edge per Ante and per total wagered, and how often the strategy plays — reading
        the dealer's face-up card (the par sheet) and, for comparison, without it."""
        strat = self.strategy(table)
        a = strat.upcard_analysis
        blind = strat.analysis
        freq = {name: a.frequency(m) for name, m in (("fold", 0), ("play_1x", 1), ("play_3x", 3))}
        return (
            (
                "without_the_face_up_card",
                f"without reading the dealer's face-up card (`croupier strategy "
                f"four-card-poker`): house edge {float(blind.house_edge):.4%} of the Ante, "
                f"{float(blind.element_of_risk):.4%} of the total wagered",
                {
                    "house_edge_per_ante": float(blind.house_edge),
                    "house_edge_per_total_wagered": float(blind.element_of_risk),
                    "strategy": {
                        k: float(blind.frequency(m))
                        for k, m in (("fold", 0), ("play_1x", 1), ("play_3x", 3))
                    },
                },
            ),
            (
                "house_edge_per_ante",
                f"house edge {float(a.house_edge):.4%} of the Ante",
                float(a.house_edge),
            ),
            (
                "house_edge_per_total_wagered",
                f"element of risk {float(a.element_of_risk):.4%} of the total wagered "
                f"(Ante + Play averages {float(a.average_wager):.4f} Antes)",
                float(a.element_of_risk),
            ),
            ("average_total_wager_in_antes", "", float(a.average_wager)),
            (
                "strategy",
                "strategy: fold {:.2%} · play 1× {:.2%} · play 3× {:.2%} of hands".format(
                    *(float(v) for v in freq.values())
                ),
                {k: float(v) for k, v in freq.items()},
            ),
            (
                "exact",
                "",
                {
                    "house_edge_per_ante": _frac(a.house_edge),
                    "house_edge_per_total_wagered": _frac(a.element_of_risk),
                    "player_hand_and_face_up_card_pairs": {
                        k: a.hands.get(m, 0)
                        for k, m in (("fold", 0), ("play_1x", 1), ("play_3x", 3))
                    },
                },
            ),
        )


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _ante_outcome(cat: FourCardCategory, multiple: int, wins: bool) -> AntePlayOutcome | None:
    suffix = "wins" if wins else "loses"
    if cat.value in _BONUS_KEYS:
        return AntePlayOutcome(f"{cat.value}-{suffix}") if multiple == 3 else None
    return AntePlayOutcome(f"play-{multiple}x-{suffix}")


@functools.cache
def default_strategy() -> AntePlayStrategy:
    """The Ante and Play strategy that maximises the player's return (§ 641a.7(d)): the one the
    settlement, the exact counts and the simulation kernels play."""
    # the decisions do not depend on the Ante bonus: every bonus hand is played 3x whatever it
    # pays (checked in the tests), and other hands earn none
    return AntePlayStrategy.for_bonus({})


# -- settling a dealt round -----------------------------------------------------------------------


@dataclass(frozen=True)
class WagerResult:
    """One settled wager of a round: its name, the amount, the net win, and what happened."""

    name: str
    wager: str
    section: str
    amount_cents: int
    win_cents: int
    detail: str
    settlement: Settlement | None = None
    envy_cents: int = 0

    @property
    def returned_cents(self) -> int:
        """What the dealer hands back (stake and win), or 0 for a loss."""
        if self.settlement is not None:
            return self.settlement.returned_cents + self.envy_cents
        return max(0, self.amount_cents + self.win_cents)


@dataclass(frozen=True)
class FourCardPokerSettlement:
    """A settled round: the cards, the showdown and each wager's result."""

    round: DealtRound
    bets: FourCardPokerBets
    results: tuple[WagerResult, ...]
    decision: Decision | None
    strategy_decision: Decision

    @property
    def win_cents(self) -> int:
        """The player's net result over every wager."""
        return sum(r.win_cents for r in self.results)

    def lines(self, seat: int = 1) -> tuple[SettlementLine, ...]:
        """Each result as the table's settlement line at ``seat`` (the Play and the Ante bonus
        are parts of the Ante's: ``four-card-poker:play``)."""
        return tuple(_table_line(seat, r) for r in self.results)


DEFAULT_PAYTABLES = {
    "four-card-poker": "25-20-2",
    "aces-up": "pa-casino",
    "four-card-progressive": "example-four-card-progressive",
    "five-card-progressive": "example-five-card-progressive",
    "bad-beat-bonus": "example-bad-beat",
    "five-card-hand-bonus": "example-five-card-bonus",
    "five-card-hand-bonus-dealer": "example-five-card-bonus-dealer",
    "six-card-bonus": "example-six-card-bonus",
}


def _even_money_pays(res: WagerResult) -> str:
    """The pays column of the Ante's and the Play's own result, in the table's words: "1 to 1"
    (a win at even money, § 641a.7(d)(1)), "loses", "push"; any other result as money."""
    if res.win_cents == 0:
        return "push"
    if res.win_cents == -res.amount_cents:
        return "loses"
    if res.amount_cents and res.win_cents > 0 and res.win_cents % res.amount_cents == 0:
        return f"{res.win_cents // res.amount_cents} to 1"
    return signed_money(res.win_cents)


def _table_line(seat: int, res: WagerResult) -> SettlementLine:
    """A seat's settled wager as a table's settlement line (the Ante's Play and bonus are parts
    of the Ante's line: ``four-card-poker:play``)."""
    if res.settlement is not None:
        return line_of(seat, res.settlement, res.wager, res.envy_cents)
    return SettlementLine(
        seat=seat,
        wager=res.wager,
        part=res.name.lower().replace(" ", "-"),
        outcome=res.detail,
        pays=_even_money_pays(res),
        stake_cents=res.amount_cents,
        win_cents=res.win_cents,
        returned_cents=res.returned_cents,
        section=res.section,
        detail=f"{res.name}: {res.detail}",
    )


def settle_round(
    player: Sequence[Card],
    dealer: Sequence[Card],
    bets: FourCardPokerBets,
    bonus_card: Card | None = None,
    paytables: dict[str, str | Paytable] | None = None,
    other_hands: Sequence[Sequence[Card]] = (),
    meter_cents: dict[str, int] | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
    book: PaytableBook | None = None,
) -> FourCardPokerSettlement:
    """Settle one player's round of Four Card Poker (58 Pa. Code § 641a.7(d)).

    ``paytables`` maps wager ids to paytable keys (defaults: :data:`DEFAULT_PAYTABLES`);
    ``other_hands`` are the five cards of the *other* players at the table who hold the same
    progressive wagers — their qualifying hands pay this player the envy bonus;
    ``meter_cents`` the progressive meters by wager id (default: the seeds). Nothing is settled
    unless every check passes (:class:`RulesError`, :class:`CardError`, :class:`InputError`).
    """
    bets.check()
    rnd = deal_round(player, dealer, bonus_card)
    if bets.six_card_bonus_cents and bonus_card is None:
        raise RulesError("the Six Card Bonus wager needs the Six Card Bonus card", "641a.7(d)(8)")
    others = _other_hands(rnd, bonus_card, other_hands)
    keys = {**DEFAULT_PAYTABLES, **(paytables or {})}
    from croupier.wagers.registry import get_wager

    def wager(wid: str) -> tuple[Wager, Paytable]:
        w = get_wager(wid)
        if book is not None:
            w = w.with_book(book)
        key = keys[wid]
        table = key if isinstance(key, Paytable) else w.paytable(key, 1)
        return w, table

    ante_play = get_wager("four-card-poker")
    assert isinstance(ante_play, AntePlay)
    strategy_decision = default_strategy().decide_with_upcard(rnd.player, rnd.dealer[0])
    show = rnd.showdown()
    results: list[WagerResult] = []
    decision: Decision | None = None
    if bets.ante_cents:
        _, table = wager("four-card-poker")
        decision = _ante_and_play(ante_play, table, bets, show, results)
    sides = (
        ("aces-up", bets.aces_up_cents, rnd.player),
        ("four-card-progressive", bets.four_card_progressive_cents, rnd.player),
        ("five-card-progressive", bets.five_card_progressive_cents, rnd.player),
        ("bad-beat-bonus", bets.bad_beat_cents, (*rnd.player, *rnd.dealer)),
        ("five-card-hand-bonus", bets.five_card_bonus_cents, rnd.player),
        ("five-card-hand-bonus-dealer", bets.five_card_bonus_dealer_cents, rnd.dealer),
        ("six-card-bonus", bets.six_card_bonus_cents, rnd.six_cards if bonus_card else ()),
    )
    settled = [
        _side_result(*wager(wid), amount, cards, others, (meter_cents or {}).get(wid), stake)
        for wid, amount, cards in sides
        if amount
    ]
    return FourCardPokerSettlement(rnd, bets, (*results, *settled), decision, strategy_decision)


def _other_hands(
    rnd: DealtRound, bonus_card: Card | None, other_hands: Sequence[Sequence[Card]]
) -> list[tuple[Card, ...]]:
    """The other players' five-card hands, checked: five cards each, none dealt twice."""
    others = [tuple(h) for h in other_hands]
    used = set(rnd.player) | set(rnd.dealer) | ({bonus_card} if bonus_card else set())
    for h in others:
        if len(h) != 5:
            raise InputError(
                f"another player's hand is five cards, not {len(h)}: {format_cards(h)}"
            )
        for c in h:
            if c in used:
                raise InputError(f"{c} is dealt twice: Four Card Poker uses one deck")
            used.add(c)
    return others


def _ante_and_play(
    ante_play: AntePlay,
    table: Paytable,
    bets: FourCardPokerBets,
    show: Showdown,
    results: list[WagerResult],
) -> Decision | None:
    """Settle the Ante, the Play and the Ante bonus (§ 641a.7(d)(1)) into ``results``; return
    the player's decision the bets show (``None``: a Play that is not 1 or 3 Antes)."""
    ante = bets.ante_cents
    if not bets.play_cents:
        results.append(
            WagerResult("Ante", "four-card-poker", "641a.7(d)(1)", ante, -ante, "folded")
        )
        return Decision.FOLD
    decision = {1: Decision.PLAY_1X, 3: Decision.PLAY_3X}.get(
        bets.play_cents // ante if bets.play_cents % ante == 0 else 0
    )
    sign = 1 if show.result.player_wins else -1
    verb = {Result.TIE: "ties", Result.PLAYER_WINS: "beats"}.get(show.result, "loses to")
    what = f"{show.player.describe()} {verb} {show.dealer.describe()}"
    results.append(WagerResult("Ante", "four-card-poker", "641a.7(d)(1)", ante, sign * ante, what))
    results.append(
        WagerResult(
            "Play", "four-card-poker", "641a.7(d)(1)", bets.play_cents, sign * bets.play_cents, what
        )
    )
    bonus = ante_play.bonus_pays(table).get(show.player.category)
    if bonus is not None:
        line = table.line(show.player.category.value)
        assert line is not None
        paid = int(bonus * ante)  # odds on whole cents, rounded down
        results.append(
            WagerResult(
                "Ante bonus",
                "four-card-poker",
                "641a.7(d)(1)",
                ante,
                paid,
                f"{line.label} pays {line.pays} on the Ante",
            )
        )
    return decision


def _side_result(
    w: Wager,
    table: Paytable,
    amount: int,
    cards: Sequence[Card],
    others: Sequence[tuple[Card, ...]],
    meter: int | None,
    stake: ProgressiveStake,
) -> WagerResult:
    """Settle one side wager of ``amount`` on ``cards`` (``meter``: its progressive meter in
    cents, default the seed), with the envy bonus the other players' hands pay it."""
    meters = None
    if meter is not None and table.progressive is not None:
        meters = {table.progressive.meters[0].level: meter}
    s = w.settle(cards, table, amount, 1, meter_cents=meters, stake=stake)
    envy = 0
    for h in others if table.progressive is not None else ():
        o = w.classify(h)
        line = w.pay_line(table, o) if o is not None else None
        if line is not None and line.envy_cents:
            envy += line.envy_cents
    detail = s.describe() + (f"; envy {format_money(envy)}" if envy else "")
    return WagerResult(
        w.spec.name, w.spec.id, w.spec.settle_rule, amount, s.win_cents + envy, detail, s, envy
    )
