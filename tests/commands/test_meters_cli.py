"""``croupier meters``: create from a paytable, show levels and pending awards, validate as a
floorperson, history, verify, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app, main
from croupier.errors import LedgerKeyError
from croupier.progressive import Ledger
from progressive_support import DEALER, FLOOR, SHIFT, add_staff, paytable_definition, play, secret

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cli.sqlite3'}"


def cli(*args: str, env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def cli_json(*args: str, env: dict[str, str] | None = None) -> Any:
    return json.loads(cli(*args, "--json", env=env))


def as_(name: str, new: str | None = None) -> dict[str, str]:
    """The environment of a command run as ``name`` (adding staff member ``new``)."""
    env = {"CROUPIER_PASSWORD": secret(name)}
    if new is not None:
        env["CROUPIER_NEW_PASSWORD"] = secret(new)
    return env


def test_create_show_validate_history_and_verify(db: str) -> None:
    cli("meters", "bootstrap", SHIFT, "--db", db, env=as_(SHIFT))
    created = cli_json(
        "meters",
        "create",
        "--paytable",
        "633b.3:1",
        "--decks",
        "6",
        "--amount",
        "5",
        "--name",
        "mtd-5",
        "--table",
        "BJ-1",
        "--table",
        "BJ-2",
        "--as",
        SHIFT,
        "--db",
        db,
        env=as_(SHIFT),
    )
    assert (created["section"], created["citation"]) == ("633b.3", "58 Pa. Code § 633b.3")
    (lv,) = created["levels"]
    assert (lv["seed"], lv["meter"], lv["primary_rate"], lv["secondary_rate"]) == (
        "$5,000",
        "$5,000",
        "15%",
        "6%",
    )
    assert created["tables"] == ["BJ-1", "BJ-2"]
    for name, role in ((DEALER, "dealer"), (FLOOR, "floorperson")):
        cli("meters", "user", name, "--role", role, "--as", SHIFT, "--db", db, env=as_(SHIFT, name))
    assert f"{FLOOR} authenticated: floorperson" in cli(
        "meters", "login", "--as", FLOOR, "--db", db, env=as_(FLOOR)
    )

    with Ledger(db) as ledger:
        award = play(ledger, "mtd-5", "r1", "BJ-1", [1, 2], [(2, "two-suited-match")]).awards[0]

    shown = cli_json("meters", "--db", db)
    (prog,) = shown["progressives"]
    (lv,) = prog["levels"]
    # $5,000 + 2 × 75¢; 10% of it ($500.15) held for the pending award; reserve 2 × 30¢
    assert (lv["meter"], lv["held"], lv["available"], lv["reserve"]) == (
        "$5,001.50",
        "$500.15",
        "$4,501.35",
        "$0.60",
    )
    assert [(p["award"], p["amount"], p["status"]) for p in prog["pending"]] == [
        (award.id, "$500.15", "pending")
    ]
    table = cli("meters", "--db", db)
    assert "Pending validation" in table and "$500.15" in table

    paid = cli_json("meters", "validate", str(award.id), "--as", FLOOR, "--db", db, env=as_(FLOOR))
    assert (paid["status"], paid["validated_by"], paid["amount"]) == ("paid", FLOOR, "$500.15")
    (lv,) = cli_json("meters", "--db", db)["progressives"][0]["levels"]
    assert (lv["meter"], lv["held"], lv["paid"]) == ("$4,501.35", "$0", "$500.15")

    history = cli_json("meters", "--history", "--db", db)["history"]
    kinds = [e["kind"] for e in history]
    assert kinds[:4] == ["user", "seed", "link", "link"]
    assert kinds[-2:] == ["validation", "payment"]
    assert history[-1]["by"] == FLOOR and history[-1]["role"] == "floorperson"
    assert "payment" in cli("meters", "--history", "--limit", "3", "--db", db)

    verified = cli_json("meters", "verify", "--db", db)
    assert verified["verified"] == {"mtd-5": {"Progressive": "$4,501.35"}}
    assert verified["chain_checked"] is True
    assert "every level matches" in cli("meters", "verify", "--db", db)


def test_the_database_may_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_DB", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    monkeypatch.setenv("CROUPIER_PASSWORD", secret(SHIFT))
    cli("meters", "bootstrap", SHIFT)
    cli(
        "meters",
        "create",
        "-p",
        "633b.2:P17-A",
        "-d",
        "1",
        "-a",
        "5",
        "--name",
        "jp",
        "--as",
        SHIFT,
    )
    levels = cli_json("meters")["progressives"][0]["levels"]
    assert [(lv["level"], lv["meter"]) for lv in levels] == [
        ("Mega", "$50,000"),
        ("Major", "$5,000"),
        ("Minor", "$500"),
    ]
    assert (tmp_path / "env.sqlite3").exists()
    assert (tmp_path / "env.sqlite3.key").exists()  # the ledger key, beside the database


def test_the_default_database_is_a_per_user_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CROUPIER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ledger = tmp_path / "data" / "croupier" / "progressive.sqlite3"
    # a command that only reads never creates the ledger: one error line, no file
    result = runner.invoke(app, ["meters"])
    assert result.exit_code != 0 and "no ledger at" in str(result.exception)
    assert not ledger.exists()
    # a bootstrap with no credential to read (no terminal, no file, no variable) leaves nothing
    monkeypatch.delenv("CROUPIER_PASSWORD", raising=False)
    monkeypatch.delenv("CROUPIER_PASSWORD_FILE", raising=False)
    result = runner.invoke(app, ["meters", "bootstrap", SHIFT])
    assert result.exit_code != 0 and "no credential" in str(result.exception)
    assert not (tmp_path / "data" / "croupier").exists() or not any(ledger.parent.iterdir())
    cli("meters", "bootstrap", SHIFT, env=as_(SHIFT))  # the one command that creates it
    assert ledger.exists()
    assert "No progressive" in cli("meters")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # a dealer is refused before the award is looked up: the same answer for an award
        # that exists (1) and one that does not (99), citing (h)(3) of both sections
        (
            ["meters", "validate", "1", "--as", DEALER],
            "floorperson or above (58 Pa. Code § 633b.2(h)(3); 58 Pa. Code § 633b.3(h)(3))",
        ),
        (
            ["meters", "validate", "99", "--as", DEALER],
            "floorperson or above (58 Pa. Code § 633b.2(h)(3); 58 Pa. Code § 633b.3(h)(3))",
        ),
        (
            ["meters", "void", "99", "--reason", "x", "--as", DEALER],
            "floorperson or above (58 Pa. Code § 633b.2(h)(1); 58 Pa. Code § 633b.3(h)(1))",
        ),
        (["meters", "validate", "99", "--as", FLOOR], "no award 99"),
        (["meters", "create", "-p", "633b.3:1", "-d", "6", "-a", "2", "--name", "x"], "§ 633b.3"),
        (
            ["meters", "create", "-p", "633b.3", "-d", "6", "-a", "5", "--name", "x"],
            "SECTION:PAYTABLE",
        ),
        (["meters", "--name", "nope"], "no progressive named 'nope'"),
        (["meters", "user", "x", "--role", "croupier"], "unknown role"),
        # the trial's defect: with staff on the ledger, anyone could add a shift manager
        (
            ["meters", "user", "mallory", "--role", "shift-manager"],
            "name the staff member with --as",
        ),
        (
            ["meters", "user", "mallory", "--role", "shift-manager", "--as", DEALER],
            "shift-manager or above (58 Pa. Code § 605a.7)",
        ),
        # a dealer's too-short credential for the new member: refused for the role, not the length
        (
            ["meters", "user", "mallory", "--role", "shift-manager", "--as", DEALER, "--short"],
            "shift-manager or above (58 Pa. Code § 605a.7)",
        ),
        (["meters", "bootstrap", "mallory"], "the bootstrap is once, on an empty ledger"),
        (["meters", "validate", "1", "--as", "mallory"], "are not a staff member of the ledger"),
        (["meters", "validate", "1", "--as", FLOOR, "--wrong"], "are not a staff member"),
        (["meters", "link", "mtd", "T9", "--as", FLOOR], "shift-manager or above"),
        (
            [
                "meters",
                "adjust",
                "mtd",
                "--level",
                "progressive",
                "--meter",
                "1",
                "--reason",
                "x",
                "--as",
                FLOOR,
            ],
            "pit-manager or above (58 Pa. Code § 605a.7(a)(6))",
        ),
    ],
)
def test_errors_are_one_line_with_status_2(
    args: list[str],
    needle: str,
    db: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with Ledger(db) as ledger:
        add_staff(ledger)
        defn = paytable_definition("633b.3", "1", 6, 500, "mtd")
        ledger.create_progressive(defn, tables=["T"], by=SHIFT)
        play(ledger, "mtd", "r1", "T", [1], [(1, "two-suited-match")])
    if "--as" in args:
        actor = args[args.index("--as") + 1]
        monkeypatch.setenv("CROUPIER_PASSWORD", secret(actor))
    if args[1] == "bootstrap":
        monkeypatch.setenv("CROUPIER_PASSWORD", "mallory's pin")
    if "--wrong" in args:
        args = [a for a in args if a != "--wrong"]
        monkeypatch.setenv("CROUPIER_PASSWORD", "not the credential")
    monkeypatch.setenv("CROUPIER_NEW_PASSWORD", "mallory's pin")
    if "--short" in args:
        args = [a for a in args if a != "--short"]
        monkeypatch.setenv("CROUPIER_NEW_PASSWORD", "x")
    monkeypatch.setattr("sys.argv", ["croupier", *args, "--db", db])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), captured.err
    assert needle in lines[0]
    with Ledger(db) as ledger:
        assert "mallory" not in {m.name for m in ledger.users()}
        ledger.audit()


def test_the_credential_may_come_from_a_file_and_is_never_stored(db: str, tmp_path: Path) -> None:
    creds = tmp_path / "sam.pw"
    creds.write_text(secret(SHIFT) + "\n", encoding="utf-8")
    cli("meters", "bootstrap", SHIFT, "--password-file", str(creds), "--db", db)
    out = cli("meters", "login", "--as", SHIFT, "--password-file", str(creds), "--db", db)
    assert "sam authenticated: shift-manager" in out
    raw = Path(db.removeprefix("sqlite:///")).read_bytes()
    assert secret(SHIFT).encode() not in raw and b"$argon2id$" in raw


def test_without_a_credential_and_no_terminal_the_command_says_how_to_give_one(db: str) -> None:
    cli("meters", "bootstrap", SHIFT, "--db", db, env=as_(SHIFT))
    result = runner.invoke(app, ["meters", "login", "--as", SHIFT, "--db", db])
    assert result.exit_code != 0
    assert "CROUPIER_PASSWORD" in str(result.exception)


def test_verify_without_the_ledger_key_checks_the_rest_and_says_so(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Ledger(db) as ledger:
        add_staff(ledger)
        ledger.create_progressive(paytable_definition("633b.3", "1", 6, 500, "mtd"), by=SHIFT)
    assert "HMAC chain matches the ledger key" in " ".join(
        cli("meters", "verify", "--db", db).split()
    )
    monkeypatch.setenv("CROUPIER_LEDGER_KEY_FILE", str(tmp_path / "not-here.key"))
    # without the key an edit of the events would not show: an error, unless asked for
    refused = runner.invoke(app, ["meters", "verify", "--db", db])
    assert refused.exit_code != 0 and isinstance(refused.exception, LedgerKeyError)
    assert "--without-key" in str(refused.exception)
    shown = " ".join(cli("meters", "verify", "--without-key", "--db", db).split())
    assert "every level matches" in shown and "the chain's macs were NOT checked" in shown
    assert cli_json("meters", "verify", "--without-key", "--db", db)["chain_checked"] is False


def test_the_history_leaves_the_significant_events_to_their_readers(db: str) -> None:
    """``croupier meters --history`` is open to anyone who can read the database; the
    significant events (a failed login names the member and the client address) are only
    ``croupier meters events --as`` a shift manager's or an auditor's (NIST SP 800-53 AU-9(4))."""
    from croupier.errors import AuthenticationError
    from croupier.progressive import EventKind

    with Ledger(db) as ledger:
        add_staff(ledger)
        ledger.create_progressive(paytable_definition("633b.3", "1", 6, 500, "mtd"),
                                  tables=["T"], by=SHIFT)  # fmt: skip
        with pytest.raises(AuthenticationError):
            ledger.authenticate(DEALER, "not the credential", client="203.0.113.7")
        kinds = [e.event.kind for e in ledger.history()]
        assert EventKind.SIGNIFICANT in kinds  # the failure is recorded ...
    shown = cli_json("meters", "--history", "--db", db)["history"]
    assert shown and all(e["kind"] != EventKind.SIGNIFICANT.value for e in shown)
    assert "203.0.113.7" not in cli("meters", "--history", "--db", db)  # ... but not shown here
    events = cli_json("meters", "events", "--as", SHIFT, "--db", db, env=as_(SHIFT))
    assert "203.0.113.7" in json.dumps(events)  # its readers see it
