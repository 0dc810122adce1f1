"""Open tables: a table opened from a Rules Submission, each step of its round posted to the
round state machine (:class:`croupier.table.round.TableRound`).

``POST /tables`` opens a table (a pit manager or above: it is configuration), each progressive
wager its submission offers with the progressive linked to the table that takes it (§ 605a.8);
``POST /tables/{table}/steps`` posts one step — the same objects as a round file's steps (``bet``,
``no-more-bets``, ``deal``, ``play``, ``fold``, ``switch``, ``keep``, ``hit``, ``stand``,
``double``, ``split``, ``surrender``, ``dealer-draw``, ``settle``) — and answers the record so far,
exactly the actions the round would accept next (``allowed``: :func:`croupier.table.actions.allowed`,
each asked of the round itself) and who is to act with which of them (``to_act``: the seat, the
hand and its cards, :meth:`~croupier.table.round.TableRound.turns`). A step that breaks a rule is a
422 problem citing its section, and the round is as it was. ``settle`` stores the round (as
``POST /rounds/settle`` does, its progressive wagers fed to the table's progressives) and opens
the table's next round. A progressive wager whose progressive is suspended is refused at its
``bet``. ``POST /tables/{table}/void`` (a floorperson or above, with a reason) voids the open
round — every wager returned, stored as voided — and opens the next.

The round is stored as its steps, replayed or held in memory by any worker or host serving the
database (:mod:`croupier.service.open_tables`). Two steps posted to one table at once: one wins,
the other is a 409 problem (nothing changed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Connection

from croupier.errors import (
    InputError,
    RoundStateError,
)
from croupier.names import TABLE, check_id, exact
from croupier.progressive import Ledger, Role, StaffMember
from croupier.service import store
from croupier.service.common import ledger_of, reader_of
from croupier.service.dependencies import LedgerDep, Once, require
from croupier.service.examples import STEP_EXAMPLES, SUBMISSION_EXAMPLE
from croupier.service.idempotency import REPLAYED, Write
from croupier.service.jsontext import dumps
from croupier.service.open_tables import (
    current_round,
    free_number,
    moved_on,
    open_round,
    open_rounds_of,
    opening,
    read_table,
    round_id,
    shown_state,
    table_row,
    table_state,
    utc_text,
)
from croupier.service.paid import (
    STORED_ALREADY,
    Book,
    as_ledger_has_it,
    book_for,
    replayed_round,
    round_location,
    stored_round,
)
from croupier.service.settling import (
    Settled,
    check_progressive_bet,
    checked_submission,
    existing,
    feed_and_document,
    insert_round,
    progressives_to_feed,
    table_progressives,
    void_document,
    void_on_ledger,
)
from croupier.table.procedure import PHASE_WORDS, Phase
from croupier.table.record import Step, apply_step
from croupier.table.round import TableRound
from croupier.table.submission import RulesSubmission

router = APIRouter(tags=["tables"])

PitManager = Annotated[StaffMember, Depends(require(Role.PIT_MANAGER, "601a.2", "opening a table"))]
Closer = Annotated[StaffMember, Depends(require(Role.PIT_MANAGER, "601a.2", "closing a table"))]
Dealer = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "recording a step"))]
Staff = Annotated[StaffMember, Depends(require(Role.DEALER, "605a.7", "reading a table"))]
Floor = Annotated[
    StaffMember, Depends(require(Role.FLOORPERSON, "605a.7", "voiding a table's round"))
]


class OpenTable(BaseModel):
    """A table to open: its id, its Rules Submission and the progressives its progressive
    wagers feed."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"table": "BJ-1", "submission": SUBMISSION_EXAMPLE}]},
    )

    table: str = Field(
        description="The table's id (the name rule of croupier.names: no space, no '/', at "
        "most 100 characters)."
    )
    submission: dict[str, Any]
    progressives: list[str] = Field(default_factory=list)


@router.post("/tables", status_code=201, summary="Open a table from a Rules Submission")
def open_table(ledger: LedgerDep, member: PitManager, spec: OpenTable, once: Once) -> Response:
    """Check the Rules Submission (every violation with its section, § 601a.2) and open the
    table with betting open on its first round."""
    if (replayed := once.replay(spec.model_dump(mode="json"), member.name)) is not None:
        return replayed
    exact(TABLE, spec.table)  # the table rule (croupier.names), before anything is read
    digest, sub = checked_submission(spec.submission, f"table {spec.table}")
    # every progressive wager the table offers feeds a progressive linked to it (§ 605a.8)
    names = table_progressives(ledger, sub, spec.table, spec.progressives)
    return once.commit(Write(Opening(ledger, spec, digest, sub, names, member.name).run))


@dataclass(frozen=True)
class Opening:
    """The write of a table opened: its row, betting open on its first round (201)."""

    ledger: Ledger
    spec: OpenTable
    digest: str
    sub: RulesSubmission
    names: list[str]
    by: str

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Insert the table's row, unless it is open already or its id reads as another's."""
        t, spec = store.tables, self.spec
        taken = conn.execute(sa.select(t.c.table_id).where(t.c.table_id == spec.table)).first()
        if taken is not None:
            raise RoundStateError(
                f"table {spec.table!r} is open already: read it with GET /tables/{spec.table}"
                f", or close it (DELETE /tables/{spec.table}) while its round has no bets"
            )
        # one name rule (croupier.names): no invisible characters, none that reads as another
        # (the ledger's linked tables read on this transaction's connection: same database)
        known = {*conn.execute(sa.select(t.c.table_id)).scalars(), *self.ledger.tables(conn)}
        check_id(TABLE, spec.table, known - {spec.table})
        number = free_number(conn, spec.table, 1)
        conn.execute(
            sa.insert(t).values(
                table_id=spec.table,
                submission=json.dumps(spec.submission, ensure_ascii=False),
                submission_digest=self.digest,
                progressives=json.dumps(self.names),
                round_number=number,
                steps="[]",
                version=0,
                opened_by=self.by,
                opened_at=datetime.now(UTC),
            )
        )
        row = table_row(conn, spec.table)
        return 201, table_state(row, open_round(self.sub, spec.table), number)


@router.get("/tables", summary="The open tables")
def list_tables(request: Request, _member: Staff) -> dict[str, Any]:
    """Every open table: id, submission digest, progressives, its current round's id
    (``round``, as ``GET /rounds/{table}/{round}`` takes it once settled) and number, who opened
    it and when (UTC)."""
    t = store.tables
    with reader_of(request).connect() as conn:
        rows = conn.execute(sa.select(t).order_by(t.c.table_id)).all()
        numbers = {r.table_id: free_number(conn, r.table_id, r.round_number) for r in rows}
    return {
        "tables": [
            {
                "table": r.table_id,
                "submission_digest": r.submission_digest,
                "progressives": json.loads(r.progressives),
                "round": round_id(numbers[r.table_id]),
                "round_number": numbers[r.table_id],
                "opened_by": r.opened_by,
                "opened_at": utc_text(r.opened_at),
            }
            for r in rows
        ]
    }


@router.get("/tables/{table}", summary="A table's round so far and the actions allowed next")
def get_table(request: Request, _member: Staff, table: str) -> dict[str, Any]:
    """The current round's record so far, its phase and the actions it allows next."""
    row, number = read_table(reader_of(request), table)
    return shown_state(request, row, current_round(request, row), number)


@router.post(
    "/tables/{table}/steps",
    summary="Post one step of the table's round",
    responses={
        200: {
            "description": "The record so far and the actions allowed next (after "
            "``settle``: the settled round's, with its stored document as ``settled``; a "
            "settle step given again under its key shows it as the ledger has it now, "
            '``"stored_already": true``).'
        },
        409: {
            "description": "Another step was posted to the table at the same time, the "
            "Idempotency-Key was used for another step, or a settle step came again under a new "
            "key after its round was stored (the problem names the round)."
        },
        422: {
            "description": "The step breaks a rule: problem citing its section; the round is "
            "as it was."
        },
    },
)
def post_step(
    request: Request,
    ledger: LedgerDep,
    member: Dealer,
    table: str,
    step: Annotated[dict[str, Any], Body(openapi_examples=STEP_EXAMPLES)],
    once: Once,
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
    if (replayed := once.replay(step, member.name, shown=settled_now)) is not None:
        return replayed
    stepped = _stepped(request, ledger, member.name, table, parsed)
    return stepped.moved.kept(request, once.commit(Write(stepped.run)))


@dataclass(frozen=True)
class Moved:
    """What the committed transaction of a step or a void stored: the table's opening
    (:func:`~croupier.service.open_tables.opening`), its new version and its round then — kept
    in this process's :class:`~croupier.service.open_tables.OpenRounds` once the answer is the
    one just made (not another's, given again)."""

    committed: list[tuple[str, int, TableRound]] = field(default_factory=list)

    def kept(self, request: Request, response: Response) -> Response:
        """``response``, the round it committed kept in memory."""
        if self.committed and REPLAYED not in response.headers:
            open_rounds_of(request).put(*self.committed[0])
        return response


def _stepped(request: Request, ledger: Ledger, by: str, table: str, parsed: Step) -> Stepped:
    """The step applied to the table's round (a refusal changes nothing); a ``settle`` step's
    round fed to the ledger and documented: the write that stores them."""
    row, number = read_table(reader_of(request), table)  # the round's number: its first free
    steps: list[dict[str, Any]] = json.loads(row.steps)
    current = current_round(request, row)
    if parsed.action == "settle" and current.phase is Phase.BETTING and not current.bets:
        _settled_before(request, row, row.round_number - 1, round_id(number))
    rnd = apply_step(current, parsed, len(steps) + 1)
    new_steps = [*steps, parsed.model_dump(mode="json", exclude_none=True)]
    named = json.loads(row.progressives)
    if parsed.action == "bet":  # a progressive wager needs its progressive, in play
        check_progressive_bet(
            ledger, rnd, table=table, named=named, note=f"step {len(new_steps)} (bet)"
        )
    settled = None
    if rnd.phase is Phase.SETTLED:
        bet_steps = [i for i, s in enumerate(new_steps, start=1) if s["action"] == "bet"]
        settled = feed_and_document(
            ledger,
            rnd,
            table=table,
            round_id=round_id(number),
            submission_digest=row.submission_digest,
            progressives=progressives_to_feed(
                ledger,
                rnd,
                table=table,
                named=named,
                bet_step=lambda i: f"step {bet_steps[i]} (bet)",
            ),
            by=by,
        )
    shown = None if settled is not None else shown_state(request, row, rnd, number)
    # the settled round as every read shows it: its awards as the ledger has them now
    book = book_for(ledger, [settled.document] if settled is not None else [])
    return Stepped(row, rnd, number, new_steps, settled, shown, book, by)


@dataclass(frozen=True)
class Stepped:
    """The write of a step taken: the table's steps and version (a ``settle`` step's round
    stored, the table's next round opened), answering the record so far."""

    row: Any
    rnd: TableRound
    number: int
    new_steps: list[dict[str, Any]]
    settled: Settled | None
    shown: dict[str, Any] | None
    book: Book
    by: str
    moved: Moved = field(default_factory=Moved)

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Store the step (and a settled round), unless another step moved the table on."""
        t, row, rnd, number, settled = store.tables, self.row, self.rnd, self.number, self.settled
        table = row.table_id
        values: dict[str, Any] = {"steps": json.dumps(self.new_steps), "version": row.version + 1}
        state = table_state(row, rnd, number) if self.shown is None else self.shown
        after = rnd
        if settled is not None:
            prior = existing(conn, settled)
            if prior is None:
                insert_round(conn, settled, submission_digest=row.submission_digest, by=self.by)
            stored = as_ledger_has_it(prior or settled.document, self.book)
            if prior is not None:  # settled nothing: the round was stored already
                stored = {STORED_ALREADY: True, **stored}
            state["settled"] = stored
            # one settlement in the answer: the stored round's, with the ledger's amounts
            # (the round as dealt values a share of a meter at the seed)
            for k in ("events", "settlement", "net_cents"):
                state[k] = stored[k]
            values.update(steps="[]", round_number=number + 1)
            after = open_round(rnd.submission, table)
        done = conn.execute(
            sa.update(t).where(t.c.table_id == table, t.c.version == row.version).values(**values)
        )
        if done.rowcount != 1:
            raise moved_on(table)
        self.moved.committed[:] = [(opening(row), row.version + 1, after)]
        return 200, state


def _settled_before(request: Request, row: Any, last: int, now: str) -> None:
    """Refuse a ``settle`` step posted to a round with no bet yet, right after the table's round
    ``last`` was stored — a settle step sent again under a new ``Idempotency-Key`` (its answer
    lost, its key too): a :class:`~croupier.errors.RoundStateError` (409) naming the round it
    settled and where it is read, nothing changed. (Under its own key the retry is answered the
    first answer, the round as the ledger has it now.) No round the table stored since it was
    opened (``row``: its stored row): the step goes on to the round procedure's own refusal."""
    table = row.table_id
    if last < 1:
        return
    rid = round_id(last)
    doc = stored_round(reader_of(request), ledger_of(request), table, rid)
    if doc is None or datetime.fromisoformat(str(doc["settled_at"])) < datetime.fromisoformat(
        utc_text(row.opened_at)
    ):
        return  # a round file stored under that id before the table was opened
    what = "voided" if doc.get("voided") else "settled"
    raise RoundStateError(
        f"table {table}'s round {now} has no bet yet: there is nothing to settle; its last "
        f"round, {rid}, was {what} and stored (GET {round_location(table, rid)}, its awards as "
        "the ledger has them now) — a settle step sent again under a new Idempotency-Key "
        "settles nothing twice; nothing changed"
    )


def settled_now(
    request: Request, status: int, text: str, replayed: bool
) -> tuple[str, dict[str, str]]:
    """How ``POST /tables/{table}/steps`` shows a step's answer given again under its
    ``Idempotency-Key`` (``Idempotent-Replayed: true``; its
    :data:`~croupier.service.idempotency.Shown`): a ``settle`` step's answer with its stored
    round (``settled``, and the answer's own events, settlement and net) as every read shows it
    now — each award as the ledger has it, validated or voided since the step was first answered
    (:func:`~croupier.service.paid.stored_round`), marked ``stored_already: true`` (this answer
    settled nothing) — and ``Content-Location`` naming where the round is read. Any other
    step's answer is the first one."""
    if not replayed:
        return text, {}
    first = json.loads(text)
    was = first.get("settled")
    if not isinstance(was, dict):
        return text, {}
    now = replayed_round(reader_of(request), ledger_of(request), was)
    if now is None:  # pragma: no cover - a recorded settle step's round is stored with it
        return text, {}
    first["settled"] = now[0]
    for k in ("events", "settlement", "net_cents"):
        first[k] = now[0][k]
    return dumps(first), now[1]


class Void(BaseModel):
    """Why the round is voided."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"reason": "misdeal: seat 3 was dealt three cards"}]},
    )
    reason: str = Field(min_length=1, max_length=500)


@router.post(
    "/tables/{table}/void",
    summary="Void the table's open round: every wager returned (floorperson)",
    responses={
        200: {
            "description": "The table's next round, with the voided round's stored document "
            "as ``voided``."
        },
        409: {
            "description": "The round has no bet and no card, is settled on a progressive's "
            "ledger already, or another step was posted meanwhile."
        },
    },
)
def void_open_round(
    request: Request, ledger: LedgerDep, member: Floor, table: str, body: Void, once: Once
) -> Response:
    """Void the open round — a misdeal, a bet placed in error — before it is settled: a
    floorperson or above, with a reason (the regulation names no procedure for it:
    docs/interpretations.md). Every wager is returned, whatever was settled at the deal; the
    round is stored under its id as voided (who, why, what was returned) and the table opens its
    next round. A round whose progressive wagers are on a progressive's ledger (accepted, not
    settled) is voided there by the ledger's own void (``void-round`` event, § 633b.2(f))."""
    replayed = once.replay({"table": table, **body.model_dump()}, member.name)
    if replayed is not None:
        return replayed
    row, number = read_table(reader_of(request), table)
    rnd = current_round(request, row)
    rid = round_id(number)
    if not rnd.bets and rnd.cards is None:
        raise RoundStateError(
            f"table {table}'s round {rid} has no bet and no card: there is nothing to void "
            f"(close the table with DELETE /tables/{table}, or post its bets); nothing changed"
        )
    reason = body.reason.strip()
    on = void_on_ledger(ledger, table=table, round_id=rid, by=member.name, reason=reason)
    voided = void_document(
        rnd,
        table=table,
        round_id=rid,
        submission_digest=row.submission_digest,
        by=member.name,
        reason=reason,
        voided_on=on,
    )
    voiding = Voiding(row, rnd, number, voided, member.name)
    return voiding.moved.kept(request, once.commit(Write(voiding.run)))


@dataclass(frozen=True)
class Voiding:
    """The write of a round voided: stored as voided, the table's next round opened."""

    row: Any
    rnd: TableRound
    number: int
    voided: Settled
    by: str
    moved: Moved = field(default_factory=Moved)

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Store the voided round and move the table on, unless another step did."""
        t, row, number = store.tables, self.row, self.number
        table = row.table_id
        insert_round(conn, self.voided, submission_digest=row.submission_digest, by=self.by)
        done = conn.execute(
            sa.update(t)
            .where(t.c.table_id == table, t.c.version == row.version)
            .values(steps="[]", round_number=number + 1, version=row.version + 1)
        )
        if done.rowcount != 1:
            raise moved_on(table)
        after = open_round(self.rnd.submission, table)
        self.moved.committed[:] = [(opening(row), row.version + 1, after)]
        state = table_state(row, after, number + 1)
        state["voided"] = self.voided.document
        return 200, state


@router.delete(
    "/tables/{table}",
    summary="Close an open table whose round has no bets",
    responses={
        409: {
            "description": "The round has bets (settle it first), or another step "
            "was posted meanwhile."
        }
    },
)
def close_table(request: Request, member: Closer, table: str, once: Once) -> Response:
    """Close the table (a pit manager or above, § 601a.2): allowed while its round has no bet and
    no card, so no wager is left unsettled; its settled rounds stay stored. A round with bets is
    a 409 problem: settle it (``POST /tables/{table}/steps``) first."""
    if (replayed := once.replay({"table": table}, member.name)) is not None:
        return replayed
    row, number = read_table(reader_of(request), table)
    rnd = current_round(request, row)
    if rnd.bets or rnd.cards is not None:
        raise RoundStateError(
            f"table {table}'s round {round_id(number)} has {len(rnd.bets)} bet(s) "
            f"({PHASE_WORDS[rnd.phase]}): settle it with POST /tables/{table}/steps (or have a "
            f"floorperson void it, POST /tables/{table}/void) before closing the table; "
            "nothing changed"
        )
    return once.commit(Write(Closing(row, round_id(number), member.name).run))


@dataclass(frozen=True)
class Closing:
    """The write of a table closed: its row deleted."""

    row: Any
    round_not_played: str
    by: str

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Delete the table's row, unless another step moved the table on."""
        t, table = store.tables, self.row.table_id
        done = conn.execute(
            sa.delete(t).where(t.c.table_id == table, t.c.version == self.row.version)
        )
        if done.rowcount != 1:
            raise moved_on(table)
        return 200, {
            "table": table,
            "closed": True,
            "closed_by": self.by,
            "closed_at": utc_text(datetime.now(UTC)),
            "round_not_played": self.round_not_played,
        }
