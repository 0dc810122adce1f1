"""The ledger and the analysis agree on the meter (docs/interpretations.md, *The meter below its
seed*): after a 10% award the meter stands below its seed, and every meter the ledger reaches is
one ``croupier analyze --meter`` and ``croupier hand --meter`` accept — the hand then pays exactly
what the ledger awarded from that meter."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from croupier.cli import app
from croupier.progressive import EventKind, Ledger, format_micros
from progressive_support import FLOOR, SHIFT, add_staff, paytable_definition, play

runner = CliRunner()
SEED = 500_000  # $5 × 1,000 (§ 633b.3(j)), cents


def test_every_meter_the_ledger_reaches_is_one_the_analysis_values_as_the_ledger_pays(
    tmp_path: Path,
) -> None:
    with Ledger(f"sqlite:///{tmp_path / 'l.sqlite3'}") as ledger:
        add_staff(ledger)
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 6, 500, "mtd"), tables=["T"], by=SHIFT
        )
        below = 0
        for i in range(6):
            (award,) = play(ledger, "mtd", f"r{i}", "T", [1, 2], [(2, "two-suited-match")]).awards
            ledger.validate(award.id, by=FLOOR)
            (event,) = [
                e.event
                for e in ledger.history("mtd")
                if e.event.kind is EventKind.AWARD and e.event.award_id == award.id
            ]
            taken_from = int(event.detail["available_micros"])  # the meter the 10% was of
            (lv,) = ledger.status("mtd").levels
            for micros in (taken_from, lv.meter):
                meter = format_micros(micros).lstrip("$").replace(",", "")
                analyzed = runner.invoke(app, ["analyze", "match-the-dealer", "-p", "1", "-d",
                                               "6", "--meter", meter, "--amount", "5"])  # fmt: skip
                assert analyzed.exit_code == 0, analyzed.output
                hand = runner.invoke(app, ["hand", "match-the-dealer", "7h 7h 7h", "-p", "1",
                                           "-d", "6", "--meter", meter, "-a", "5", "--json"])  # fmt: skip
                assert hand.exit_code == 0, hand.output
                if micros == taken_from:
                    # collected stake: the hand nets the award less the $5 wager
                    win = json.loads(hand.stdout)["win"]
                    assert win == f"+${(award.amount_cents - 500) / 100:,.2f}"  # a result, signed
            below += lv.meter < SEED * 10_000
        assert below == 6  # each 10% award left the meter below the $5,000 seed


def test_a_meter_shown_to_the_micro_dollar_is_accepted_and_valued_at_its_cents() -> None:
    """Jackpot Party increments are fractions of a cent (3.75% of $5 = 18.75¢); `croupier meters`
    shows such a meter to the micro-dollar, and the analysis takes it as shown."""
    args = ["hand", "match-the-dealer", "7h 7h 7h", "-p", "1", "-d", "6", "-a", "5", "--json"]
    shown = runner.invoke(app, [*args, "--meter", "5001.5075"])
    cents = runner.invoke(app, [*args, "--meter", "5001.50"])
    assert shown.exit_code == 0 and cents.exit_code == 0, shown.output
    # 10% of $5,001.5075 is $500.15075: paid $500.15, as 10% of $5,001.50 — less the $5 stake
    assert json.loads(shown.stdout)["win"] == json.loads(cents.stdout)["win"] == "+$495.15"
    bad = runner.invoke(app, ["analyze", "jackpot-party", "-p", "P1", "-d", "6", "--meter",
                              "50000.0000001"])  # fmt: skip
    assert bad.exit_code != 0  # finer than a micro-dollar: no ledger meter looks like that


def test_after_a_reset_the_meter_restarts_where_the_analysis_restarts_it(tmp_path: Path) -> None:
    """The analysis's default reading (reseed funded by the reserve, the house adding what it
    lacks) restarts the meter at the seed; so does the ledger, whose reserve (6% of $10 = 60¢)
    is far short of the $5,000 seed — and the meter it restarts at is one the analysis values."""
    with Ledger(f"sqlite:///{tmp_path / 'l.sqlite3'}") as ledger:
        add_staff(ledger)
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 6, 500, "mtd"), tables=["T"], by=SHIFT
        )
        (a,) = play(
            ledger, "mtd", "r1", "T", [1, 2], [(1, "two-suited-match-aces-of-spades")]
        ).awards
        ledger.validate(a.id, by=FLOOR)
        (lv,) = ledger.status("mtd").levels
        assert (lv.meter, lv.reserve) == (SEED * 10_000, 0)
        meter = format_micros(lv.meter).lstrip("$").replace(",", "")
        hand = runner.invoke(app, ["hand", "match-the-dealer", "7h 7h 7h", "-p", "1", "-d", "6",
                                   "--meter", meter, "-a", "5", "--json"])  # fmt: skip
        assert hand.exit_code == 0, hand.output
        assert json.loads(hand.stdout)["win"] == "+$495"  # 10% of $5,000 less the $5 stake
