"""Feeding a table round's progressive wagers to the progressive ledger (§ 605a.7, § 633b.2(d)–(h),
§ 633b.3(d)–(h)).

A :class:`~croupier.table.round.TableRound` is a pure value; the ledger is durable. After a round
is dealt, :func:`feed_progressive` replays its progressive wagers into a
:class:`~croupier.progressive.ProgressiveSystem` in the regulated order: the wagers accepted at
their positions (§ 633b.2(d)(1)), the lock-out (§ 633b.2(d)(2)), the chip count (§ 633b.2(f):
one chip per wager, as the table collected them) and the settlement of the qualifying hands in one
transaction under an idempotency key (``progressive/table/round``: a round may feed a Jackpot
Party and a Match the Dealer progressive), so calling it again for the same round returns the first
settlement and changes nothing.
"""

from __future__ import annotations

from croupier.errors import LedgerError, ProcedureError
from croupier.progressive import (
    ProgressiveSystem,
    QualifyingHand,
    RoundSettlement,
    RoundStatus,
)
from croupier.table.round import Action, Phase, TableRound

PROGRESSIVE_WAGERS = {"633b.2": "jackpot-party", "633b.3": "match-the-dealer"}
"""The section of a progressive definition → the wager id the table records it under."""


def feed_progressive(
    rnd: TableRound, system: ProgressiveSystem, *, table: str, round_id: str, by: str
) -> RoundSettlement | None:
    """Accept, lock out, count and settle ``rnd``'s wagers on ``system``'s progressive.

    Only wagers of the definition's size are fed (a $1 and a $5 Jackpot Party wager are two
    progressives, § 633b.2(e)); ``None`` when the round holds none. Raises
    :class:`~croupier.errors.ProcedureError` when the round is not dealt yet (its progressive
    wagers are settled at the deal, § 633b.2(g), § 633b.3(g)) and the ledger's own errors
    (:class:`~croupier.errors.LinkError` for a table not linked, § 605a.8).
    """
    defn = system.definition
    wager = PROGRESSIVE_WAGERS.get(defn.section)
    if wager is None:
        raise LedgerError(f"progressive {defn.name!r} is not a Blackjack table progressive")
    if rnd.phase not in (Phase.DEALT, Phase.SETTLED):
        raise ProcedureError(
            "the progressive wagers are fed to the ledger once the round is dealt",
            section=f"{defn.section}(g)",
        )
    positions = tuple(
        b.seat for b in rnd.bets if b.wager == wager and b.amount_cents == defn.wager_cents
    )
    if not positions:
        return None
    hands = [
        QualifyingHand(e.seat, e.outcome_key)
        for e in rnd.events
        if e.action is Action.SETTLEMENT
        and e.wager == wager
        and e.seat in positions
        and e.outcome_key is not None
    ]
    view = system.find_round(round_id)
    if view is None:
        system.accept_wagers(round_id, table, positions, by=by)
        view = system.round(round_id)
    if view.status is RoundStatus.OPEN:
        system.lock_out(round_id, by=by)
        view = system.round(round_id)
    if view.status is RoundStatus.LOCKED:
        system.verify_chips(round_id, len(positions), by=by)
    key = f"{defn.name}/{table}/{round_id}"  # one round may feed several progressives
    return system.settle_round(round_id, hands, idempotency_key=key, by=by)


__all__ = ["PROGRESSIVE_WAGERS", "feed_progressive"]
