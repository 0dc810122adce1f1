"""Progressive use cases both interfaces orchestrate alike: reconfiguring a suspended progressive,
reconciling progressives over a period (§ 605a.7; NY 9 NYCRR 5321.18(b)(4), N.J.A.C.
13:69E-1.39C) and reading the controller's significant events (GLI-13; N.J.A.C. 13:69D-1.52).

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

from croupier.paytables import MeterLevel
from croupier.progressive import EventKind, Ledger, LedgerEvent
from croupier.progressive.report import Reconciliation


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


__all__ = ["reconcile_progressives", "reconfigure_progressive"]


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
