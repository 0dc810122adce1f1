"""``croupier meters ... --json`` prints exactly the models its docs/schemas files are made from
(croupier.operations.schemas: progressives, reports, staff): each document validates (unknown
keys refused) and the model writes the same JSON back — the schema is not a loose description
of the output (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter
from typer.testing import CliRunner

from croupier.cli import app
from croupier.operations.schemas.liability import ContributionsReport, LiabilityReport, Slip
from croupier.operations.schemas.progressives import (
    Adjusted,
    Award,
    Bootstrapped,
    Linked,
    LoggedIn,
    MetersStatus,
    MetersVerified,
    Progressive,
    Reconfigured,
    SignificantEvents,
    SuspendedState,
    VoidedAward,
)
from croupier.operations.schemas.registry import DOCUMENTS
from croupier.operations.schemas.reports import MetersReport
from croupier.operations.schemas.staff import Roster, UserChange
from repo_paths import ROOT

ENV = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}
runner = CliRunner()


def exactly(shape: Any, *args: str) -> Any:
    """The command's ``--json`` document, checked to be ``shape`` exactly."""
    result = runner.invoke(app, [*args, "--json"], env=ENV)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    adapter: TypeAdapter[Any] = TypeAdapter(shape)
    again = adapter.dump_python(
        adapter.validate_python(data), mode="json", by_alias=True, exclude_unset=True
    )
    assert json.dumps(again) == json.dumps(data)  # the same keys, order and values
    return data


def test_every_meters_document_is_the_model_the_command_prints(tmp_path: Path) -> None:
    db = ("--db", f"sqlite:///{tmp_path / 'models.sqlite3'}")
    exactly(Bootstrapped, "meters", "bootstrap", "sam", *db)
    made = exactly(
        Progressive,
        *("meters", "create", "--paytable", "match-the-dealer:1", "--decks", "6"),
        *("--amount", "5", "--name", "mtd-5", "--table", "BJ-1", "--as", "sam", *db),
    )
    assert made["suspended"] is None
    exactly(Linked, "meters", "link", "mtd-5", "BJ-2", "--as", "sam", *db)
    for name, role in (
        ("dana", "dealer"),
        ("flo", "floorperson"),
        ("pat", "pit-manager"),
        ("eve", "dealer"),
    ):
        exactly(UserChange, "meters", "user", name, "--role", role, "--as", "sam", *db)
    exactly(UserChange, "meters", "user", "eve", "--set-role", "floorperson", "--as", "sam", *db)
    exactly(UserChange, "meters", "user", "eve", "--new-credential", "--as", "sam", *db)
    exactly(LoggedIn, "meters", "login", "--as", "flo", *db)
    award_round = ROOT / "examples" / "rounds" / "match-the-dealer-award.json"
    for rid in ("r1", "r2"):
        copy = tmp_path / f"{rid}.json"
        data = json.loads(award_round.read_text("utf-8"))
        data["submission"] = str(award_round.parent / data["submission"])
        copy.write_text(json.dumps(data), "utf-8")
        settled = runner.invoke(
            app,
            ["settle", str(copy), "--progressive", "mtd-5", "--table", "BJ-1", "--as", "dana", *db],
            env=ENV,
        )
        assert settled.exit_code == 0, settled.output
    status = exactly(MetersStatus, "meters", *db, "--history")
    assert status["history"]
    pending = [a["award"] for a in status["progressives"][0]["pending"]]
    exactly(Award, "meters", "validate", str(pending[0]), "--as", "flo", *db)
    exactly(
        VoidedAward,
        *("meters", "void", str(pending[1]), "--as", "flo", "--reason", "misdeal", *db),
    )
    exactly(
        Adjusted,
        *("meters", "adjust", "mtd-5", "--level", "Progressive", "--meter", "1"),
        *("--reason", "test", "--as", "pat", *db),
    )
    exactly(
        SuspendedState, "meters", "suspend", "mtd-5", "--reason", "new rate", "--as", "pat", *db
    )
    exactly(
        Reconfigured,
        *("meters", "reconfigure", "mtd-5", "--approval", "CHG-1", "--rate", "Progressive=12%"),
        *("--seed", "Progressive=6000", "--as", "sam", *db),
    )
    shown = exactly(MetersStatus, "meters", *db)
    assert shown["progressives"][0]["suspended"]["reason"] == "new rate"
    exactly(SuspendedState, "meters", "resume", "mtd-5", "--as", "pat", *db)
    exactly(MetersReport, "meters", "report", "--as", "pat", *db)
    owed = exactly(LiabilityReport, "meters", "liability", "--as", "pat", *db)
    assert owed["balanced"] and owed["reconciled"]
    exactly(ContributionsReport, "meters", "contributions", "--as", "pat", *db)
    exactly(Slip, "meters", "slip", str(pending[0]), "--as", "flo", *db)
    exactly(Slip, "meters", "slip", str(pending[1]), "--as", "flo", *db)
    exactly(SignificantEvents, "meters", "events", "--as", "sam", *db)
    exactly(Roster, "meters", "users", *db)
    exactly(UserChange, "meters", "user", "eve", "--remove", "--as", "sam", *db)
    assert exactly(MetersVerified, "meters", "verify", *db)["chain_checked"] is True


def test_each_meters_schema_file_is_made_from_a_model_the_commands_print() -> None:
    tested: set[Any] = {
        Adjusted,
        ContributionsReport,
        LiabilityReport,
        Slip,
        Award,
        Bootstrapped,
        Linked,
        LoggedIn,
        MetersReport,
        MetersStatus,
        MetersVerified,
        Progressive,
        Reconfigured,
        Roster,
        SignificantEvents,
        SuspendedState,
        UserChange,
        VoidedAward,
    }
    meters = {d.name: d.shape for d in DOCUMENTS if d.name.startswith("meters-")}
    assert len(meters) == 18
    assert set(meters.values()) <= tested
    assert all(isinstance(s, type) and issubclass(s, BaseModel) for s in tested - {UserChange})
