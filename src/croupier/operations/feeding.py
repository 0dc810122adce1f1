"""Feeding a table round's progressive wagers to the progressive ledger (§ 605a.7, § 633b.2(d)–(h),
§ 633b.3(d)–(h)).

After a round is dealt, :func:`feed_progressive` replays its progressive wagers into a
:class:`~croupier.progressive.ProgressiveSystem` in the regulated order: the wagers accepted at
their positions (§ 633b.2(d)(1)), the lock-out (§ 633b.2(d)(2)), the chip count (§ 633b.2(f):
one chip per wager, as the table collected them) and the settlement of the qualifying hands in one
transaction under an idempotency key (``progressive/table/round``: a round may feed a Jackpot
Party and a Match the Dealer progressive). Fed again with the same content
(:func:`~croupier.table.progressive.round_content`) it is a replay (the first settlement, nothing
changed); with other content it is a :class:`~croupier.errors.RoundConflictError` and nothing is
changed. A round whose section, paytable or deck count is not the progressive's definition is
refused (:class:`~croupier.errors.ProgressiveMismatchError`).
"""

from __future__ import annotations

from croupier.errors import CroupierError, ProcedureError, RoundConflictError
from croupier.progressive import (
    ProgressiveDefinition,
    ProgressiveSystem,
    QualifyingHand,
    RoundSettlement,
    RoundStatus,
)
from croupier.progressive.feeder import After
from croupier.progressive.offers import check_round_matches
from croupier.table.progressive import ledger_round_id_of, round_content, wager_of
from croupier.table.round import Action, Phase, TableRound


def _fed_seats(
    rnd: TableRound, wager: str, defn: ProgressiveDefinition
) -> tuple[tuple[int, ...], list[QualifyingHand]] | None:
    """The seats whose ``wager`` of the progressive's wager size feeds it, and the qualifying
    hands among them (each seat's settled outcome); ``None`` when no seat feeds it."""
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
    return positions, hands


def feed_new_round(
    rnd: TableRound,
    system: ProgressiveSystem,
    *,
    table: str,
    round_id: str,
    by: str,
    content: str,
    after: After | None = None,
) -> RoundSettlement | None:
    """:func:`feed_progressive`'s common case, with no read before the ledger's lock: a round
    the ledger does not know yet, checked against the definition the ledger object holds (the
    ledger checks under its lock that it is still the progressive's), fed with the rounds other
    threads feed meanwhile (one commit, :meth:`ProgressiveSystem.play_new_round`). ``None``:
    nothing written — let :func:`feed_progressive` decide (and raise what it raises).
    ``after``: rows the round brings to its ledger transaction, made from its settlement
    (:meth:`~croupier.progressive.feeder.Feeder.play`: the service's stored round)."""
    defn = system.ledger.known_definition(system.name)
    if defn is None or rnd.phase not in (Phase.DEALT, Phase.SETTLED):
        return None
    try:
        check_round_matches(rnd, defn)
        wager = wager_of(defn)
    except CroupierError:
        return None
    fed = _fed_seats(rnd, wager, defn)
    if fed is None:
        return None
    positions, hands = fed
    return system.play_new_round(
        ledger_round_id_of(table, round_id),
        table,
        positions,
        hands,
        idempotency_key=f"{defn.name}/{table}/{round_id}",
        by=by,
        content=content,
        after=after,
    )


def feed_progressive(
    rnd: TableRound,
    system: ProgressiveSystem,
    *,
    table: str,
    round_id: str,
    by: str,
    content: str | None = None,
) -> RoundSettlement | None:
    """Accept, lock out, count and settle ``rnd``'s wagers on ``system``'s progressive.

    Only wagers of the definition's size are fed (a $1 and a $5 Jackpot Party wager are two
    progressives, § 633b.2(e)); ``None`` when the round holds none. Raises
    :class:`~croupier.errors.ProcedureError` when the round is not dealt yet (its progressive
    wagers are settled at the deal, § 633b.2(g), § 633b.3(g)),
    :class:`~croupier.errors.ProgressiveMismatchError` for a round of another paytable or deck
    count, :class:`~croupier.errors.RoundConflictError` for a round id of the table already fed
    with other content, and the ledger's own errors (:class:`~croupier.errors.LinkError` for a
    table not linked, § 605a.8). Every check is made before the ledger is written. ``content``:
    :func:`round_content` of ``rnd`` if the caller has it.

    A round the ledger does not know yet is fed with the rounds other threads feed meanwhile,
    in one transaction and one commit (:class:`~croupier.progressive.feeder.Feeder`); anything
    else step by step, each step's checks and errors as they are.
    """
    content = content if content is not None else round_content(rnd)
    fast = feed_new_round(rnd, system, table=table, round_id=round_id, by=by, content=content)
    if fast is not None:
        return fast
    defn = system.definition
    check_round_matches(rnd, defn)
    wager = wager_of(defn)
    if rnd.phase not in (Phase.DEALT, Phase.SETTLED):
        raise ProcedureError(
            "the progressive wagers are fed to the ledger once the round is dealt",
            section=f"{defn.section}(g)",
        )
    rid = ledger_round_id_of(table, round_id)
    view = system.find_round(rid)
    if view is not None and view.content != content:
        raise RoundConflictError(
            f"round {round_id!r} of table {table} is on progressive {defn.name!r} already with "
            "other content (seats, wagers, amounts or cards): nothing changed; give the round "
            'its own "id"'
        )
    fed = _fed_seats(rnd, wager, defn)
    if fed is None:
        return None
    positions, hands = fed
    key = f"{defn.name}/{table}/{round_id}"  # one round may feed several progressives
    if view is None:  # the whole round in one transaction
        return system.play_round(
            rid, table, positions, hands, idempotency_key=key, by=by, content=content
        )
    # a round left part-way by an earlier run: the remaining steps
    if view.status is RoundStatus.OPEN:
        system.lock_out(rid, by=by)
        view = system.round(rid)
    if view.status is RoundStatus.LOCKED:
        system.verify_chips(rid, len(positions), by=by)
    return system.settle_round(rid, hands, idempotency_key=key, by=by)


__all__ = ["feed_new_round", "feed_progressive"]
