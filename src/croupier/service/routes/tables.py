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
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from croupier.operations.schemas.rounds import TableClosed, TableList, TableState
from croupier.progressive import Role, StaffMember
from croupier.service import store
from croupier.service.common import ledger_of, reader_of
from croupier.service.dependencies import LedgerDep, Once, require
from croupier.service.examples import STEP_EXAMPLES, SUBMISSION_EXAMPLE
from croupier.service.jsontext import answer, dumps
from croupier.service.open_tables import (
    current_round,
    free_number,
    read_table,
    round_id,
    shown_state,
    stored_base_game,
    utc_text,
)
from croupier.service.paid import (
    replayed_round,
)
from croupier.service.round_writes import (
    closing_table,
    opening_table,
    taking_step,
    voiding_round,
)
from croupier.table.steps import Step
from croupier.table.submission_file import InlineSubmission
from croupier.wagers.base_games import SettledBy

router = APIRouter()

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
    submission: InlineSubmission
    progressives: list[str] = Field(default_factory=list)
    base_game: SettledBy = Field(
        default=SettledBy.CROUPIER,
        description='Who settles the base game of the table\'s rounds: "croupier" (every '
        'Blackjack hand played out before settle) or "external" (the table\'s own system: each '
        "base wager is recorded as the base game's, with no win and outside the net; the "
        'players\' decisions are not posted). Criss-Cross Poker takes "external" only.',
    )


@router.post(
    "/tables",
    status_code=201,
    response_model=TableState,
    summary="Open a table from a Rules Submission",
)
def open_table(ledger: LedgerDep, member: PitManager, spec: OpenTable, once: Once) -> Response:
    """Check the Rules Submission (every violation with its section, § 601a.2) and open the
    table with betting open on its first round."""
    request = spec.model_dump(mode="json")
    if request["base_game"] == "croupier":  # the default: the request as keyed before it was
        del request["base_game"]  # declared
    if (replayed := once.replay(request, member.name)) is not None:
        return replayed
    opened = opening_table(
        ledger, spec.table, spec.submission, spec.progressives, member.name, spec.base_game
    )
    return once.commit(opened.write())


@router.get("/tables", response_model=TableList, summary="The open tables")
def list_tables(request: Request, _member: Staff) -> Response:
    """Every open table: id, submission digest, progressives, its current round's id
    (``round``, as ``GET /rounds/{table}/{round}`` takes it once settled) and number, who opened
    it and when (UTC)."""
    t = store.tables
    with reader_of(request).connect() as conn:
        rows = conn.execute(sa.select(t).order_by(t.c.table_id)).all()
        numbers = {r.table_id: free_number(conn, r.table_id, r.round_number) for r in rows}
    return answer(
        {
            "tables": [
                {
                    "table": r.table_id,
                    "submission_digest": r.submission_digest,
                    "base_game": stored_base_game(r).value,
                    "progressives": json.loads(r.progressives),
                    "round": round_id(numbers[r.table_id]),
                    "round_number": numbers[r.table_id],
                    "opened_by": r.opened_by,
                    "opened_at": utc_text(r.opened_at),
                }
                for r in rows
            ]
        }
    )


@router.get(
    "/tables/{table}",
    response_model=TableState,
    summary="A table's round so far and the actions allowed next",
)
def get_table(request: Request, _member: Staff, table: str) -> Response:
    """The current round's record so far, its phase and the actions it allows next."""
    row, number = read_table(reader_of(request), table)
    return answer(shown_state(request, row, current_round(request, row), number))


@router.post(
    "/tables/{table}/steps",
    response_model=TableState,
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
    step: Annotated[Step, Body(openapi_examples=STEP_EXAMPLES)],
    once: Once,
) -> Response:
    """Apply one step to the round (its rules checked by the round state machine) and answer
    the record so far with the actions allowed next. ``settle`` stores the round, feeds its
    progressive wagers, and opens the table's next round. The step's model is chosen by its
    ``action`` (a field the action does not read is a 422 naming what it takes)."""
    body = step.model_dump(mode="json", exclude_none=True)
    if (replayed := once.replay(body, member.name, shown=settled_now)) is not None:
        return replayed
    step_taken = taking_step(request, ledger, member.name, table, step)
    return step_taken.moved.kept(request, once.commit(step_taken.write()))


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
    response_model=TableState,
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
    voiding = voiding_round(request, ledger, member.name, table, body.reason.strip())
    return voiding.moved.kept(request, once.commit(voiding.write()))


@router.delete(
    "/tables/{table}",
    response_model=TableClosed,
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
    return once.commit(closing_table(request, member.name, table).write())
