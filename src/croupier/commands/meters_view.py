"""How ``croupier meters`` shows a progressive: its status and § 605a.7(a) meters, awards and
events, as tables and as the JSON of docs/schemas/meters-status.schema.json."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table

from croupier.cards import decks_phrase
from croupier.commands.common import out, shown
from croupier.errors import CroupierError, one_line
from croupier.progressive import (
    HitPolicy,
    LedgerEvent,
    ProgressiveDefinition,
    ProgressiveMeters,
    ProgressiveStatus,
    format_micros,
)
from croupier.units import format_money, format_percent

if TYPE_CHECKING:
    from croupier.progressive.audit import AuditReport
    from croupier.progressive.checkpoint import Checkpoint
    from croupier.progressive.configuration import ConfigurationCheck


def _signed(micros: int) -> str:
    return "" if micros == 0 else ("+" if micros > 0 else "") + format_micros(micros)


_RESET_WORDS = {
    "on-validation": "a share award leaves the meter, and a 100% award resets it, when a "
    "floorperson validates it",
    "on-award": "a share award leaves the meter, and a 100% award resets it, when it is made "
    "(jackpot lock)",
}
_RESEED_WORDS = {
    "reserve": "a reset is funded from the reserve, the house adding what it lacks of the seed",
    "house": "a reset is a new seed from the house, the reserve added on top",
}
_HIT_WORDS = {
    None: "",
    HitPolicy.FIRST_TAKES_METER: "near-simultaneous hits: the first takes the meter, the next "
    "the reseeded value; ",
    HitPolicy.SHARE: "near-simultaneous hits share the first's value; ",
}
_ENVY_WORDS = {
    "each": "an envy bonus for every other player's qualifying hand",
    "largest": "one envy bonus a round, the largest",
}


def _envy_words(d: ProgressiveDefinition) -> str:
    """The envy rule in words, or that the paytable pays none (Match the Dealer, the Four Card
    Poker progressives: no line carries an envy bonus)."""
    if not any(line.envy_cents for line in d.lines):
        return "no envy bonus on this paytable"
    return _ENVY_WORDS[d.envy_rule.value]


def _outcome_label(d: ProgressiveDefinition, outcome: str) -> str:
    """A paytable line's label for an outcome id ("Two suited match, aces of spades"), else
    the id."""
    try:
        from croupier.paytables import builtin_paytables

        table = builtin_paytables().get(d.section, d.paytable, d.decks)
        line = table.line(outcome)
    except CroupierError:  # a label is a courtesy (a user's paytable): the id stands in for it
        return outcome
    return line.label if line is not None else outcome


def _print_status(s: ProgressiveStatus, m: ProgressiveMeters) -> None:
    d = s.definition
    by_level = {lm.level: lm for lm in m.levels}
    tables = ", ".join(shown(x) for x in s.tables) or "no table linked"
    t = Table(
        title=f"{shown(d.name)} · § {d.section} paytable {d.paytable} · {decks_phrase(d.decks)} · "
        f"{format_money(d.wager_cents)} wager · {tables}",
        title_justify="left",
        caption=f"{_RESET_WORDS[d.reset_timing.value]}; {_envy_words(d)}; "
        f"{_RESEED_WORDS[d.reseed.value]}; {_HIT_WORDS[d.hit_policy]}paid by the table "
        f"(odds lines, envy): {format_money(m.paid_by_table_cents)} in {m.table_pays} pays "
        "(§ 605a.7(a))",
        caption_justify="left",
    )
    for col in ("Level", "Seed", "Rates", "Meter", "Held", "Available", "Reserve", "Limit"):
        t.add_column(col, justify="left" if col in ("Level", "Rates") else "right")
    c = Table(title="Counts and payouts (§ 605a.7(a))", title_justify="left")
    for col in ("Level", "Wagers", "Hits", "Wins", "Paid by attendant", "Paid out", "Overflow"):
        c.add_column(col, justify="left" if col == "Level" else "right")
    for lv in s.levels:
        ld = d.level(lv.level)
        rates = format_percent(ld.primary_rate)
        if ld.secondary_rate:
            rates += f" + {format_percent(ld.secondary_rate)}"
        t.add_row(
            lv.level.value,
            format_money(ld.seed_cents),
            rates,
            format_micros(lv.meter),
            format_micros(lv.held),
            format_micros(lv.available),
            format_micros(lv.reserve),
            "none" if ld.limit_cents is None else format_money(ld.limit_cents),
        )
        lm = by_level[lv.level]
        c.add_row(
            lv.level.value,
            str(lm.qualifying_wagers),
            str(lm.hits),
            str(lm.wins),
            format_money(lm.paid_by_attendant_cents),
            format_money(lm.cumulative_paid_cents),
            format_micros(lm.overflow_micros),
        )
    out.print(t)
    out.print(c)
    # the approved configuration's digests (§ 605a.7), whole: no wrapping inside a digest
    out.print(f"Approved paytable SHA-256 {d.paytable_sha256 or 'not stored'}", soft_wrap=True)
    out.print(
        f"Approved Rules Submission SHA-256 {d.submission_sha256 or 'not stored'}",
        soft_wrap=True,
    )
    if s.pending:
        rule = d.rule("(h)(3)")  # the definition's own section: § 633b.2 or § 633b.3
        p = Table(title=f"Pending validation (§ {rule})", title_justify="left")
        # the award's number (what people are told) and its id (what `validate` takes)
        for col in ("Award", "Id", "Round", "Table", "Seat", "Outcome", "Pays", "Amount"):
            p.add_column(
                col, justify="left" if col in ("Round", "Table", "Outcome", "Pays") else "right"
            )
        for a in s.pending:
            share = f"{format_percent(a.share)} {a.level.value}" if a.share and a.level else ""
            p.add_row(
                str(a.number) if a.number is not None else "—",
                str(a.id),
                shown(a.round_id),
                shown(a.table_id),
                str(a.position),
                shown(_outcome_label(d, a.outcome)),
                share,
                format_money(a.amount_cents),
            )
        out.print(p)


def _print_history(events: list[LedgerEvent]) -> None:
    several = len({e.progressive for e in events if e.progressive is not None}) > 1
    t = Table(
        title="Ledger",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    t.add_column("Seq", justify="right", no_wrap=True)
    t.add_column("Event", no_wrap=True)
    if several:
        t.add_column("Progressive", no_wrap=True)
    for col in ("Level", "Table", "Round", "Seat", "Award"):
        t.add_column(col, no_wrap=True)
    for col in ("Meter Δ", "Reserve Δ", "Held Δ", "Amount"):
        t.add_column(col, justify="right", no_wrap=True)
    t.add_column("By", no_wrap=True)
    t.add_column("Note")
    for e in events:
        ev = e.event
        who = f"{shown(ev.actor)} ({ev.actor_role})" if ev.actor else ""
        t.add_row(
            str(ev.seq),
            ev.kind.value,
            *([shown(e.progressive or "")] if several else []),
            ev.level.value if ev.level else "",
            shown(ev.table_id or ""),
            shown(ev.round_id or ""),
            str(ev.position) if ev.position is not None else "",
            str(ev.award_id) if ev.award_id is not None else "",
            _signed(ev.delta.meter),
            _signed(ev.delta.reserve),
            _signed(ev.delta.held),
            format_money(ev.amount_cents) if ev.amount_cents is not None else "",
            who,
            shown(_note(e)),
        )
    out.print(t)


def _note(e: LedgerEvent) -> str:
    """A few words on what the event was, for people."""
    ev, d = e.event, e.event.detail
    k = ev.kind.value
    if k == "user":
        return f"{d.get('user')}: {d.get('role')}"
    if k == "accept":
        return "seats " + ", ".join(map(str, d.get("positions", [])))
    if k == "chip-count":
        return f"{d.get('chips')} chips, {d.get('wagers')} wagers"
    if k == "contribution":
        return f"{d.get('wagers')} wagers"
    if k in ("award", "envy"):
        src = d.get("source_position")
        return str(d.get("outcome", "")) + (f" at seat {src}" if src is not None else "")
    if k == "settled":
        return f"key {d.get('idempotency_key')}"
    if k in ("hold", "void-round", "adjustment"):
        return str(d.get("reason", ""))
    return ""


def checkpoints_said(
    checkpoints: Sequence[Checkpoint], where: Path | None, automatic: int, skipped: bool
) -> list[str]:
    """What ``verify`` says of the checkpoints it checked, which all held (a failing one is an
    error naming each that fails): one line for the given ones and one for those of
    ``$CROUPIER_CHECKPOINT_DIR`` (``where``, ``automatic`` of them), never a line per file."""
    lines: list[str] = []
    given = checkpoints[: len(checkpoints) - automatic]
    if len(given) == 1:
        c = given[0]
        lines.append(
            f"checkpoint {c.source} (event {c.seq}, made {c.doc['time']}) is held by the log"
        )
    elif given:
        seqs = [c.seq for c in given]
        lines.append(
            f"{len(given)} checkpoints given (events {min(seqs)} to {max(seqs)}) are all held by "
            "the log"
        )
    if skipped:
        return lines
    if where is None:
        return lines
    if automatic == 0:
        lines.append(
            f"$CROUPIER_CHECKPOINT_DIR ({where}) holds no automatic checkpoint of this ledger yet"
        )
        return lines
    seqs = [c.seq for c in checkpoints[len(given) :]]
    lines.append(
        f"{automatic} automatic checkpoints in $CROUPIER_CHECKPOINT_DIR ({where}; events "
        f"{min(seqs)} to {max(seqs)}) are all held by the log (--no-checkpoint-dir skips them)"
    )
    return lines


def verify_document(
    report: AuditReport, checkpoints: list[Checkpoint], checks: dict[str, ConfigurationCheck]
) -> dict[str, Any]:
    """``croupier meters verify --json``'s document (docs/schemas/meters-verify.schema.json):
    the progressives of ``checks``, their levels as ``report`` replayed them."""
    micros = {n: {lv.value: s.meter for lv, s in report.levels[n].items()} for n in checks}
    results = {
        n: {lv: format_micros(m) for lv, m in levels.items()} for n, levels in micros.items()
    }
    return {
        "events": report.events,
        "chain_checked": report.chain_checked,
        "head_kept": report.head_kept,
        "head_recreated": report.head_recreated,
        "checkpoints": [{"file": c.source, "seq": c.seq} for c in checkpoints],
        "verified": results,
        "verified_micros": micros,
        "configuration": {
            n: {
                "paytable_sha256": c.approved_paytable,
                "running_paytable_sha256": c.running_paytable,
                "submission_sha256": c.approved_submission,
                "running_submission_sha256": c.running_submission,
            }
            for n, c in checks.items()
        },
    }


def print_verified(report: AuditReport, checks: dict[str, ConfigurationCheck]) -> None:
    """Each progressive of ``checks`` verified: its levels as ``report`` replayed them and its
    configuration digests."""
    for n in checks:
        shown = ", ".join(
            f"{lv.value} {format_micros(s.meter)}" for lv, s in report.levels[n].items()
        )
        c, named = checks[n], one_line(n)
        out.print(f"{named}: replayed, every level matches the ledger ({shown})")
        if c.approved_paytable is None:
            out.print(f"{named}: made before configuration digests: none to compare")
        else:
            sub = (
                "the submission's matches too"
                if c.approved_submission and c.running_submission
                else "no submission compared"
            )
            out.print(
                f"{named}: running paytable digest {c.running_paytable} is the approved one; {sub}"
            )
