"""Which progressive takes a table's progressive bet (§ 605a.8, § 633b.2(e), § 633b.3(e),
§ 641a.7(d)(4), (5)): a progressive's definition against a round's or a Rules Submission's
offers (:class:`~croupier.table.progressive.ProgressiveOffer`).

A progressive takes the bets of its wager, section, paytable, deck count and wager size
(:func:`takes`); a round or table dealt under another is refused
(:class:`~croupier.errors.ProgressiveMismatchError`, :func:`check_round_matches`); two
progressives of one wager are never fed together (:class:`~croupier.errors.LinkError`,
:func:`check_one_meter_per_wager`); and a progressive bet no progressive takes is refused
(:func:`assign_progressives`): a progressive wager is never settled with no progressive behind it.
Pure functions of definitions and table values: no ledger is read here (a caller passes the
progressives linked to a table, or a function reading them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.cards import decks_phrase
from croupier.errors import LinkError, ProgressiveMismatchError, citation
from croupier.progressive.model import ProgressiveDefinition
from croupier.table.progressive import (
    ProgressiveOffer,
    no_progressive_error,
    progressive_bets,
    progressive_wager,
    system_rule,
    wager_of,
)
from croupier.table.round import TableRound
from croupier.table.submission import RulesSubmission
from croupier.units import format_money


def check_round_matches(rnd: TableRound, defn: ProgressiveDefinition) -> None:
    """Refuse a round dealt under another section, paytable or deck count than ``defn``
    (:class:`~croupier.errors.ProgressiveMismatchError` citing the paytables' subsection)."""
    wager = wager_of(defn)
    rule = defn.rule("(i)")
    offered = next((w for w in rnd.submission.wagers if w.wager == wager), None)
    if offered is None or offered.paytable is None:
        # a progressive of a wager the table does not offer (another game's, a mistyped name)
        # would be skipped in silence and its winning hands never awarded
        raise ProgressiveMismatchError(
            f"progressive {defn.name!r} takes the {wager} wager (§ {defn.section} paytable "
            f"{defn.paytable}), which the round's table "
            f"({rnd.submission.name or rnd.submission.game.value}) does not offer",
            section=rule,
        )
    t, sub = offered.paytable, rnd.submission
    if t.section != defn.section or t.key != defn.paytable or sub.decks != defn.decks:
        raise ProgressiveMismatchError(
            f"the round was dealt at a {sub.decks}-deck table on § {t.section} paytable {t.key}; "
            f"progressive {defn.name!r} is § {defn.section} paytable {defn.paytable} with "
            f"{decks_phrase(defn.decks)}",
            section=rule,
        )


def check_one_meter_per_wager(definitions: Sequence[ProgressiveDefinition]) -> None:
    """Refuse feeding one round to two progressives of the same wager — same section,
    paytable, deck count and wager size — for each bet would then feed two meters and a winning
    hand win on both (:class:`~croupier.errors.LinkError`, § 605a.8). A $1 and a $5 Jackpot
    Party progressive are two wagers (§ 633b.2(e)) and may be fed together."""
    seen: dict[tuple[str, str, int, int], str] = {}
    for d in definitions:
        key = (d.section, d.paytable, d.decks, d.wager_cents)
        if key in seen and seen[key] != d.name:
            raise LinkError(
                f"progressives {seen[key]!r} and {d.name!r} take the same wager (§ {d.section} "
                f"paytable {d.paytable}, {decks_phrase(d.decks)}, {format_money(d.wager_cents)}): a "
                "wager feeds one progressive's meters",
                section="605a.8",
            )
        seen[key] = d.name


def takes(defn: ProgressiveDefinition, offer: ProgressiveOffer) -> bool:
    """Whether progressive ``defn`` is the one ``offer``'s wagers feed: the same wager, section,
    paytable, deck count and wager size (§ 605a.8: a linked table contributes to the progressive
    of its wager)."""
    return (
        defn.section == offer.section
        and defn.paytable == offer.paytable
        and defn.decks == offer.decks
        and defn.wager_cents == offer.amount_cents
        and wager_of(defn) == offer.wager
    )


def assign_progressives(
    offers: Sequence[ProgressiveOffer],
    *,
    table: str,
    named: Sequence[ProgressiveDefinition] = (),
    linked: Sequence[ProgressiveDefinition] = (),
) -> dict[ProgressiveOffer, ProgressiveDefinition]:
    """The progressive each of ``offers`` feeds at ``table``: one of ``named`` (the caller's,
    e.g. ``croupier settle --progressive``) that takes it, else the one linked to the table that
    takes it (a table is never linked to two of the same wager, § 605a.8). An offer none takes
    is a :class:`~croupier.errors.LinkError` citing § 605a.8 and the wager's section: a
    progressive wager is never settled with no progressive behind it."""
    found: dict[ProgressiveOffer, ProgressiveDefinition] = {}
    for offer in dict.fromkeys(offers):
        defn = next((d for d in named if takes(d, offer)), None) or next(
            (d for d in linked if takes(d, offer)), None
        )
        if defn is None:
            raise no_progressive_error(offer, table, [d.name for d in linked])
        found[offer] = defn
    return found


def check_named_match(sub: RulesSubmission, defn: ProgressiveDefinition) -> None:
    """Refuse a progressive named for a table whose submission does not offer its wager under its
    section, paytable and deck count (:class:`~croupier.errors.ProgressiveMismatchError`, as
    :func:`check_round_matches` for a round)."""
    # a round opened only to read what the table offers: its base game settled by whoever can
    by = "croupier" if sub.base.croupier_settles else "external"
    check_round_matches(TableRound.open(sub, base_game=by), defn)


def progressives_for(
    rnd: TableRound,
    *,
    table: str,
    named: Sequence[ProgressiveDefinition] = (),
    linked: Callable[[], Sequence[ProgressiveDefinition]] = tuple,
) -> tuple[ProgressiveDefinition, ...]:
    """The progressives ``rnd`` at ``table`` is fed to: those ``named`` (each must be one of a
    wager the round's table offers under its paytable and deck count,
    :func:`check_round_matches`; no two of one wager, :func:`check_one_meter_per_wager`), then,
    for each progressive bet none of them takes, the one ``linked()`` to the table that takes it
    (read only then). A progressive bet none takes is a :class:`~croupier.errors.LinkError`
    (§ 605a.8 and the wager's section, :func:`assign_progressives`): a round that stores money is
    never settled with a progressive wager valued at the seed and on no ledger."""
    if len(named) > 1:
        check_one_meter_per_wager(named)
    for d in named:
        check_round_matches(rnd, d)
    offers = [o for _, o in progressive_bets(rnd)]
    if all(any(takes(d, o) for d in named) for o in offers):
        return tuple(named)
    assigned = assign_progressives(offers, table=table, named=named, linked=linked())
    out = {d.name: d for d in named}
    for d in assigned.values():
        out.setdefault(d.name, d)
    return tuple(out.values())


def check_named_take(
    rnd: TableRound, named: Sequence[ProgressiveDefinition], round_name: str = "the round"
) -> None:
    """Refuse a progressive the caller named (``croupier settle --progressive``,
    ``?progressive=``) that takes none of ``rnd``'s progressive bets — another wager, paytable,
    deck count or wager size (a $1 progressive named for a round of $5 bets): fed nothing, it
    would be named and silently unused (:class:`~croupier.errors.LinkError`, § 605a.8 and the
    paragraph of its wager's section that puts the wager on the system). ``round_name`` names
    the round in the message."""
    offers = list(dict.fromkeys(o for _, o in progressive_bets(rnd)))
    for d in named:
        if any(takes(d, o) for o in offers):
            continue
        own = ProgressiveOffer(wager_of(d), d.wager_cents, d.section, d.paytable, d.decks)
        w = progressive_wager(d.section, d.paytable)
        theirs = (
            "its progressive bets are " + "; ".join(o.describe() for o in offers)
            if offers
            else "it has no progressive bet"
        )
        raise LinkError(
            f"progressive {d.name!r} takes {own.describe()} and no bet of {round_name} is one: "
            f"{theirs} ({citation(system_rule(w))}: each progressive wager feeds the progressive "
            "of its paytable, deck count and wager size); name only progressives that take a "
            "bet of the round: nothing was settled or stored",
            section="605a.8",
        )


__all__ = [
    "assign_progressives",
    "check_named_match",
    "check_named_take",
    "check_one_meter_per_wager",
    "check_round_matches",
    "progressives_for",
    "takes",
]
