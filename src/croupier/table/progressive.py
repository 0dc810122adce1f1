"""The progressive wagers of a table round, as the table sees them (§ 605a.7, § 633b.2(d)–(h),
§ 633b.3(d)–(h)): which registered wagers are progressive, the offers a Rules Submission makes and
the bets a round holds on them, a round's identity and content digest, and a round's lines
re-priced with what a ledger paid.

A :class:`~croupier.table.round.TableRound` is a pure value; the ledger is durable. This module
knows no ledger: which progressive takes a bet is
:mod:`croupier.progressive.offers`, and feeding a round to a ledger in the regulated order —
the wagers accepted at their positions (§ 633b.2(d)(1)), the lock-out (§ 633b.2(d)(2)), the chip
count (§ 633b.2(f)) and the settlement of the qualifying hands in one transaction under an
idempotency key (``progressive/table/round``) — is :mod:`croupier.operations.feeding`.

Round identity: a round is its table and round id (a round file's ``id``, else its file name's
stem, :func:`round_id_of`) — on the ledger ``TABLE/ROUND`` — plus :func:`round_content`, the
SHA-256 of everything in it (seats, wagers, amounts, cards, every event). Fed again with the same
content it is a replay (the first settlement, nothing changed); with other content it is a
:class:`~croupier.errors.RoundConflictError` and nothing is changed.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Protocol

import orjson

from croupier.cards import decks_phrase
from croupier.errors import (
    CroupierError,
    InputError,
    LinkError,
    NameRuleError,
    UnknownPaytableError,
    citation,
)
from croupier.names import round_id as checked_round_id
from croupier.paytables import Paytable
from croupier.table.round import SETTLED_NET, Action, Event, TableRound
from croupier.table.submission import RulesSubmission
from croupier.units import format_money
from croupier.wagers import Wager, all_wagers
from croupier.wagers.at_table import signed_money


class ProgressiveKind(Protocol):
    """What the table reads of a progressive's definition to know its wager
    (:class:`croupier.progressive.ProgressiveDefinition`): its section and paytable."""

    @property
    def section(self) -> str:
        """The section of the progressive's paytable (``633b.2``)."""

    @property
    def paytable(self) -> str:
        """The paytable's key (``P1``)."""


class LedgerAward(Protocol):
    """What :func:`with_ledger_amounts` reads of an award a ledger made
    (:class:`croupier.progressive.records.Award`)."""

    @property
    def id(self) -> int:
        """The award's id on the ledger."""

    @property
    def position(self) -> int:
        """The seat the award pays."""

    @property
    def source_position(self) -> int | None:
        """The seat whose hand an envy bonus is for (``None``: the seat's own hand)."""

    @property
    def amount_cents(self) -> int:
        """What the player is handed."""

    @property
    def status(self) -> Enum:
        """``pending``, ``paid`` or ``voided`` (its ``value``)."""

    @property
    def validated_by(self) -> str | None:
        """The floorperson who validated it."""


class LedgerSettlement(Protocol):
    """What :func:`with_ledger_amounts` reads of a ledger's settlement of a round
    (:class:`croupier.progressive.records.RoundSettlement`)."""

    @property
    def progressive(self) -> str:
        """The progressive's name."""

    @property
    def awards(self) -> Sequence[LedgerAward]:
        """Every award of the round."""


def progressive_wagers() -> tuple[Wager, ...]:
    """Every registered wager with a progressive paytable (a meter to feed), in registry order:
    Jackpot Party (§ 633b.2), Match the Dealer (§ 633b.3), the Four-Card and Five-Card
    Progressive Payout wagers (§ 641a.7(d)(4), (5)). Found through the registry, so a new
    progressive wager needs no change here."""
    return tuple(w for w in all_wagers() if any(t.progressive is not None for t in _tables(w)))


def _tables(w: Wager) -> tuple[Paytable, ...]:
    try:
        return w.paytables()
    except CroupierError:  # pragma: no cover - the shipped paytables load
        return ()


@functools.lru_cache(maxsize=256)
def progressive_wager(section: str, paytable: str) -> Wager:
    """The registered wager a progressive of § ``section`` paytable ``paytable`` is played as:
    the section's one progressive wager, or where a section has several (§ 641a.7(d)(4), (5))
    the one whose paytables hold that key.

    Raises :class:`~croupier.errors.InputError` for a section with no progressive wager and
    :class:`~croupier.errors.UnknownPaytableError` for a key none of the section's several
    progressive wagers has.
    """
    of_section = [w for w in progressive_wagers() if w.section == section]
    if not of_section:
        known = ", ".join(f"{w.id} (§ {w.section})" for w in progressive_wagers())
        raise InputError(f"§ {section} has no progressive wager (the progressive wagers: {known})")
    if len(of_section) == 1:
        return of_section[0]
    found = [
        w
        for w in of_section
        if any(t.progressive is not None and t.key.upper() == paytable.upper() for t in _tables(w))
    ]
    if len(found) != 1:
        keys = ", ".join(
            f"{t.key} ({w.id})" for w in of_section for t in _tables(w) if t.progressive is not None
        )
        raise UnknownPaytableError(
            f"§ {section} has no progressive paytable {paytable!r} (its progressive paytables: "
            f"{keys})"
        )
    return found[0]


def wager_of(defn: ProgressiveKind) -> str:
    """The wager id the table records ``defn``'s progressive wagers under (registry-driven,
    :func:`~croupier.table.progressive.progressive_wager`)."""
    return progressive_wager(defn.section, defn.paytable).id


def round_id_of(path: str | Path) -> str:
    """The round id of a round file: its ``"id"`` if it has one, else the file name's stem —
    either one a round's id by the rule of :func:`croupier.names.round_id` (no control, format
    or invisible character, no space, no ``/``, at most 100 characters, as given), else a
    :class:`~croupier.errors.NameRuleError` naming the file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None  # settle_file has reported the file already
    rid = data.get("id") if isinstance(data, dict) else None
    try:
        return checked_round_id(p.stem if rid is None else rid)
    except NameRuleError as exc:
        whose = 'its "id"' if rid is not None else 'its file name (give the round an "id")'
        exc.add_note(f"{p}: {whose}")
        raise


def round_content(rnd: TableRound) -> str:
    """SHA-256 (hex) of the whole round: the submission's game and decks, every bet (seat, wager,
    amount, player), the cards and every event of the record.

    The "No more bets", deal and "round settled" events are counted with the paragraphs the
    record cited for them when round identities were first stored — the base game's lock-out,
    deal and procedure (``BaseGame.lockout_rule``, ``deal_rule``, ``procedure_rule``) — not the
    ones they cite now (the table's own: :func:`~croupier.table.round_queries.lockout_rule`,
    :attr:`~croupier.table.round.TableRound.deal_rule`, ``settlement_rule``): a citation is the
    record's words about the rules, not the round's content, and a round stored (or fed to a
    ledger) before a citation changed is the same round when it is posted again, never a
    conflict with itself."""
    events = [e.to_json() for e in rnd.events]
    base = rnd.base
    legacy = {
        "no-more-bets": base.lockout_rule,
        "deal": base.deal_rule,
        "settle": base.procedure_rule,
    }
    for e in events:
        was = legacy.get(str(e["action"]))
        if was is not None and e["section"] != was:
            e["section"], e["citation"] = was, citation(was)
    data = {
        "game": rnd.submission.game.value,
        "decks": rnd.submission.decks,
        "bets": [[b.seat, b.wager, b.amount_cents, b.player] for b in rnd.bets],
        "cards": [str(c) for c in rnd.cards.every_card()] if rnd.cards is not None else None,
        "events": events,
    }
    return hashlib.sha256(canonical_json(data)).hexdigest()


def canonical_json(data: object) -> bytes:
    """``data`` as canonical JSON, UTF-8: ``json.dumps(data, sort_keys=True, separators=(",",
    ":"), ensure_ascii=False).encode()``, byte for byte — made by orjson, whose bytes are those
    for the values a round holds (text, integers, ``None``, booleans, lists, objects with text
    keys; tests/test_replay_identity.py checks it on any such value). A value orjson refuses (an
    integer beyond 64 bits, text with a lone surrogate) goes through :mod:`json` as before (so
    the same digest, or the same error)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.encode()


@dataclass(frozen=True)
class ProgressiveOffer:
    """One progressive wager a table takes: the wager id, its size, and the section, paytable and
    deck count it is played under. A $1 and a $5 wager are two offers (§ 633b.2(e), § 633b.3(e)):
    each feeds a progressive of its own size."""

    wager: str
    amount_cents: int
    section: str
    paytable: str
    decks: int

    def describe(self) -> str:
        """``'the $5 jackpot-party wager (§ 633b.2 paytable P10, 6 decks)'``."""
        return (
            f"the {format_money(self.amount_cents)} {self.wager} wager (§ {self.section} "
            f"paytable {self.paytable}, {decks_phrase(self.decks)})"
        )


def _offer(sub: RulesSubmission, wager: str, amount_cents: int) -> ProgressiveOffer | None:
    offered = sub.offered(wager)
    t = offered.paytable if offered is not None else None
    if t is None or t.progressive is None:
        return None
    return ProgressiveOffer(wager, amount_cents, t.section, t.key, sub.decks)


def progressive_offers(sub: RulesSubmission) -> tuple[ProgressiveOffer, ...]:
    """Every progressive wager ``sub`` offers, one per wager and size (a wager offered at $1 and
    $5 is two), in the submission's order: the wagers whose paytable has meters (the registry's
    progressive wagers, :func:`progressive_wagers`)."""
    return tuple(
        o for w in sub.wagers for a in w.amounts_cents if (o := _offer(sub, w.wager, a)) is not None
    )


def progressive_bets(rnd: TableRound) -> tuple[tuple[int, ProgressiveOffer], ...]:
    """Each progressive bet of ``rnd``: its index in ``rnd.bets`` (the order the bets were
    placed) and the offer it was placed on."""
    return tuple(
        (i, o)
        for i, b in enumerate(rnd.bets)
        if (o := _offer(rnd.submission, b.wager, b.amount_cents)) is not None
    )


def system_rule(w: Wager) -> str:
    """The paragraph that puts progressive wager ``w`` on a progressive table game system: the
    one holding its lock-out (§ 633b.2(d), § 633b.3(d)), else the one placing it on the
    progressive wagering device (§ 641a.7(d)(4), (5))."""
    lockout = w.lockout_rule
    return lockout.rsplit("(", 1)[0] if lockout and lockout.count("(") > 1 else w.settle_rule


def no_progressive_error(offer: ProgressiveOffer, table: str, linked: Sequence[str]) -> LinkError:
    """The refusal of a progressive wager no progressive of its table takes (§ 605a.8 and the
    wager's own section, which requires the progressive table game system)."""
    w = progressive_wager(offer.section, offer.paytable)
    rule = system_rule(w)
    there = (
        f"the progressives linked to it ({', '.join(linked)}) take other wagers"
        if linked
        else "no progressive is linked to it"
    )
    return LinkError(
        f"{offer.describe()} at table {table} has no progressive behind it: {there} "
        f"({citation(rule)}: the {w.name} wager is placed and settled through a progressive "
        "table game system; link the table to a progressive of that paytable, deck count and "
        "wager size)",
        section="605a.8",
    )


def suspended_error(progressive: str) -> LinkError:
    """The refusal of a wager on a progressive suspended for a reconfiguration (§ 605a.8; NY 9
    NYCRR 5321.18(b)(4) supporting) — the ledger's own words (:meth:`ProgressiveSystem.accept_wagers
    <croupier.progressive.ProgressiveSystem.accept_wagers>`), said when the bet is placed."""
    return LinkError(
        f"progressive {progressive!r} is suspended (its reason: GET /progressives/"
        f"{progressive}, or croupier meters --history): no wager is accepted at its tables until it is "
        "resumed",
        section="605a.8",
        also="NY 9 NYCRR 5321.18(b)(4)",  # croupier.progressive.configuration's rule
    )


def ledger_round_id_of(table: str, round_id: str) -> str:
    """The ledger's id of round ``round_id`` at ``table``: ``TABLE/ROUND``."""
    return f"{table}/{round_id}"


SEED_NOTE = "valued at the meter's seed; the progressive meter decides the pay"
"""What a progressive line says when no ledger was fed: the table values a share of the meter at
the seed, the ledger pays it from the live meter."""


def award_status_words(status: str, by: str | None) -> str:
    """What became of an award, as a line's pay says it: ``pending validation``, ``paid,
    validated by flo``, ``voided by flo: not paid`` (``status`` the award's status value)."""
    if status == "paid":
        return f"paid, validated by {by}" if by else "paid"
    if status == "voided":
        return f"voided by {by}: not paid" if by else "voided: not paid"
    return "pending validation"


def with_ledger_amounts(
    rnd: TableRound,
    settlements: Sequence[tuple[str, LedgerSettlement]],
    sizes: Mapping[str, int] | None = None,
) -> TableRound:
    """``rnd`` with every progressive line's pay replaced by the ledger's: for each
    ``(wager id, settlement)``, a seat's return is what the ledger awarded it (its own award
    and envy bonuses, stake included where the definition returns it), its net that less the
    wager; an envy bonus line (``from_seat``) the ledger's envy award for that seat's hand. A
    share of a meter names its award and what became of it — pending validation, paid (validated
    by whom) or voided (it then returns nothing, and nothing awaits validation): the awards given
    are the ledger's as the caller read them (at settlement, or now for a round settled before).
    The amounts printed and written as JSON for those lines (events and settlement lines) are
    then the ledger's.
    ``sizes``: each progressive's wager size by name — a seat is then paid only by the
    progressive of its own bet's size (a $1 and a $5 progressive of one wager fed together)."""
    events = list(rnd.events)
    for wager, settlement in settlements:
        size = (sizes or {}).get(settlement.progressive)
        for i, e in enumerate(events):
            if e.action is not Action.SETTLEMENT or e.wager != wager or e.seat is None:
                continue
            if size is not None and rnd.seat_bets(e.seat).get(wager) != size:
                continue  # another size's progressive pays this seat
            # a bet's line: its own award; an envy bonus line: the award for its from_seat's hand
            source = e.line.from_seat if e.line is not None else None
            mine = [
                a for a in settlement.awards if a.position == e.seat and a.source_position == source
            ]
            # an award voided since pays nothing (§ 633b.2(h)(1), § 633b.3(h)(1): the wager lost)
            returned = sum(a.amount_cents for a in mine if a.status.value != "voided")
            pays = e.pays
            for a in mine:  # a share of a meter: its award, and what became of it
                if a.source_position is None and (
                    a.status.value == "pending" or a.validated_by is not None
                ):
                    pays = (
                        f"{e.pays}: {format_money(a.amount_cents)} from the meter "
                        f"(award {a.id}, {award_status_words(a.status.value, a.validated_by)})"
                    )
            # no longer awaiting validation once every award of the line was decided since it
            # was settled: validated (paid, by a floorperson) or voided
            decided = [a.status.value == "voided" or a.validated_by is not None for a in mine]
            pending = e.pending_validation and not (decided and all(decided))
            win = returned - (e.amount_cents or 0)
            said = e.detail  # the table's words value a share of a meter at the seed
            if e.win_cents is not None and e.amount_cents:
                seed_tail = f"{signed_money(e.win_cents)} on {format_money(e.amount_cents)}"
                if said.endswith(seed_tail):
                    said = (
                        said[: -len(seed_tail)]
                        + f"{signed_money(win)} on {format_money(e.amount_cents)}"
                    )
            detail = (
                f"{said}; on the ledger {settlement.progressive!r}: "
                f"{format_money(returned)} returned"
            )
            line = e.line  # the round's settlement lines say what the events say
            if line is not None:
                line = replace(
                    line, pays=pays or line.pays, returned_cents=returned, win_cents=win,
                    detail=detail, pending_validation=pending,
                )  # fmt: skip
            events[i] = replace(
                e,
                pays=pays,
                returned_cents=returned,
                win_cents=win,
                detail=detail,
                line=line,
                pending_validation=pending,
            )
    if settlements:  # the round's closing line names the players' net the ledger paid
        net = sum(e.win_cents or 0 for e in events if e.action is Action.SETTLEMENT)
        for i, e in enumerate(events):
            if e.action is Action.SETTLE and e.detail.startswith(SETTLED_NET):
                events[i] = replace(e, detail=f"{SETTLED_NET}{signed_money(net)}")
    return rnd._evolve(events=tuple(events))


def valued_at_seed(rnd: TableRound) -> TableRound:
    """``rnd`` with each share-of-meter line saying plainly that its pay is valued at the seed
    (:data:`SEED_NOTE`): no ledger was fed, so the amount shown is not what the meter pays."""
    for e in rnd.events:
        if e.pending_validation and e.action is Action.SETTLEMENT:
            break
    else:
        return rnd  # nothing to say: the round as it is (an immutable value)
    events: list[Event] = [
        replace(e, pays=f"{e.pays} ({SEED_NOTE})")
        if e.action is Action.SETTLEMENT and e.pending_validation
        else e
        for e in rnd.events
    ]
    return rnd._evolve(events=tuple(events))


__all__ = [
    "SEED_NOTE",
    "LedgerAward",
    "LedgerSettlement",
    "ProgressiveKind",
    "ProgressiveOffer",
    "award_status_words",
    "ledger_round_id_of",
    "no_progressive_error",
    "progressive_bets",
    "progressive_offers",
    "progressive_wager",
    "progressive_wagers",
    "round_content",
    "round_id_of",
    "suspended_error",
    "system_rule",
    "valued_at_seed",
    "wager_of",
    "with_ledger_amounts",
]
