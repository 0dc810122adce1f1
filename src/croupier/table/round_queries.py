"""What a table round accepts now, and which paragraph its records and refusals cite — the
queries of :class:`~croupier.table.round.TableRound` that change nothing (split from
:mod:`croupier.table.round`, whose steps they ask: a step named allowed is one the round takes).

* :func:`registered`: the registered wager of an id, or ``None`` for a base wager croupier
  records (cached misses);
* :func:`lockout_rule` and :func:`own_rule`: a rule of the table a record cites — never the
  section of a wager the table does not offer (docs/interpretations.md, *Phases and the
  lock-out*);
* :class:`RoundQueries`: the round's ``procedure_rule``, ``deal_rule`` and ``settlement_rule``,
  its refusals out of phase (naming what it accepts now), :meth:`~RoundQueries.turns` and
  :meth:`~RoundQueries.allowed_actions`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Self

from croupier.cards import Card
from croupier.errors import ProcedureError, UnknownWagerError
from croupier.table.procedure import DECISIONS, PHASE_WORDS, PROCEDURE, Action, Phase, Turn
from croupier.table.round_blackjack import BlackjackDecisions, accepts
from croupier.table.submission import RulesSubmission, TableGame
from croupier.wagers import Wager, get_wager
from croupier.wagers import registry as wager_registry
from croupier.wagers.switch_hands import ANTE_WAGER

_UNREGISTERED: dict[str, int] = {}
"""Ids found not registered (a base wager, the Ante) → how many wagers were registered then: a
miss costs :func:`get_wager` a scan of the wager package and its did-you-mean message, and a
round asks about its base wager at every bet and settlement."""


def registered(wager_id: str) -> Wager | None:
    """The registered wager, or ``None`` for a base wager croupier records (or the Ante)."""
    found = wager_registry._REGISTRY.get(wager_id)  # an id as registered: get_wager's answer
    if found is not None:
        return found
    known = len(wager_registry._REGISTRY)
    if _UNREGISTERED.get(wager_id) == known:  # still a miss: nothing registered since
        return None
    try:
        return get_wager(wager_id)
    except UnknownWagerError:
        _UNREGISTERED[wager_id] = len(wager_registry._REGISTRY)
        return None


def lockout_rule(sub: RulesSubmission) -> str:
    """The paragraph the dealer's "No more bets" answers to at a table under ``sub``: the
    lock-out of a progressive wager the table offers — the progressive table game system's
    device (§ 633b.2(d)(2), § 633b.3(d)(2)) —, else the paragraph of another wager it offers
    whose bets end at "No more bets" (§ 633b.1(d), § 633c.12(c), § 631c.3(c)), else the base
    game's own: its lock-out when that is its own section's (§ 641a.7(c)), else the paragraph
    placing its wager before the deal (§ 633a.6(d), § 631a.8(a), § 674a.7(d)) — never the
    section of a wager the table does not offer (docs/interpretations.md)."""
    offered = [(w, o) for o in sub.wagers if (w := registered(o.wager)) is not None]
    progressive = [
        w.lockout_rule
        for w, o in offered
        if w.lockout_rule and o.paytable is not None and o.paytable.progressive is not None
    ]
    if progressive:
        return progressive[0]
    others = [w.lockout_rule for w, _ in offered if w.lockout_rule]
    if others:
        return others[0]
    return own_rule(sub, sub.base.lockout_rule)


def own_rule(sub: RulesSubmission, rule: str, instead: str | None = None) -> str:
    """``rule``, a paragraph of the base game's procedure, if the table under ``sub`` offers a
    wager of its section (Blackjack's procedure is written in § 633b.1(d), the Perfect Pairs
    section; Baccarat's lock-out in § 631c.3(c), the 5 Treasures'); else ``instead`` (the base
    game's own section the paragraph refers to: § 633a.7 for the deal), or the paragraph placing
    the base game's wager before the deal (§ 633a.6(d), § 631a.8(a), § 674a.7(d)), when it has
    one: a table's refusal or record never cites a wager it does not offer."""
    section = rule.split("(", 1)[0]
    if any((w := registered(o.wager)) is not None and w.section == section for o in sub.wagers):
        return rule
    return instead or sub.base.wager_rule or rule


class RoundQueries(BlackjackDecisions):
    """The queries of a :class:`~croupier.table.round.TableRound` (module docstring)."""

    if TYPE_CHECKING:  # the round's steps, asked without changing anything

        def play(self, seat: int, amount_cents: int) -> Self: ...

        def fold(self, seat: int) -> Self: ...

        def no_more_bets(self) -> Self: ...

        def _check_settle(self) -> None: ...

    @property
    def procedure_rule(self) -> str:
        """The paragraph of the game's procedure this table's refusals out of phase cite: the
        base game's (:attr:`BaseGame.procedure_rule`) where the table offers a wager of its
        section, else the base game's own section it refers to (:func:`own_rule`)."""
        base = self.base
        return own_rule(self.submission, base.procedure_rule, base.own_procedure)

    @property
    def deal_rule(self) -> str:
        """The paragraph the deal is recorded under at this table (:func:`own_rule`)."""
        base = self.base
        return own_rule(self.submission, base.deal_rule, base.own_procedure)

    @property
    def settlement_rule(self) -> str:
        """The paragraph "round settled" is recorded under at this table (:func:`own_rule`)."""
        base = self.base
        instead = base.own_settlement or base.own_procedure
        return own_rule(self.submission, base.procedure_rule, instead)

    def _require(self, action: Action) -> None:
        """Raise :class:`ProcedureError` when the round's phase never takes ``action`` at its
        game (:data:`PROCEDURE`), naming what the round would accept now
        (:meth:`allowed_actions`) and who acts next (:meth:`turns`)."""
        if action in PROCEDURE[self.game][self.phase]:
            return
        # the Play wager is placed after the player sees the cards (§ 641a.7(d)(1))
        play_rule = self.base.decision_rule if action is Action.PLAY else None
        raise ProcedureError(
            f"{action.value} is not allowed {PHASE_WORDS[self.phase]} ({self._what_now()})",
            section=play_rule or self.procedure_rule,
        )

    def _what_now(self) -> str:
        """``'allowed: deal'``, ``'allowed: hit, stand; to act: seat 3 …'``: what the round
        accepts now and who acts, as a refusal says it."""
        names = ", ".join(sorted(a.value for a in self.allowed_actions())) or "nothing"
        turns = "; ".join(t.describe() for t in self.turns())
        return f"allowed: {names}{'; to act: ' + turns if turns else ''}"

    # -- what the round accepts now --------------------------------------------------------
    def turns(self) -> tuple[Turn, ...]:
        """The players whose decisions the dealt round takes now, each with the decisions it
        would accept (asked of the round itself: nothing changes). Blackjack: the one player in
        turn (:meth:`blackjack_turn`: the keep-or-switch choice, § 633b.4(f), then each hand,
        seat 1 first, § 633a.7), none once every hand is played. Four Card Poker: every seat
        with an Ante that has neither played nor folded (§ 641a.7(d)(1)), in no set order.
        Criss-Cross Poker: every seat that may still fold (§ 674b.1(c)). Before the deal and
        after the settlement: none."""
        if self.phase is not Phase.DEALT:
            return ()
        if self.game is TableGame.BLACKJACK:
            turn = self.blackjack_turn()
            return () if turn is None else (turn,)
        kinds = PROCEDURE[self.game][self.phase] & DECISIONS
        if not kinds:
            return ()
        assert self.cards is not None
        hands = dict(self.cards.players)
        wager = self.base.decision_wager
        out: list[Turn] = []
        for seat in self.seats():
            ante = self.seat_bets(seat).get(wager) if wager is not None else None
            can = set()
            if (
                Action.PLAY in kinds
                and ante is not None
                and accepts(partial(self.play, seat, ante))
            ):
                can.add(Action.PLAY)
            if Action.FOLD in kinds and accepts(partial(self.fold, seat)):
                can.add(Action.FOLD)
            if can:
                out.append(Turn(seat, frozenset(can), None, 1, hands.get(seat, ())))
        return tuple(out)

    def allowed_actions(self) -> frozenset[Action]:
        """Exactly the kinds of action the round would accept now: a player's decision where
        :meth:`turns` offers it, a bet while some seat can still place an offered wager
        (:meth:`bet`: its amount, within the limits, is the bet's own), ``no-more-bets`` once
        the bets are complete (:meth:`no_more_bets`), the deal after the lock-out, the dealer's
        draw while the drawing rule owes one after every hand (:meth:`dealer_draw`, § 633a.7),
        ``settle`` once nothing is left to decide (:meth:`settle`'s own checks). Each is asked
        of the round's own steps, so a step named here is one the round takes (with its
        parameters — a seat, an amount, a card — right) and a step refused is never named."""
        kinds = PROCEDURE[self.game][self.phase]
        turns = self.turns()
        out = {a for t in turns for a in t.actions}
        # a Blackjack player still to act: the dealer does not draw, and the round does not
        # settle (what dealer_draw and settle check first; asked here without making their
        # refusals' words, which name the turn again); a round whose base game is external
        # has no player to act (its play is the table's own system's)
        waiting = self.game is TableGame.BLACKJACK and bool(turns)
        for kind in kinds - DECISIONS:
            if kind is Action.BET:
                ok = self._bet_open()
            elif kind is Action.DEAL:
                ok = True  # the cards are the deal's own: any deal the shoe holds
            elif kind is Action.NO_MORE_BETS:
                ok = accepts(self.no_more_bets)
            elif kind is Action.DEALER_DRAW:
                ok = not waiting and accepts(lambda: self.dealer_draw(self._draw_probe()))
            elif kind is Action.SETTLE:
                ok = not (waiting and self.plays_out()) and accepts(self._check_settle)
            else:  # pragma: no cover - every kind a phase lists is one of the above
                ok = False
            if ok:
                out.add(kind)
        return frozenset(out)

    def _draw_probe(self) -> list[Card]:
        """The card a dealer's draw is asked with (:meth:`allowed_actions`): one the shoe still
        holds, else none (a seeded deal's next card)."""
        card = self._spare_card()
        return [card] if card is not None else []

    def _bet_open(self) -> bool:
        """Whether, while betting is open, some seat can still place some offered wager: one
        it has not placed, whose base wager it has (§ 633b.1(c) and the like), or the Switch
        Hands Ante after the Blackjack wager (§ 633b.4(c)); the amount is the bet's own."""
        sub = self.submission
        ids = [w.wager for w in sub.wagers]
        if sub.variant is not None:
            ids.append(ANTE_WAGER)
        base = self.base.base_wagers
        for seat in range(1, sub.seats + 1):
            placed = self.seat_bets(seat)
            for wid in ids:
                if wid in placed:
                    continue
                if wid == ANTE_WAGER:
                    needs: tuple[str, ...] = base[:1]
                else:
                    w = registered(wid)
                    needs = w.base_wagers if w is not None else ()
                if not needs or not placed.keys().isdisjoint(needs):
                    return True
        return False


__all__ = ["RoundQueries", "lockout_rule", "own_rule", "registered"]
