"""Settling a round for the service: feed its progressive wagers to the ledger, make its
settlement document, store it once.

The document a settled round answers with (and is stored as) is the item ``croupier settle
--json`` prints for a round — ``round``, ``submission``, ``cards``, ``events``, ``settlement``
(:meth:`~croupier.wagers.at_table.RoundSettlement.to_json`), ``net_cents`` — with the table, the
digests of the Rules Submission and of the round's content
(:func:`~croupier.table.progressive.round_content`), what each progressive fed paid, who recorded
the round and when.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from croupier.errors import InputError, RoundConflictError
from croupier.progressive import Ledger, ProgressiveSystem, RoundSettlement
from croupier.progressive.feeder import RowsItem, RowsWriter
from croupier.progressive.views import award_dict as _award_dict
from croupier.service import store
from croupier.service.committer import Rows
from croupier.service.jsontext import dumps
from croupier.table.procedure import Phase
from croupier.table.progressive import (
    check_one_meter_per_wager,
    feed_new_round,
    feed_progressive,
    round_content,
    valued_at_seed,
    wager_of,
    with_ledger_amounts,
)
from croupier.table.record import Step, apply_step
from croupier.table.round import TableRound, settled_net
from croupier.table.submission import RulesSubmission, submission_from_data
from croupier.table.submission import submission_digest as canonical_digest


def submission_digest(data: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of a Rules Submission's data as canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


_CHECKED: dict[str, tuple[str, RulesSubmission]] = {}
_CHECKED_MAX = 256


def checked_submission(data: Mapping[str, Any], source: str) -> tuple[str, RulesSubmission]:
    """The digest and the checked :class:`RulesSubmission` of ``data`` (every violation a
    :class:`~croupier.errors.SubmissionError`); a submission checked before is not checked
    again (a table posts the same one with every round). The digest is the one ``croupier
    check`` prints (:func:`croupier.table.submission.submission_digest` of the checked
    submission), whatever form the data came in; the raw data's hash only keys the cache."""
    raw = submission_digest(data)
    found = _CHECKED.get(raw)
    if found is None:
        sub = submission_from_data(data, source)
        found = (canonical_digest(sub), sub)
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.pop(next(iter(_CHECKED)))
        _CHECKED[raw] = found
    return found


def replay(sub: RulesSubmission, steps: Sequence[Step], source: str) -> TableRound:
    """The round of ``steps`` at a table under ``sub``, settled, as
    :func:`croupier.table.record.settle_record` does it: a missing ``no-more-bets`` or ``settle``
    supplied; the first step that breaks a rule raises its typed error naming the step."""
    rnd = TableRound.open(sub)
    for i, step in enumerate(steps, start=1):
        rnd = apply_step(rnd, step, i)
    if rnd.phase is Phase.BETTING:
        rnd = rnd.no_more_bets()
    if rnd.phase is Phase.DEALT:
        rnd = rnd.settle()
    if rnd.phase is not Phase.SETTLED:
        raise InputError(f"{source}: the round has no deal step: there is nothing to settle")
    return rnd


@dataclass(frozen=True)
class Settled:
    """A round settled and fed, ready to store: its document and what identifies it."""

    table: str
    round_id: str
    content: str
    wagers: tuple[str, ...]
    net_cents: int
    document: dict[str, Any]


_WAGERS: dict[tuple[str, str], str] = {}


def _wager(ledger: Ledger, name: str) -> str:
    """The wager id progressive ``name`` is recorded under (a name is never given to another
    progressive, so it is looked up once)."""
    key = (ledger.url, name)
    if key not in _WAGERS:
        _WAGERS[key] = wager_of(ledger.definition(name))
    return _WAGERS[key]


def feed_and_document(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    round_id: str,
    submission_digest: str,
    progressives: Sequence[str],
    by: str,
) -> Settled:
    """Feed ``rnd`` to each named progressive (each in the ledger's own transaction, under its
    own idempotency key ``PROGRESSIVE/TABLE/ROUND``: fed again, the ledger answers its first
    settlement) and make the round's document. Without a progressive, a share-of-meter line says
    it is valued at the seed (:func:`~croupier.table.progressive.valued_at_seed`)."""
    content = round_content(rnd)
    results: list[tuple[str, RoundSettlement]] = []
    if len(progressives) > 1:  # one wager, one meter (§ 605a.8)
        check_one_meter_per_wager([ledger.definition(name) for name in progressives])
    for name in progressives:
        # ProgressiveSystem directly: Ledger.system would read the definition once more (a
        # progressive that does not exist is refused by feed_progressive's own read of it)
        system = ProgressiveSystem(ledger, name)
        result = feed_progressive(
            rnd, system, table=table, round_id=round_id, by=by, content=content
        )
        if result is not None:
            results.append((name, result))
    return document(
        ledger,
        rnd,
        results,
        fed_any=bool(progressives),
        table=table,
        round_id=round_id,
        submission_digest=submission_digest,
        content=content,
        by=by,
    )


def document(
    ledger: Ledger,
    rnd: TableRound,
    results: Sequence[tuple[str, RoundSettlement]],
    *,
    fed_any: bool,
    table: str,
    round_id: str,
    submission_digest: str,
    content: str,
    by: str,
) -> Settled:
    """The document of ``rnd`` settled, with what each progressive fed paid (``results``:
    ``(progressive name, its settlement)``); ``fed_any``: whether the round was fed to any
    progressive (a share of a meter is then the ledger's award, else valued at the seed)."""
    fed = [
        {
            "progressive": name,
            "ledger_round": result.round_id,
            "idempotency_key": result.idempotency_key,
            "awards": [_award_dict(a) for a in result.awards],
        }
        for name, result in results
    ]
    by_wager = [(_wager(ledger, name), result) for name, result in results]
    shown = with_ledger_amounts(rnd, by_wager) if fed_any else valued_at_seed(rnd)
    wagers = tuple(sorted({b.wager for b in rnd.bets}))
    net = settled_net(shown.events)
    doc: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "submission": shown.submission.name or shown.submission.game.value,
        "submission_digest": submission_digest,
        "content_digest": content,
        "cards": shown.cards.describe() if shown.cards else None,
        "events": [e.to_json() for e in shown.events],
        "settlement": shown.settlement().to_json(),
        "net_cents": net,
        "wagers": list(wagers),
        "progressives": fed,
        "recorded_by": by,
    }
    return Settled(table, round_id, content, wagers, net, doc)


def feed_and_store(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    round_id: str,
    submission_digest: str,
    progressive: str,
    by: str,
    writer: RowsWriter,
    extra: Callable[[int, str], Rows],
) -> str | None:
    """The common case of a round fed to one progressive, in **one** transaction: the ledger's
    rows, the stored round and ``extra(201, text)`` (the ``Idempotency-Key``'s record) commit
    together (:meth:`~croupier.progressive.feeder.Feeder.play`'s ``after``), so a crash leaves
    all of them or none. The stored document's text (the answer, 201), or ``None`` when nothing
    was written — a round the ledger knows already, the round stored already, a refusal to
    explain: :func:`feed_and_document` then decides, step by step."""
    content = round_content(rnd)
    made: list[str] = []

    def after(result: RoundSettlement) -> RowsItem:
        s = document(
            ledger,
            rnd,
            [(progressive, result)],
            fed_any=True,
            table=table,
            round_id=round_id,
            submission_digest=submission_digest,
            content=content,
            by=by,
        )
        row = round_row(s, submission_digest=submission_digest, by=by)
        made[:] = [row["document"]]
        return RowsItem([(INSERT_ROUND, row), *extra(201, row["document"])], writer)

    result = feed_new_round(
        rnd,
        ProgressiveSystem(ledger, progressive),
        table=table,
        round_id=round_id,
        by=by,
        content=content,
        after=after,
    )
    if result is None or not made:
        return None
    return made[0]


INSERT_ROUND = sa.insert(store.rounds)


def round_row(s: Settled, *, submission_digest: str, by: str) -> dict[str, Any]:
    """The row storing the settled round (``settled_at`` is set in the document too)."""
    at = datetime.now(UTC)
    s.document["settled_at"] = at.isoformat()
    return {
        "table_id": s.table,
        "round_id": s.round_id,
        "submission_digest": submission_digest,
        "content_digest": s.content,
        "wagers": "," + ",".join(s.wagers) + ",",
        "net_cents": s.net_cents,
        "document": dumps(s.document),
        "recorded_by": by,
        "settled_at": at,
    }


def insert_round(conn: Connection, s: Settled, *, submission_digest: str, by: str) -> None:
    """Store the settled round inside the caller's transaction (``settled_at`` is set in the
    document). A round already stored under the same table and id raises the database's
    :class:`~sqlalchemy.exc.IntegrityError` (see :func:`existing`)."""
    conn.execute(INSERT_ROUND, round_row(s, submission_digest=submission_digest, by=by))


def existing(conn: Connection, s: Settled) -> dict[str, Any] | None:
    """The stored document of the round ``s`` names, if one is stored: the same content is a
    replay (the first document); other content under the same table and round id is a
    :class:`~croupier.errors.RoundConflictError` (409), nothing changed."""
    r = store.rounds
    row = conn.execute(
        sa.select(r.c.content_digest, r.c.document).where(
            r.c.table_id == s.table, r.c.round_id == s.round_id
        )
    ).first()
    if row is None:
        return None
    if row.content_digest != s.content:
        raise RoundConflictError(
            f"round {s.round_id!r} of table {s.table} is stored already with other content "
            "(seats, wagers, amounts or cards): nothing changed; give the round its own id"
        )
    doc: dict[str, Any] = json.loads(row.document)
    return doc


def is_integrity_error(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) is a database integrity error (a unique key taken)."""
    while exc is not None:
        if isinstance(exc, IntegrityError):
            return True
        exc = exc.__cause__  # type: ignore[assignment]
    return False


__all__ = [
    "INSERT_ROUND",
    "Settled",
    "document",
    "existing",
    "feed_and_document",
    "feed_and_store",
    "insert_round",
    "round_row",
    "submission_digest",
]
