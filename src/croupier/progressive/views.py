"""How a progressive is shown as JSON — its status and § 605a.7(a) meters, awards, events — and
the parsing of what commands and the service are given (a paytable spec, a signed amount): one
public module that ``croupier meters`` and the HTTP service both use (docs/schemas/meters-*.json).
"""

from __future__ import annotations

import difflib
from datetime import UTC, datetime
from typing import Any

from croupier.errors import InputError
from croupier.progressive.meterset import ProgressiveMeters
from croupier.progressive.model import AwardStatus, format_micros
from croupier.progressive.records import Award, LedgerEvent, ProgressiveStatus
from croupier.table.progressive import progressive_wagers
from croupier.units import format_money, format_percent, parse_signed_amount

__all__ = [
    "award_dict",
    "event_dict",
    "progressive_paytable",
    "signed_cents",
    "significant_dict",
    "status_dict",
    "utc_iso",
]


def utc_iso(at: datetime) -> str:
    """``at`` as ISO 8601 with its UTC offset: the ledger writes UTC times, and SQLite gives
    them back without their zone."""
    return (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def award_dict(a: Award) -> dict[str, Any]:
    """An award as JSON (``croupier meters``, the service): docs/schemas/meters-status.
    ``validated_by`` is who validated it (paid after validation), ``None`` until then; a voided
    award names who voided it as ``voided_by`` instead (the ledger keeps one actor per award)."""
    voided = a.status is AwardStatus.VOIDED
    return {
        "award": a.id,
        "number": a.number,
        "progressive": a.progressive,
        "round": a.round_id,
        "table": a.table_id,
        "position": a.position,
        "outcome": a.outcome,
        "kind": a.kind.value,
        "status": a.status.value,
        "level": a.level.value if a.level else None,
        "share": format_percent(a.share) if a.share is not None else None,
        "amount": format_money(a.amount_cents),
        "amount_cents": a.amount_cents,
        "validated_by": None if voided else a.validated_by,
        **({"voided_by": a.validated_by} if voided else {}),
        **({"envy_for_position": a.source_position} if a.source_position is not None else {}),
    }


def status_dict(
    s: ProgressiveStatus, m: ProgressiveMeters, suspension: LedgerEvent | None = None
) -> dict[str, Any]:
    """A progressive's status and § 605a.7(a) meters as JSON (docs/schemas/meters-status), with
    ``suspended``: ``null`` in play, else who suspended it, why and since when (``suspension``,
    :meth:`~croupier.progressive.Ledger.suspension`)."""
    d = s.definition
    by_level = {lm.level: lm for lm in m.levels}
    off = suspension
    return {
        "suspended": None
        if off is None
        else {
            "by": off.event.actor,
            "reason": off.event.detail.get("reason"),
            "since": off.created_at.isoformat(),
        },
        "name": d.name,
        "section": d.section,
        "citation": f"58 Pa. Code § {d.section}",
        "paytable": d.paytable,
        "decks": d.decks,
        "wager": format_money(d.wager_cents),
        "wager_cents": d.wager_cents,
        "reset_timing": d.reset_timing.value,
        "envy_rule": d.envy_rule.value,
        "reseed_funding": d.reseed.value,
        "paytable_sha256": d.paytable_sha256,
        "submission_sha256": d.submission_sha256,
        "hit_policy": d.hit_policy.value if d.hit_policy is not None else None,
        "tables": list(s.tables),
        "levels": [
            {
                "level": lv.level.value,
                "seed": format_money(d.level(lv.level).seed_cents),
                "seed_cents": d.level(lv.level).seed_cents,
                "primary_rate": format_percent(d.level(lv.level).primary_rate),
                "secondary_rate": format_percent(d.level(lv.level).secondary_rate),
                "meter": format_micros(lv.meter),
                "held": format_micros(lv.held),
                "available": format_micros(lv.available),
                "reserve": format_micros(lv.reserve),
                "meter_micros": lv.meter,
                "held_micros": lv.held,
                "available_micros": lv.available,
                "reserve_micros": lv.reserve,
                "wagered": format_money(lv.wagered_cents),
                "wagered_cents": lv.wagered_cents,
                "paid": format_money(lv.paid_cents),
                "paid_cents": lv.paid_cents,
                "hits": lv.hits,
                "limit_cents": by_level[lv.level].limit_cents,
                "overflow_micros": by_level[lv.level].overflow_micros,
                "paid_by_attendant_cents": by_level[lv.level].paid_by_attendant_cents,
                "cumulative_paid_cents": by_level[lv.level].cumulative_paid_cents,
                "qualifying_wagers": by_level[lv.level].qualifying_wagers,
                "wins": by_level[lv.level].wins,
            }
            for lv in s.levels
        ],
        "paid_by_table_cents": m.paid_by_table_cents,
        "table_pays": m.table_pays,
        "pending": [award_dict(a) for a in s.pending],
    }


def event_dict(e: LedgerEvent) -> dict[str, Any]:
    """A ledger event as JSON (``croupier meters --history``, the service)."""
    ev = e.event
    return {
        "seq": ev.seq,
        "at": utc_iso(e.created_at),
        "progressive": e.progressive,
        "kind": ev.kind.value,
        "level": ev.level.value if ev.level else None,
        "round": ev.round_id,
        "table": ev.table_id,
        "position": ev.position,
        "award": ev.award_id,
        "meter_delta_micros": ev.delta.meter,
        "reserve_delta_micros": ev.delta.reserve,
        "held_delta_micros": ev.delta.held,
        "amount_cents": ev.amount_cents,
        "amount": None if ev.amount_cents is None else format_money(ev.amount_cents),
        "by": ev.actor,
        "role": ev.actor_role,
        "detail": dict(ev.detail),
    }


def progressive_paytable(spec: str, option: str = "--paytable") -> tuple[str, str]:
    """``'633b.3:1'`` or ``'match-the-dealer:1'`` → ``('633b.3', '1')``: the section of the
    regulation (a progressive wager's id names its section) and the paytable's id.
    :class:`~croupier.errors.InputError` for any other shape or wager, naming the value as
    ``option`` (the CLI's option; the service passes its body field's name)."""
    section, sep, key = (x.strip() for x in spec.partition(":"))
    if not sep or not section or not key:
        raise InputError(
            f"{option} is SECTION:PAYTABLE or WAGER:PAYTABLE, e.g. 633b.3:1 or "
            f"match-the-dealer:1, not {spec!r}"
        )
    by_wager = {w.id: w.section for w in progressive_wagers()}
    wanted = section.lower()
    if wanted in by_wager:
        return by_wager[wanted], key
    if section in by_wager.values():
        return section, key
    known = ", ".join(f"{w} ({s})" for w, s in by_wager.items())
    near = difflib.get_close_matches(wanted, list(by_wager), n=1)
    hint = f"did you mean {near[0]!r}? " if near else ""
    raise InputError(
        f"{option} {spec!r}: {section!r} is not a progressive wager; {hint}"
        f"the progressive wagers are {known}"
    )


def signed_cents(text: str, option: str) -> int:
    """A signed amount in dollars ('-5', '+$1.50', '0') as cents
    (:func:`~croupier.units.parse_signed_amount`); ``option`` names it in an error, which
    quotes the text as written."""
    return parse_signed_amount(text, option)


def significant_dict(e: LedgerEvent) -> dict[str, Any]:
    """One significant event as ``croupier meters events --json`` prints it."""
    ev = e.event
    detail = dict(ev.detail)
    code = str(detail.pop("code", ""))
    return {
        "seq": ev.seq,
        "at": utc_iso(e.created_at),
        "code": code,
        "progressive": e.progressive,
        "table": ev.table_id,
        "by": ev.actor,
        "role": ev.actor_role,
        "detail": detail,
    }
