"""What a stored round's lines paid, by the ledger: the book of record for progressive amounts.

A stored round's document (:func:`croupier.operations.documents.document`) shows a share of a meter as the
ledger awarded it when the round was fed — pending a floorperson's validation. What the table
actually paid depends on what became of that award since: validated and paid, still pending, or
voided (§ 633b.2(h)(1), § 633b.3(h)(1): the wager is then a losing one and the amount stays on
the meter). :func:`line_results` gives each line's result as the ledger has it now, for the
hold report and ``GET /rounds/summary``; :func:`as_ledger_has_it` shows a stored round that way
(every read of one: ``GET /rounds``, ``GET /rounds/{table}/{round}``, an open table's
``settled``), what was recorded at settlement beside it — the stored text is never changed.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy import Engine

from croupier.errors import LedgerLookupError
from croupier.progressive import Award, AwardStatus, Ledger
from croupier.service import store
from croupier.table.progressive import award_status_words, wager_of
from croupier.units import format_money
from croupier.wagers.at_table import signed_money

__all__ = [
    "FEW_AWARDS",
    "STORED_ALREADY",
    "AwardState",
    "Book",
    "LineResult",
    "as_ledger_has_it",
    "book_for",
    "book_of",
    "line_results",
    "replayed_round",
    "round_location",
    "stored_round",
]


STORED_ALREADY = "stored_already"
"""The field marking an answer that shows a stored round and settled nothing (``true``): the
round was stored already — posted again under another ``Idempotency-Key`` — or the answer is
given again under its key (``POST /rounds/settle``; an open table's ``settled``)."""


@dataclass(frozen=True)
class AwardState:
    """An award's status now, its amount (integer cents) and who validated or voided it."""

    status: AwardStatus
    amount_cents: int
    by: str | None = None


def _state(a: Award) -> AwardState:
    return AwardState(a.status, a.amount_cents, a.validated_by)


@dataclass(frozen=True)
class Book:
    """What the ledger holds now: each award's state by id, each progressive's wager id."""

    awards: Mapping[int, AwardState]
    wagers: Mapping[str, str]


def book_of(ledger: Ledger) -> Book:
    """Every award of every progressive of ``ledger`` and the wager each progressive takes."""
    names = ledger.names()
    return Book(
        {a.id: _state(a) for n in names for a in ledger.awards(n)},
        {n: wager_of(ledger.definition(n)) for n in names},
    )


FEW_AWARDS = 64
"""Up to this many awards, :func:`book_for` reads each by its id; above, every award at once."""


def book_for(ledger: Ledger, docs: Iterable[Mapping[str, Any]]) -> Book:
    """What the ledger holds now of the awards and progressives ``docs`` (stored rounds) name:
    each award read by its id — for a few rounds, cheaper than :func:`book_of`'s every award
    (which it is, for more than :data:`FEW_AWARDS`)."""
    docs = list(docs)
    ids = sum(len(fed.get("awards") or ()) for d in docs for fed in d.get("progressives") or ())
    if ids > FEW_AWARDS:
        return book_of(ledger)
    awards: dict[int, AwardState] = {}
    wagers: dict[str, str] = {}
    for doc in docs:
        for fed in doc.get("progressives") or ():
            name = str(fed.get("progressive"))
            if name not in wagers:
                wagers[name] = wager_of(ledger.definition(name))
            for a in fed.get("awards") or ():
                try:
                    awards[int(a["award"])] = _state(ledger.award(int(a["award"])))
                except LedgerLookupError:  # pragma: no cover - an award is never removed
                    continue
    return Book(awards, wagers)


@dataclass(frozen=True)
class LineResult:
    """A settlement line's result by the ledger: ``win_cents`` the players' net counted as paid
    (−stake for a line whose award was voided, or is still pending), ``pending_cents`` what
    awaits validation (not paid, not counted in the win), ``voided_cents`` what was voided."""

    line: Mapping[str, Any]
    win_cents: int
    pending_cents: int = 0
    voided_cents: int = 0


def _awards_of(
    doc: Mapping[str, Any], line: Mapping[str, Any], book: Book
) -> list[Mapping[str, Any]]:
    """The awards the ledger made for ``line``: on the progressive of the line's wager, at its
    seat (an envy line: for its from_seat's hand) — what its stored return was made of."""
    found = []
    for fed in doc.get("progressives") or ():
        if book.wagers.get(str(fed.get("progressive"))) not in (line.get("wager"), line.get("bet")):
            continue
        for a in fed.get("awards") or ():
            if a.get("position") == line.get("seat") and a.get("envy_for_position") == line.get(
                "from_seat"
            ):
                found.append(a)
    return found


def line_results(doc: Mapping[str, Any], book: Book) -> list[LineResult]:
    """Each settlement line of stored round ``doc`` with its result by the ledger now.

    A line awaiting validation when stored (``pending_validation``) is matched with the awards
    fed for it; its return is split by their status now: paid counts, pending is apart, voided
    returns nothing (the wager lost). A line with no award on the ledger (no progressive was fed:
    valued at the seed) keeps its stored result. Every other line is as stored.
    """
    out = []
    for line in doc["settlement"]["lines"]:
        awards = _awards_of(doc, line, book) if line.get("pending_validation") else []
        if not awards or line.get("win_cents") is None:
            out.append(LineResult(line, int(line.get("win_cents") or 0)))
            continue
        paid = pending = voided = 0
        for a in awards:
            state = book.awards.get(int(a["award"]))
            status = state.status if state is not None else AwardStatus(a["status"])
            amount = state.amount_cents if state is not None else int(a["amount_cents"])
            if status is AwardStatus.PAID:
                paid += amount
            elif status is AwardStatus.PENDING:
                pending += amount
            else:
                voided += amount
        out.append(LineResult(line, paid - int(line["stake_cents"]), pending, voided))
    return out


_METER_PAYS = re.compile(
    r"^(?P<base>.*): \$[0-9,.]+ from the meter \(award (?P<id>[0-9]+), [^)]*\)$"
)
"""A share of a meter as the ledger's pay was recorded (:func:`~croupier.table.progressive.
with_ledger_amounts`): ``100% of Progressive: $50,001.85 from the meter (award 8, pending
validation)``."""


def _status_words(state: AwardState) -> str:
    return award_status_words(state.status.value, state.by)


def _award_now(a: Mapping[str, Any], book: Book) -> tuple[AwardState, dict[str, Any]]:
    state = book.awards.get(int(a["award"])) or AwardState(
        AwardStatus(a["status"]), int(a["amount_cents"]), a.get("validated_by")
    )
    voided = state.status is AwardStatus.VOIDED
    shown = {
        "award": int(a["award"]),
        "progressive": a.get("progressive"),
        "status": state.status.value,
        "amount_cents": state.amount_cents,
        "amount": format_money(state.amount_cents),
        "validated_by": None if voided else state.by,
        **({"voided_by": state.by} if voided else {}),
        "recorded_status": a.get("status"),
        "recorded_amount_cents": int(a["amount_cents"]),
    }
    return state, shown


def _fed_award_now(a: Mapping[str, Any], book: Book) -> dict[str, Any]:
    """An award of a stored round's ``progressives`` as the ledger has it now: its status,
    amount and who validated or voided it, what was recorded beside them (``recorded_status``,
    ``recorded_amount_cents``) — the award's other fields (seat, outcome, level) never change.
    An award the ledger does not hold (never: an award is not removed) is as recorded."""
    state = book.awards.get(int(a["award"]))
    if state is None:
        return dict(a)
    voided = state.status is AwardStatus.VOIDED
    shown = {
        **a,
        "status": state.status.value,
        "amount_cents": state.amount_cents,
        "amount": format_money(state.amount_cents),
        "validated_by": None if voided else state.by,
    }
    shown.pop("voided_by", None)
    if voided:
        shown["voided_by"] = state.by
    shown["recorded_status"] = a.get("status")
    shown["recorded_amount_cents"] = int(a["amount_cents"])
    return shown


def as_ledger_has_it(doc: Mapping[str, Any], book: Book) -> dict[str, Any]:
    """Stored round ``doc`` as the ledger has it now: each line a progressive fed (its seat's
    own awards, an envy line's awards for its ``from_seat``) shows what became of its awards —
    ``ledger``: each award's status, amount and who validated or voided it, and the cents paid,
    pending and voided — and its amounts, pay and ``pending_validation`` as they stand now (a
    voided award returns nothing; a share settled since names its new amount); ``as_settled``
    keeps what the line said at settlement. The settlement event of the line is shown the same
    way (its detail says what the ledger holds now), and the round's totals with them
    (``as_settled`` at the top keeps the recorded ones), and each award of ``progressives``
    with its status and amount now beside the recorded ones (``recorded_status``,
    ``recorded_amount_cents``). A line no progressive fed is as stored. ``doc`` itself is not
    changed: the stored text is the record."""
    out = copy.deepcopy(dict(doc))
    lines = out["settlement"]["lines"]
    events = [e for e in out.get("events") or () if e.get("action") == "settlement"]
    changed = False
    for line in lines:
        awards = _awards_of(out, line, book)
        if not awards or line.get("win_cents") is None:
            continue
        paid = pending = voided = 0
        shown = []
        words = []
        for a in awards:
            state, view = _award_now(a, book)
            shown.append(view)
            if state.status is AwardStatus.PAID:
                paid += state.amount_cents
            elif state.status is AwardStatus.PENDING:
                pending += state.amount_cents
            else:
                voided += state.amount_cents
            words.append(f"award {view['award']} {_status_words(state)}")
        stake = int(line["stake_cents"])
        returned = paid + pending
        before = {k: line.get(k) for k in ("pays", "win_cents", "win", "returned_cents")}
        before["pending_validation"] = line.get("pending_validation")
        event = next(
            (
                e
                for e in events
                if e.get("seat") == line.get("seat")
                and e.get("wager") in (line.get("wager"), line.get("bet"))
                and e.get("pays") == line.get("pays")
                and e.get("win_cents") == line.get("win_cents")
            ),
            None,
        )
        pays = line.get("pays")
        m = _METER_PAYS.match(pays or "")
        if m is not None and len(awards) == 1:
            state, view = _award_now(awards[0], book)
            pays = (
                f"{m['base']}: {view['amount']} from the meter "
                f"(award {view['award']}, {_status_words(state)})"
            )
        line.update(
            pays=pays,
            win_cents=returned - stake,
            win=signed_money(returned - stake),
            returned_cents=returned,
            pending_validation=pending > 0,
            ledger={
                "awards": shown,
                "paid_cents": paid,
                "pending_cents": pending,
                "voided_cents": voided,
            },
            as_settled=before,
        )
        changed = changed or any(line[k] != v for k, v in before.items())
        if event is not None:
            events.remove(event)  # one event per line
            event["as_settled"] = {
                k: event.get(k)
                for k in ("pays", "win_cents", "returned_cents", "pending_validation", "detail")
            }
            event.update(
                pays=pays,
                win_cents=returned - stake,
                returned_cents=returned,
                pending_validation=pending > 0,
                detail=f"{event.get('detail')}; on the ledger now: {', '.join(words)}, "
                f"{format_money(returned)} returned",
            )
    settlement = out["settlement"]
    net = sum(x["win_cents"] for x in lines if not x.get("settled_by_base_game"))
    returned_all = sum(x["returned_cents"] for x in lines if not x.get("settled_by_base_game"))
    if any("ledger" in x for x in lines):
        out["as_settled"] = {
            "net_cents": out.get("net_cents"),
            "settlement_net_cents": settlement.get("net_cents"),
            "returned_cents": settlement.get("returned_cents"),
            "changed_since": changed,
        }
        settlement.update(net_cents=net, net=signed_money(net), returned_cents=returned_all)
        out["net_cents"] = out["net_cents"] - int(out["as_settled"]["settlement_net_cents"]) + net
    for fed in out.get("progressives") or ():  # what each progressive fed paid: as it is now
        fed["awards"] = [_fed_award_now(a, book) for a in fed.get("awards") or ()]
    return out


_STORED = sa.select(store.rounds.c.document).where(
    store.rounds.c.table_id == sa.bindparam("b_table"),
    store.rounds.c.round_id == sa.bindparam("b_round"),
)


def stored_round(
    reader: Engine, ledger: Ledger, table: str, round_id: str
) -> dict[str, Any] | None:
    """Round ``round_id`` of ``table`` as every read shows it — its stored document with each
    award as ``ledger`` has it now (:func:`as_ledger_has_it`) — or ``None`` when none is
    stored (``reader``: the service's engine for reads)."""
    with reader.connect() as conn:
        text = conn.execute(_STORED, {"b_table": table, "b_round": round_id}).scalar()
    if text is None:
        return None
    doc: dict[str, Any] = json.loads(text)
    return as_ledger_has_it(doc, book_for(ledger, [doc]))


def replayed_round(
    reader: Engine, ledger: Ledger, first: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The round a stored answer ``first`` documents (its ``table`` and ``round``) as every
    read shows it now (:func:`stored_round`), marked ``stored_already: true`` — the answer given
    again settled nothing — with the ``Content-Location`` header naming where it is read; ``None``
    when no such round is stored."""
    table, rid = str(first.get("table")), str(first.get("round"))
    now = stored_round(reader, ledger, table, rid)
    if now is None:
        return None
    return {STORED_ALREADY: True, **now}, {"Content-Location": round_location(table, rid)}


def round_location(table: str, round_id: str) -> str:
    """The path that reads round ``round_id`` of ``table`` (``GET /rounds/{table}/{round}``)."""
    return f"/rounds/{quote(table, safe='')}/{quote(round_id, safe='')}"
