"""Progressive use cases both interfaces orchestrate alike: reconfiguring a suspended progressive,
reconciling progressives over a period (§ 605a.7; NY 9 NYCRR 5321.18(b)(4), N.J.A.C.
13:69E-1.39C), what the house owes on them (the liability report) and each table's contributions,
and reading the controller's significant events (GLI-13; N.J.A.C. 13:69D-1.52).

A use case that is one ledger method call — validating or voiding an award
(:meth:`Ledger.validate <croupier.progressive.Ledger.validate>`, :meth:`Ledger.void_award
<croupier.progressive.Ledger.void_award>`), creating a progressive from
:func:`~croupier.progressive.create.new_definition` (:meth:`Ledger.create_progressive
<croupier.progressive.Ledger.create_progressive>`) — is called on the ledger directly.
Each interface reads its own arguments (its option's or field's name in each error) and words
its answer; what happens on the ledger is here.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from fractions import Fraction
from typing import Any

from croupier.errors import AuthorizationError
from croupier.paytables import MeterLevel
from croupier.progressive import EventKind, Ledger, LedgerEvent, Role, StaffMember
from croupier.progressive.by_table import TableContributions, contributions_by_table
from croupier.progressive.liability import Liability, liability
from croupier.progressive.report import Reconciliation, reconcile

REPORT_READER = Role.PIT_MANAGER
"""Who reads a financial report (the reconciliation, the liability, the contributions by table,
the hold report): a pit manager or above in the pit, accounting and an auditor — over HTTP and
on the command line alike (docs/interpretations.md, *Who reads the money*)."""

SLIP_READER = Role.FLOORPERSON
"""Who prints a hand-pay slip: who validates an award, a floorperson or above (§ 633b.2(h)(3)),
and accounting and an auditor, who read what a pit manager reads."""


def check_reader(member: StaffMember, needed: Role, what: str, section: str = "605a.7") -> None:
    """:class:`~croupier.errors.AuthorizationError` citing ``section`` unless ``member`` reads
    what a ``needed`` reads (:meth:`Role.may_read
    <croupier.progressive.Role.may_read>`): the command line's check, before anything is looked
    up, of the rule the service's route dependency makes."""
    r = member.role
    if not r.may_read(needed):
        only = " (a role that reads and changes nothing)" if r.read_only else ""
        raise AuthorizationError(
            f"{member.name} is {r.said}{only}; {what} needs {needed.who_may(reading=True)}",
            section=section,
        )


def reconfigure_progressive(
    ledger: Ledger,
    name: str,
    *,
    by: str,
    approval: str,
    seeds_cents: Mapping[MeterLevel, int],
    rates: Mapping[MeterLevel, tuple[Fraction, Fraction]],
    limits_cents: Mapping[MeterLevel, int | None],
    suspend_with: str | None = None,
) -> dict[str, dict[str, list[Any]]]:
    """Reconfigure suspended progressive ``name`` as shift manager ``by`` under ``approval``
    (:meth:`Ledger.reconfigure <croupier.progressive.Ledger.reconfigure>`: seeds and limits in
    integer cents, a limit ``None`` for none, each rate ``(primary, secondary)`` as exact
    fractions; the meters are not moved) and return the changes its ``reconfigure`` event
    recorded: by level, each field's ``[old, new]`` (rates as exact fraction text). In play:
    :class:`~croupier.errors.RoundStateError` naming ``suspend_with`` (how the caller
    suspends it; default the CLI's words); a change of nothing: an
    :class:`~croupier.errors.InputError`."""
    more = {} if suspend_with is None else {"suspend_with": suspend_with}
    ledger.reconfigure(
        name,
        by=by,
        approval=approval,
        seeds_cents=seeds_cents,
        rates=rates,
        limits_cents=limits_cents,
        **more,
    )
    (ev,) = [e.event for e in ledger.history(name, 1)]
    changes: dict[str, dict[str, list[Any]]] = ev.detail.get("changes", {})
    return changes


def reconcile_progressives(
    ledger: Ledger, name: str | None, start: datetime | None, end: datetime | None
) -> list[Reconciliation]:
    """The reconciliation over ``[start, end)`` (either end open when ``None``) of progressive
    ``name``, else of every progressive in the ledger's order (§ 605a.7(a): opening meter,
    contributions, awards, resets, adjustments, closing meter, and the reserve's; each level's
    balance checked). The caller checks the period first
    (:func:`~croupier.progressive.report.check_period`, in its own words)."""
    names = [name] if name else ledger.names()
    return [ledger.reconcile(n, start, end) for n in names]


def liability_reports(
    ledger: Ledger, name: str | None, start: datetime | None, end: datetime | None
) -> list[tuple[Liability, Reconciliation]]:
    """The liability (:func:`~croupier.progressive.liability.liability`) over ``[start, end)``
    of progressive ``name``, else of every progressive in the ledger's order, each with its
    reconciliation over the same period, replayed from the same read of the log — what the
    report checks the liability against (:func:`~croupier.progressive.liability.agrees`). The
    caller checks the period first."""
    out = []
    for n in [name] if name else ledger.names():
        defn = ledger.definition(n)
        events = [(e.event, e.created_at) for e in ledger.history(n)]
        numbers = {a.id: a.number for a in ledger.awards(n) if a.number is not None}
        out.append(
            (liability(defn, events, start, end, numbers), reconcile(defn, events, start, end))
        )
    return out


def table_contributions(
    ledger: Ledger, name: str | None, start: datetime | None, end: datetime | None
) -> list[TableContributions]:
    """Each table's contributions over ``[start, end)`` to progressive ``name``, else to every
    progressive in the ledger's order (:func:`~croupier.progressive.by_table.contributions_by_table`).
    The caller checks the period first."""
    out: list[TableContributions] = []
    for n in [name] if name else ledger.names():
        events = [(e.event, e.created_at) for e in ledger.history(n)]
        out.extend(contributions_by_table(ledger.definition(n), events, start, end))
    return out


__all__ = [
    "REPORT_READER",
    "SLIP_READER",
    "check_reader",
    "liability_reports",
    "reconcile_progressives",
    "reconfigure_progressive",
    "significant_events",
    "table_contributions",
]


def significant_events(
    ledger: Ledger, progressive: str | None, code: str | None, limit: int | None
) -> list[LedgerEvent]:
    """The controller's significant events in ledger order: of one ``progressive`` (it must
    exist) and with one ``code`` where given, the last ``limit`` where given."""
    if progressive is not None:
        ledger.definition(progressive)
    found = [
        e
        for e in ledger.history()
        if e.event.kind is EventKind.SIGNIFICANT
        and (progressive is None or e.progressive == progressive)
        and (code is None or e.event.detail.get("code") == code)
    ]
    if limit is not None:
        found = found[-limit:]
    return found
