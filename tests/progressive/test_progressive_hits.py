"""The hit lifecycle and near-simultaneous hits at linked tables (issue 15; § 605a.7, § 605a.8,
§ 633b.3(h)(3)–(4)): hit → pending (its value locked at the hit, the link reseeded so the other
tables play on) → validated → paid, or voided, every step an event; and the declared policy for
hits while an earlier one is pending — ``first-takes-meter`` (the later hit gets the reseeded
value) or ``share`` (the hits share the first's value) — each with concurrent writer processes on
SQLite and PostgreSQL."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.errors import InputError, LedgerIntegrityError
from croupier.paytables import MeterLevel
from croupier.progressive import (
    AwardStatus,
    EventKind,
    HitPolicy,
    Ledger,
    ProgressiveDefinition,
    QualifyingHand,
    Replayer,
    ResetTiming,
)
from croupier.progressive.meters import StoredEvent, seed_states, shared_split
from croupier.progressive.planning import plan_settlement
from progressive_support import (
    BACKENDS,
    DEALER,
    FLOOR,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    play,
)

U = 10_000
P = MeterLevel.PROGRESSIVE
ACES = "two-suited-match-aces-of-spades"  # 100% of the Progressive (§ 633b.3(i) paytable 1)
SEED = 100_000  # $1 wager × 1,000 (§ 633b.3(j)), cents


def definition(policy: HitPolicy, name: str = "link") -> ProgressiveDefinition:
    """The $1 Match the Dealer progressive (§ 633b.3 paytable 1, 6 decks), reseeded at the hit,
    with ``policy`` declared."""
    d = paytable_definition("633b.3", "1", 6, 100, name, reset_timing=ResetTiming.ON_AWARD)
    return replace(d, hit_policy=policy)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def test_a_hit_policy_reseeds_at_the_hit() -> None:
    d = paytable_definition("633b.3", "1", 6, 100)  # resets on validation
    with pytest.raises(InputError, match="reset timing is on-award"):
        replace(d, hit_policy=HitPolicy.SHARE)
    assert d.hit_policy is None and "hit_policy" not in d.to_json()  # no policy: stored as before


@pytest.mark.parametrize(
    ("policy", "amounts", "meter_cents"),
    [
        # $1,000 + 2 × 15¢ = $1,000.30 to seat 2, the link reseeded to $1,000 (the 12¢ reserve
        # and $999.88 from the house); seat 1 takes the reseeded $1,000, reseeded again
        (HitPolicy.FIRST_TAKES_METER, [100_030, 100_000], SEED),
        # seat 1 joins seat 2's hit: $1,000.30 shared, $500.15 each; the reseeded meter stays
        (HitPolicy.SHARE, [50_015, 50_015], SEED),
    ],
)
def test_two_hits_in_one_round_under_each_policy(
    policy: HitPolicy, amounts: list[int], meter_cents: int
) -> None:
    d = definition(policy)
    seeds, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2], [QualifyingHand(2, ACES), QualifyingHand(1, ACES)])
    assert [a.meter_cents for a in plan.awards] == amounts
    assert plan.states[P].meter == meter_cents * U
    kinds = [e.kind for e in plan.events]
    if policy is HitPolicy.SHARE:
        assert kinds == [EventKind.CONTRIBUTION, EventKind.AWARD, EventKind.RESET,
                         EventKind.AWARD, EventKind.SHARE]  # fmt: skip
    else:
        assert kinds.count(EventKind.RESET) == 2
    # the replay re-derives the shares, and refuses a share other than the equal one
    log = [
        StoredEvent(
            i + 1,
            e.kind,
            e.level,
            e.delta,
            position=e.position,
            award_id=None if e.award is None else e.award + 1,
            amount_cents=e.amount_cents,
            detail=e.detail,
        )
        for i, e in enumerate([*seeds, *plan.events])
    ]
    assert Replayer(d).run(log) == plan.states
    if policy is HitPolicy.SHARE:
        i = next(k for k, e in enumerate(log) if e.kind is EventKind.SHARE)
        forged = list(log)
        forged[i] = replace(
            log[i], detail={**log[i].detail, "meter_cents": 60_000}, amount_cents=60_000
        )
        with pytest.raises(LedgerIntegrityError, match="share group gives 50015"):
            Replayer(d).run(forged)


def test_shared_split_keeps_every_cent() -> None:
    for total in (0, 1, 99, 100_031, 5_000_123):
        for n in (1, 2, 3, 7):
            parts = shared_split(total, n)
            assert sum(parts) == total and len(parts) == n
            assert max(parts) - min(parts) <= n - 1 and parts[0] == max(parts)


@pytest.mark.parametrize("policy", list(HitPolicy))
def test_the_hit_lifecycle_at_linked_tables(db_url: str, policy: HitPolicy) -> None:
    with Ledger(db_url) as ledger:
        add_staff(ledger)
        ledger.create_progressive(definition(policy), tables=["T1", "T2"], by=SHIFT)
        (a,) = play(ledger, "link", "r1", "T1", [1, 2], [(1, ACES)]).awards
        # pending, its value locked at the hit; the link is reseeded at once
        assert (a.status, a.meter_cents) == (AwardStatus.PENDING, SEED + 30)
        (lv,) = ledger.status("link").levels
        assert lv.meter == SEED * U
        # T2 plays on the reseeded meter (3 × 15¢), and hits it while T1's award is pending
        (b,) = play(ledger, "link", "r2", "T2", [1, 2, 3], [(3, ACES)]).awards
        a_now = ledger.award(a.id)
        if policy is HitPolicy.FIRST_TAKES_METER:
            assert (a_now.meter_cents, b.meter_cents) == (SEED + 30, SEED + 45)
        else:  # T2 shares T1's $1,000.30: $500.15 each; the reseeded $1,000.45 stays
            assert (a_now.meter_cents, b.meter_cents) == (50_015, 50_015)
            (lv,) = ledger.status("link").levels
            assert lv.meter == (SEED + 45) * U
        ledger.validate(a.id, by=FLOOR)
        ledger.void_award(b.id, by=FLOOR, reason="misread hand")
        kinds = [e.event.kind for e in ledger.history("link") if e.event.award_id in (a.id, b.id)]
        assert EventKind.VALIDATION in kinds and EventKind.PAYMENT in kinds
        assert EventKind.ADJUSTMENT in kinds  # the void
        assert ledger.award(a.id).status is AwardStatus.PAID
        assert ledger.award(b.id).status is AwardStatus.VOIDED
        # after the group closed, the next hit takes the meter again under both policies
        (c,) = play(ledger, "link", "r3", "T1", [1], [(1, ACES)]).awards
        assert c.meter_cents > SEED // 2
        ledger.verify("link")


# -- concurrent writers ----------------------------------------------------------------------
TABLES = ["T1", "T2", "T3"]
ROUNDS = 6
HITS = {("T1", 2), ("T2", 2), ("T3", 3), ("T1", 4)}  # (table, round) with a 100% hit at seat 1


def _writer(url: str, table: str, go: Any) -> None:
    ledger = Ledger(url, migrate=False)
    system = ledger.system("link")
    go.wait(30)
    for i in range(ROUNDS):
        hands = [QualifyingHand(1, ACES)] if (table, i) in HITS else []
        rid = f"{table}-{i}"
        system.play_round(rid, table, [1, 2], hands, idempotency_key=f"{table}/{rid}", by=DEALER)
        time.sleep(0.002)
    ledger.close()


def run_writers(url: str, policy: HitPolicy) -> Ledger:
    with Ledger(url) as ledger:
        add_staff(ledger)
        ledger.create_progressive(definition(policy), tables=TABLES, by=SHIFT)
    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    procs = [ctx.Process(target=_writer, args=(url, t, go)) for t in TABLES]
    for p in procs:
        p.start()
    go.set()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    return Ledger(url)


@pytest.mark.parametrize("policy", list(HitPolicy))
def test_near_simultaneous_hits_from_concurrent_writers(db_url: str, policy: HitPolicy) -> None:
    """Three table processes play at once; four 100% hits land while earlier ones are still
    pending (no one validates until the end). Every award, the meter and the reserve must add up
    to the seeds and the increments, whatever order the hits were recorded in."""
    with run_writers(db_url, policy) as ledger:
        history = [e.event for e in ledger.history("link")]
        awards = sorted(ledger.awards("link"), key=lambda a: a.id)
        assert len(awards) == len(HITS) and all(a.status is AwardStatus.PENDING for a in awards)
        resets = [e for e in history if e.kind is EventKind.RESET]
        wagered = len(TABLES) * ROUNDS * 2 * 100  # cents
        (lv,) = ledger.status("link").levels
        house = sum(int(e.detail["house_micros"]) for e in resets)
        # everything on the link: the seed and the house's top-ups, the increments (15% + 6%)
        assert lv.meter + lv.reserve + sum(a.meter_cents for a in awards) * U == (
            SEED * U + house + wagered * Fraction(21, 100) * U
        )
        hits = [e for e in history if e.kind is EventKind.AWARD]  # recorded in ledger order
        if policy is HitPolicy.FIRST_TAKES_METER:
            # each hit took the whole meter as it stood and the link was reseeded each time: no
            # hit below the $1,000 seed
            assert len(resets) == len(HITS)
            assert all(a.meter_cents >= SEED for a in awards)
            for e in hits:
                assert int(e.detail["meter_cents"]) * U <= int(e.detail["available_micros"])
        else:
            # the first hit founded the group and reseeded the link once; the others joined, and
            # the four share its value equally (the founder keeps what does not divide)
            assert len(resets) == 1
            founder = hits[0]
            total = int(founder.detail["meter_cents"])
            by_id = {a.id: a.meter_cents for a in awards}
            assert [by_id[e.award_id or 0] for e in hits] == shared_split(total, 4)
            assert [e.detail.get("members") for e in hits[1:]] == [2, 3, 4]
        ledger.verify("link")
        for a in awards:
            ledger.validate(a.id, by=FLOOR)
        ledger.verify("link")
        assert sum(a.meter_cents for a in ledger.awards("link")) == sum(
            a.meter_cents for a in awards
        )
