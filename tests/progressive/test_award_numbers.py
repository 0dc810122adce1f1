"""Award numbers count awards (issue 31): a meter award — one a floorperson validates — is
numbered 1, 2, … across the ledger in the order made, whatever odds or envy pays the tables paid
between them (they keep an id, the key every command and path takes, and have no number); the
numbers survive a restart, migration 0009 numbers an older ledger's awards, and ``verify``
refuses a number edited behind croupier's back.

The expected numbers are counted by hand from the rounds played: on Match the Dealer (§ 633b.3
paytable 1) a ``suited-match`` is a fixed odds pay, a ``two-suited-match`` a 10% share of the
meter (pending validation)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.errors import LedgerIntegrityError
from croupier.progressive import AwardKind, AwardStatus, Ledger, QualifyingHand
from croupier.progressive.migrate import alembic_config, upgrade
from croupier.progressive.views import award_dict
from progressive_support import BACKENDS, DEALER, FLOOR, mtd_ledger, new_db_url, play


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def two_odds_pays_then_a_share(led: Ledger) -> None:
    """Round r1: two odds pays (ids 1 and 2); round r2: one 10% share (id 3, the first award a
    floorperson validates: number 1)."""
    play(led, "mtd-5", "r1", "BJ-1", [1, 2, 3], [(1, "suited-match"), (3, "suited-match")])
    play(led, "mtd-5", "r2", "BJ-1", [1, 2], [(2, "two-suited-match")])


def numbers(led: Ledger) -> list[tuple[int, str, int | None]]:
    """Every award of ``mtd-5`` as (id, kind, number), oldest first."""
    return [(a.id, a.kind.value, a.number) for a in led.awards("mtd-5")]


def by_seat(led: Ledger, round_id: str) -> dict[int, tuple[str, int | None]]:
    """Round ``round_id``'s awards by seat: (kind, number). Within one round the ledger orders
    the ids as its plan does, so a round mixing a share and an odds pay is read by seat."""
    return {
        a.position: (a.kind.value, a.number) for a in led.awards("mtd-5") if a.round_id == round_id
    }


def test_the_first_meter_award_after_fixed_pays_is_award_one(db_url: str) -> None:
    with mtd_ledger(db_url) as led:
        two_odds_pays_then_a_share(led)
        assert numbers(led) == [(1, "odds", None), (2, "odds", None), (3, "meter", 1)]
        (pending,) = led.status("mtd-5").pending
        assert (pending.id, pending.number, pending.label) == (3, 1, "award 1 (id 3)")
        shown = award_dict(pending)
        assert (shown["award"], shown["number"]) == (3, 1)  # additive: award stays the id
        paid = led.validate(3, by=FLOOR)  # the id is what a command takes
        assert (paid.status, paid.number) == (AwardStatus.PAID, 1)
        odds = led.award(1)
        assert (odds.kind, odds.number, odds.label) == (AwardKind.ODDS, None, "odds pay (id 1)")
        led.audit()


def test_both_settlement_paths_number_the_same_way(db_url: str) -> None:
    """The step-by-step procedure (:func:`play`) and the one-transaction ``play_round`` (its fast
    path) continue one count: ids 4 (odds) and 5 (share) → number 2; id 6 (share) → number 3."""
    with mtd_ledger(db_url) as led:
        two_odds_pays_then_a_share(led)
        system = led.system("mtd-5")
        fast = system.play_round(
            "r3",
            "BJ-2",
            [1, 2],
            [QualifyingHand(1, "suited-match"), QualifyingHand(2, "two-suited-match")],
            idempotency_key="k3",
            by=DEALER,
        )
        assert {a.position: a.number for a in fast.awards} == {1: None, 2: 2}
        assert sorted(a.id for a in fast.awards) == [4, 5]
        (slow,) = play(led, "mtd-5", "r4", "BJ-1", [7], [(7, "two-suited-match")]).awards
        assert (slow.id, slow.number) == (6, 3)
        again = system.play_round(
            "r3",
            "BJ-2",
            [1, 2],
            [QualifyingHand(1, "suited-match"), QualifyingHand(2, "two-suited-match")],
            idempotency_key="k3",
            by=DEALER,
        )
        assert again.replayed and again.awards == fast.awards
        led.audit()


def test_the_numbers_survive_a_restart(db_url: str) -> None:
    with mtd_ledger(db_url) as led:
        two_odds_pays_then_a_share(led)
    with Ledger(db_url) as led:
        assert numbers(led) == [(1, "odds", None), (2, "odds", None), (3, "meter", 1)]
        play(led, "mtd-5", "r3", "BJ-2", [4, 5], [(4, "suited-match"), (5, "two-suited-match")])
        assert by_seat(led, "r3") == {4: ("odds", None), 5: ("meter", 2)}
        led.audit()


def test_the_migration_numbers_an_older_ledgers_meter_awards(db_url: str) -> None:
    """Down to 0008 (no numbers) and up again: the meter awards are numbered in id order, the
    odds pays not, verify holds, and the next award continues the count."""
    with mtd_ledger(db_url) as led:
        two_odds_pays_then_a_share(led)
        play(led, "mtd-5", "r3", "BJ-2", [4, 5], [(4, "two-suited-match"), (5, "suited-match")])
    engine = sa.create_engine(db_url)
    from alembic import command

    cfg = alembic_config()
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0008")
        conn.commit()
    assert "number" not in {c["name"] for c in sa.inspect(engine).get_columns("awards")}
    upgrade(engine)
    engine.dispose()
    with Ledger(db_url, migrate=False) as led:
        assert numbers(led)[:3] == [(1, "odds", None), (2, "odds", None), (3, "meter", 1)]
        assert by_seat(led, "r3") == {4: ("meter", 2), 5: ("odds", None)}
        led.audit()
        (a,) = play(led, "mtd-5", "r4", "BJ-1", [6], [(6, "two-suited-match")]).awards
        assert (a.id, a.number) == (6, 3)


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        ("UPDATE awards SET number = 5 WHERE id = 3", r"award 3: number 5 stored, the log numbers it 1"),
        ("UPDATE awards SET number = 9 WHERE id = 1", r"award 1: number 9 stored, the log numbers it none"),
        ("UPDATE awards SET number = NULL WHERE id = 4", r"award 4: number None stored, the log .* 2"),
    ],
)  # fmt: skip
def test_verify_refuses_a_number_edited_behind_croupiers_back(
    db_url: str, edit: str, named: str
) -> None:
    with mtd_ledger(db_url) as led:
        two_odds_pays_then_a_share(led)
        play(led, "mtd-5", "r3", "BJ-2", [4], [(4, "two-suited-match")])
        led.audit()
        with led.engine.begin() as conn:
            conn.execute(sa.text(edit))
        with pytest.raises(LedgerIntegrityError, match=named):
            led.audit()
        with pytest.raises(LedgerIntegrityError, match="the log numbers it"):
            led.verify("mtd-5")


def test_two_awards_cannot_share_a_number(db_url: str) -> None:
    """The unique index refuses a second award 1 (the database, not only verify)."""
    with mtd_ledger(db_url) as led:
        two_odds_pays_then_a_share(led)
        play(led, "mtd-5", "r3", "BJ-2", [4], [(4, "two-suited-match")])
        with pytest.raises(sa.exc.IntegrityError), led.engine.begin() as conn:
            conn.execute(sa.text("UPDATE awards SET number = 1 WHERE id = 4"))
