"""Settling a round, with or without a ledger (§ 605a.7, § 605a.8, § 633b.2(d)–(h),
§ 633b.3(d)–(h)): the use cases ``croupier settle`` and the service share.

- :func:`checked_submission`, :func:`replay` — a Rules Submission checked once and a round's
  steps replayed through the round procedure (each rule broken a typed error naming its step).
- :func:`progressives_to_feed`, :func:`table_progressives`, :func:`check_progressive_bet` — which
  progressives a round's (an open table's) progressive bets feed: one named, else the one linked
  to the table that takes it; none, or a suspended one, refuses the round (§ 605a.8).
- :func:`settle_on_ledger` — feed a settled round to its progressives and show it with the
  ledger's pay: ``croupier settle --progressive`` and ``POST /rounds/settle`` (through
  :func:`feed_and_document`, which also makes the stored document) both call it.
- :func:`void_on_ledger` — the ledger's void of an open table's round.

``by`` is the authenticated actor (a dealer or above): the CLI's ``--as`` after its login, the
service's member. Money is integer cents throughout.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError, LedgerLookupError, LinkError, RoundStateError
from croupier.operations.documents import Settled, document, progressive_kind, shown_round
from croupier.operations.feeding import feed_progressive
from croupier.progressive import (
    Ledger,
    ProgressiveDefinition,
    ProgressiveSystem,
    RoundSettlement,
    RoundStatus,
)
from croupier.progressive.offers import (
    assign_progressives,
    check_named_match,
    check_named_take,
    check_one_meter_per_wager,
    progressives_for,
    takes,
)
from croupier.table.progressive import (
    ledger_round_id_of,
    progressive_bets,
    progressive_offers,
    round_content,
    suspended_error,
)
from croupier.table.record import Step, replay_steps
from croupier.table.round import TableRound
from croupier.table.submission import RulesSubmission, submission_from_data
from croupier.table.submission import submission_digest as canonical_digest
from croupier.wagers.base_games import SettledBy


def submission_digest(data: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of a Rules Submission's data as canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


_CHECKED: dict[str, tuple[str, RulesSubmission]] = {}
_CHECKED_MAX = 256


def checked_submission(data: Mapping[str, Any], source: str) -> tuple[str, RulesSubmission]:
    """The digest and the checked :class:`RulesSubmission` of ``data`` (every violation a
    :class:`~croupier.errors.SubmissionError`); a submission checked before is not checked
    again (a table posts the same one with every round). The digest is the one ``croupier
    check`` prints (:func:`croupier.table.submission.submission_digest` of the checked
    submission), whatever form the data came in; the raw data's hash only keys the cache."""
    raw = submission_digest(data)
    found = _CHECKED.get(raw)
    if found is None:
        sub = submission_from_data(data, source)
        found = (canonical_digest(sub), sub)
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.pop(next(iter(_CHECKED)))
        _CHECKED[raw] = found
    return found


def replay(
    sub: RulesSubmission,
    steps: Sequence[Step],
    source: str,
    base_game: SettledBy | str = SettledBy.CROUPIER,
) -> TableRound:
    """The round of ``steps`` at a table under ``sub``, settled, as
    :func:`croupier.table.record.settle_record` does it: a missing ``no-more-bets`` or ``settle``
    supplied; the first step that breaks a rule raises its typed error naming the step;
    ``base_game`` (``"croupier"`` or ``"external"``) who settles the base game."""
    return replay_steps(sub, steps, source, base_game)


def named_progressive(ledger: Ledger, name: str, table: str) -> ProgressiveDefinition:
    """The definition of progressive ``name`` a request names for ``table`` (``?progressive=``
    of ``POST /rounds/settle``, ``POST /tables``' ``progressives``). One that does not exist is
    the request's mistake, not a path that names nothing: a :class:`~croupier.errors.LinkError`
    (422, § 605a.8: a table's progressive wagers feed a progressive linked to it), as for one
    that exists and is not linked to the table."""
    try:
        return ledger.definition(name)
    except LedgerLookupError as exc:
        raise LinkError(
            f"table {table} is not linked to progressive {name!r}: {exc}", "605a.8"
        ) from None


def progressives_to_feed(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    named: Sequence[str] = (),
    bet_step: Callable[[int], str] = lambda i: f"bet {i + 1}",
    round_name: str | None = None,
) -> list[str]:
    """The progressives the service feeds ``rnd`` at ``table`` to: ``named`` (``?progressive=``,
    an open table's), then for each progressive bet none of them takes the progressive linked
    to the table that takes it (:func:`~croupier.progressive.offers.progressives_for`). Every
    progressive bet is fed: one no progressive takes is a :class:`~croupier.errors.LinkError`
    (§ 605a.8 and the wager's section), and one whose progressive is suspended is refused with
    the ledger's words, noted with its step (``bet_step(i)`` of the round's ``i``-th bet) — the
    round is then neither fed nor stored. A progressive named must be linked to the table.
    ``round_name`` (the caller named them: ``?progressive=``): each progressive named must also
    take a progressive bet of the round (:func:`~croupier.progressive.offers.check_named_take`) —
    an open table's own progressives (one per wager it offers) need not."""
    bets = progressive_bets(rnd)
    if not bets and not named:
        return []
    if not bets:  # nothing to feed: feeding checks the names against the round, as before
        defs = [named_progressive(ledger, name, table) for name in named]
        chosen = progressives_for(rnd, table=table, named=defs)
        if round_name is not None:
            check_named_take(rnd, defs, round_name)
        return [d.name for d in chosen]
    linked = ledger.linked_progressives(table)  # one read: the links and their suspension
    suspended = {d.name: s for d, s in linked}
    defs = []
    for name in named:  # a named progressive is one linked to the table
        found = next((d for d, _ in linked if d.name == name), None)
        if found is None:
            named_progressive(ledger, name, table)  # a name no progressive has: said so
            raise LinkError(f"table {table} is not linked to progressive {name!r}", "605a.8")
        defs.append(found)
    fed = progressives_for(rnd, table=table, named=defs, linked=lambda: [d for d, _ in linked])
    if round_name is not None:
        check_named_take(rnd, defs, round_name)
    for i, offer in bets:
        name = next(d.name for d in fed if takes(d, offer))
        if suspended[name]:
            exc = suspended_error(name)
            exc.add_note(bet_step(i))
            raise exc
    return [d.name for d in fed]


def table_progressives(
    ledger: Ledger, sub: RulesSubmission, table: str, named: Sequence[str]
) -> list[str]:
    """The progressives an open table's progressive wagers feed (``POST /tables``): those
    ``named`` — each existing, linked to the table (§ 605a.8) and one of a wager ``sub`` offers
    under its paytable and deck count — then, for each progressive wager and size ``sub`` offers
    that none of them takes, the one linked to the table that takes it. A wager and size no
    progressive takes refuses the table (:class:`~croupier.errors.LinkError`, § 605a.8 and the
    wager's section): its bets could not be settled."""
    defs = [named_progressive(ledger, name, table) for name in named]
    if len(defs) > 1:
        check_one_meter_per_wager(defs)
    for d in defs:
        check_named_match(sub, d)
    offers = progressive_offers(sub)
    if not offers and not defs:
        return []
    linked = [d for d, _ in ledger.linked_progressives(table)]
    for d in defs:
        if d.name not in {x.name for x in linked}:
            raise LinkError(
                f"table {table} is not linked to progressive {d.name!r}: a shift manager links "
                f"it (POST /progressives/{d.name}/links) before the table opens",
                "605a.8",
            )
    found = assign_progressives(offers, table=table, named=defs, linked=linked)
    return list(dict.fromkeys([*named, *(d.name for d in found.values())]))


def check_progressive_bet(
    ledger: Ledger, rnd: TableRound, *, table: str, named: Sequence[str], note: str
) -> None:
    """Refuse the bet ``rnd`` was just given (an open table's ``bet`` step) when it is a
    progressive wager whose progressive is suspended (the ledger's words, § 605a.8; noted
    ``note``) or that no progressive takes (§ 605a.8): accepted, it could not be settled. The
    round is then as it was before the step."""
    bets = progressive_bets(rnd)
    if not bets or bets[-1][0] != len(rnd.bets) - 1:
        return  # the step placed no progressive wager
    offer = bets[-1][1]
    linked = ledger.linked_progressives(table)
    try:
        found = assign_progressives(
            [offer],
            table=table,
            named=[named_progressive(ledger, name, table) for name in named],
            linked=[d for d, _ in linked],
        )
        name = found[offer].name
        if dict((d.name, s) for d, s in linked).get(name, False):
            raise suspended_error(name)
    except CroupierError as exc:
        exc.add_note(note)
        raise


@dataclass(frozen=True)
class LedgerRound:
    """A round settled on the ledger: its content digest
    (:func:`~croupier.table.progressive.round_content`), what each progressive it fed paid
    (``(progressive name, its settlement)``, in the order fed; a progressive no bet of the round
    feeds is not among them) and the round as shown, its progressive lines paid what the ledger
    paid (:func:`~croupier.operations.documents.shown_round`)."""

    content: str
    results: tuple[tuple[str, RoundSettlement], ...]
    shown: TableRound

    @property
    def replayed(self) -> bool:
        """Whether the ledger held the round already: fed to some progressive, and every
        progressive answered its first settlement (nothing changed)."""
        return bool(self.results) and all(r.replayed for _, r in self.results)


def settle_on_ledger(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    round_id: str,
    progressives: Sequence[str],
    by: str,
    kind: Callable[[str], tuple[str, int]] | None = None,
    check_configuration: bool = False,
    awards_now: bool = False,
    on_fed: Callable[[str, RoundSettlement], None] | None = None,
) -> LedgerRound:
    """Feed settled round ``rnd`` dealt at ``table`` to each of ``progressives`` (names, as
    :func:`progressives_to_feed` or :func:`~croupier.progressive.offers.progressives_for` chose
    them), each in the ledger's own transaction under its own idempotency key
    ``PROGRESSIVE/TABLE/ROUND`` (:func:`~croupier.operations.feeding.feed_progressive`: fed again,
    the ledger answers its first settlement), and show the round with the ledger's pay.

    No two progressives of one wager are fed together (:class:`~croupier.errors.LinkError`,
    § 605a.8); each progressive's errors are the feeding's (a round of another paytable, a round
    id fed with other content, a table not linked). ``kind(name)``: progressive ``name``'s wager
    id and size (default: read from the ledger once per process); ``check_configuration``: each
    progressive's configuration check against the running Rules Submission
    (:meth:`Ledger.system <croupier.progressive.Ledger.system>`, ``croupier settle``);
    ``awards_now``: a round the ledger held already shows its awards as the ledger has them now
    (validated or voided since), not as first settled; ``on_fed(name, settlement)`` is called as
    each progressive is fed. With no progressive, a share-of-meter line says it is valued at the
    seed."""
    content = round_content(rnd)
    if len(progressives) > 1:  # one wager, one meter (§ 605a.8)
        check_one_meter_per_wager([ledger.definition(name) for name in progressives])
    results: list[tuple[str, RoundSettlement]] = []
    for name in progressives:
        # ProgressiveSystem directly: Ledger.system would read the definition once more (a
        # progressive that does not exist is refused by feed_progressive's own read of it)
        system = ledger.system(name) if check_configuration else ProgressiveSystem(ledger, name)
        result = feed_progressive(
            rnd, system, table=table, round_id=round_id, by=by, content=content
        )
        if result is None:
            continue
        if awards_now and result.replayed:  # settled before: each award as the ledger has it now
            now = tuple(ledger.award(a.id) for a in result.awards)
            result = dataclasses.replace(result, awards=now)
        results.append((name, result))
        if on_fed is not None:
            on_fed(name, result)
    shown = shown_round(
        rnd,
        results,
        kind if kind is not None else lambda name: progressive_kind(ledger, name),
        fed_any=bool(progressives),
    )
    return LedgerRound(content, tuple(results), shown)


def feed_and_document(
    ledger: Ledger,
    rnd: TableRound,
    *,
    table: str,
    round_id: str,
    submission_digest: str,
    progressives: Sequence[str],
    by: str,
) -> Settled:
    """Settle ``rnd`` on the ledger (:func:`settle_on_ledger`: each named progressive fed in the
    ledger's own transaction, under its own idempotency key ``PROGRESSIVE/TABLE/ROUND``) and make
    the round's document (:func:`~croupier.operations.documents.document`). Without a
    progressive, a share-of-meter line says it is valued at the seed
    (:func:`~croupier.table.progressive.valued_at_seed`)."""
    fed = settle_on_ledger(
        ledger, rnd, table=table, round_id=round_id, progressives=progressives, by=by
    )
    return document(
        ledger,
        rnd,
        fed.results,
        fed_any=bool(progressives),
        table=table,
        round_id=round_id,
        submission_digest=submission_digest,
        content=fed.content,
        by=by,
        shown=fed.shown,
    )


def void_on_ledger(ledger: Ledger, *, table: str, round_id: str, by: str, reason: str) -> list[str]:
    """The ledger's own void of an open table's round (:meth:`ProgressiveSystem.void_round
    <croupier.progressive.ProgressiveSystem.void_round>`: its wagers returned, nothing
    contributed; a floorperson or above, from the ledger's log) on each progressive linked to
    ``table`` that holds the round — wagers accepted, locked out, counted or held, not settled.
    The progressives whose round is voided (now or before: a retry voids nothing twice). A round
    the ledger settled already is not voided: :class:`~croupier.errors.RoundStateError` (its
    settlement stands; post ``settle`` again to store it)."""
    rid = ledger_round_id_of(table, round_id)
    voided = []
    for defn, _ in ledger.linked_progressives(table):
        system = ProgressiveSystem(ledger, defn.name)
        view = system.find_round(rid)
        if view is None:
            continue
        if view.status is RoundStatus.SETTLED:
            raise RoundStateError(
                f"round {round_id} of table {table} is settled on progressive {defn.name!r} "
                "already: it is not voided; post the settle step again to store it"
            )
        if view.status is not RoundStatus.VOIDED:
            system.void_round(rid, by=by, reason=reason)
        voided.append(defn.name)
    return voided


__all__ = [
    "LedgerRound",
    "check_progressive_bet",
    "checked_submission",
    "feed_and_document",
    "named_progressive",
    "progressives_to_feed",
    "replay",
    "settle_on_ledger",
    "submission_digest",
    "table_progressives",
    "void_on_ledger",
]
