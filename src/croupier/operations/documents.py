"""The document a settled or voided round is stored and answered as (``POST /rounds/settle``,
an open table's ``settle`` and ``void`` steps).

The document of a settled round is the item ``croupier settle --json`` prints for a round —
``round``, ``submission``, ``base_game`` (who settles the base game: ``"croupier"`` or
``"external"``), ``cards``, ``events``, ``settlement``
(:meth:`~croupier.wagers.at_table.RoundSettlement.to_json`), ``net_cents`` — with the table, the
digests of the Rules Submission and of the round's content
(:func:`~croupier.table.progressive.round_content`), what each progressive fed paid, who recorded
the round and when. A round fed to a progressive shows the ledger's pay on its progressive lines
(:func:`shown_round`); one fed to none says a share of a meter is valued at the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.errors import citation
from croupier.progressive import Award, Ledger, RoundSettlement
from croupier.progressive.views import award_dict
from croupier.table.progressive import round_content, valued_at_seed, wager_of, with_ledger_amounts
from croupier.table.round import TableRound, settled_net
from croupier.units import format_money
from croupier.wagers.at_table import signed_money


@dataclass(frozen=True)
class Settled:
    """A round settled and fed, ready to store: its document and what identifies it."""

    table: str
    round_id: str
    content: str
    wagers: tuple[str, ...]
    net_cents: int
    document: dict[str, Any]


_KINDS: dict[tuple[str, str], tuple[str, int]] = {}


def _round_award(a: Award) -> dict[str, Any]:
    """An award as a stored round records it (docs/schemas ``RoundAward``): :func:`award_dict`
    with its ``number`` only where it has one (a meter award; a round stored before award
    numbers has none, so the key is absent rather than null)."""
    d = award_dict(a)
    if d["number"] is None:
        del d["number"]
    return d


def progressive_kind(ledger: Ledger, name: str) -> tuple[str, int]:
    """The wager id progressive ``name`` is recorded under and its wager size (a name is never
    given to another progressive, and neither changes by a reconfiguration, so they are looked
    up once)."""
    key = (ledger.url, name)
    if key not in _KINDS:
        defn = ledger.definition(name)
        _KINDS[key] = (wager_of(defn), defn.wager_cents)
    return _KINDS[key]


def shown_round(
    rnd: TableRound,
    results: Sequence[tuple[str, RoundSettlement]],
    kind: Callable[[str], tuple[str, int]],
    *,
    fed_any: bool = True,
) -> TableRound:
    """``rnd`` as it is shown and stored: fed to any progressive (``fed_any``), each progressive
    line paid what the ledger paid (``results``: ``(progressive name, its settlement)``;
    :func:`~croupier.table.progressive.with_ledger_amounts`, a seat paid only by the progressive
    of its bet's size; ``kind(name)`` the wager id and size of progressive ``name``); fed to
    none, each share-of-meter line valued at the seed
    (:func:`~croupier.table.progressive.valued_at_seed`)."""
    if not fed_any:
        return valued_at_seed(rnd)
    by_wager = [(kind(name)[0], result) for name, result in results]
    sizes = {name: kind(name)[1] for name, _ in results}
    return with_ledger_amounts(rnd, by_wager, sizes)


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
    shown: TableRound | None = None,
) -> Settled:
    """The document of ``rnd`` settled, with what each progressive fed paid (``results``:
    ``(progressive name, its settlement)``); ``fed_any``: whether the round was fed to any
    progressive (a share of a meter is then the ledger's award, else valued at the seed);
    ``shown``: the round as :func:`shown_round` shows it, if the caller has it."""
    fed = [
        {
            "progressive": name,
            "ledger_round": result.round_id,
            "idempotency_key": result.idempotency_key,
            "awards": [_round_award(a) for a in result.awards],
        }
        for name, result in results
    ]
    if shown is None:
        shown = shown_round(
            rnd, results, lambda name: progressive_kind(ledger, name), fed_any=fed_any
        )
    wagers = tuple(sorted({b.wager for b in rnd.bets}))
    net = settled_net(shown.events)
    doc: dict[str, Any] = {
        "table": table,
        "round": round_id,
        "submission": shown.submission.name or shown.submission.game.value,
        "submission_digest": submission_digest,
        "content_digest": content,
        "base_game": rnd.base_game.value,
        "cards": shown.cards.describe() if shown.cards else None,
        "events": [e.to_json() for e in shown.events],
        "settlement": shown.settlement().to_json(),
        "net_cents": net,
        "wagers": list(wagers),
        "progressives": fed,
        "recorded_by": by,
    }
    return Settled(table, round_id, content, wagers, net, doc)


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
        "base_game": rnd.base_game.value,
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


__all__ = [
    "VOID_PAYS",
    "Settled",
    "document",
    "progressive_kind",
    "shown_round",
    "void_document",
]
