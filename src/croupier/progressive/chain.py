"""The chained log's rows: each event a ``ledger_events`` row whose mac chains it to the one
before (:func:`~croupier.progressive.store.event_mac`), as the ledger's writers insert them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from croupier.inputs import check_text
from croupier.progressive.meters import EventDraft
from croupier.progressive.model import Role
from croupier.progressive.store import dumps, event_mac


def chain_rows(
    key: bytes,
    seq: int,
    mac: str,
    pid: int | None,
    drafts: Sequence[EventDraft],
    *,
    round_id: str | None,
    table_id: str | None,
    actor: str | None,
    role: Role | None,
    award_ids: Sequence[int] = (),
    at: datetime,
) -> tuple[list[dict[str, Any]], int, str]:
    """The ``ledger_events`` rows of ``drafts`` chained after the event ``seq`` whose mac is
    ``mac`` (each with its :func:`~croupier.progressive.store.event_mac`), and the new head
    (seq, mac). A draft's ``award`` indexes ``award_ids`` when it is given."""
    rows: list[dict[str, Any]] = []
    actor_role = role.value if role is not None else None
    for d in drafts:
        award_id = d.award
        if award_ids and award_id is not None:
            award_id = award_ids[award_id]
        if d.fixed_award is not None:
            award_id = d.fixed_award
        seq += 1
        delta = d.delta
        ev: dict[str, Any] = {
            "seq": seq,
            "progressive_id": pid,
            "kind": d.kind.value,
            "level": d.level.value if d.level is not None else None,
            "round_id": round_id,
            "table_id": table_id,
            "position": d.position,
            "award_id": award_id,
            "meter_delta": delta.meter,
            "reserve_delta": delta.reserve,
            "held_delta": delta.held,
            "wagered_delta": delta.wagered_cents,
            "paid_delta": delta.paid_cents,
            "hits_delta": delta.hits,
            "amount_cents": d.amount_cents,
            "actor": actor,
            "actor_role": actor_role,
            "detail": dumps(d.detail),
            "created_at": at,
        }
        try:
            mac = event_mac(key, mac, ev)
        except UnicodeEncodeError:  # text that is not Unicode (a command line's byte, …)
            _refuse_text(ev, d)
            raise
        ev["mac"] = mac
        rows.append(ev)
    return rows, seq, mac


def _refuse_text(ev: dict[str, Any], draft: EventDraft) -> None:
    """:class:`~croupier.errors.UnicodeTextError` naming the text of event ``ev`` that is not
    Unicode text (a lone surrogate: a command line's byte that was not UTF-8 becomes one), found
    where the chain encodes the event: nothing of the transaction is written. Every string the
    service reads is refused earlier (:func:`croupier.inputs.check_text`); this is the same rule
    for the library and the command line, whose free text (a reason, an approval) has no other
    rule."""
    text = {k: ev[k] for k in ("round_id", "table_id", "actor")}
    check_text({**text, "detail": dict(draft.detail)}, f"the {draft.kind.value} event")


def stored_detail(text: str) -> dict[str, Any]:
    """An event's ``detail`` column as a dict."""
    d = json.loads(text)
    return d if isinstance(d, dict) else {}


__all__ = ["chain_rows", "stored_detail"]
