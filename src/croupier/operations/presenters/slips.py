"""The hand-pay slip of a progressive award (:mod:`croupier.progressive.slips`): its JSON, its
printable HTML and its lines of text — what ``croupier meters slip AWARD`` and ``GET
/awards/{award_id}/slip`` give. The amount is printed in figures
(:func:`~croupier.units.format_money`) and in words (:func:`~croupier.units.money_words`); each
ledger event of the award with its sequence number and chain MAC, to check the paper against the
ledger (``croupier meters verify``); signature lines for who pays, a witness, the player and a
supervisor (N.J.A.C. 13:69D-1.40(e))."""

from __future__ import annotations

import html
from typing import Any

from croupier.operations.presenters.liability import page
from croupier.progressive import ProgressiveDefinition
from croupier.progressive.model import AwardStatus, EventKind
from croupier.progressive.records import award_words
from croupier.progressive.slips import AwardTrail, TrailEvent
from croupier.progressive.views import award_dict, utc_iso
from croupier.units import format_money, money_words

SIGNATURES = (
    "Paid by (attendant)",
    "Witness",
    "Supervisor",
    "Player (received)",
)
"""The slip's signature lines, in order."""


def _event(e: TrailEvent) -> dict[str, Any]:
    ev = e.event.event
    return {
        "seq": e.seq,
        "kind": e.kind.value,
        "at": utc_iso(e.at),
        "by": ev.actor,
        "role": ev.actor_role,
        "mac": e.mac,
    }


def slip_dict(trail: AwardTrail, defn: ProgressiveDefinition, cards: str | None) -> dict[str, Any]:
    """The slip as JSON (docs/schemas/meters-slip.schema.json): the award as ``croupier meters``
    shows it, with the amount in words, the paytable line's label, the section, the round's
    ``cards`` (``None`` when no stored round holds them), when it was won, who validated it
    and when it was paid, and its ledger events with their chain MACs."""
    a = trail.award
    validation = trail.first(EventKind.VALIDATION)
    payment = trail.first(EventKind.PAYMENT)
    voided = trail.voided
    return {
        **award_dict(a),
        "amount_words": money_words(a.amount_cents),
        "hand": next((x.label for x in defn.lines if x.outcome == a.outcome), a.outcome),
        "citation": f"58 Pa. Code § {defn.section}",
        "paytable": defn.paytable,
        "cards": cards,
        "won_at": utc_iso(trail.made.at),
        "validated_at": utc_iso(validation.at) if validation else None,
        "paid_at": utc_iso(payment.at) if payment else None,
        "paid_by": payment.event.event.actor if payment else None,
        "void_reason": voided.event.event.detail.get("reason") if voided else None,
        "ledger": [_event(e) for e in trail.events],
    }


def _words(slip: dict[str, Any]) -> str:
    """The award as people are told it: ``award 1 (id 3)``, ``odds pay (id 2)``."""
    return award_words(slip["award"], slip["number"], slip["kind"])


def slip_lines(slip: dict[str, Any]) -> list[tuple[str, str]]:
    """The slip's labelled lines, in the order it prints them (text and HTML alike)."""
    status = slip["status"]
    who = slip["validated_by"] or "—"
    if status == AwardStatus.VOIDED.value:
        who = f"voided by {slip.get('voided_by')}: {slip['void_reason']}"
    lines = [
        ("Award", f"{_words(slip)} ({status})"),
        ("Progressive", f"{slip['progressive']} · {slip['citation']} paytable {slip['paytable']}"),
        ("Level", f"{slip['level'] or '—'}, share {slip['share'] or '—'}"),
        ("Amount", slip["amount"]),
        ("In words", slip["amount_words"]),
        ("Table", slip["table"]),
        ("Seat", str(slip["position"])),
        ("Round", slip["round"]),
        ("Hand", slip["hand"]),
        ("Cards", slip["cards"] or "not on a stored round (see the table's record)"),
        ("Won at", slip["won_at"]),
        (
            "Validated by",
            f"{who}" + (f" at {slip['validated_at']}" if slip["validated_at"] else ""),
        ),
        ("Paid", f"{slip['paid_at']} (ledger, by {slip['paid_by']})" if slip["paid_at"] else "—"),
    ]
    for e in slip["ledger"]:
        lines.append(
            (f"Ledger #{e['seq']}", f"{e['kind']} {e['at']} {e['by'] or ''} MAC {e['mac']}")
        )
    return lines


def slip_html(slip: dict[str, Any]) -> str:
    """The slip as a printable HTML page: its lines, then the signature lines."""
    rows = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in slip_lines(slip)
    )
    signs = "".join(
        f'<p class="sign">{html.escape(s)}: ______________________________ '
        "Date/time: ____________</p>"
        for s in SIGNATURES
    )
    body = (
        f'<table class="slip"><tbody>{rows}</tbody></table>{signs}'
        "<p><small>Check against the ledger: each event's sequence number and MAC are the ones "
        "<code>croupier meters verify</code> recomputes.</small></p>"
    )
    title = f"Hand-pay slip: {_words(slip)}, {format_money(slip['amount_cents'])}"
    return page(title, body)


__all__ = ["SIGNATURES", "slip_dict", "slip_html", "slip_lines"]
