"""The application layer (croupier.operations): ``croupier settle --progressive`` and ``POST
/rounds/settle`` settle a round on the ledger through one function, and the presenters both
interfaces show are the operations' own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import croupier.commands.meters as cli_meters
import croupier.operations.rounds as ops
import croupier.service.round_writes as round_writes
from croupier.errors import InputError
from croupier.operations.documents import shown_round
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.paytables import MeterLevel
from croupier.progressive import Ledger
from croupier.table.progressive import round_content, valued_at_seed
from croupier.table.record import settle_file
from croupier.table.round import TableRound

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_cli_and_the_service_settle_a_round_through_one_function() -> None:
    assert vars(cli_meters)["settle_on_ledger"] is ops.settle_on_ledger
    # the service's settle route: its write feeds and documents the round by the operation
    assert vars(round_writes)["feed_and_document"] is ops.feed_and_document


def test_the_services_settlement_is_settle_on_ledger_then_its_document(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rnd = settle_file(EXAMPLES / "rounds" / "four-card-progressive-award.json")
    calls: list[dict[str, Any]] = []

    def spy(ledger: Ledger, r: TableRound, **kw: Any) -> ops.LedgerRound:
        calls.append(kw)
        return ops.LedgerRound(round_content(r), (), valued_at_seed(r))

    monkeypatch.setattr(ops, "settle_on_ledger", spy)
    s = ops.feed_and_document(
        Ledger.__new__(Ledger),  # never read: no progressive fed
        rnd,
        table="FCP-1",
        round_id="r-1",
        submission_digest="d" * 64,
        progressives=[],
        by="dee",
    )
    assert calls == [{"table": "FCP-1", "round_id": "r-1", "progressives": [], "by": "dee"}]
    assert s.document["progressives"] == [] and s.content == round_content(rnd)
    assert s.document["events"] == [e.to_json() for e in valued_at_seed(rnd).events]


def test_a_round_fed_to_no_progressive_is_valued_at_the_seed() -> None:
    rnd = settle_file(EXAMPLES / "rounds" / "four-card-progressive-award.json")

    def no_kind(name: str) -> tuple[str, int]:
        raise AssertionError(name)

    assert shown_round(rnd, (), no_kind, fed_any=False) == valued_at_seed(rnd)
    assert shown_round(rnd, (), no_kind).events == rnd.events  # fed, nothing paid: as dealt


def test_the_money_arguments_name_what_the_caller_typed() -> None:
    assert money("$12,345.67", "--amount") == 1234567 and money(None, "--amount") is None
    assert meter_arg("50000.1875") == 5000018  # sub-cent digits rounded down
    assert meter_arg("Mega=60000,Major=6000", "meter") == {
        MeterLevel.parse("Mega"): 6000000,
        MeterLevel.parse("Major"): 600000,
    }
    with pytest.raises(InputError, match="the meter parameter"):
        meter_arg("lots", "the meter parameter")
