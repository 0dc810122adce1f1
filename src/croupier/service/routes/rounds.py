"""``POST /rounds/settle`` a round file; every settled round stored and queried.

The body is the documented round file (``docs/schemas/round-file.schema.json``) with its Rules
Submission inline (the service reads no file) and its ``id``; ``?table=`` names the table,
``?progressive=`` (repeatable) progressives its progressive wagers feed, as ``croupier settle
--progressive``. Every progressive wager is fed: to a progressive named that takes it, else to the
one linked to the table that takes it; with none — or its progressive suspended — the round is
refused (§ 605a.8). At an open table the round file must carry the table's Rules Submission
(§ 601a.2). The round is replayed through the regulated round procedure
(:func:`croupier.table.record.settle_record`); a step that breaks a rule is one 422 problem naming
the step and the section, and nothing is stored. Stored once per table and round id: the same
round again answers the stored document; other content under the same id is a 409 problem.
Every read of a stored round shows its progressive awards as the ledger has them now
(:func:`croupier.service.paid.as_ledger_has_it`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import Response

from croupier.errors import InputError, LedgerLookupError, suggest
from croupier.names import TABLE, exact
from croupier.operations.schemas.rounds import RoundList, RoundSummary, StoredRound
from croupier.progressive import Role, StaffMember
from croupier.progressive.report import check_period
from croupier.service import store
from croupier.service.common import (
    MAX_STORED_INT,
    ledger_of,
    reader_of,
)
from croupier.service.dependencies import LedgerDep, Once, ReaderDep, report_reader, require
from croupier.service.examples import ROUND_EXAMPLE
from croupier.service.jsontext import answer, dumps
from croupier.service.paid import (
    as_ledger_has_it,
    book_for,
    book_of,
    line_results,
    replayed_round,
    stored_round,
)
from croupier.service.round_writes import settling
from croupier.table.record import RoundFile
from croupier.table.submission_file import InlineSubmission
from croupier.units import parse_time as _when
from croupier.wagers import all_wagers
from croupier.wagers.base_games import BASE_GAMES
from croupier.wagers.switch_hands import ANTE_WAGER

router = APIRouter()

Dealer = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "recording a round"))]
Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "reading the stored rounds"))]
Reports = Annotated[StaffMember, Depends(report_reader("reading the handle and hold summary"))]
TableId = Annotated[
    str,
    Query(
        description="The table's id (the name rule of croupier.names: no space, no '/', at "
        "most 100 characters)."
    ),
]


def stored_answer(
    request: Request, status: int, text: str, replayed: bool
) -> tuple[str, dict[str, str]]:
    """How ``POST /rounds/settle`` shows an answer it did not just make (its
    :data:`~croupier.service.idempotency.Shown`) — the round stored already under its table and
    id (200), or any answer given again under its ``Idempotency-Key``
    (``Idempotent-Replayed: true``): the stored round as every read shows it, each award as the
    ledger has it now (validated, voided: :func:`~croupier.service.paid.as_ledger_has_it`; what
    was recorded at settlement beside it), marked ``stored_already: true`` (this answer settled
    nothing), and ``Content-Location`` naming where it is read (``GET /rounds/{table}/{round}``).
    The status is the first answer's. A replay never tells a table to pay an award voided since
    it was first answered (docs/interpretations.md)."""
    if not replayed and status != 200:
        return text, {}
    now = replayed_round(reader_of(request), ledger_of(request), json.loads(text))
    if now is None:  # pragma: no cover - a recorded answer's round is stored with it
        return text, {}
    return dumps(now[0]), now[1]


class ServiceRoundFile(RoundFile):
    """A round file as the service takes it: the Rules Submission inline (the service reads no
    file), its id and its steps."""

    submission: InlineSubmission
    """The Rules Submission, inline (a JSON object of the TOML file's fields)."""


@router.post(
    "/rounds/settle",
    status_code=201,
    response_model=StoredRound,
    summary="Settle a round file and store it",
    responses={
        200: {
            "description": "The round was stored already with this content: nothing settled; "
            "its document as a read shows it (each award as the ledger has it now), "
            '"stored_already": true, Content-Location naming GET /rounds/{table}/{round}.'
        },
        201: {
            "description": "The round's settlement document (stored). Given again under its "
            "Idempotency-Key (Idempotent-Replayed: true): the round as the ledger has it now, "
            '"stored_already": true.'
        },
        409: {
            "description": "Idempotency-Key reused for another body, or the round id taken "
            "by other content."
        },
        422: {"description": "A step breaks a rule (problem naming the step and section)."},
    },
)
def settle_round(
    request: Request,
    ledger: LedgerDep,
    member: Dealer,
    table: TableId,
    record: Annotated[
        ServiceRoundFile,
        Body(
            openapi_examples={
                "blackjack": {
                    "summary": "A Blackjack round with Perfect Pairs",
                    "value": ROUND_EXAMPLE,
                }
            }
        ),
    ],
    once: Once,
    progressive: Annotated[
        list[str] | None,
        Query(
            description="Feed the round's progressive wagers to this progressive (repeatable); "
            "a progressive wager none named takes feeds the progressive linked to the table "
            "that takes it, and with none the round is refused (§ 605a.8)."
        ),
    ] = None,
) -> Response:
    """Replay the round file through the round procedure, feed its progressive wagers to the
    ledger (``?progressive=``), store it, and answer its settlement (as ``croupier settle
    --json``). A dealer or above records rounds; the member is the ledger's actor."""
    data = record.model_dump(mode="json", exclude_none=True)
    exact(TABLE, table)  # the table rule (croupier.names): no space, no "/", as given

    body = {"table": table, "round": data}
    if (replayed := once.replay(body, member.name, shown=stored_answer)) is not None:
        return replayed
    settled = settling(request, ledger, member.name, table, record, progressive or [])
    return once.commit(settled.write())


def round_query(
    table: str | None,
    since: str | None,
    until: str | None,
    wager: str | None,
    columns: tuple[sa.ColumnElement[Any], ...] = (store.rounds.c.document,),
) -> sa.Select[Any]:
    """The stored rounds of ``table`` settled in ``[since, until)`` holding ``wager`` (each
    filter only when given): ``columns`` of each (the document by default)."""
    r = store.rounds
    q = sa.select(*columns)
    if table is not None:
        q = q.where(r.c.table_id == table)
    start, end = _when(since, "since"), _when(until, "until")
    if start is not None:
        q = q.where(r.c.settled_at >= start)
    if end is not None:
        q = q.where(r.c.settled_at < end)
    if wager is not None:
        q = q.where(r.c.wagers.contains(f",{wager.strip().lower()},", autoescape=True))
    return q


Filters = dict[str, Any]


def bet_ids() -> frozenset[str]:
    """Every wager id a stored round's bet can have: the registry's wagers, each base game's
    wagers (``blackjack``, ``player``, …) and the Switch Hands Ante."""
    base = {w for g in BASE_GAMES.values() for w in (*g.base_wagers, *g.recorded)}
    return frozenset({w.id for w in all_wagers()} | base | {ANTE_WAGER})


def check_wager_filter(wager: str, parameter: str = "?wager=") -> None:
    """:class:`~croupier.errors.InputError` (422) for a wager filter that names no wager a round
    can hold (with the nearest one): a filter matching nothing must not look like a period with
    no such bets."""
    wanted, known = wager.strip().lower(), bet_ids()
    if wanted not in known:
        hint = suggest(wanted, known) or f" (the wagers: {', '.join(sorted(known))})"
        raise InputError(f"{parameter} {wager!r} is not a wager croupier records{hint}")


def round_filters(
    table: Annotated[str | None, Query(description="Only this table's rounds.")] = None,
    since: Annotated[str | None, Query(description="Settled at or after (ISO 8601).")] = None,
    until: Annotated[str | None, Query(description="Settled before (ISO 8601).")] = None,
    wager: Annotated[str | None, Query(description="Only rounds holding this wager id.")] = None,
) -> Filters:
    """The filters of the stored rounds' listings and reports (``GET /rounds``,
    ``/rounds/summary``, ``/hold-report``), checked before anything is read: a period that ends
    before or when it starts and a wager no round can hold are 422 problems (as
    ``/reconciliation``'s period), never an empty answer that looks like a quiet period."""
    start, end = _when(since, "since"), _when(until, "until")
    check_period(start, end, ("?since=", "?until="), "the period of the rounds")
    if wager is not None:
        check_wager_filter(wager)
    return {"table": table, "since": since, "until": until, "wager": wager}


@router.get(
    "/rounds", response_model=RoundList, summary="The stored rounds, by table, period and wager"
)
def list_rounds(
    ledger: LedgerDep,
    reader: ReaderDep,
    _member: Staff,
    filters: Annotated[Filters, Depends(round_filters)],
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_STORED_INT)] = 0,
) -> Response:
    """Every stored round matching the filters, oldest first: their settlement documents, each
    progressive line's awards as the ledger has them now (``ledger``; what was recorded at
    settlement as ``as_settled``, :func:`croupier.service.paid.as_ledger_has_it`)."""
    r = store.rounds
    q = round_query(**filters).order_by(r.c.id).limit(limit).offset(offset)
    with reader.connect() as conn:
        docs = [json.loads(d) for d in conn.execute(q).scalars()]
        total = conn.execute(
            sa.select(sa.func.count()).select_from(round_query(**filters).subquery())
        ).scalar_one()
    book = book_for(ledger, docs)  # each award as the ledger has it now
    return answer(
        {
            "count": int(total),
            "offset": offset,
            "rounds": [as_ledger_has_it(d, book) for d in docs],
        }
    )


@router.get(
    "/rounds/summary",
    response_model=RoundSummary,
    summary="Handle (amount wagered), the players' net win and the hold by wager",
)
def summary(
    ledger: LedgerDep,
    reader: ReaderDep,
    _member: Reports,
    filters: Annotated[Filters, Depends(round_filters)],
) -> Response:
    """Per wager, over the rounds matching the filters (with ``?wager=``, that wager's row
    only): rounds, lines settled, the handle — the amount wagered on them (``stake_cents``) —,
    the players' net win (``win_cents``) and the hold, what the table kept (``hold_cents`` =
    −``win_cents``), in integer cents, a progressive's award as the ledger has it now
    (:mod:`croupier.service.paid`: a voided award paid nothing; ``pending_cents`` awaits
    validation, not in the net); lines settled by the base game are counted apart
    (``settled_by_base_game``, ``base_game_stake_cents``). Rounds voided at an open table are
    counted apart (``voided_rounds``): every wager was returned, none was in action. This is not
    the drop (the cash and markers put into the table's drop box), which the service does not
    see."""
    totals: dict[str, dict[str, int]] = defaultdict(
        lambda: {
            "rounds": 0,
            "lines": 0,
            "stake_cents": 0,
            "win_cents": 0,
            "pending_cents": 0,
            "voided_cents": 0,
            "settled_by_base_game": 0,
            "base_game_stake_cents": 0,
        }
    )
    rounds = voided = 0
    only = filters["wager"].strip().lower() if filters["wager"] else None
    book = book_of(ledger)
    with reader.connect() as conn:
        for text in conn.execute(round_query(**filters)).scalars():
            doc = json.loads(text)
            if doc.get("voided"):  # every wager returned: no line was in action
                voided += 1
                continue
            rounds += 1
            seen: set[str] = set()
            for result in line_results(doc, book):
                line = result.line
                if only is not None and line["bet"] != only:
                    continue
                t = totals[line["bet"]]
                if line["bet"] not in seen:
                    t["rounds"] += 1
                    seen.add(line["bet"])
                if line["settled_by_base_game"]:
                    t["settled_by_base_game"] += 1
                    t["base_game_stake_cents"] += line["stake_cents"]
                    continue
                t["lines"] += 1
                t["stake_cents"] += line["stake_cents"]
                t["win_cents"] += result.win_cents
                t["pending_cents"] += result.pending_cents
                t["voided_cents"] += result.voided_cents
    wagers = [{"wager": w, **t, "hold_cents": -t["win_cents"]} for w, t in sorted(totals.items())]
    return answer({"rounds": rounds, "voided_rounds": voided, "filters": filters, "wagers": wagers})


@router.get("/rounds/{table}/{round_id}", response_model=StoredRound, summary="One stored round")
def get_round(
    ledger: LedgerDep, reader: ReaderDep, _member: Staff, table: str, round_id: str
) -> Response:
    """The settlement document of round ``round_id`` of ``table``: each progressive line's
    awards as the ledger has them now — status, who validated or voided them, the amount paid —
    with what was recorded at settlement beside them (``as_settled``); the stored text is the
    record and is never changed."""
    found = stored_round(reader, ledger, table, round_id)
    if found is None:
        raise LedgerLookupError(f"no round {round_id!r} of table {table} is stored")
    return answer(found)
