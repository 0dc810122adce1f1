"""Edits made behind croupier's back are caught by ``verify`` — on SQLite and on PostgreSQL.

Each test tampers with the database the way the trial of issue 12 did (each passed ``croupier
meters verify`` before): an edited pending award, a promoted dealer, an event rewritten with the
append-only trigger out of the way, a forged adjustment, a round's events deleted, a settlement
row deleted and the round settled again. Without the ledger key, verify still checks everything
but the macs, and says so.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.errors import AuthorizationError, LedgerIntegrityError, LedgerKeyError
from croupier.progressive import AwardStatus, Ledger, format_micros, schema
from progressive_support import (
    BACKENDS,
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    keyless,
    mtd_ledger,
    new_db_url,
    play,
    restore,
    snapshot,
    without_append_only,
)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


@pytest.fixture
def ledger(db_url: str) -> Iterator[Ledger]:
    """Two settled rounds at BJ-1; round r2's 10% award (seat 2) pending validation."""
    with mtd_ledger(db_url) as led:
        play(led, "mtd-5", "r1", "BJ-1", [1, 2, 3], [(1, "suited-match")])
        play(led, "mtd-5", "r2", "BJ-1", [1, 2], [(2, "two-suited-match")])
        led.audit()  # untouched, it verifies
        yield led


def sql(ledger: Ledger, statement: str, **params: object) -> None:
    with ledger.engine.begin() as conn:
        conn.execute(sa.text(statement), params)


def pending(ledger: Ledger) -> int:
    (a,) = ledger.awards("mtd-5", AwardStatus.PENDING)
    return a.id


def test_an_edited_pending_award_is_paid_as_awarded_and_verify_fails(ledger: Ledger) -> None:
    award = ledger.award(pending(ledger))
    # 10% of $5,000 + 5 wagers × 75¢ = $5,003.75 is $500.375: $500.37, the cent below
    assert award.amount_cents == 50_037
    sql(ledger, "UPDATE awards SET amount_cents = 99999 WHERE id = :i", i=award.id)
    with pytest.raises(LedgerIntegrityError, match=rf"award {award.id} differs from the log"):
        ledger.audit()
    paid = ledger.validate(award.id, by=FLOOR)
    assert paid.amount_cents == 50_037  # from the award event, not the edited row
    (lv,) = ledger.status("mtd-5").levels
    assert lv.paid_cents == 50_037


def test_a_dealer_promoted_in_the_staff_table_gains_nothing_and_verify_fails(
    ledger: Ledger,
) -> None:
    sql(ledger, "UPDATE staff SET role = 'floorperson' WHERE name = :n", n=DEALER)
    with pytest.raises(LedgerIntegrityError, match="staff store differs from the log for dana"):
        ledger.audit()
    with pytest.raises(LedgerIntegrityError, match="staff store's entry for 'dana'"):
        ledger.validate(pending(ledger), by=DEALER)
    assert ledger.award(pending(ledger)).status is AwardStatus.PENDING


def test_a_swapped_credential_hash_fails_verify(ledger: Ledger) -> None:
    sql(ledger, "UPDATE staff SET credential = (SELECT credential FROM staff WHERE name = :m) "
        "WHERE name = :n", m=DEALER, n=SHIFT)  # fmt: skip
    with pytest.raises(LedgerIntegrityError, match="staff store differs from the log for sam"):
        ledger.audit()


def test_an_event_rewritten_past_the_trigger_breaks_the_chain(
    ledger: Ledger, tmp_path: Path
) -> None:
    ledger.validate(pending(ledger), by=FLOOR)
    without_append_only(ledger)
    # the payment now claims the pit manager made it: a role allowed to, so only the mac tells
    sql(ledger, "UPDATE ledger_events SET actor = :p, actor_role = 'pit-manager' "
        "WHERE kind = 'payment'", p=PIT)  # fmt: skip
    with ledger.engine.connect() as conn:
        seq = conn.execute(sa.text("SELECT seq FROM ledger_events WHERE kind = 'payment'")).scalar()
    with pytest.raises(
        LedgerIntegrityError, match=rf"ledger event {seq} \(payment\) does not match"
    ):
        ledger.audit()
    # without the key the macs cannot be recomputed: everything else holds, and it says so
    with keyless(ledger, tmp_path) as other:
        assert other.audit().chain_checked is False
        with pytest.raises(LedgerKeyError, match="missing: nothing is written"):
            other.system("mtd-5").accept_wagers("r9", "BJ-1", [1], by=DEALER)


def test_a_validation_rewritten_to_a_dealer_fails_verify_even_without_the_key(
    ledger: Ledger, tmp_path: Path
) -> None:
    ledger.validate(pending(ledger), by=FLOOR)
    without_append_only(ledger)
    sql(ledger, "UPDATE ledger_events SET actor = :d, actor_role = 'dealer' "
        "WHERE kind IN ('validation', 'payment')", d=DEALER)  # fmt: skip
    with (
        keyless(ledger, tmp_path) as other,
        pytest.raises(
            LedgerIntegrityError,
            match=r"\(validation\): is by dana, a dealer; it needs a floorperson or above "
            r"\(58 Pa. Code § 633b.3\(h\)\(3\)\)",
        ),
    ):
        other.audit()


def forge_adjustment(ledger: Ledger, actor: str, role: str, *, head: bool) -> None:
    """Insert an adjustment event (+$1,000 on the meter) and make the meter agree with it."""
    with ledger.engine.begin() as conn:
        seq = conn.execute(sa.text("SELECT MAX(seq) FROM ledger_events")).scalar_one() + 1
        pid = conn.execute(sa.text("SELECT id FROM progressives")).scalar_one()
        mac = secrets.token_hex(32)
        conn.execute(
            sa.text(
                "INSERT INTO ledger_events (seq, progressive_id, kind, level, meter_delta, "
                "reserve_delta, held_delta, wagered_delta, paid_delta, hits_delta, actor, "
                "actor_role, detail, created_at, mac) VALUES (:seq, :pid, 'adjustment', "
                "'Progressive', 1000000000, 0, 0, 0, 0, 0, :a, :r, '{\"reason\":\"x\"}', "
                "CURRENT_TIMESTAMP, :mac)"
            ),
            {"seq": seq, "pid": pid, "a": actor, "r": role, "mac": mac},
        )
        conn.execute(sa.text("UPDATE meter_levels SET meter_micros = meter_micros + 1000000000"))
        if head:
            conn.execute(sa.text("UPDATE ledger_chain SET head_seq = :s, head_mac = :m"),
                         {"s": seq, "m": mac})  # fmt: skip


def test_a_forged_adjustment_event_fails_verify(ledger: Ledger, tmp_path: Path) -> None:
    forge_adjustment(ledger, PIT, "pit-manager", head=True)
    with pytest.raises(LedgerIntegrityError, match=r"\(adjustment\) does not match its mac"):
        ledger.audit()


def test_a_forged_adjustment_without_its_role_fails_verify_without_the_key(
    ledger: Ledger, tmp_path: Path
) -> None:
    forge_adjustment(ledger, FLOOR, "floorperson", head=True)
    with (
        keyless(ledger, tmp_path) as other,
        pytest.raises(
            LedgerIntegrityError,
            match=r"needs a pit-manager or above \(58 Pa. Code § 605a.7\(a\)\(6\)\)",
        ),
    ):
        other.audit()


def test_a_forged_event_without_moving_the_head_fails_verify_without_the_key(
    ledger: Ledger, tmp_path: Path
) -> None:
    forge_adjustment(ledger, PIT, "pit-manager", head=False)
    other = keyless(ledger, tmp_path)
    with other, pytest.raises(LedgerIntegrityError, match="the chain head does not name"):
        other.audit()


def test_deleting_a_rounds_events_fails_verify(ledger: Ledger, tmp_path: Path) -> None:
    without_append_only(ledger)
    sql(ledger, "DELETE FROM ledger_events WHERE round_id = 'r1'")
    with pytest.raises(LedgerIntegrityError, match=r"is missing .*events were deleted"):
        ledger.audit()
    with keyless(ledger, tmp_path) as other, pytest.raises(LedgerIntegrityError):
        other.audit()


def test_a_deleted_settlement_row_fails_verify_and_a_second_settlement_too(
    ledger: Ledger,
) -> None:
    sql(ledger, "DELETE FROM settlements WHERE round_id = 'r1'")
    with pytest.raises(LedgerIntegrityError, match="BJ-1/r1 differ from the log"):
        ledger.audit()
    # and put the round back to verified so it can be settled again: two settled events
    sql(ledger, "UPDATE rounds SET status = 'verified' WHERE round_id = 'r1'")
    ledger.system("mtd-5").settle_round("r1", [], idempotency_key="BJ-1/r1", by=DEALER)
    with pytest.raises(LedgerIntegrityError, match="round 'r1' is settled a second time"):
        ledger.audit()


def test_an_edited_meter_or_round_fails_verify(ledger: Ledger) -> None:
    sql(ledger, "UPDATE rounds SET positions = '[1, 2, 3, 4]' WHERE round_id = 'r1'")
    with pytest.raises(LedgerIntegrityError, match="round 'r1': the rounds table differs"):
        ledger.audit()


def test_an_edited_meter_is_named_in_dollars(ledger: Ledger) -> None:
    """A meter raised by $1.00 behind croupier's back: verify says which figure differs, by how
    much, in dollars (it printed a Python repr of the whole level)."""
    before = {lv.level: lv.meter for lv in ledger.status("mtd-5").levels}
    sql(ledger, "UPDATE meter_levels SET meter_micros = meter_micros + 1000000")
    with pytest.raises(LedgerIntegrityError) as info:
        ledger.audit()
    message = str(info.value)
    assert "LevelState" not in message
    meter = next(iter(before.values()))
    want = f"meter {format_micros(meter + 1_000_000)} stored, the log replays to {format_micros(meter)}"
    assert want in message, message


def test_an_edited_definition_fails_verify(ledger: Ledger) -> None:
    # 1 Suited Match at 10 to 1 becomes 11 to 1
    sql(ledger, "UPDATE progressives SET definition = REPLACE(definition, '10 to 1', '11 to 1')")
    with pytest.raises(LedgerIntegrityError, match="its stored definition is not the seeded one"):
        ledger.audit()


def test_the_bootstrap_is_once_and_staff_need_a_shift_manager(ledger: Ledger) -> None:
    from croupier.errors import AuthenticationError
    from croupier.progressive import Role

    with pytest.raises(AuthenticationError, match="once, on an empty ledger"):
        ledger.bootstrap("mallory", "mallory's pin")
    with pytest.raises(
        AuthorizationError, match=r"shift-manager or above \(58 Pa. Code § 605a.7\)"
    ):
        ledger.add_user("mallory", Role.SHIFT_MANAGER, "mallory's pin", by=PIT)
    with pytest.raises(AuthenticationError, match="not a staff member"):
        ledger.authenticate(SHIFT, "a guess")
    assert ledger.authenticate(SHIFT, f"{SHIFT}-secret").role is Role.SHIFT_MANAGER
    assert "mallory" not in {m.name for m in ledger.users()}
    ledger.audit()


def test_a_database_rolled_back_with_its_chain_head_fails_verify(
    ledger: Ledger, tmp_path: Path
) -> None:
    """The newest events removed together with the head and all they derived (a restored
    backup) leave a consistent chain; the copy of the head kept beside the key shows it."""
    backup = snapshot(ledger)
    before = ledger.audit().head_kept
    play(ledger, "mtd-5", "r3", "BJ-1", [1, 2], [(1, "suited-match")])
    # accept, lock-out, chip count, the one level's contribution, the award, settled
    assert ledger.audit().head_kept == (before or 0) + 6 == ledger.event_count()
    restore(ledger, backup)
    with pytest.raises(LedgerIntegrityError, match="newest events were removed together"):
        ledger.audit()
    # checked where the key (and so the copy beside it) is not, there is no copy: it says so
    with keyless(ledger, tmp_path) as other:
        assert other.audit().head_kept is None
    # and nothing more is written on the rolled-back log
    with pytest.raises(LedgerIntegrityError, match="its newest events were removed together"):
        play(ledger, "mtd-5", "r3", "BJ-1", [1, 2], [(1, "suited-match")])
    with pytest.raises(LedgerIntegrityError, match="its newest events were removed together"):
        ledger.system("mtd-5").play_round("r4", "BJ-1", [1], [], idempotency_key="r4", by=DEALER)


def test_a_copy_of_the_head_that_lags_passes(ledger: Ledger) -> None:
    """A writer killed between its commit and writing the copy leaves the copy behind the
    database: no false alarm (verify checks the events up to it), and writing goes on."""
    assert ledger.head_file is not None
    older = ledger.head_file.read_bytes()
    kept = ledger.kept_head()
    assert kept is not None and ledger.audit().head_kept == kept[0] == ledger.event_count()
    play(ledger, "mtd-5", "r3", "BJ-1", [1], [])
    ledger.head_file.write_bytes(older)  # as if r3's writer had died before its copy
    assert ledger.audit().head_kept == kept[0] < ledger.event_count()
    play(ledger, "mtd-5", "r4", "BJ-1", [1], [])
    assert ledger.audit().head_kept == ledger.event_count()
    # a copy removed is never written anew by a write (that would hide a rollback whose head
    # file was deleted): verify and every write refuse the ledger, naming the file, until the
    # operator accepts it explicitly (tests/progressive/test_ledger_checkpoint.py)
    ledger.head_file.unlink()
    with pytest.raises(LedgerIntegrityError, match=f"{ledger.head_file} is missing"):
        ledger.audit()
    with pytest.raises(LedgerIntegrityError, match=f"{ledger.head_file} is missing"):
        play(ledger, "mtd-5", "r5", "BJ-1", [1], [])
    assert not ledger.head_file.exists()


def test_an_edited_settlement_result_is_caught(ledger: Ledger) -> None:
    """The trial of stop 13 edited ``settlements.result`` (the answer recorded for an idempotency
    key) and verify passed: it is now compared with the settlement the round's events make."""
    with ledger.engine.connect() as conn:
        row = conn.execute(
            sa.select(schema.settlements).where(schema.settlements.c.round_id == "r2")
        ).one()
    forged = row.result.replace('"pending"', '"paid"')
    assert forged != row.result  # r2's award is pending validation
    sql(ledger, "UPDATE settlements SET result = :r WHERE round_id = 'r2'", r=forged)
    with pytest.raises(LedgerIntegrityError, match="recorded result differs"):
        ledger.audit()
