"""What a stored round's lines paid, by the ledger: the book of record for progressive amounts.

A stored round's document (:mod:`croupier.service.settling`) shows a share of a meter as the
ledger awarded it when the round was fed — pending a floorperson's validation. What the table
actually paid depends on what became of that award since: validated and paid, still pending, or
voided (§ 633b.2(h)(1), § 633b.3(h)(1): the wager is then a losing one and the amount stays on
the meter). :func:`line_results` gives each line's result as the ledger has it now, for the
hold report and ``GET /rounds/summary``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from croupier.progressive import AwardStatus, Ledger
from croupier.table.progressive import wager_of

__all__ = ["AwardState", "Book", "LineResult", "book_of", "line_results"]


@dataclass(frozen=True)
class AwardState:
    """An award's status now and its amount (integer cents)."""

    status: AwardStatus
    amount_cents: int


@dataclass(frozen=True)
class Book:
    """What the ledger holds now: each award's state by id, each progressive's wager id."""

    awards: Mapping[int, AwardState]
    wagers: Mapping[str, str]


def book_of(ledger: Ledger) -> Book:
    """Every award of every progressive of ``ledger`` and the wager each progressive takes."""
    names = ledger.names()
    return Book(
        {a.id: AwardState(a.status, a.amount_cents) for n in names for a in ledger.awards(n)},
        {n: wager_of(ledger.definition(n)) for n in names},
    )


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
