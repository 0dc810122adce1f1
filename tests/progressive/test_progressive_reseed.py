"""Who funds a reset after a 100% award (docs/interpretations.md, *Reseed funding*): the ledger
follows the definition's :class:`~croupier.analysis.meters.ReseedFunding` — the reading the
analysis uses — and a definition stored before the field existed reads as ``HOUSE``, the ledger's
old reset, so an old ledger's events still verify."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.errors import LedgerIntegrityError
from croupier.paytables import MeterLevel
from croupier.progressive import (
    EventKind,
    Ledger,
    ProgressiveDefinition,
    QualifyingHand,
    ReseedFunding,
    ResetTiming,
)
from croupier.progressive.meters import Replayer, StoredEvent, seed_states
from croupier.progressive.migrate import upgrade
from croupier.progressive.planning import plan_settlement
from progressive_support import (
    BACKENDS,
    FLOOR,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    play,
)

U = 10_000
P = MeterLevel.PROGRESSIVE
LEGACY_KEYS = {
    "name", "section", "paytable", "decks", "wager_cents", "reset_timing", "envy_rule",
    "stake", "levels", "lines",
}  # fmt: skip


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def test_a_house_funded_definition_is_stored_as_before_the_field_and_reads_back_so() -> None:
    made = paytable_definition("633b.3", "1", 6, 500, "mtd", reseed=ReseedFunding.HOUSE)
    house = replace(made, paytable_sha256=None)  # as a definition made before the digests
    text = house.to_json()
    assert set(json.loads(text)) == LEGACY_KEYS  # byte for byte what was stored before
    assert ProgressiveDefinition.from_json(text).reseed is ReseedFunding.HOUSE
    assert ProgressiveDefinition.from_json(text).to_json() == text
    reserve = replace(house, reseed=ReseedFunding.RESERVE)
    assert json.loads(reserve.to_json())["reseed"] == "reserve"
    assert ProgressiveDefinition.from_json(reserve.to_json()) == reserve
    # a new progressive is funded from the reserve unless it says otherwise (the analysis's default)
    assert paytable_definition("633b.3", "1", 6, 500).reseed is ReseedFunding.RESERVE


def test_the_migration_reads_a_progressive_made_before_it_as_house_funded(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    upgrade(engine, "0003")
    legacy = paytable_definition("633b.3", "1", 6, 500, "old", reseed=ReseedFunding.HOUSE)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO progressives (name, section, paytable, decks, wager_cents, "
                "definition, created_at) VALUES ('old', '633b.3', '1', 6, 500, :d, '2026-01-01')"
            ),
            {"d": legacy.to_json()},
        )
    upgrade(engine)
    with engine.connect() as conn:
        row = conn.execute(sa.text("SELECT reseed_funding, definition FROM progressives")).one()
    engine.dispose()
    assert row.reseed_funding == "house"
    assert ProgressiveDefinition.from_json(row.definition).reseed is ReseedFunding.HOUSE


def _reset_log(d: ProgressiveDefinition) -> list[StoredEvent]:
    seeds, states = seed_states(d)
    plan = plan_settlement(
        d, states, [1, 2], [QualifyingHand(1, "two-suited-match-aces-of-spades")]
    )
    return [
        StoredEvent(
            i + 1,
            e.kind,
            e.level,
            e.delta,
            award_id=None if e.award is None else 1,
            amount_cents=e.amount_cents,
            detail=e.detail,
        )
        for i, e in enumerate([*seeds, *plan.events])
    ]


def test_the_replay_refuses_a_reset_funded_otherwise_than_the_definition_says() -> None:
    d = paytable_definition("633b.3", "1", 6, 500, "mtd", reset_timing=ResetTiming.ON_AWARD)
    log = _reset_log(d)
    (i,) = [k for k, e in enumerate(log) if e.kind is EventKind.RESET]
    # $5,001.50 paid at the award; the 60¢ reserve pays 60¢ of the reseed, the house $4,999.40
    assert dict(log[i].detail) == {
        "funding": "reserve", "reserve_micros": 60 * U, "house_micros": 499_940 * U,
    }  # fmt: skip
    assert Replayer(d).run(log)[P].meter == 500_000 * U
    # the same reset replayed against a house-funded definition: $5,000 + 60¢ was due
    with pytest.raises(LedgerIntegrityError, match="reset"):
        Replayer(replace(d, reseed=ReseedFunding.HOUSE)).run(log)
    # a house top-up recorded larger than what the reserve lacked
    forged = list(log)
    forged[i] = replace(log[i], detail={**log[i].detail, "house_micros": 500_000 * U})
    with pytest.raises(LedgerIntegrityError, match="funding"):
        Replayer(d).run(forged)


@pytest.mark.parametrize("reseed", list(ReseedFunding))
def test_the_ledger_resets_as_its_definition_says_and_verifies(
    db_url: str, reseed: ReseedFunding
) -> None:
    with Ledger(db_url) as ledger:
        add_staff(ledger)
        d = paytable_definition("633b.3", "1", 6, 100, "mtd", reseed=reseed)
        ledger.create_progressive(d, tables=["T"], by=SHIFT)
        with ledger.engine.connect() as conn:
            stored = conn.execute(sa.text("SELECT reseed_funding FROM progressives")).scalar_one()
        assert stored == reseed.value
        for i in range(3):
            (a,) = play(ledger, "mtd", f"r{i}", "T", [1, 2, 3],
                        [(1, "two-suited-match-aces-of-spades")]).awards  # fmt: skip
            ledger.validate(a.id, by=FLOOR)
        (lv,) = ledger.status("mtd").levels
        # three $1 wagers a round: 45¢ to the meter, 18¢ to the reserve, all of it taken by the
        # 100% award; the reset is $1,000 (RESERVE: 18¢ of it from the reserve) or $1,000.18
        on_top = 18 if reseed is ReseedFunding.HOUSE else 0
        assert (lv.meter, lv.reserve) == ((100_000 + on_top) * U, 0)
        assert [a.amount_cents for a in ledger.awards("mtd")] == [
            100_045,
            100_045 + on_top,
            100_045 + on_top,
        ]
        assert ledger.verify("mtd")[P] == lv
