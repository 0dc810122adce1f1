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

from croupier.errors import (
    CroupierError,
    InputError,
    LedgerLookupError,
    LinkError,
    RoundConflictError,
    RoundStateError,
    citation,
)
from croupier.progressive import (
    Ledger,
    ProgressiveDefinition,
    ProgressiveSystem,
    RoundSettlement,
    RoundStatus,
)
from croupier.progressive.feeder import RowsItem, RowsWriter
from croupier.progressive.views import award_dict as _award_dict
from croupier.service import store
from croupier.service.committer import Rows
from croupier.service.jsontext import dumps
from croupier.table.procedure import Phase
from croupier.table.progressive import (
    assign_progressives,
    check_named_match,
    check_named_take,
    check_one_meter_per_wager,
    feed_new_round,
    feed_progressive,
    ledger_round_id,
    progressive_bets,
    progressive_offers,
    progressives_for,
    round_content,
    suspended_error,
    takes,
    valued_at_seed,
    wager_of,
    with_ledger_amounts,
)
from croupier.table.record import Step, apply_step
from croupier.table.round import TableRound, settled_net
from croupier.table.submission import RulesSubmission, submission_from_data
from croupier.table.submission import submission_digest as canonical_digest
from croupier.units import format_money
from croupier.wagers.at_table import signed_money


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


_WAGERS: dict[tuple[str, str], tuple[str, int]] = {}


def _wager(ledger: Ledger, name: str) -> tuple[str, int]:
    """The wager id progressive ``name`` is recorded under and its wager size (a name is never
    given to another progressive, and neither changes by a reconfiguration, so they are looked
    up once)."""
    key = (ledger.url, name)
    if key not in _WAGERS:
        defn = ledger.definition(name)
        _WAGERS[key] = (wager_of(defn), defn.wager_cents)
    return _WAGERS[key]


def named_progressive(ledger: Ledger, name: str, table: str) -> ProgressiveDefinition:
    """The definition of progressive ``name`` a request names for ``table`` (``?progressive=``
    of ``POST /rounds/settle``, ``POST /tables``' ``progressives``). One that does not exist is
    the request's mistake, not a path that names nothing: a :class:`~croupier.errors.LinkError`
    (422, § 605a.8: a table's progressive wagers feed a progressive linked to it), as for one
    that exists and is not linked to the table."""
    try:
        return ledger.definition(name)
    except LedgerLookupError as exc:
        raise LinkError(
            f"table {table} is not linked to progressive {name!r}: {exc}", "605a.8"
        ) from None


def progressives_to_feed(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    named: Sequence[str] = (),
    bet_step: Callable[[int], str] = lambda i: f"bet {i + 1}",
    round_name: str | None = None,
) -> list[str]:
    """The progressives the service feeds ``rnd`` at ``table`` to: ``named`` (``?progressive=``,
    an open table's), then for each progressive bet none of them takes the progressive linked
    to the table that takes it (:func:`~croupier.table.progressive.progressives_for`). Every
    progressive bet is fed: one no progressive takes is a :class:`~croupier.errors.LinkError`
    (§ 605a.8 and the wager's section), and one whose progressive is suspended is refused with
    the ledger's words, noted with its step (``bet_step(i)`` of the round's ``i``-th bet) — the
    round is then neither fed nor stored. A progressive named must be linked to the table.
    ``round_name`` (the caller named them: ``?progressive=``): each progressive named must also
    take a progressive bet of the round (:func:`~croupier.table.progressive.check_named_take`) —
    an open table's own progressives (one per wager it offers) need not."""
    bets = progressive_bets(rnd)
    if not bets and not named:
        return []
    if not bets:  # nothing to feed: feeding checks the names against the round, as before
        defs = [named_progressive(ledger, name, table) for name in named]
        chosen = progressives_for(rnd, table=table, named=defs)
        if round_name is not None:
            check_named_take(rnd, defs, round_name)
        return [d.name for d in chosen]
    linked = ledger.linked_progressives(table)  # one read: the links and their suspension
    suspended = {d.name: s for d, s in linked}
    defs = []
    for name in named:  # a named progressive is one linked to the table
        found = next((d for d, _ in linked if d.name == name), None)
        if found is None:
            named_progressive(ledger, name, table)  # a name no progressive has: said so
            raise LinkError(f"table {table} is not linked to progressive {name!r}", "605a.8")
        defs.append(found)
    fed = progressives_for(rnd, table=table, named=defs, linked=lambda: [d for d, _ in linked])
    if round_name is not None:
        check_named_take(rnd, defs, round_name)
    for i, offer in bets:
        name = next(d.name for d in fed if takes(d, offer))
        if suspended[name]:
            exc = suspended_error(name)
            exc.add_note(bet_step(i))
            raise exc
    return [d.name for d in fed]


def table_progressives(
    ledger: Ledger, sub: RulesSubmission, table: str, named: Sequence[str]
) -> list[str]:
    """The progressives an open table's progressive wagers feed (``POST /tables``): those
    ``named`` — each existing, linked to the table (§ 605a.8) and one of a wager ``sub`` offers
    under its paytable and deck count — then, for each progressive wager and size ``sub`` offers
    that none of them takes, the one linked to the table that takes it. A wager and size no
    progressive takes refuses the table (:class:`~croupier.errors.LinkError`, § 605a.8 and the
    wager's section): its bets could not be settled."""
    defs = [named_progressive(ledger, name, table) for name in named]
    if len(defs) > 1:
        check_one_meter_per_wager(defs)
    for d in defs:
        check_named_match(sub, d)
    offers = progressive_offers(sub)
    if not offers and not defs:
        return []
    linked = [d for d, _ in ledger.linked_progressives(table)]
    for d in defs:
        if d.name not in {x.name for x in linked}:
            raise LinkError(
                f"table {table} is not linked to progressive {d.name!r}: a shift manager links "
                f"it (POST /progressives/{d.name}/links) before the table opens",
                "605a.8",
            )
    found = assign_progressives(offers, table=table, named=defs, linked=linked)
    return list(dict.fromkeys([*named, *(d.name for d in found.values())]))


def check_progressive_bet(
    ledger: Ledger, rnd: TableRound, *, table: str, named: Sequence[str], note: str
) -> None:
    """Refuse the bet ``rnd`` was just given (an open table's ``bet`` step) when it is a
    progressive wager whose progressive is suspended (the ledger's words, § 605a.8; noted
    ``note``) or that no progressive takes (§ 605a.8): accepted, it could not be settled. The
    round is then as it was before the step."""
    bets = progressive_bets(rnd)
    if not bets or bets[-1][0] != len(rnd.bets) - 1:
        return  # the step placed no progressive wager
    offer = bets[-1][1]
    linked = ledger.linked_progressives(table)
    try:
        found = assign_progressives(
            [offer],
            table=table,
            named=[named_progressive(ledger, name, table) for name in named],
            linked=[d for d, _ in linked],
        )
        name = found[offer].name
        if dict((d.name, s) for d, s in linked).get(name, False):
            raise suspended_error(name)
    except CroupierError as exc:
        exc.add_note(note)
        raise


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
    by_wager = [(_wager(ledger, name)[0], result) for name, result in results]
    sizes = {name: _wager(ledger, name)[1] for name, _ in results}
    shown = with_ledger_amounts(rnd, by_wager, sizes) if fed_any else valued_at_seed(rnd)
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


def void_on_ledger(ledger: Ledger, *, table: str, round_id: str, by: str, reason: str) -> list[str]:
    """The ledger's own void of an open table's round (:meth:`ProgressiveSystem.void_round
    <croupier.progressive.ProgressiveSystem.void_round>`: its wagers returned, nothing
    contributed; a floorperson or above, from the ledger's log) on each progressive linked to
    ``table`` that holds the round — wagers accepted, locked out, counted or held, not settled.
    The progressives whose round is voided (now or before: a retry voids nothing twice). A round
    the ledger settled already is not voided: :class:`~croupier.errors.RoundStateError` (its
    settlement stands; post ``settle`` again to store it)."""
    rid = ledger_round_id(table, round_id)
    voided = []
    for defn, _ in ledger.linked_progressives(table):
        system = ProgressiveSystem(ledger, defn.name)
        view = system.find_round(rid)
        if view is None:
            continue
        if view.status is RoundStatus.SETTLED:
            raise RoundStateError(
                f"round {round_id} of table {table} is settled on progressive {defn.name!r} "
                "already: it is not voided; post the settle step again to store it"
            )
        if view.status is not RoundStatus.VOIDED:
            system.void_round(rid, by=by, reason=reason)
        voided.append(defn.name)
    return voided


VOID_PAYS = "returned: the round was voided"
"""What each line of a voided round says: the wager goes back to the player, win or lose."""


def void_document(
    rnd: TableRound,
    *,
    table: str,
    round_id: str,
    submission_digest: str,
    by: str,
    reason: str,
    voided_on: Sequence[str] = (),
) -> Settled:
    """The document of an open table's round voided before it was settled (a misdeal, a bet
    placed in error): the record so far, a ``void`` event, and one line per bet returning its
    whole amount (a win of $0) — whatever was settled at the deal is cancelled, every wager goes
    back. ``voided`` says who voided it, why, what was returned and the progressives whose
    ledger round was voided (``voided_on``). Stored as the round, so its id is never reused; the
    summary and the hold report count it apart (no wager was in action)."""
    section = rnd.procedure_rule
    returned = sum(b.amount_cents for b in rnd.bets)
    lines = [
        {
            "seat": b.seat,
            "wager": b.wager,
            "bet": b.wager,
            "outcome": "void",
            "pays": VOID_PAYS,
            "stake_cents": b.amount_cents,
            "stake": format_money(b.amount_cents),
            "win_cents": 0,
            "win": signed_money(0),
            "returned_cents": b.amount_cents,
            "pending_validation": False,
            "outcome_key": None,
            "section": section,
            "citation": citation(section),
            "rounding_dropped_cent_fraction": "0/1",
            "settled_by_base_game": False,
            "kind": "wager",
            "from_seat": None,
        }
        for b in rnd.bets
    ]
    void_event = {
        "index": len(rnd.events),
        "action": "void",
        "phase": "voided",
        "seat": None,
        "wager": None,
        "amount_cents": returned,
        "outcome": None,
        "pays": None,
        "win_cents": 0,
        "returned_cents": returned,
        "pending_validation": False,
        "outcome_key": None,
        "section": section,
        "citation": citation(section),
        "detail": f"round voided by {by} ({reason}): every wager returned, "
        f"{format_money(returned)}",
    }
    wagers = tuple(sorted({b.wager for b in rnd.bets}))
    doc: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "submission": rnd.submission.name or rnd.submission.game.value,
        "submission_digest": submission_digest,
        "content_digest": round_content(rnd),
        "cards": rnd.cards.describe() if rnd.cards else None,
        "events": [*(e.to_json() for e in rnd.events), void_event],
        "settlement": {
            "lines": lines,
            "net_cents": 0,
            "net": signed_money(0),
            "returned_cents": returned,
        },
        "net_cents": 0,
        "wagers": list(wagers),
        "progressives": [],
        "recorded_by": by,
        "voided": {
            "by": by,
            "reason": reason,
            "phase": rnd.phase.value,
            "returned_cents": returned,
            "returned": format_money(returned),
            "ledger_rounds_voided": list(voided_on),
        },
    }
    return Settled(table, round_id, doc["content_digest"], wagers, 0, doc)


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
    "check_progressive_bet",
    "document",
    "existing",
    "feed_and_document",
    "feed_and_store",
    "insert_round",
    "named_progressive",
    "progressives_to_feed",
    "round_row",
    "submission_digest",
    "table_progressives",
    "void_document",
    "void_on_ledger",
]
