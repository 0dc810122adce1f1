"""Open tables: a table opened from a Rules Submission, each step of its round posted to the
round state machine (:class:`croupier.table.round.TableRound`).

``POST /tables`` opens a table (a pit manager or above: it is configuration); ``POST
/tables/{table}/steps`` posts one step — the same objects as a round file's steps (``bet``,
``no-more-bets``, ``deal``, ``play``, ``fold``, ``switch``, ``keep``, ``hit``, ``stand``,
``double``, ``split``, ``surrender``, ``settle``) — and answers the record so far and the actions
the round allows next (:func:`croupier.table.actions.allowed`). A step that breaks a rule is a
422 problem citing its section, and the round is as it was. ``settle`` stores the round (as
``POST /rounds/settle`` does, its progressive wagers fed to the table's progressives) and opens
the table's next round.

The round is stored as its steps (rounds are immutable values; a replay is exact), so any worker
or host serving the database can take the next step. Each process keeps the rounds it last saw in
memory (:class:`OpenRounds`), keyed by table and checked against the table's ``version`` column:
a step posted to the same process as the one before it is applied to the round in memory; after
another process moved the table on, the round is replayed from its stored steps. Two steps
posted to one table at once: one wins, the other is a 409 problem (nothing changed).
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Connection

from croupier.errors import IdempotencyConflictError, InputError, LedgerLookupError
from croupier.progressive import Role, StaffMember
from croupier.service import store
from croupier.service.auth import require
from croupier.service.common import (
    REPLAYED,
    IdempotencyKey,
    Write,
    idempotent,
    ledger_of,
    reader_of,
)
from croupier.service.examples import STEP_EXAMPLES, SUBMISSION_EXAMPLE
from croupier.service.settling import (
    checked_submission,
    existing,
    feed_and_document,
    insert_round,
)
from croupier.table.actions import allowed
from croupier.table.procedure import Phase
from croupier.table.record import Step, apply_step
from croupier.table.round import TableRound, settled_net

router = APIRouter(tags=["tables"])

PitManager = Annotated[StaffMember, Depends(require(Role.PIT_MANAGER, "601a.2", "opening a table"))]
Dealer = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "recording a step"))]
Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "reading a table"))]


class OpenTable(BaseModel):
    """A table to open: its id, its Rules Submission and the progressives its progressive
    wagers feed."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"table": "BJ-1", "submission": SUBMISSION_EXAMPLE}]},
    )

    table: str = Field(min_length=1, max_length=100, pattern=r"^[^/\s]+$")
    submission: dict[str, Any]
    progressives: list[str] = Field(default_factory=list)


def _row(conn: Connection, table: str, *, lock: bool = False) -> Any:
    t = store.tables
    q = sa.select(t).where(t.c.table_id == table)
    row = conn.execute(q.with_for_update() if lock else q).first()
    if row is None:
        raise LedgerLookupError(f"no open table {table!r}: open it with POST /tables")
    return row


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


def _open_rounds(request: Request) -> OpenRounds:
    cache: OpenRounds | None = getattr(request.app.state, "open_rounds", None)
    if cache is None:
        cache = request.app.state.open_rounds = OpenRounds()
    return cache


def _current(request: Request, row: Any) -> TableRound:
    """The round of ``row`` (a table's stored row): from memory at its version, else replayed."""
    cache = _open_rounds(request)
    rnd = cache.get(row.table_id, row.version)
    if rnd is None:
        rnd = _replay(row, json.loads(row.steps))
        cache.put(row.table_id, row.version, rnd)
    return rnd


def _replay(row: Any, steps: list[dict[str, Any]]) -> TableRound:
    _, sub = checked_submission(json.loads(row.submission), f"table {row.table_id}")
    rnd = TableRound.open(sub, step_by_step=True)
    for i, s in enumerate(steps, start=1):
        rnd = apply_step(rnd, Step.model_validate(s), i)
    return rnd


def _state(row: Any, rnd: TableRound, number: int) -> dict[str, Any]:
    return {
        "table": row.table_id,
        "round": number,
        "submission_digest": row.submission_digest,
        "progressives": json.loads(row.progressives),
        "phase": rnd.phase.value,
        "allowed": sorted(a.value for a in allowed(rnd)),
        "cards": rnd.cards.describe() if rnd.cards else None,
        "events": [e.to_json() for e in rnd.events],
        "settlement": rnd.settlement().to_json(),
        "net_cents": settled_net(rnd.events),
    }


@router.post("/tables", status_code=201, summary="Open a table from a Rules Submission")
def open_table(
    request: Request, member: PitManager, spec: OpenTable, key: IdempotencyKey = None
) -> Response:
    """Check the Rules Submission (every violation with its section, § 601a.2) and open the
    table with betting open on its first round."""

    def effect() -> Write:
        digest, sub = checked_submission(spec.submission, f"table {spec.table}")
        for name in spec.progressives:
            ledger_of(request).definition(name)  # it exists

        def run(conn: Connection) -> tuple[int, Any]:
            t = store.tables
            taken = conn.execute(sa.select(t.c.table_id).where(t.c.table_id == spec.table)).first()
            if taken is not None:
                raise IdempotencyConflictError(f"table {spec.table!r} is open already")
            conn.execute(
                sa.insert(t).values(
                    table_id=spec.table,
                    submission=json.dumps(spec.submission, ensure_ascii=False),
                    submission_digest=digest,
                    progressives=json.dumps(spec.progressives),
                    round_number=1,
                    steps="[]",
                    version=0,
                    opened_by=member.name,
                    opened_at=datetime.now(UTC),
                )
            )
            row = _row(conn, spec.table)
            return 201, _state(row, TableRound.open(sub, step_by_step=True), 1)

        return Write(run)

    return idempotent(request, key, spec.model_dump(mode="json"), member.name, effect)


@router.get("/tables", summary="The open tables")
def list_tables(request: Request, _member: Staff) -> dict[str, Any]:
    """Every open table: id, submission digest, progressives, current round number."""
    t = store.tables
    with reader_of(request).connect() as conn:
        rows = conn.execute(sa.select(t).order_by(t.c.table_id)).all()
    return {
        "tables": [
            {
                "table": r.table_id,
                "submission_digest": r.submission_digest,
                "progressives": json.loads(r.progressives),
                "round": r.round_number,
                "opened_by": r.opened_by,
            }
            for r in rows
        ]
    }


@router.get("/tables/{table}", summary="A table's round so far and the actions allowed next")
def get_table(request: Request, _member: Staff, table: str) -> dict[str, Any]:
    """The current round's record so far, its phase and the actions it allows next."""
    with reader_of(request).connect() as conn:
        row = _row(conn, table)
    return _state(row, _current(request, row), row.round_number)


@router.post(
    "/tables/{table}/steps",
    summary="Post one step of the table's round",
    responses={
        200: {
            "description": "The record so far and the actions allowed next (after "
            "``settle``: the settled round's, with its stored document as ``settled``)."
        },
        409: {
            "description": "Another step was posted to the table at the same time, or the "
            "Idempotency-Key was used for another step."
        },
        422: {
            "description": "The step breaks a rule: problem citing its section; the round is "
            "as it was."
        },
    },
)
def post_step(
    request: Request,
    member: Dealer,
    table: str,
    step: Annotated[dict[str, Any], Body(openapi_examples=STEP_EXAMPLES)],
    key: IdempotencyKey = None,
) -> Response:
    """Apply one step to the round (its rules checked by the round state machine) and answer
    the record so far with the actions allowed next. ``settle`` stores the round, feeds its
    progressive wagers, and opens the table's next round."""
    try:
        parsed = Step.model_validate(step)
    except ValidationError as exc:
        where = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'step'}: {e['msg']}" for e in exc.errors()[:3]
        )
        raise InputError(f"not a round step: {where}") from exc

    committed: list[tuple[int, TableRound]] = []  # what the committed transaction stored

    def effect() -> Write:
        with reader_of(request).connect() as conn:
            row = _row(conn, table)
        steps: list[dict[str, Any]] = json.loads(row.steps)
        rnd = apply_step(_current(request, row), parsed, len(steps) + 1)
        new_steps = [*steps, parsed.model_dump(mode="json", exclude_none=True)]
        number = row.round_number
        settled = None
        if rnd.phase is Phase.SETTLED:
            digest = row.submission_digest
            settled = feed_and_document(
                ledger_of(request),
                rnd,
                table=table,
                round_id=f"round-{number}",
                submission_digest=digest,
                progressives=json.loads(row.progressives),
                by=member.name,
            )

        def run(conn: Connection) -> tuple[int, Any]:
            t = store.tables
            values: dict[str, Any] = {"steps": json.dumps(new_steps), "version": row.version + 1}
            state = _state(row, rnd, number)
            after = rnd
            if settled is not None:
                prior = existing(conn, settled)
                if prior is None:
                    insert_round(
                        conn, settled, submission_digest=row.submission_digest, by=member.name
                    )
                stored = prior or settled.document
                state["settled"] = stored
                # one settlement in the answer: the stored round's, with the ledger's amounts
                # (the round as dealt values a share of a meter at the seed)
                for k in ("events", "settlement", "net_cents"):
                    state[k] = stored[k]
                values.update(steps="[]", round_number=number + 1)
                after = TableRound.open(rnd.submission, step_by_step=True)
            done = conn.execute(
                sa.update(t)
                .where(t.c.table_id == table, t.c.version == row.version)
                .values(**values)
            )
            if done.rowcount != 1:
                raise IdempotencyConflictError(
                    f"another step was posted to table {table} meanwhile: nothing changed; read "
                    f"the table (GET /tables/{table}) and post the step again"
                )
            committed[:] = [(row.version + 1, after)]
            return 200, state

        return Write(run)

    response = idempotent(request, key, step, member.name, effect)
    if committed and REPLAYED not in response.headers:
        _open_rounds(request).put(table, *committed[0])
    return response
