"""``POST /rounds/settle`` a round file; every settled round stored and queried.

The body is the documented round file (``docs/schemas/round-file.schema.json``) with its Rules
Submission inline (the service reads no file) and its ``id``; ``?table=`` names the table,
``?progressive=`` (repeatable) the progressives its progressive wagers feed, as ``croupier settle
--progressive``. The round is replayed through the regulated round procedure
(:func:`croupier.table.record.settle_record`); a step that breaks a rule is one 422 problem naming
the step and the section, and nothing is stored. Stored once per table and round id: the same
round again answers the stored document; other content under the same id is a 409 problem.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import Response
from sqlalchemy import Connection

from croupier.errors import InputError, LedgerLookupError
from croupier.progressive import Role, StaffMember
from croupier.service import store
from croupier.service.auth import report_reader, require
from croupier.service.common import (
    IdempotencyKey,
    KeyRows,
    Rows,
    Together,
    Write,
    committer_of,
    crash_point,
    idempotent,
    ledger_of,
    reader_of,
)
from croupier.service.examples import ROUND_EXAMPLE
from croupier.service.jsontext import Encoded
from croupier.service.paid import book_of, line_results
from croupier.service.settling import (
    INSERT_ROUND,
    Settled,
    checked_submission,
    existing,
    feed_and_document,
    feed_and_store,
    insert_round,
    replay,
    round_row,
)
from croupier.service.tables import check_round_file_id
from croupier.table.record import RoundFile
from croupier.units import parse_time as _when

router = APIRouter(tags=["rounds"])

Dealer = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "recording a round"))]
Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "reading the stored rounds"))]
Reports = Annotated[StaffMember, Depends(report_reader("reading the drop and hold summary"))]
TableId = Annotated[
    str,
    Query(min_length=1, max_length=100, pattern=r"^[^/\s]+$", description="The table's id."),
]


def store_write(
    settled: Callable[[], Settled], digest: str, by: str, together: Together | None = None
) -> Write:
    """Store the round ``settled()`` makes (201), or answer the round stored already under its
    table and id (200). ``settled`` is called once, outside any transaction, when ``together``
    (:attr:`~croupier.service.common.Write.together`) is not given or wrote nothing."""
    made: list[Settled] = []

    def once() -> Settled:
        if not made:
            made.append(settled())
        return made[0]

    def run(conn: Connection) -> tuple[int, Any]:
        s = once()
        prior = existing(conn, s)
        if prior is not None:
            return 200, prior
        insert_round(conn, s, submission_digest=digest, by=by)
        return 201, s.document

    def fast() -> tuple[int, Any, Rows]:
        row = round_row(once(), submission_digest=digest, by=by)
        return 201, Encoded(row["document"]), [(INSERT_ROUND, row)]  # the stored text

    return Write(run, fast, together)


@router.post(
    "/rounds/settle",
    status_code=201,
    summary="Settle a round file and store it",
    responses={
        200: {"description": "The round was stored already with this content: its document."},
        201: {"description": "The round's settlement document (stored)."},
        409: {
            "description": "Idempotency-Key reused for another body, or the round id taken "
            "by other content."
        },
        422: {"description": "A step breaks a rule (problem naming the step and section)."},
    },
)
def settle_round(
    request: Request,
    member: Dealer,
    table: TableId,
    record: Annotated[
        RoundFile,
        Body(
            openapi_examples={
                "blackjack": {
                    "summary": "A Blackjack round with Perfect Pairs",
                    "value": ROUND_EXAMPLE,
                }
            }
        ),
    ],
    key: IdempotencyKey = None,
    progressive: Annotated[
        list[str] | None,
        Query(description="Feed the round's progressive wagers to this progressive (repeatable)."),
    ] = None,
) -> Response:
    """Replay the round file through the round procedure, feed its progressive wagers to the
    ledger (``?progressive=``), store it, and answer its settlement (as ``croupier settle
    --json``). A dealer or above records rounds; the member is the ledger's actor."""
    data = record.model_dump(mode="json", exclude_none=True)

    def effect() -> Write:
        if not isinstance(record.submission, dict):
            raise InputError(
                "the service reads no file: give the Rules Submission inline as a JSON object "
                '("submission": {"game": ..., "decks": ..., "wagers": [...]})'
            )
        if not record.id or "/" in record.id:
            raise InputError('give the round its "id" at the table (a string without "/")')
        check_round_file_id(request, table, record.id.strip())  # an open table's ids: its own
        digest, sub = checked_submission(record.submission, "submission")
        rnd = replay(sub, record.steps, f"round {record.id}")
        ledger, rid, names = ledger_of(request), record.id.strip(), progressive or []

        def settled() -> Settled:
            s = feed_and_document(
                ledger,
                rnd,
                table=table,
                round_id=rid,
                submission_digest=digest,
                progressives=names,
                by=member.name,
            )
            if names:
                crash_point(request, "after-ledger")
            return s

        together: Together | None = None
        if len(names) == 1:  # the ledger's rows and the stored round in one transaction

            def together(key_rows: KeyRows) -> tuple[int, str] | None:
                text = feed_and_store(
                    ledger,
                    rnd,
                    table=table,
                    round_id=rid,
                    submission_digest=digest,
                    progressive=names[0],
                    by=member.name,
                    writer=committer_of(request),
                    extra=key_rows,
                )
                return None if text is None else (201, text)

        return store_write(settled, digest, member.name, together)

    return idempotent(request, key, {"table": table, "round": data}, member.name, effect)


def _query(
    table: str | None, since: str | None, until: str | None, wager: str | None
) -> sa.Select[Any]:
    r = store.rounds
    q = sa.select(r.c.document)
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


def _filters(
    table: Annotated[str | None, Query(description="Only this table's rounds.")] = None,
    since: Annotated[str | None, Query(description="Settled at or after (ISO 8601).")] = None,
    until: Annotated[str | None, Query(description="Settled before (ISO 8601).")] = None,
    wager: Annotated[str | None, Query(description="Only rounds holding this wager id.")] = None,
) -> Filters:
    return {"table": table, "since": since, "until": until, "wager": wager}


@router.get("/rounds", summary="The stored rounds, by table, period and wager")
def list_rounds(
    request: Request,
    _member: Staff,
    filters: Annotated[Filters, Depends(_filters)],
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """Every stored round matching the filters, oldest first: their settlement documents."""
    r = store.rounds
    q = _query(**filters).order_by(r.c.id).limit(limit).offset(offset)
    with reader_of(request).connect() as conn:
        docs = [json.loads(d) for d in conn.execute(q).scalars()]
        total = conn.execute(
            sa.select(sa.func.count()).select_from(_query(**filters).subquery())
        ).scalar_one()
    return {"count": int(total), "offset": offset, "rounds": docs}


@router.get("/rounds/summary", summary="Drop and hold by wager over the stored rounds")
def summary(
    request: Request, _member: Reports, filters: Annotated[Filters, Depends(_filters)]
) -> dict[str, Any]:
    """Per wager, over the rounds matching the filters (with ``?wager=``, that wager's row
    only): rounds, lines settled, amount wagered on them (``stake_cents``), the players' net
    (``win_cents``) and the table's hold (``hold_cents`` = −net), in integer cents, a
    progressive's award as the ledger has it now (:mod:`croupier.service.paid`: a voided award
    paid nothing; ``pending_cents`` awaits validation, not in the net); lines settled by the
    base game are counted apart (``settled_by_base_game``, ``base_game_stake_cents``)."""
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
    rounds = 0
    only = filters["wager"].strip().lower() if filters["wager"] else None
    book = book_of(ledger_of(request))
    with reader_of(request).connect() as conn:
        for text in conn.execute(_query(**filters)).scalars():
            rounds += 1
            seen: set[str] = set()
            for result in line_results(json.loads(text), book):
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
    return {"rounds": rounds, "filters": filters, "wagers": wagers}


@router.get("/rounds/{table}/{round_id}", summary="One stored round")
def get_round(request: Request, _member: Staff, table: str, round_id: str) -> dict[str, Any]:
    """The settlement document of round ``round_id`` of ``table``."""
    r = store.rounds
    with reader_of(request).connect() as conn:
        doc = conn.execute(
            sa.select(r.c.document).where(r.c.table_id == table, r.c.round_id == round_id)
        ).scalar()
    if doc is None:
        raise LedgerLookupError(f"no round {round_id!r} of table {table} is stored")
    found: dict[str, Any] = json.loads(doc)
    return found
