"""What the routes that record rounds write — a round file settled (``POST /rounds/settle``),
a table opened (``POST /tables``), a step posted (``POST /tables/{table}/steps``), a round
voided (``POST /tables/{table}/void``) and a table closed (``DELETE /tables/{table}``): each
a function that checks the request and makes its effect on the ledger, answering a frozen
dataclass whose ``write()`` is the :class:`~croupier.service.idempotency.Write` its route
hands to :meth:`~croupier.service.idempotency.Idempotent.commit` — the service's rows, written
in one transaction with the request's ``Idempotency-Key``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from fastapi import Request
from fastapi.responses import Response
from sqlalchemy import Connection

from croupier.errors import (
    InputError,
    RoundStateError,
)
from croupier.names import TABLE, check_id, exact
from croupier.names import round_id as checked_round_id
from croupier.operations.documents import Settled, void_document
from croupier.operations.rounds import (
    check_progressive_bet,
    checked_submission,
    feed_and_document,
    progressives_to_feed,
    replay,
    table_progressives,
    void_on_ledger,
)
from croupier.progressive import Ledger
from croupier.service import store
from croupier.service.committer import Rows
from croupier.service.common import (
    committer_of,
    crash_point,
    engine_of,
    ledger_of,
    reader_of,
)
from croupier.service.idempotency import REPLAYED, KeyRows, Write
from croupier.service.jsontext import Encoded, dumps
from croupier.service.open_tables import (
    check_round_file,
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
    round_location,
    stored_round,
)
from croupier.service.settling import (
    INSERT_ROUND,
    existing,
    feed_and_store,
    insert_round,
    round_row,
)
from croupier.table.procedure import PHASE_WORDS, Phase
from croupier.table.record import RoundFile, Step, apply_step
from croupier.table.round import TableRound, check_base_game
from croupier.table.submission import RulesSubmission
from croupier.wagers.base_games import SettledBy


@dataclass(frozen=True)
class StoreRound:
    """The write of a settled round: stored (201), or the round stored already under its table
    and id answered (200). Its progressive wagers are fed to ``names`` — to one in the common
    case in the transaction that stores the round and the key's record (:meth:`together`) —,
    else step by step before the service's transaction (:meth:`settled`: called once, outside
    any transaction, when :meth:`together` is not tried or wrote nothing)."""

    request: Request
    ledger: Ledger
    rnd: TableRound
    table: str
    rid: str
    digest: str
    names: list[str]
    by: str
    made: list[Settled] = field(default_factory=list)

    def write(self) -> Write:
        """As :class:`~croupier.service.idempotency.Write`; :meth:`together` only when the
        round feeds one progressive."""
        together = self.together if len(self.names) == 1 else None
        return Write(self.run, self.fast, together)

    def settled(self) -> Settled:
        """The round fed to the ledger and documented (once)."""
        if not self.made:
            self.made.append(
                feed_and_document(
                    self.ledger,
                    self.rnd,
                    table=self.table,
                    round_id=self.rid,
                    submission_digest=self.digest,
                    progressives=self.names,
                    by=self.by,
                )
            )
            if self.names:
                crash_point(self.request, "after-ledger")
        return self.made[0]

    def together(self, key_rows: KeyRows) -> tuple[int, str] | None:
        """The ledger's rows and the stored round in one transaction."""
        text = feed_and_store(
            self.ledger,
            self.rnd,
            table=self.table,
            round_id=self.rid,
            submission_digest=self.digest,
            progressive=self.names[0],
            by=self.by,
            writer=committer_of(self.request),
            extra=key_rows,
        )
        return None if text is None else (201, text)

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Store the round, or answer the one stored already (shown as the ledger has it now:
        :func:`croupier.service.routes.rounds.stored_answer`)."""
        s = self.settled()
        prior = existing(conn, s)
        if prior is not None:
            return 200, {STORED_ALREADY: True, **prior}
        insert_round(conn, s, submission_digest=self.digest, by=self.by)
        return 201, s.document

    def fast(self) -> tuple[int, Any, Rows]:
        """The common case: the round's row, its stored text the answer."""
        row = round_row(self.settled(), submission_digest=self.digest, by=self.by)
        return 201, Encoded(row["document"]), [(INSERT_ROUND, row)]


def settling(
    request: Request, ledger: Ledger, by: str, table: str, record: RoundFile, named: list[str]
) -> StoreRound:
    """``POST /rounds/settle``'s round file checked and replayed through the round procedure,
    the progressives its progressive wagers feed found (``named``: those the request names):
    the write that feeds and stores it (:class:`StoreRound`)."""
    if not isinstance(record.submission, dict):
        raise InputError(
            "the service reads no file: give the Rules Submission inline as a JSON object "
            '("submission": {"game": ..., "decks": ..., "wagers": [...]})'
        )
    if record.id is None:
        raise InputError('give the round its "id" at the table (e.g. "r-17")')
    rid = checked_round_id(record.id)  # the round id rule (croupier.names), the id as given
    digest, sub = checked_submission(record.submission, "submission")
    # an open table's ids are its own, and its Rules Submission the round's (§ 601a.2)
    check_round_file(reader_of(request), table, rid, digest)
    # the paytables the round is settled under, for the hold report (once per digest)
    store.remember_submission(engine_of(request), digest, dumps(record.submission))
    rnd = replay(sub, record.steps, f"round {rid}", record.base_game)
    bet_steps = [i for i, s in enumerate(record.steps, start=1) if s.action == "bet"]
    # every progressive bet is fed to the ledger: to a progressive named, else to the one
    # linked to the table that takes it; none, or a suspended one, refuses the round
    names = progressives_to_feed(
        ledger,
        rnd,
        table=table,
        named=named,
        bet_step=lambda i: f"step {bet_steps[i]} (bet)",
        round_name=f"round {rid}",  # a progressive named takes a bet of the round
    )
    return StoreRound(request, ledger, rnd, table, rid, digest, names, by)


class InOneTransaction:
    """A write decided in the service's one transaction with the key's record (its ``run``)."""

    def run(self, conn: Connection) -> tuple[int, Any]:
        """The (status, body) to answer, the service's rows written on ``conn``."""
        raise NotImplementedError

    def write(self) -> Write:
        """As :class:`~croupier.service.idempotency.Write`."""
        return Write(self.run)


def opening_table(
    ledger: Ledger,
    table: str,
    submission: dict[str, Any],
    named: list[str],
    by: str,
    base_game: SettledBy | str = SettledBy.CROUPIER,
) -> Opening:
    """``POST /tables``: table ``table``'s id and Rules Submission checked (every violation with
    its section, § 601a.2), who settles its base game (``base_game``: ``"croupier"`` or
    ``"external"``, :func:`~croupier.table.round.check_base_game`), the progressives its
    progressive wagers feed found (each linked to the table, § 605a.8; ``named``: those the
    request names): the write that opens it."""
    exact(TABLE, table)  # the table rule (croupier.names), before anything is read
    digest, sub = checked_submission(submission, f"table {table}")
    by_base = check_base_game(sub, base_game)
    # every progressive wager the table offers feeds a progressive linked to it (§ 605a.8)
    names = table_progressives(ledger, sub, table, named)
    return Opening(ledger, table, submission, digest, sub, names, by, by_base)


@dataclass(frozen=True)
class Opening(InOneTransaction):
    """The write of a table opened: its row, betting open on its first round (201)."""

    ledger: Ledger
    table: str
    submission: dict[str, Any]
    digest: str
    sub: RulesSubmission
    names: list[str]
    by: str
    base_game: SettledBy = SettledBy.CROUPIER

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Insert the table's row, unless it is open already or its id reads as another's."""
        t, table = store.tables, self.table
        taken = conn.execute(sa.select(t.c.table_id).where(t.c.table_id == table)).first()
        if taken is not None:
            raise RoundStateError(
                f"table {table!r} is open already: read it with GET /tables/{table}"
                f", or close it (DELETE /tables/{table}) while its round has no bets"
            )
        # one name rule (croupier.names): no invisible characters, none that reads as another
        # (the ledger's linked tables read on this transaction's connection: same database)
        known = {*conn.execute(sa.select(t.c.table_id)).scalars(), *self.ledger.tables(conn)}
        check_id(TABLE, table, known - {table})
        number = free_number(conn, table, 1)
        conn.execute(
            sa.insert(t).values(
                table_id=table,
                submission=json.dumps(self.submission, ensure_ascii=False),
                submission_digest=self.digest,
                progressives=json.dumps(self.names),
                round_number=number,
                steps="[]",
                version=0,
                opened_by=self.by,
                opened_at=datetime.now(UTC),
                base_game=self.base_game.value,
            )
        )
        row = table_row(conn, table)
        return 201, table_state(row, open_round(self.sub, table, self.base_game), number)


@dataclass(frozen=True)
class Moved:
    """What the committed transaction of a step or a void stored: the table's opening
    (:func:`~croupier.service.open_tables.opening`), its new version and its round then — kept
    in this process's :class:`~croupier.service.open_tables.OpenRounds` once the answer is the
    one just made (not another's, given again)."""

    committed: list[tuple[str, int, TableRound]] = field(default_factory=list)

    def advance(self, conn: Connection, row: Any, after: TableRound, **values: Any) -> None:
        """Write ``values`` to the table of ``row`` (its stored row), its version one on, and
        remember ``after`` as its round — unless another step moved the table on meanwhile:
        then a :class:`~croupier.errors.RoundStateError` (409), the transaction rolled back."""
        t = store.tables
        done = conn.execute(
            sa.update(t)
            .where(t.c.table_id == row.table_id, t.c.version == row.version)
            .values(version=row.version + 1, **values)
        )
        if done.rowcount != 1:
            raise moved_on(row.table_id)
        self.committed[:] = [(opening(row), row.version + 1, after)]

    def kept(self, request: Request, response: Response) -> Response:
        """``response``, the round it committed kept in memory."""
        if self.committed and REPLAYED not in response.headers:
            open_rounds_of(request).put(*self.committed[0])
        return response


def taking_step(request: Request, ledger: Ledger, by: str, table: str, parsed: Step) -> Stepped:
    """``POST /tables/{table}/steps``: the step applied to the table's round (a refusal changes
    nothing); a ``settle`` step's round fed to the ledger and documented: the write that stores
    them."""
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
class Stepped(InOneTransaction):
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
        row, rnd, number, settled = self.row, self.rnd, self.number, self.settled
        table = row.table_id
        values: dict[str, Any] = {"steps": json.dumps(self.new_steps)}
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
            after = open_round(rnd.submission, table, rnd.base_game)
        self.moved.advance(conn, row, after, **values)
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


def voiding_round(request: Request, ledger: Ledger, by: str, table: str, reason: str) -> Voiding:
    """``POST /tables/{table}/void``: the open round of ``table`` voided — on the ledger first
    when its progressive wagers are there (``void-round``) — and documented, every wager
    returned: the write that stores it and opens the next round. A round with no bet and no
    card is a :class:`~croupier.errors.RoundStateError` (409), nothing changed."""
    row, number = read_table(reader_of(request), table)
    rnd = current_round(request, row)
    rid = round_id(number)
    if not rnd.bets and rnd.cards is None:
        raise RoundStateError(
            f"table {table}'s round {rid} has no bet and no card: there is nothing to void "
            f"(close the table with DELETE /tables/{table}, or post its bets); nothing changed"
        )
    on = void_on_ledger(ledger, table=table, round_id=rid, by=by, reason=reason)
    voided = void_document(
        rnd,
        table=table,
        round_id=rid,
        submission_digest=row.submission_digest,
        by=by,
        reason=reason,
        voided_on=on,
    )
    return Voiding(row, rnd, number, voided, by)


@dataclass(frozen=True)
class Voiding(InOneTransaction):
    """The write of a round voided: stored as voided, the table's next round opened."""

    row: Any
    rnd: TableRound
    number: int
    voided: Settled
    by: str
    moved: Moved = field(default_factory=Moved)

    def run(self, conn: Connection) -> tuple[int, Any]:
        """Store the voided round and move the table on, unless another step did."""
        row, number = self.row, self.number
        table = row.table_id
        insert_round(conn, self.voided, submission_digest=row.submission_digest, by=self.by)
        after = open_round(self.rnd.submission, table, self.rnd.base_game)
        self.moved.advance(conn, row, after, steps="[]", round_number=number + 1)
        state = table_state(row, after, number + 1)
        state["voided"] = self.voided.document
        return 200, state


def closing_table(request: Request, by: str, table: str) -> Closing:
    """``DELETE /tables/{table}``: the write that closes ``table``, whose round has no bet and
    no card (else a :class:`~croupier.errors.RoundStateError`, 409: settle or void it first)."""
    row, number = read_table(reader_of(request), table)
    rnd = current_round(request, row)
    if rnd.bets or rnd.cards is not None:
        raise RoundStateError(
            f"table {table}'s round {round_id(number)} has {len(rnd.bets)} bet(s) "
            f"({PHASE_WORDS[rnd.phase]}): settle it with POST /tables/{table}/steps (or have a "
            f"floorperson void it, POST /tables/{table}/void) before closing the table; "
            "nothing changed"
        )
    return Closing(row, round_id(number), by)


@dataclass(frozen=True)
class Closing(InOneTransaction):
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


__all__ = [
    "Closing",
    "Moved",
    "Opening",
    "Stepped",
    "StoreRound",
    "Voiding",
    "closing_table",
    "opening_table",
    "settling",
    "taking_step",
    "voiding_round",
]
