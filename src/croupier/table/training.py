"""Random rounds for a dealer in training (``croupier play``): wagers placed at random within the
Rules Submission's limits, dealt from a seeded shoe, played and settled by the round procedure.

Players: one to three seats; each places the base wager at the table minimum and each offered side
wager with probability ½ (at its minimum, or the first progressive size). At Four Card Poker the
Play follows the optimal strategy reading the dealer's face-up card (§ 641a.7(d)(1)); at
Criss-Cross Poker a player folds one time in three, the Ultimate Pairs wager staying in action
(§ 674b.1(c)). The same seed gives the same rounds.
"""

from __future__ import annotations

import random

from croupier.table.round import TableRound
from croupier.table.submission import BASE_WAGERS, REQUIRED_BASE, RulesSubmission, TableGame
from croupier.wagers import get_wager
from croupier.wagers.four_card_poker import AntePlay


def _amount(sub: RulesSubmission, wager: str) -> int:
    offered = sub.offered(wager)
    assert offered is not None
    if offered.amounts_cents:
        return offered.amounts_cents[0]
    assert offered.min_cents is not None
    return offered.min_cents


def random_round(sub: RulesSubmission, rng: random.Random) -> TableRound:
    """One settled random round at ``sub``'s table."""
    r = TableRound.open(sub)
    seats = sorted(rng.sample(range(1, sub.seats + 1), rng.randint(1, min(3, sub.seats))))
    offered = [w.wager for w in sub.wagers]
    bases = [w for w in offered if w in BASE_WAGERS[sub.game]]
    for seat in seats:
        base = rng.choice(bases) if sub.game is TableGame.BACCARAT else bases[0]
        r = r.bet(seat, base, _amount(sub, base))
        for wager in offered:
            if wager in BASE_WAGERS[sub.game] or rng.random() < 0.5:
                continue
            needs = REQUIRED_BASE.get(wager)
            if needs is None or any(b in r.seat_bets(seat) for b in needs[0]):
                r = r.bet(seat, wager, _amount(sub, wager))
    r = r.no_more_bets().deal_shoe(rng.randrange(2**32))
    assert r.cards is not None
    if sub.game is TableGame.FOUR_CARD_POKER:
        ante_play = get_wager("four-card-poker")
        assert isinstance(ante_play, AntePlay)
        table = sub.offered("four-card-poker")
        strategy = ante_play.strategy(table.paytable if table else None)
        for seat in seats:
            ante = r.seat_bets(seat).get("four-card-poker")
            if ante is None:
                continue
            decision = strategy.decide_with_upcard(r.cards.hand(seat), r.cards.dealer[0])
            r = r.play(seat, decision.multiple * ante) if decision.multiple else r.fold(seat)
    elif sub.game is TableGame.CRISS_CROSS_POKER:
        for seat in seats:
            if rng.random() < 1 / 3:
                r = r.fold(seat)
    return r.settle()


def random_rounds(sub: RulesSubmission, seed: int, rounds: int) -> list[TableRound]:
    """``rounds`` settled random rounds from ``seed``."""
    rng = random.Random(seed)
    return [random_round(sub, rng) for _ in range(rounds)]


__all__ = ["random_round", "random_rounds"]
