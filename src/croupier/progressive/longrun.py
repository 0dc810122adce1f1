"""The long-run return of a progressive paytable, and simulated sessions through the ledger.

Over a long run a progressive's meters pay out everything put on them: the increments of every
wager (primary and secondary rates) and what the house adds at every reset. So the return per
unit wagered is (a sum of exact probabilities from :mod:`croupier.analysis.exact`)::

    Σ over odds lines  P(line) · (1 + net odds)           stake returned with the win
  + Σ over levels      primary rate + secondary rate      every increment is paid out in the end
  + Σ over 100% lines  house's part of a reseed / wager   (see below)
  + Σ over envy lines  others · P(line) · envy / wager    envy from each other player
  + Σ over share lines P(line)                            only if the stake is returned

The house's part of a reseed follows the definition's
:class:`~croupier.analysis.meters.ReseedFunding`, as the analysis does: ``HOUSE``, the whole seed
at every reset, ``P(line) · seed / wager`` exactly; ``RESERVE``, what the secondary rate does not
cover of it, ``max(0, P(line) · seed / wager − secondary rate)``. Under ``RESERVE`` that figure
is the analysis's, and a lower bound of the ledger's return: the ledger reseeds each reset from
the reserve built since the last one, a shortfall from the house and a surplus to the meter
(players), so a shortfall at one reset is never made good by a surplus at another; its return
lies between this figure and the ``HOUSE`` one (:func:`long_run_bounds`).

:func:`run_session` deals random rounds (a fresh shuffled shoe each round, as the simulator does),
settles every round through a :class:`~croupier.progressive.ledger.Ledger` and measures the same
return from the ledger alone: what was paid to players plus what the meters and reserves gained,
over what was wagered. (What the house adds at resets is part of what the meters now owe the
players, as it is of the long-run return.)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

import numpy as np

from croupier.analysis.exact import exact_counts
from croupier.analysis.meters import ReseedFunding
from croupier.cards import Shoe
from croupier.errors import PaytableError
from croupier.paytables import MeterShare, NotAvailable, OddsFor, OddsTo, Push
from croupier.progressive.ledger import Ledger
from croupier.progressive.meters import StoredEvent
from croupier.progressive.model import (
    MICROS_PER_CENT,
    AwardKind,
    EventKind,
    ProgressiveDefinition,
    QualifyingHand,
)
from croupier.wagers import Wager, all_wagers
from croupier.wagers.base import ProgressiveStake


def wager_for(defn: ProgressiveDefinition) -> Wager:
    """The registered wager of the definition's section (:class:`PaytableError` if none yet)."""
    for w in all_wagers():
        if w.section == defn.section:
            return w
    raise PaytableError(f"no wager of § {defn.section} is implemented yet to classify its hands")


def outcome_probabilities(defn: ProgressiveDefinition) -> dict[str, Fraction]:
    """Exact probability of each outcome key for one player, over a fresh shoe."""
    wager = wager_for(defn)
    counts = exact_counts(wager, Shoe.standard(defn.decks))
    return {o.key: Fraction(counts.counts[o.position], counts.total) for o in wager.outcomes}


def long_run_return(defn: ProgressiveDefinition, other_players: int = 0) -> Fraction:
    """The long-run return per unit wagered (see the module docstring), with ``other_players``
    others at the table holding the wager (for envy bonuses), by the definition's reseed funding.

    Every level must have a 100% line, or its meter would grow without bound.
    """
    return _long_run(defn, other_players, defn.reseed)


def long_run_bounds(
    defn: ProgressiveDefinition, other_players: int = 0
) -> tuple[Fraction, Fraction]:
    """The range the ledger's long-run return lies in: under ``RESERVE`` from the analysis's
    figure (:func:`long_run_return`) to the ``HOUSE`` one; under ``HOUSE`` exactly that figure."""
    return long_run_return(defn, other_players), _long_run(defn, other_players, ReseedFunding.HOUSE)


def _long_run(defn: ProgressiveDefinition, other_players: int, reseed: ReseedFunding) -> Fraction:
    probs = outcome_probabilities(defn)
    w = defn.wager_cents
    total = defn.total_rate
    resets = {lv.level: False for lv in defn.levels}
    for line in defn.lines:
        p = probs.get(line.outcome, Fraction(0))
        pays = line.pays
        if isinstance(pays, OddsTo | OddsFor | Push):
            total += p * (1 + pays.net)
        elif isinstance(pays, MeterShare):
            if pays.share == 1:
                resets[pays.level] = True
                lv = defn.level(pays.level)
                house = p * Fraction(lv.seed_cents, w)
                if reseed is ReseedFunding.RESERVE:
                    house = max(Fraction(0), house - lv.secondary_rate)
                total += house
            if defn.stake is ProgressiveStake.RETURNED:
                total += p
        elif isinstance(pays, NotAvailable):
            pass
        if line.envy_cents is not None and not isinstance(pays, NotAvailable):
            total += other_players * p * Fraction(line.envy_cents, w)
    never = [lv.value for lv, r in resets.items() if not r]
    if never:
        raise PaytableError(
            f"progressive {defn.name!r}: no 100% line resets {', '.join(never)}; its long-run "
            "return is not defined"
        )
    return total


@dataclass(frozen=True)
class SessionReturn:
    """A simulated session measured from the ledger. Money in cents (micro-dollars where named).

    ``return_per_unit`` = (paid + growth of meters and reserves) / wagered;
    ``house_added_micros`` what the house put into the meters at resets (whole seeds under
    ``HOUSE``, top-ups under ``RESERVE``, as the reset events record them);
    ``standard_error`` is the sample standard deviation of the per-round returns over √rounds.
    """

    rounds: int
    wagers: int
    wagered_cents: int
    paid_cents: int
    growth_micros: int
    house_added_micros: int
    return_per_unit: Fraction
    standard_error: float


def run_session(
    ledger: Ledger,
    progressive: str,
    *,
    rounds: int,
    seats: int,
    seed: int,
    table: str,
    dealer: str,
    floorperson: str,
    prefix: str = "sim",
) -> SessionReturn:
    """Deal and settle ``rounds`` rounds with ``seats`` players each holding the progressive
    wager, validating every share award at once, and measure the return from the ledger."""
    system = ledger.system(progressive)
    defn = system.definition
    wager = wager_for(defn)
    shoe = Shoe.standard(defn.decks)
    cards_in_shoe = np.repeat(np.arange(52, dtype=np.int64), defn.decks)
    rng = np.random.default_rng(seed)
    per = wager.deal.size
    # the cards each player reads: their own cards, then the shared ones (e.g. the upcard)
    own = sum(g.size for g in wager.deal.groups if g.name.startswith("player"))
    shared = per - own
    outcomes = list(wager.outcomes)
    seed_cents = {lv.level: lv.seed_cents for lv in defn.levels}
    before = ledger.status(progressive)
    start_liability = sum(s.meter + s.reserve for s in before.levels)
    start_seq = ledger.history(progressive, limit=1)[-1].event.seq
    positions = list(range(1, seats + 1))
    round_values: list[float] = []
    assert shoe.total >= own * seats + shared
    for r in range(rounds):
        drawn = rng.choice(cards_in_shoe, size=own * seats + shared, replace=False)
        rows = np.empty((seats, per), dtype=np.int64)
        for i in range(seats):
            rows[i, :own] = drawn[i * own : (i + 1) * own]
            rows[i, own:] = drawn[own * seats :]
        found = wager.classify_indices(rows)
        hands = [
            QualifyingHand(p, outcomes[int(k)].key)
            for p, k in zip(positions, found, strict=True)
            if int(k) < len(outcomes)
        ]
        rid = f"{prefix}-{r}"
        system.accept_wagers(rid, table, positions, by=dealer)
        system.lock_out(rid, by=dealer)
        system.verify_chips(rid, seats, by=dealer)
        result = system.settle_round(rid, hands, idempotency_key=f"{table}/{rid}", by=dealer)
        value = 0
        for a in result.awards:
            if a.kind is AwardKind.METER:
                ledger.validate(a.id, by=floorperson)
                if defn.stake is ProgressiveStake.RETURNED:
                    value += defn.wager_cents
            else:
                value += a.amount_cents
        round_values.append(value / (seats * defn.wager_cents))

    events = [e.event for e in ledger.history(progressive) if e.event.seq > start_seq]
    house_added = 0
    index = {f"{prefix}-{r}": r for r in range(rounds)}
    for e in events:
        if e.kind is EventKind.RESET and e.level is not None:
            micros = reset_house_micros(e, seed_cents[e.level])
            house_added += micros
            if e.round_id in index:
                round_values[index[e.round_id]] += micros / (
                    MICROS_PER_CENT * seats * defn.wager_cents
                )
    paid = sum(
        e.amount_cents or 0
        for e in events
        if e.kind is EventKind.PAYMENT
        or (e.kind in (EventKind.AWARD, EventKind.ENVY) and e.detail.get("kind") != "meter")
    )
    first = defn.levels[0].level
    wagered = sum(
        int(e.detail.get("wagered_cents", 0))
        for e in events
        if e.kind is EventKind.CONTRIBUTION and e.level is first
    )
    after = ledger.status(progressive)
    growth = sum(s.meter + s.reserve for s in after.levels) - start_liability
    ret = (Fraction(paid) + Fraction(growth, MICROS_PER_CENT)) / wagered
    mean = sum(round_values) / rounds
    var = sum((v - mean) ** 2 for v in round_values) / max(rounds - 1, 1)
    return SessionReturn(
        rounds=rounds,
        wagers=rounds * seats,
        wagered_cents=wagered,
        paid_cents=paid,
        growth_micros=growth,
        house_added_micros=house_added,
        return_per_unit=ret,
        standard_error=sqrt(var / rounds),
    )


def reset_house_micros(event: StoredEvent, seed_cents: int) -> int:
    """What the house put into a level at a ``reset`` event (micro-dollars): the top-up it
    records (``RESERVE``), or the whole seed of a reset that records none (``HOUSE``)."""
    recorded = event.detail.get("house_micros")
    return int(recorded) if recorded is not None else seed_cents * MICROS_PER_CENT
