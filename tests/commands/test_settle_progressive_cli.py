"""`croupier settle --progressive`: a settled round's progressive wagers reach the ledger once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app, main
from croupier.errors import ProgressiveMismatchError, RoundConflictError
from croupier.units import format_money
from progressive_support import BACKENDS, new_db_url
from repo_paths import ROOT

runner = CliRunner()
ROUND = ROOT / "examples" / "rounds" / "blackjack.json"


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args), env=ENV)
    assert result.exit_code == 0, result.output
    return result.stdout


# every staff member of these ledgers shares one test credential
ENV = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}


def levels(db: str) -> dict[str, Any]:
    data = json.loads(cli("meters", "--db", db, "--json"))
    return {p["name"]: p["levels"][0] for p in data["progressives"]}


def test_settle_feeds_both_progressives_once(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    cli("meters", "bootstrap", "sam", "--db", db)
    cli("meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-a", "5", "--name", "mtd-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    cli("meters", "create", "--db", db, "-p", "633b.2:P1", "-d", "6", "-a", "5", "--name", "jp-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    cli("meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam")
    args = ["settle", str(ROUND), "--db", db, "--table", "BJ-1", "--as", "dana",
            "--progressive", "mtd-5", "--progressive", "jp-5"]  # fmt: skip
    cli(*args)
    cli(*args)  # settled again: the idempotency key makes it a no-op
    got = levels(db)
    # one $5 Match the Dealer wager (seat 3): 15% to the meter, 6% to the reserve (§ 633b.3(j));
    # one $5 Jackpot Party wager (seat 1): P1's 16% and 3.75% (§ 633b.2(i)); neither hand won
    assert got["mtd-5"]["meter"] == "$5,000.75"
    assert got["jp-5"]["meter"] == "$50,000.80"
    assert cli("meters", "verify", "--db", db).count("every level matches the ledger") == 2


def test_settle_with_a_progressive_needs_the_table_and_the_dealer(tmp_path: Path) -> None:
    result = runner.invoke(app, ["settle", str(ROUND), "--progressive", "mtd-5"])
    assert result.exit_code != 0
    assert "--table" in str(result.exception)


SUBMISSION = str(ROUND.parent.parent / "submissions" / "blackjack-6deck.toml")
EIGHT_DECK_P4 = {
    "game": "blackjack",
    "name": "BJ-8: Match the Dealer paytable 4",
    "decks": 8,
    "dealer": "S17",
    "seats": 7,
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "match-the-dealer", "paytable": "4", "amounts": ["$5"]},
    ],
}


def mtd_round(path: Path, *, seat5_bet: str = "$10", submission: object = SUBMISSION,
              round_id: str | None = None) -> Path:  # fmt: skip
    """A Match the Dealer round: seat 2's 7♥ 9♣ against the 7♥ upcard is one suited match."""
    data: dict[str, Any] = {
        "submission": submission,
        "steps": [
            {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": 2, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "bet", "seat": 5, "wager": "blackjack", "amount": seat5_bet},
            {"action": "bet", "seat": 5, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"2": "7h 9c", "5": "2c 3d"}, "dealer": "7h Qs"},
            {"action": "stand", "seat": 2},
            {"action": "stand", "seat": 5},
            {"action": "settle"},
        ],
    }
    if round_id is not None:
        data["id"] = round_id
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(params=BACKENDS)
def ledger_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh ledger database: a SQLite file, or a schema of the PostgreSQL server."""
    yield from new_db_url(request.param, tmp_path)


def floor(db: str) -> str:
    cli("meters", "bootstrap", "sam", "--db", db)
    cli("meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-a", "5", "--name", "mtd-5",
        "--table", "BJ-1", "--table", "BJ-2", "--as", "sam")  # fmt: skip
    cli("meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam")
    return db


def feed(db: str, table: str, *files: Path) -> Any:
    args = ["settle", *map(str, files), "--db", db, "--table", table, "--as", "dana",
            "--progressive", "mtd-5"]  # fmt: skip
    return runner.invoke(app, args, env=ENV)


def test_another_round_under_a_reused_name_is_a_conflict_and_changes_nothing(
    ledger_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The trial's defect: other seats and wagers under a used file name were reported "already
    on the ledger" (exit 0) and never contributed."""
    db = floor(ledger_db)
    assert feed(db, "BJ-1", mtd_round(tmp_path / "a" / "r1.json")).exit_code == 0
    before = levels(db)["mtd-5"]
    other = mtd_round(tmp_path / "b" / "r1.json", seat5_bet="$50")
    res = feed(db, "BJ-1", other)
    assert isinstance(res.exception, RoundConflictError)
    assert "other content" in str(res.exception) and "nothing changed" in str(res.exception)
    assert levels(db)["mtd-5"] == before
    # from the shell: one error line and exit status 2
    monkeypatch.setenv("CROUPIER_PASSWORD", ENV["CROUPIER_PASSWORD"])
    monkeypatch.setattr("sys.argv", ["croupier", "settle", str(other), "--db", db, "--table",
                                     "BJ-1", "--as", "dana", "--progressive", "mtd-5"])  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("error:") == 1
    # the same file again is a replay
    again = feed(db, "BJ-1", tmp_path / "a" / "r1.json")
    assert again.exit_code == 0 and "already on the ledger, nothing changed" in again.output
    assert levels(db)["mtd-5"] == before


def test_the_same_round_name_at_a_second_linked_table_is_its_own_round(
    ledger_db: str, tmp_path: Path
) -> None:
    db = floor(ledger_db)
    assert feed(db, "BJ-1", mtd_round(tmp_path / "r1.json")).exit_code == 0
    assert feed(db, "BJ-2", tmp_path / "r1.json").exit_code == 0
    # two rounds of two $5 wagers: 4 × 75¢ on the meter
    assert levels(db)["mtd-5"]["meter"] == "$5,003"
    assert "every level matches" in cli("meters", "verify", "--db", db)


def test_a_rounds_explicit_id_is_its_identity(ledger_db: str, tmp_path: Path) -> None:
    db = floor(ledger_db)
    assert feed(db, "BJ-1", mtd_round(tmp_path / "x.json", round_id="shift-7-0042")).exit_code == 0
    res = feed(db, "BJ-1", mtd_round(tmp_path / "y.json", round_id="shift-7-0042"))
    assert res.exit_code == 0 and "(round BJ-1/shift-7-0042)" in res.output
    assert "already on the ledger, nothing changed" in res.output
    z = mtd_round(tmp_path / "z.json", round_id="shift-7-0042", seat5_bet="$20")
    assert isinstance(feed(db, "BJ-1", z).exception, RoundConflictError)


def test_a_round_of_another_paytable_or_deck_count_is_refused_citing_the_section(
    ledger_db: str,
    tmp_path: Path,
) -> None:
    """The trial's defect: an 8-deck paytable-4 round (75 to 1) fed to a 6-deck paytable-1
    progressive was recorded at 12 to 1."""
    db = floor(ledger_db)
    res = feed(db, "BJ-1", mtd_round(tmp_path / "p4.json", submission=EIGHT_DECK_P4))
    assert isinstance(res.exception, ProgressiveMismatchError)
    message = str(res.exception)
    assert "8-deck table on § 633b.3 paytable 4" in message
    assert "(58 Pa. Code § 633b.3(i))" in message
    assert levels(db)["mtd-5"]["meter"] == "$5,000"


def test_several_files_are_fed_each_on_its_own_and_every_fed_one_is_shown(
    ledger_db: str, tmp_path: Path
) -> None:
    db = floor(ledger_db)
    good1 = mtd_round(tmp_path / "g1.json")
    bad = mtd_round(tmp_path / "bad.json", submission=EIGHT_DECK_P4)
    good2 = mtd_round(tmp_path / "g2.json", seat5_bet="$20")
    res = feed(db, "BJ-1", good1, bad, good2)
    assert res.exit_code == 2
    assert "bad.json" in res.stderr and "633b.3(i)" in res.stderr
    assert "g1.json" in res.stdout and "g2.json" in res.stdout
    assert levels(db)["mtd-5"]["meter"] == "$5,003"  # two rounds fed, two $5 wagers each


AWARD = ROUND.parent / "match-the-dealer-award.json"


def mtd_line(output: str, seat: int) -> dict[str, Any]:
    (rnd,) = json.loads(output)
    (e,) = [
        e
        for e in rnd["events"]
        if e["action"] == "settlement" and e["wager"] == "match-the-dealer" and e["seat"] == seat
    ]
    return e  # type: ignore[no-any-return]


def test_a_fed_round_shows_the_ledgers_pay_and_an_unfed_one_says_it_is_valued_at_the_seed(
    ledger_db: str,
    tmp_path: Path,
) -> None:
    """The trial's defect: the table showed +$495 (10% of the $5,000 seed, less the $5 wager)
    while the ledger paid $500.15 (10% of $5,000 + 2 × 75¢)."""
    unfed = mtd_line(cli("settle", str(AWARD), "--json"), 2)
    assert "valued at the meter's seed; the progressive meter decides the pay" in unfed["pays"]
    db = floor(ledger_db)
    args = ["settle", str(AWARD), "--db", db, "--table", "BJ-1", "--as", "dana",
            "--progressive", "mtd-5"]  # fmt: skip
    fed = mtd_line(cli(*args, "--json"), 2)
    (award,) = json.loads(cli("meters", "--db", db, "--json"))["progressives"][0]["pending"]
    assert award["amount_cents"] == 50_015
    assert (fed["returned_cents"], fed["win_cents"]) == (50_015, 50_015 - 500)
    assert "$500.15 from the meter (award 1, pending validation)" in fed["pays"]
    shown = cli(*args)  # a replay shows the same ledger amounts
    assert "+$495.15" in shown and "+$495 " not in shown


def test_one_wager_feeds_one_meter(tmp_path: Path) -> None:
    """The trial linked a second Match the Dealer progressive (same paytable, decks and size)
    to BJ-1 and settled with both: one $5 wager fed two meters and a winning hand made two
    pending awards, both paid. Now the link is refused, and so is feeding both (§ 605a.8)."""
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    cli("meters", "bootstrap", "sam", "--db", db)
    cli("meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-a", "5", "--name", "mtd-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    twin = ["meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-a", "5", "--name",
            "x1", "--as", "sam"]  # fmt: skip
    r = runner.invoke(app, [*twin, "--table", "BJ-1"], env=ENV)
    assert r.exit_code != 0 and "a wager feeds one progressive's meters" in str(r.exception)
    cli(*twin)  # unlinked, it is made
    r = runner.invoke(app, ["meters", "link", "x1", "BJ-1", "--db", db, "--as", "sam"], env=ENV)
    assert r.exit_code != 0 and "linked to 'mtd-5' already" in str(r.exception)
    cli("meters", "link", "x1", "BJ-2", "--db", db, "--as", "sam")  # another table: fine
    cli("meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam")
    before = levels(db)
    r = runner.invoke(
        app,
        ["settle", str(mtd_round(tmp_path / "r.json")), "--db", db, "--table", "BJ-1", "--as",
         "dana", "--progressive", "mtd-5", "--progressive", "x1"],
        env=ENV,
    )  # fmt: skip
    assert r.exit_code != 0 and "take the same wager" in str(r.exception)
    assert levels(db) == before  # nothing fed


def test_a_progressive_of_a_wager_the_table_does_not_offer_is_refused(tmp_path: Path) -> None:
    """The trial fed a Blackjack round to a Four Card Poker progressive: exit 0, the winning
    Match the Dealer hand 'waiting for validation' with no award on any ledger."""
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    cli("meters", "bootstrap", "sam", "--db", db)
    cli("meters", "create", "--db", db, "-p", "633b.2:P1", "-d", "6", "-a", "5", "--name", "jp-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    cli("meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam")
    sub = dict(EIGHT_DECK_P4)  # offers Match the Dealer only
    r = runner.invoke(
        app,
        ["settle", str(mtd_round(tmp_path / "r.json", submission=sub)), "--db", db, "--table",
         "BJ-1", "--as", "dana", "--progressive", "jp-5"],
        env=ENV,
    )  # fmt: skip
    assert r.exit_code != 0
    assert isinstance(r.exception, ProgressiveMismatchError)
    assert "does not offer" in str(r.exception) and "jackpot-party" in str(r.exception)


def test_the_words_of_a_fed_round_name_the_ledgers_amounts(tmp_path: Path) -> None:
    """The trial's --json record said '+$495 on $5' and "players' net +$475" (the seed's
    values) beside the ledger's +$495.15: every amount shown is the amount recorded."""
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    floor(db)
    cli(
        "settle",
        str(mtd_round(tmp_path / "warm.json")),
        "--db",
        db,
        "--table",
        "BJ-1",
        "--as",
        "dana",
        "--progressive",
        "mtd-5",
    )  # fmt: skip  (the meter moves off its seed)
    award = ROUND.parent / "match-the-dealer-award.json"
    (doc,) = json.loads(
        cli("settle", str(award), "--db", db, "--table", "BJ-1", "--as", "dana",
            "--progressive", "mtd-5", "--json")
    )  # fmt: skip
    events = doc["events"]
    won = next(e for e in events if e["wager"] == "match-the-dealer" and (e["win_cents"] or 0) > 0)
    assert won["win_cents"] != 49500  # paid from the live meter, not the seed
    shown = f"+{format_money(won['win_cents'])} on $5"
    assert shown in won["detail"] and "+$495 on $5" not in won["detail"]
    net = sum(e["win_cents"] or 0 for e in events if e["action"] == "settlement")
    assert net == doc["net_cents"]
    (closing,) = [e for e in events if e["action"] == "settle"]
    assert closing["detail"].endswith(f"players' net +{format_money(net)}")


def test_a_bet_no_named_progressive_takes_feeds_the_tables_own_or_is_refused(
    ledger_db: str, tmp_path: Path
) -> None:
    """Seat 5's $1 Match the Dealer wager with only the $5 progressive named: refused while no
    $1 progressive is linked to the table (§ 605a.8: it would be settled on no ledger, valued
    at the seed); once one is, it feeds it. By hand (§ 633b.3(j): seeds 1,000 times the wager;
    15% of each wager to the meter): mtd-5 $5,000 + 75¢, mtd-1 $1,000 + 15¢."""
    db = floor(ledger_db)
    path = mtd_round(tmp_path / "r1.json")
    data = json.loads(path.read_text())
    data["steps"][3]["amount"] = "$1"
    path.write_text(json.dumps(data))
    res = feed(db, "BJ-1", path)
    assert res.exit_code != 0
    assert "$1 match-the-dealer wager" in str(res.exception)
    assert "58 Pa. Code § 605a.8" in str(res.exception)
    assert levels(db)["mtd-5"]["meter"] == "$5,000"  # nothing fed
    cli("meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-a", "1", "--name", "mtd-1",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    res = feed(db, "BJ-1", path)
    assert res.exit_code == 0, res.output
    got = levels(db)
    assert (got["mtd-5"]["meter"], got["mtd-1"]["meter"]) == ("$5,000.75", "$1,000.15")
