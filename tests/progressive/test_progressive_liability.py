"""The liability report, each table's contributions and an award's trail (the hand-pay slip's
ledger lines), on SQLite and PostgreSQL, against amounts worked out by hand.

§ 633b.3 paytable 1, six decks, $5 (58 Pa. Code § 633b.3(i), (j)): seed $5,000, 15% of each
wager to the meter (75¢), 6% to the reserve (30¢); a suited match of aces of spades pays 100% of
the meter, a two-suited match 10%; the reserve funds the reseed, the house adding what it lacks.

The day (``progressive_support.day_with_an_award``): before it, r0 at BJ-1 (1 wager). During
it: r1 at BJ-1 (3 wagers), r2 at BJ-2 (2 wagers, seat 1's 100% award, validated and paid, the
level reset), a pit manager's +$1 adjustment, r3 at BJ-1 (1 wager, seat 1's 10% award left
pending).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

import croupier.progressive.schema as t
from croupier.errors import InputError, LedgerLookupError
from croupier.operations.progressives import liability_reports, table_contributions
from croupier.progressive import Ledger, ResetTiming
from croupier.progressive.liability import agrees
from croupier.progressive.model import EventKind
from croupier.progressive.slips import award_trail
from progressive_support import (
    BACKENDS,
    FLOOR,
    SHIFT,
    add_staff,
    day_with_an_award,
    new_db_url,
    paytable_definition,
    play,
)

U = 10_000  # micro-dollars per cent

OPENING_METER = 500_000 + 75  # the seed and r0's 75¢, in cents
OPENING_RESERVE = 30
AWARD_100 = 500_000 + 75 + 225 + 150  # the meter when r2's ace of spades hit: $5,004.50
RESERVE_AT_RESET = 30 + 90 + 60  # r0, r1, r2 at 6%: $1.80
HOUSE_TOP_UP = 500_000 - RESERVE_AT_RESET  # the reseed is $5,000: the reserve pays $1.80
METER_AFTER = 500_000 + 100 + 75  # reseeded, the +$1 adjustment, r3's 75¢
AWARD_10 = METER_AFTER // 10  # 10% of $5,001.75, down to the cent: $500.17


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def test_a_day_with_an_award_balances_to_the_cent_and_equals_the_reconciliation(
    db_url: str,
) -> None:
    ledger, start, _, small = day_with_an_award(db_url)
    with ledger:
        ((li, rec),) = liability_reports(ledger, "mtd-5", start, None)
    (lv,) = li.levels
    assert (lv.opening.meter, lv.opening.reserve) == (OPENING_METER * U, OPENING_RESERVE * U)
    assert lv.opening.pending == lv.opening.held == 0
    assert lv.opening.total == (OPENING_METER + OPENING_RESERVE) * U  # $5,001.05
    # r1, r2, r3: six wagers at 15% + 6% = $6.30
    assert lv.contributions_micros == 6 * (75 + 30) * U
    assert lv.reseeds_micros == HOUSE_TOP_UP * U
    assert lv.adjustments_micros == 100 * U
    assert lv.awards_paid_micros == AWARD_100 * U
    assert AWARD_10 == 50_017
    # closing: the meter holds the pending $500.17, the reserve has r3's 30¢
    assert (lv.closing.meter, lv.closing.held, lv.closing.pending, lv.closing.reserve) == (
        METER_AFTER * U,
        AWARD_10 * U,
        AWARD_10 * U,
        30 * U,
    )
    closing = METER_AFTER + 30  # available + pending + reserve = meter + reserve here
    assert lv.closing.total == closing * U == 500_205 * U
    # opening + contributions + reseeds + adjustments − awards paid = closing, by hand
    assert closing == 500_105 + 630 + HOUSE_TOP_UP + 100 - AWARD_100
    assert lv.balanced and li.balanced
    assert (lv.awards_made, lv.awards_paid, lv.awards_voided) == (2, 1, 0)
    assert [a.id for a in li.pending] == [small]
    # the reconciliation of the same day tells the same story
    (r,) = rec.levels
    assert (r.closing_micros, r.closing_reserve_micros) == (METER_AFTER * U, 30 * U)
    assert r.house_micros == lv.reseeds_micros and agrees(li, rec)


def test_the_liability_at_an_instant_is_what_the_period_up_to_it_closes_at(db_url: str) -> None:
    ledger, start, _, _ = day_with_an_award(db_url)
    with ledger:
        ((before, _),) = liability_reports(ledger, "mtd-5", None, start)
        ((whole, rec),) = liability_reports(ledger, "mtd-5", None, None)
    (b,) = before.levels
    assert b.closing.total == (OPENING_METER + OPENING_RESERVE) * U
    (w,) = whole.levels
    # from nothing: the $5,000 seed is the house's too
    assert w.opening.total == 0 and w.reseeds_micros == (500_000 + HOUSE_TOP_UP) * U
    assert w.closing.total == 500_205 * U and whole.balanced and agrees(whole, rec)


def test_a_jackpot_lock_keeps_the_award_owed_off_the_meter(db_url: str) -> None:
    """Under on-award timing the 100% award leaves the meter at the hit and the level reseeds:
    what is owed is the new meter plus the award pending, until it is paid."""
    with Ledger(db_url) as ledger:
        add_staff(ledger)
        d = paytable_definition("633b.3", "1", 6, 500, "lock", reset_timing=ResetTiming.ON_AWARD)
        ledger.create_progressive(d, tables=["T"], by=SHIFT)
        (a,) = play(
            ledger, "lock", "r1", "T", [1, 2], [(1, "two-suited-match-aces-of-spades")]
        ).awards
        ((li, rec),) = liability_reports(ledger, "lock", None, None)
        (lv,) = li.levels
        # $5,001.50 locked; reseeded at $5,000, 60¢ of it the reserve's
        assert (lv.closing.meter, lv.closing.held, lv.closing.reserve) == (500_000 * U, 0, 0)
        assert lv.closing.pending == 500_150 * U
        assert lv.closing.total == 1_000_150 * U
        assert lv.reseeds_micros == (500_000 + 499_940) * U and lv.contributions_micros == 210 * U
        assert li.balanced and agrees(li, rec)
        ledger.validate(a.id, by=FLOOR)
        ((paid, rec2),) = liability_reports(ledger, "lock", None, None)
        (lv2,) = paid.levels
        assert lv2.awards_paid_micros == 500_150 * U and lv2.closing.total == 500_000 * U
        assert paid.balanced and agrees(paid, rec2)


def test_a_void_changes_nothing_owed(db_url: str) -> None:
    ledger, start, _, small = day_with_an_award(db_url)
    with ledger:
        ledger.void_award(small, by=FLOOR, reason="misread")
        ((li, rec),) = liability_reports(ledger, "mtd-5", start, None)
    (lv,) = li.levels
    assert lv.closing.pending == lv.closing.held == 0 and lv.closing.total == 500_205 * U
    assert lv.awards_voided == 1 and li.pending == () and li.balanced and agrees(li, rec)


def test_each_table_s_contributions_add_up_to_the_reconciliation_s(db_url: str) -> None:
    ledger, start, _, _ = day_with_an_award(db_url)
    with ledger:
        found = table_contributions(ledger, "mtd-5", start, None)
        rec = ledger.reconcile("mtd-5", start, None)
    by_table = {c.table: c for c in found}
    one, two = by_table["BJ-1"], by_table["BJ-2"]
    # BJ-1: r1 (3 wagers) and r3 (1); BJ-2: r2 (2)
    assert (one.rounds, one.wagers, one.handle_cents) == (2, 4, 2_000)
    assert (two.rounds, two.wagers, two.handle_cents) == (1, 2, 1_000)
    assert (one.levels[0].meter_micros, one.levels[0].reserve_micros) == (300 * U, 120 * U)
    assert (two.levels[0].meter_micros, two.levels[0].reserve_micros) == (150 * U, 60 * U)
    (r,) = rec.levels
    assert sum(c.levels[0].meter_micros for c in found) == r.contributions_micros
    assert sum(c.levels[0].reserve_micros for c in found) == r.reserve_contributions_micros


def test_a_period_that_ends_before_it_starts_is_refused(db_url: str) -> None:
    ledger, start, _, _ = day_with_an_award(db_url)
    with ledger, pytest.raises(InputError, match="ends"):
        liability_reports(ledger, None, start, start)


def test_an_award_s_trail_is_its_ledger_events_with_their_chain_macs(db_url: str) -> None:
    ledger, _, big, _ = day_with_an_award(db_url)
    with ledger:
        trail = award_trail(ledger, big)
        e = t.ledger_events
        with ledger.engine.connect() as conn:
            rows = conn.execute(
                sa.select(e.c.seq, e.c.kind, e.c.mac).where(e.c.award_id == big).order_by(e.c.seq)
            ).all()
        assert ledger.audit().chain_checked  # the MACs are the ones verify recomputes
        with pytest.raises(LedgerLookupError):
            award_trail(ledger, 999_999)
    assert [(x.seq, x.kind.value, x.mac) for x in trail.events] == [tuple(r) for r in rows]
    assert [x.kind for x in trail.events] == [
        EventKind.AWARD,
        EventKind.VALIDATION,
        EventKind.PAYMENT,
        EventKind.RESET,
    ]
    assert trail.award.amount_cents == AWARD_100 and trail.award.validated_by == FLOOR
