"""A stored round shown again — a 200 "stored already", a replay under the same
``Idempotency-Key``, an open table's settle step retried, ``croupier settle`` of a round on the
ledger — shows each award as the ledger has it now, and says it was stored already (the trial:
a round posted again under a new key answered a voided award as pending, payable).

Amounts by hand from 58 Pa. Code § 633b.3(i), (j): Match the Dealer paytable 1 (six decks), a
$5 wager, the meter seeded at 1,000 times the wager ($5,000) and incremented by 15% of each wager.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner, Result

from croupier.cli import app
from croupier.errors import LinkError
from progressive_support import BACKENDS, new_db_url
from service_support import DEALER, FLOOR, PIT, SHIFT, Server, keyed, pp_round, round_file, serving


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"h-replay-{request.param}")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


MTD_SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "BJ-MTD",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$5"]},
    ],
}

AWARD = 50_007
"""By hand: the $5,000 seed plus 15% of the round's one $5 wager is $5,000.75; a 2 Suited Match
(K♦ K♦ against the dealer's K♦ up, not the Aces of Spades) takes 10% of it, $500.075, rounded
down to the cent: $500.07 (§ 633b.3(i))."""

WIN = AWARD - 500
"""The $5 stake is collected with the award: the player's net is $495.07."""


FULL_SUBMISSION: dict[str, Any] = {
    **MTD_SUBMISSION,
    "name": "BJ-JP-MTD",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]},
        {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$1", "$5"]},
    ],
}
"""A table offering Jackpot Party P1 ($5) and Match the Dealer paytable 1 ($1 and $5), as the
trial's BJ-7."""


def mtd_round(round_id: str, submission: dict[str, Any] = MTD_SUBMISSION) -> dict[str, Any]:
    """Seat 1: $10 Blackjack and $5 Match the Dealer; K♦ K♦ against the dealer's K♦ 9♣."""
    return round_file(
        round_id,
        [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Kd Kd"}, "dealer": "Kd 9c"},
            {"action": "settle"},
        ],
        submission,
        base_game="external",  # the players' play is not recorded
    )


def fresh_table(c: httpx.Client, srv: Server) -> tuple[str, str]:
    """A fresh table linked to a fresh Match the Dealer paytable 1 progressive ($5)."""
    table, name = uid("BJ"), uid("mtd")
    spec = {
        "paytable": "match-the-dealer:1",
        "decks": 6,
        "amount": "$5",
        "name": name,
        "tables": [table],
    }
    r = c.post("/progressives", json=spec, headers=keyed(srv.auth(SHIFT)))
    assert r.status_code == 201, r.text
    return table, name


def mtd_line(doc: dict[str, Any]) -> dict[str, Any]:
    lines: list[dict[str, Any]] = doc["settlement"]["lines"]
    (line,) = [x for x in lines if x["wager"] == "match-the-dealer"]
    return line


def settle(
    c: httpx.Client, srv: Server, table: str, name: str, body: dict[str, Any], key: str
) -> httpx.Response:
    return c.post(
        "/rounds/settle",
        params={"table": table, "progressive": name},
        json=body,
        headers=keyed(srv.auth(DEALER), key),
    )


def void(c: httpx.Client, srv: Server, award: int) -> None:
    no = c.post(f"/awards/{award}/void", json={"reason": "misread"}, headers=keyed(srv.auth(FLOOR)))
    assert no.status_code == 200, no.text


def assert_voided(doc: dict[str, Any], award: int, blackjack: int = 0) -> None:
    """``doc`` shows award ``award`` voided by flo: the $5 wager lost, nothing returned, nothing
    to validate; what was recorded at settlement beside it. ``blackjack``: the Blackjack wager's
    result when the round records it (a round file leaves it to the base game)."""
    line = mtd_line(doc)
    assert (line["win_cents"], line["returned_cents"], line["pending_validation"]) == (
        -500,
        0,
        False,
    )
    assert line["pays"] == (
        f"10% of Progressive: $500.07 from the meter (award {award}, voided by {FLOOR}: not paid)"
    )
    assert line["as_settled"]["win_cents"] == WIN
    assert line["as_settled"]["pending_validation"] is True
    (a,) = line["ledger"]["awards"]
    assert (a["status"], a["voided_by"], a["recorded_status"]) == ("voided", FLOOR, "pending")
    (fed,) = doc["progressives"][0]["awards"]
    assert (fed["award"], fed["status"], fed["voided_by"], fed["validated_by"]) == (
        award,
        "voided",
        FLOOR,
        None,
    )
    assert (fed["recorded_status"], fed["recorded_amount_cents"]) == ("pending", AWARD)
    assert doc["net_cents"] == -500 + blackjack
    assert doc["as_settled"]["net_cents"] == WIN + blackjack


def test_a_round_posted_again_under_a_new_key_shows_the_voided_award(server: Server) -> None:
    """The trial: m1 posted again under a new key answered 200 with the voided award 'pending
    validation', +$445.21, and nothing saying the round was stored already."""
    with server.client() as c:
        table, name = fresh_table(c, server)
        body = mtd_round("m1")
        first = settle(c, server, table, name, body, uid("m1"))
        assert first.status_code == 201, first.text
        line = mtd_line(first.json())
        assert (line["win_cents"], line["pending_validation"]) == (WIN, True)
        assert "stored_already" not in first.json()
        assert "Content-Location" not in first.headers
        award = first.json()["progressives"][0]["awards"][0]["award"]
        void(c, server, award)
        again = settle(c, server, table, name, body, uid("m1-again"))
        assert again.status_code == 200, again.text
        assert "Idempotent-Replayed" not in again.headers
        assert again.headers["Content-Location"] == f"/rounds/{table}/m1"
        doc = again.json()
        assert doc["stored_already"] is True
        assert_voided(doc, award)
        read = c.get(f"/rounds/{table}/m1", headers=server.auth(DEALER)).json()
        assert {k: v for k, v in doc.items() if k != "stored_already"} == read
        # the same key again: its answer given again, still as the ledger has it now
        twice = settle(c, server, table, name, body, again.request.headers["Idempotency-Key"])
        assert twice.status_code == 200 and twice.headers["Idempotent-Replayed"] == "true"
        assert twice.json() == doc


def test_a_replay_under_the_same_key_shows_what_became_of_the_award(server: Server) -> None:
    """The first answer (201, pending) is given again under its key — its status, the round it
    settled — but its award as the ledger has it now: voided since, it is not paid."""
    with server.client() as c:
        table, name = fresh_table(c, server)
        body, key = mtd_round("m2"), uid("m2")
        first = settle(c, server, table, name, body, key)
        assert first.status_code == 201, first.text
        award = first.json()["progressives"][0]["awards"][0]["award"]
        same = settle(c, server, table, name, body, key)  # nothing changed yet
        assert same.status_code == 201 and same.headers["Idempotent-Replayed"] == "true"
        assert mtd_line(same.json())["ledger"]["awards"][0]["status"] == "pending"
        assert mtd_line(same.json())["win_cents"] == WIN
        void(c, server, award)
        later = settle(c, server, table, name, body, key)
        assert later.status_code == 201 and later.headers["Idempotent-Replayed"] == "true"
        assert later.headers["Content-Location"] == f"/rounds/{table}/m2"
        assert later.json()["stored_already"] is True
        assert_voided(later.json(), award)


def test_an_open_tables_settle_step_replayed_shows_the_voided_award(server: Server) -> None:
    with server.client() as c:
        table, name = fresh_table(c, server)
        opened = c.post(
            "/tables",
            json={"table": table, "submission": MTD_SUBMISSION, "progressives": [name]},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        steps = [*mtd_round("x")["steps"][:-1], {"action": "stand", "seat": 1}]
        for step in steps:
            r = c.post(f"/tables/{table}/steps", json=step, headers=keyed(server.auth(DEALER)))
            assert r.status_code == 200, r.text
        key = keyed(server.auth(DEALER))
        done = c.post(f"/tables/{table}/steps", json={"action": "settle"}, headers=key)
        assert done.status_code == 200, done.text
        assert "stored_already" not in done.json()["settled"]
        award = done.json()["settled"]["progressives"][0]["awards"][0]["award"]
        void(c, server, award)
        again = c.post(f"/tables/{table}/steps", json={"action": "settle"}, headers=key)
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
        assert again.headers["Content-Location"] == f"/rounds/{table}/round-1"
        state = again.json()
        assert state["settled"]["stored_already"] is True
        # K♦ K♦ (20) against the dealer's 19: the $10 Blackjack wager wins 1 to 1 (§ 633a.6(d))
        assert_voided(state["settled"], award, blackjack=1_000)
        assert state["settlement"] == state["settled"]["settlement"]
        assert state["net_cents"] == -500 + 1_000
        assert state["round"] == done.json()["round"]  # the first answer's round, as answered


# -- croupier settle --progressive of a round on the ledger already ----------------------------

runner = CliRunner()
ENV = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}
"""Every staff member of the CLI's ledgers shares one test credential."""


def cli(*args: str) -> Result:
    return runner.invoke(app, list(args), env=ENV)


@pytest.fixture(params=BACKENDS)
def ledger_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A ledger with sam (shift manager), dana (dealer), flo (floorperson) and ``mtd-5`` (Match
    the Dealer paytable 1, six decks, $5) linked to table BJ-7."""
    for db in new_db_url(request.param, tmp_path):
        made = ("-d", "6", "-a", "5", "--table", "BJ-7", "--as", "sam")
        for args in (
            ("meters", "bootstrap", "sam"),
            ("meters", "create", "-p", "633b.3:1", "--name", "mtd-5", *made),
            ("meters", "create", "-p", "633b.2:P1", "--name", "jp-5", *made),
            ("meters", "user", "dana", "--role", "dealer", "--as", "sam"),
            ("meters", "user", "flo", "--role", "floorperson", "--as", "sam"),
        ):
            done = cli(*args, "--db", db)
            assert done.exit_code == 0, done.output
        yield db


def round_path(tmp_path: Path, submission: dict[str, Any] = MTD_SUBMISSION) -> Path:
    path = tmp_path / "m1.json"
    path.write_text(json.dumps(mtd_round("m1", submission)), encoding="utf-8")
    return path


def test_settle_again_shows_the_award_as_the_ledger_has_it_now(
    ledger_db: str, tmp_path: Path
) -> None:
    path = round_path(tmp_path)
    args = ("settle", str(path), "--db", ledger_db, "--table", "BJ-7", "--as", "dana",
            "--progressive", "mtd-5")  # fmt: skip
    first = cli(*args, "--json")
    assert first.exit_code == 0, first.output
    (doc,) = json.loads(first.stdout)
    assert "stored_already" not in doc
    line = mtd_line(doc)
    assert (line["win_cents"], line["pending_validation"]) == (WIN, True)
    assert (
        line["pays"] == "10% of Progressive: $500.07 from the meter (award 1, pending validation)"
    )
    no = cli("meters", "void", "1", "--reason", "misread", "--as", "flo", "--db", ledger_db)
    assert no.exit_code == 0, no.output
    again = cli(*args, "--json")
    assert again.exit_code == 0, again.output
    (doc,) = json.loads(again.stdout)
    assert doc["stored_already"] is True
    line = mtd_line(doc)
    assert (line["win_cents"], line["returned_cents"], line["pending_validation"]) == (
        -500,
        0,
        False,
    )
    assert line["pays"] == (
        f"10% of Progressive: $500.07 from the meter (award 1, voided by {FLOOR}: not paid)"
    )
    (ev,) = [e for e in doc["events"] if e["action"] == "settlement"]
    assert (ev["win_cents"], ev["pending_validation"]) == (-500, False)
    assert doc["net_cents"] == -500
    text = cli(*args)
    assert text.exit_code == 0, text.output
    assert "settled before: on the ledger already, nothing was settled or fed again" in text.stdout
    assert "must validate" not in text.stdout  # nothing awaits validation
    assert "players' net -$5" in text.stdout


def test_settle_again_after_validation_shows_it_paid(ledger_db: str, tmp_path: Path) -> None:
    path = round_path(tmp_path)
    args = ("settle", str(path), "--db", ledger_db, "--table", "BJ-7", "--as", "dana",
            "--progressive", "mtd-5", "--json")  # fmt: skip
    assert cli(*args).exit_code == 0
    ok = cli("meters", "validate", "1", "--as", "flo", "--db", ledger_db)
    assert ok.exit_code == 0, ok.output
    again = cli(*args)
    assert again.exit_code == 0, again.output
    (doc,) = json.loads(again.stdout)
    line = mtd_line(doc)
    assert (line["win_cents"], line["returned_cents"], line["pending_validation"]) == (
        WIN,
        AWARD,
        False,
    )
    assert line["pays"].endswith(f"(award 1, paid, validated by {FLOOR})")


# -- a progressive named must take a bet of the round (§ 605a.8) -------------------------------


def linked_progressive(c: httpx.Client, srv: Server, paytable: str, table: str, amount: str) -> str:
    name = uid("prog")
    spec = {"paytable": paytable, "decks": 6, "amount": amount, "name": name, "tables": [table]}
    r = c.post("/progressives", json=spec, headers=keyed(srv.auth(SHIFT)))
    assert r.status_code == 201, r.text
    return name


def test_a_named_progressive_that_takes_no_bet_is_refused(server: Server) -> None:
    """The trial: ``?progressive=jp-5`` with only Match the Dealer bets answered 201, the bets fed
    to the table's Match the Dealer progressive and nothing saying jp-5 was not used."""
    with server.client() as c:
        table, mtd = fresh_table(c, server)
        jp = linked_progressive(c, server, "jackpot-party:P1", table, "$5")
        mtd1 = linked_progressive(c, server, "match-the-dealer:1", table, "$1")
        before = c.get(f"/progressives/{mtd}", headers=server.auth(DEALER)).json()["levels"]
        for named, wager in ((jp, "$5 jackpot-party"), (mtd1, "$1 match-the-dealer")):
            r = settle(c, server, table, named, mtd_round("m3", FULL_SUBMISSION), uid("m3"))
            assert r.status_code == 422, r.text
            p = r.json()
            assert (p["error_type"], p["section"]) == ("LinkError", "605a.8")
            rule = "633b.2(d)" if named == jp else "633b.3(d)"
            assert p["detail"].startswith(
                f"progressive {named!r} takes the {wager} wager (§ 633b."
            ), p["detail"]
            assert "its progressive bets are the $5 match-the-dealer wager" in p["detail"]
            assert f"58 Pa. Code § {rule}" in p["detail"]
            assert p["detail"].endswith("(58 Pa. Code § 605a.8)")
        # nothing was stored or fed
        assert c.get(f"/rounds/{table}/m3", headers=server.auth(DEALER)).status_code == 404
        after = c.get(f"/progressives/{mtd}", headers=server.auth(DEALER)).json()["levels"]
        assert after == before
        # named with the one that takes the bets, the round settles
        ok = settle(c, server, table, mtd, mtd_round("m3", FULL_SUBMISSION), uid("m3"))
        assert ok.status_code == 201, ok.text


def test_settle_refuses_a_named_progressive_that_takes_no_bet(
    ledger_db: str, tmp_path: Path
) -> None:
    path = round_path(tmp_path, FULL_SUBMISSION)
    args = ("settle", str(path), "--db", ledger_db, "--table", "BJ-7", "--as", "dana")
    refused = cli(*args, "--progressive", "jp-5")
    assert isinstance(refused.exception, LinkError), refused.output
    assert refused.exception.section == "605a.8"
    text = str(refused.exception)
    assert text.startswith("progressive 'jp-5' takes the $5 jackpot-party wager"), text
    assert "its progressive bets are the $5 match-the-dealer wager" in text
    assert "58 Pa. Code § 633b.2(d)" in text and text.endswith("(58 Pa. Code § 605a.8)")
    # with another file: one error line naming the file, the other settled, exit status 2
    other = tmp_path / "other" / "m2.json"
    other.parent.mkdir()
    other.write_text(json.dumps(pp_round("m2", jp=True)), encoding="utf-8")
    both = cli(*args, str(other), "--progressive", "jp-5")
    assert both.exit_code == 2, both.output
    assert "error: m1.json: progressive 'jp-5' takes the $5 jackpot-party wager" in both.output
    meters = json.loads(cli("meters", "--db", ledger_db, "--json").stdout)
    # nothing fed: the Match the Dealer meter is still at its $5,000 seed (§ 633b.3(j))
    (mtd,) = [p for p in meters["progressives"] if p["name"] == "mtd-5"]
    assert mtd["levels"][0]["meter"] == "$5,000"
    assert cli(*args, "--progressive", "mtd-5").exit_code == 0
