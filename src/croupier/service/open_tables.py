"""The open tables' rounds: what ``POST /tables/{table}/steps`` and the table routes
(:mod:`croupier.service.routes.tables`) read and show of a table opened with ``POST /tables``.

The round is stored as its steps (rounds are immutable values; a replay is exact), so any worker
or host serving the database can take the next step. Each process keeps the rounds it last saw in
memory (:class:`OpenRounds`), keyed by table and checked against the table's ``version`` column:
a step posted to the same process as the one before it is applied to the round in memory; after
another process moved the table on, the round is replayed from its stored steps
(:func:`current_round`). An open table numbers its own rounds ``round-N`` (:func:`round_id`,
:func:`free_number`); a round file posted for it is held to them (:func:`check_round_file`).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from fastapi import Request
from sqlalchemy import Connection, Engine

from croupier.cards import parse_cards
from croupier.errors import (
    LedgerLookupError,
    ProcedureError,
    RoundConflictError,
    RoundStateError,
    SubmissionError,
)
from croupier.operations.rounds import checked_submission
from croupier.paytables import MeterLevel
from croupier.paytables.pays import MeterShare
from croupier.progressive.meters import share_award_cents
from croupier.progressive.store import read_rows
from croupier.service import store
from croupier.service.common import ledger_of
from croupier.table.actions import allowed
from croupier.table.procedure import Action, Phase
from croupier.table.progressive import wager_of
from croupier.table.record import apply_step
from croupier.table.round import TableRound, settled_net
from croupier.table.steps import DealStep, stored_step
from croupier.table.submission import RulesSubmission
from croupier.units import format_money
from croupier.wagers import ProgressiveStake
from croupier.wagers.at_table import signed_money
from croupier.wagers.base_games import SettledBy


def table_row(conn: Connection, table: str, *, lock: bool = False) -> Any:
    t = store.tables
    q = sa.select(t).where(t.c.table_id == table)
    row = conn.execute(q.with_for_update() if lock else q).first()
    if row is None:
        raise LedgerLookupError(f"no open table {table!r}: open it with POST /tables")
    return row


def read_table(reader: Engine, table: str) -> tuple[Any, int]:
    """Open table ``table``'s stored row and the number of its round now: the first from the
    row's on whose id no stored round has (:func:`free_number`: a round file stored under
    ``round-N`` before the table was opened is not settled over, the table's round is numbered
    past it); :class:`~croupier.errors.LedgerLookupError` (404) when no such table is open."""
    with reader.connect() as conn:
        row = table_row(conn, table)
        return row, free_number(conn, table, row.round_number)


class OpenRounds:
    """The open round of each table this process last stepped or read: ``(version, round)``
    per table, used only when the table's stored ``version`` is still that one."""

    def __init__(self) -> None:
        self._rounds: dict[str, tuple[int, TableRound]] = {}
        self._lock = threading.Lock()

    def get(self, table: str, version: int) -> TableRound | None:
        """The round of ``table`` at ``version``, if this process holds it."""
        found = self._rounds.get(table)
        return found[1] if found is not None and found[0] == version else None

    def put(self, table: str, version: int, rnd: TableRound) -> None:
        """Hold ``rnd`` as ``table``'s round at ``version`` (an older version is not kept)."""
        with self._lock:
            found = self._rounds.get(table)
            if found is None or found[0] <= version:
                self._rounds[table] = (version, rnd)


def open_rounds_of(request: Request) -> OpenRounds:
    cache: OpenRounds | None = getattr(request.app.state, "open_rounds", None)
    if cache is None:
        cache = request.app.state.open_rounds = OpenRounds()
    return cache


def opening(row: Any) -> str:
    """What the cache keys a table's rounds by: its id and when it was opened (a table closed and
    opened again starts at version 0 again, maybe under another submission)."""
    return f"{row.table_id}@{row.opened_at}"


def current_round(request: Request, row: Any) -> TableRound:
    """The round of ``row`` (a table's stored row): from memory at its version, else replayed."""
    cache = open_rounds_of(request)
    rnd = cache.get(opening(row), row.version)
    if rnd is None:
        rnd = _replay(row, json.loads(row.steps))
        cache.put(opening(row), row.version, rnd)
    return rnd


def open_round(sub: RulesSubmission, table: str, base_game: SettledBy | str) -> TableRound:
    """A new round under ``sub`` at open table ``table`` whose base game ``base_game`` settles
    (``"croupier"`` or ``"external"``): its first event says betting is open at the table by its
    id (the submission's name is not the table's)."""
    # an open table's round: played in order
    rnd = TableRound.open(sub, step_by_step=True, base_game=base_game)
    first = replace(rnd.events[0], detail=f"betting open at table {table}")
    return replace(rnd, events=(first, *rnd.events[1:]))


def _replay(row: Any, steps: list[dict[str, Any]]) -> TableRound:
    """The round of a table's stored steps, replayed. A step stored was accepted when it was
    posted: a deal stored before an open table's deal was held to the upcard and the hole card
    (the dealer's whole hand, § 633a.7) is replayed as it was taken, so a round in play across
    that change can still be read, played, settled or voided."""
    _, sub = checked_submission(json.loads(row.submission), f"table {row.table_id}")
    rnd = open_round(sub, row.table_id, table_base_game(row, sub))
    for i, s in enumerate(steps, start=1):
        step = stored_step(s)
        try:
            rnd = apply_step(rnd, step, i)
        except ProcedureError:
            if not isinstance(step, DealStep) or len(parse_cards(step.dealer or "")) <= 2:
                raise
            taken = apply_step(replace(rnd, step_by_step=False), step, i)
            rnd = replace(taken, step_by_step=True)
    return rnd


def table_base_game(row: Any, sub: RulesSubmission) -> SettledBy:
    """Who settles the base game at the table of ``row`` (its stored row) under ``sub``: as
    ``POST /tables`` declared it; at a table opened before tables declared it (NULL), as its
    rounds were played then — croupier, except at a game croupier does not settle (Criss-Cross
    Poker), whose base wagers were recorded as the base game's."""
    if row.base_game is not None:
        return SettledBy.parse(row.base_game)
    return SettledBy.CROUPIER if sub.base.croupier_settles else SettledBy.EXTERNAL


def stored_base_game(row: Any) -> SettledBy:
    """:func:`table_base_game` of a stored table row, its Rules Submission checked only when the
    row predates the declaration (NULL): a listing of tables checks no submission for it."""
    if row.base_game is not None:
        return SettledBy.parse(row.base_game)
    _, sub = checked_submission(json.loads(row.submission), f"table {row.table_id}")
    return table_base_game(row, sub)


ROUND_ID = re.compile(r"round-([1-9][0-9]*)")
"""The form of an open table's own round ids: ``round-N``, N its round number from 1."""


def round_id(number: int) -> str:
    """The id an open table's round ``number`` is stored under (what ``GET /rounds/{table}/{id}``
    takes)."""
    return f"round-{number}"


def free_number(conn: Connection, table: str, number: int) -> int:
    """The first round number from ``number`` on whose id (:func:`round_id`) no stored round of
    ``table`` has: a round file stored under that id earlier (``POST /rounds/settle``, before the
    table was opened) is never settled over."""
    r = store.rounds
    while (
        conn.execute(
            sa.select(r.c.id).where(r.c.table_id == table, r.c.round_id == round_id(number))
        ).first()
        is not None
    ):
        number += 1
    return number


_OPENED_STORED = sa.select(
    sa.select(store.tables.c.submission_digest)
    .where(store.tables.c.table_id == sa.bindparam("b_table"))
    .scalar_subquery(),
    sa.select(store.rounds.c.id)
    .where(
        store.rounds.c.table_id == sa.bindparam("b_table"),
        store.rounds.c.round_id == sa.bindparam("b_rid"),
    )
    .scalar_subquery(),
)
"""The submission digest a table is open under and whether a round is stored under an id: built
once (a statement made per request costs more than the read it makes)."""


def check_round_file(reader: Engine, table: str, rid: str, digest: str) -> None:
    """Refuse a round file at a table open with ``POST /tables`` (nothing changed) whose id is of
    the form ``round-N`` (those ids are the open table's own: a 409), or whose Rules Submission
    (``digest``, :func:`~croupier.table.submission.submission_digest`) is not the one the table
    was opened under (§ 601a.2: a :class:`~croupier.errors.SubmissionError` naming both digests).
    A round stored already under ``rid`` is not checked: its retry answers it, or is a conflict.
    At a table the service holds no submission for, the round file's own is used (checked in
    full; docs/interpretations.md)."""
    ((opened, stored),) = read_rows(reader, _OPENED_STORED, {"b_table": table, "b_rid": rid})
    if opened is None or stored is not None:  # one stored before: its retry answers it
        return
    if ROUND_ID.fullmatch(rid) is not None:
        raise RoundConflictError(
            f"round id {rid!r}: table {table} is open (POST /tables) and numbers its own rounds "
            f"round-1, round-2, …; give the round file another id, or post its steps to "
            f"POST /tables/{table}/steps"
        )
    if opened != digest:
        raise SubmissionError(
            f"round {rid!r} at table {table}",
            (
                (
                    f"the round file's Rules Submission is {digest}, not the one table {table} "
                    f"is open under, {opened}: a round at an open table is settled under the "
                    "table's Rules Submission (post that one, or have a pit manager open the "
                    "table under the other); nothing was settled or stored",
                    "601a.2",
                ),
            ),
        )


def table_state(row: Any, rnd: TableRound, number: int) -> dict[str, Any]:
    return {
        "table": row.table_id,
        "round": round_id(number),
        "round_number": number,
        "submission_digest": row.submission_digest,
        "base_game": rnd.base_game.value,
        "progressives": json.loads(row.progressives),
        "phase": rnd.phase.value,
        "allowed": sorted(a.value for a in allowed(rnd)),
        "to_act": [t.to_json() for t in rnd.turns()],
        "cards": rnd.cards.describe() if rnd.cards else None,
        "events": [e.to_json() for e in rnd.events],
        "settlement": rnd.settlement().to_json(),
        "net_cents": settled_net(rnd.events),
    }


LIVE_NOTE = (
    "an estimate at the live meter; the ledger pays from the meter when the round is settled"
)
"""What a share-of-meter line says before its round is settled at a table linked to progressives
(the ledger values it when the round is fed, its own contribution and other tables' included)."""


def utc_text(at: datetime) -> str:
    """``at`` as ISO 8601 with its offset (SQLite gives back a UTC time without one)."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat()


def moved_on(table: str) -> RoundStateError:
    return RoundStateError(
        f"another step was posted to table {table} at the same time and was taken first: this "
        f"one changed nothing; read the table (GET /tables/{table}) and post it again if it is "
        "still wanted"
    )


def _at_live_meters(request: Request, row: Any, rnd: TableRound) -> TableRound:
    """``rnd`` with each share-of-meter line valued at what the table's progressive has available
    now (not at the paytable's seed), rounded down to the cent as the ledger does
    (:func:`~croupier.progressive.meters.share_award_cents`), each saying it is an estimate
    (:data:`LIVE_NOTE`). Shown only: the round stored and fed is the one posted."""
    ledger = ledger_of(request)
    live: dict[tuple[str, int], tuple[ProgressiveStake, dict[MeterLevel, int]]] = {}
    for name in json.loads(row.progressives):  # one per wager and size ($1 and $5: two)
        status = ledger.status(name)
        defn = status.definition
        live[(wager_of(defn), defn.wager_cents)] = (
            defn.stake,
            {lv.level: lv.available for lv in status.levels},
        )
    events = []
    for e in rnd.events:
        size = rnd.seat_bets(e.seat).get(e.wager or "") if e.seat is not None else None
        found = live.get((e.wager or "", size or 0))
        offered = rnd.submission.offered(e.wager) if e.wager else None
        paytable = offered.paytable if offered is not None else None
        printed = paytable.line(e.outcome_key) if paytable and e.outcome_key else None
        pays = printed.pays if printed is not None else None
        if (
            e.action is Action.SETTLEMENT
            and e.pending_validation
            and found is not None
            and isinstance(pays, MeterShare)
            and pays.level in found[1]
            and e.line is not None
            and e.line.from_seat is None
            and e.amount_cents is not None
            and e.win_cents is not None
        ):
            stake, meters = found
            award = share_award_cents(pays.share, meters[pays.level])
            returned = award + (e.amount_cents if stake is ProgressiveStake.RETURNED else 0)
            win = returned - e.amount_cents
            said = f"{e.pays}: {format_money(award)} at the meter now ({LIVE_NOTE})"
            detail = e.detail
            tail = f"{signed_money(e.win_cents)} on {format_money(e.amount_cents)}"
            if detail.endswith(tail):
                detail = detail[: -len(tail)] + (
                    f"{signed_money(win)} on {format_money(e.amount_cents)} (estimate)"
                )
            line = replace(e.line, pays=said, win_cents=win, returned_cents=returned, detail=detail)
            e = replace(
                e, pays=said, win_cents=win, returned_cents=returned, detail=detail, line=line
            )
        events.append(e)
    return replace(rnd, events=tuple(events))


def shown_state(request: Request, row: Any, rnd: TableRound, number: int) -> dict[str, Any]:
    """The state the dealer sees of ``rnd``: before the round is settled at a table linked to
    progressives, a share of a meter is valued at the live meter and says it is an estimate."""
    pending = any(e.pending_validation for e in rnd.settlements())
    if pending and rnd.phase is not Phase.SETTLED and json.loads(row.progressives):
        state = table_state(row, _at_live_meters(request, row, rnd), number)
        state["estimate"] = LIVE_NOTE
        return state
    return table_state(row, rnd, number)


__all__ = [
    "LIVE_NOTE",
    "ROUND_ID",
    "OpenRounds",
    "check_round_file",
    "current_round",
    "free_number",
    "moved_on",
    "open_round",
    "open_rounds_of",
    "opening",
    "read_table",
    "round_id",
    "shown_state",
    "table_base_game",
    "table_row",
    "table_state",
    "utc_text",
]
