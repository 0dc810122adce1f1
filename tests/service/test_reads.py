"""What the service reads back (issue 16, the trial's items 4 and 5), on SQLite and PostgreSQL:

4. A stored round shows each progressive line's award as the ledger has it now — validated,
   voided — beside what was recorded at settlement; the stored text is never changed.
5. The hold report takes the filters of ``/rounds/summary``; the reconciliation gives what the
   table paid in its CSV and dollars beside its micro-dollars.

Amounts by hand from 58 Pa. Code § 633b.1–§ 633b.3's paytables.
"""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest
import sqlalchemy as sa

from progressive_support import BACKENDS
from repo_paths import ROOT
from service_support import DEALER, FLOOR, PIT, SHIFT, Server, keyed, pp_round, royal_round, serving


def schema(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        (ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text("utf-8")
    )
    return found


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"h-reads-{request.param}")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def new_progressive(c: httpx.Client, srv: Server, paytable: str, table: str) -> str:
    name = uid("prog")
    spec = {"paytable": paytable, "decks": 6, "amount": "$5", "name": name, "tables": [table]}
    r = c.post("/progressives", json=spec, headers=keyed(srv.auth(SHIFT)))
    assert r.status_code == 201, r.text
    return name


def royal_at(c: httpx.Client, srv: Server) -> tuple[str, str, dict[str, Any]]:
    """A fresh Jackpot Party P1 progressive ($5, six decks) linked to a fresh table, and
    :func:`~service_support.royal_round` settled there (fed to it: the table's progressive)."""
    table = uid("BJ")
    name = new_progressive(c, srv, "jackpot-party:P1", table)
    r = c.post(
        "/rounds/settle",
        params={"table": table},
        json=royal_round("r1"),
        headers=keyed(srv.auth(DEALER)),
    )
    assert r.status_code == 201, r.text
    return table, name, r.json()


AWARD = 5_000_080
"""By hand: P1's $50,000 seed plus 16% of the round's one $5 wager (§ 633b.2(i)), $50,000.80:
the Royal Flush in diamonds takes 100% of it."""

WIN = AWARD - 500
"""The $5 stake is collected: the player's net is the award less $5."""

BLACKJACK = -1_000
"""Seat 1's K♦ Q♦ (20) against the dealer's Blackjack: the $10 Blackjack wager loses."""


def read(c: httpx.Client, srv: Server, table: str) -> dict[str, Any]:
    r = c.get(f"/rounds/{table}/r1", headers=srv.auth(DEALER))
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    listed = c.get("/rounds", params={"table": table}, headers=srv.auth(DEALER)).json()
    assert listed["rounds"] == [doc]  # every read shows it the same
    jsonschema.validate(doc, schema("service-round"), cls=jsonschema.Draft202012Validator)
    return doc


def jp_line(doc: dict[str, Any]) -> dict[str, Any]:
    lines: list[dict[str, Any]] = doc["settlement"]["lines"]
    (line,) = [x for x in lines if x["wager"] == "jackpot-party"]
    return line


def jp_event(doc: dict[str, Any]) -> dict[str, Any]:
    events: list[dict[str, Any]] = doc["events"]
    (ev,) = [
        e
        for e in events
        if e["action"] == "settlement" and e["wager"] == "jackpot-party" and e["seat"] == 1
    ]
    return ev


def stored_text(srv: Server, table: str) -> dict[str, Any]:
    """The stored document itself (the record), read from the database."""
    engine = sa.create_engine(srv.url)
    try:
        with engine.connect() as conn:
            text = conn.execute(
                sa.text("SELECT document FROM service_rounds WHERE table_id = :t"), {"t": table}
            ).scalar_one()
    finally:
        engine.dispose()
    found: dict[str, Any] = json.loads(text)
    return found


def test_a_validated_award_reads_as_paid(server: Server) -> None:
    """The trial: round-1 still said ``pending_validation: true`` and "(award 8, pending
    validation)" after award 8 was validated."""
    with server.client() as c:
        table, _, settled = royal_at(c, server)
        line = jp_line(settled)
        assert (line["win_cents"], line["pending_validation"]) == (WIN, True)
        award = settled["progressives"][0]["awards"][0]["award"]
        pending = read(c, server, table)
        assert jp_line(pending)["ledger"]["awards"][0]["status"] == "pending"
        assert jp_line(pending)["pending_validation"] is True
        ok = c.post(f"/awards/{award}/validate", headers=keyed(server.auth(FLOOR)))
        assert ok.status_code == 200, ok.text
        doc = read(c, server, table)
        line = jp_line(doc)
        assert line["pending_validation"] is False
        assert line["pays"].endswith(
            f"$50,000.80 from the meter (award {award}, paid, validated by {FLOOR})"
        )
        assert (line["win_cents"], line["returned_cents"]) == (WIN, AWARD)
        (a,) = line["ledger"]["awards"]
        assert (a["award"], a["status"], a["validated_by"], a["amount_cents"]) == (
            award,
            "paid",
            FLOOR,
            AWARD,
        )
        assert (a["recorded_status"], a["recorded_amount_cents"]) == ("pending", AWARD)
        assert line["ledger"]["paid_cents"] == AWARD and line["ledger"]["pending_cents"] == 0
        # beside it, what was recorded at settlement
        assert line["as_settled"]["pending_validation"] is True
        assert "pending validation" in line["as_settled"]["pays"]
        ev = jp_event(doc)
        assert ev["pending_validation"] is False and ev["as_settled"]["pending_validation"] is True
        assert f"award {award} paid, validated by {FLOOR}" in ev["detail"]
        assert doc["net_cents"] == WIN + BLACKJACK
        # the record itself is as written
        raw = stored_text(server, table)
        assert jp_line(raw)["pending_validation"] is True and "ledger" not in jp_line(raw)
        assert raw["progressives"][0]["awards"][0]["status"] == "pending"


def test_a_voided_award_reads_as_nothing_paid(server: Server) -> None:
    """The trial: round-3 still said ``win_cents 518413`` after award 607 was voided. A voided
    award pays nothing: the wager lost its $5 (§ 633b.2(h)(1))."""
    with server.client() as c:
        table, _, settled = royal_at(c, server)
        award = settled["progressives"][0]["awards"][0]["award"]
        assert settled["net_cents"] == WIN + BLACKJACK
        no = c.post(
            f"/awards/{award}/void", json={"reason": "misread"}, headers=keyed(server.auth(FLOOR))
        )
        assert no.status_code == 200, no.text
        doc = read(c, server, table)
        line = jp_line(doc)
        assert (line["win_cents"], line["returned_cents"], line["pending_validation"]) == (
            -500,
            0,
            False,
        )
        assert line["win"] == "-$5"
        assert line["pays"].endswith(f"(award {award}, voided by {FLOOR}: not paid)")
        (a,) = line["ledger"]["awards"]
        assert (a["status"], a["voided_by"], a["validated_by"]) == ("voided", FLOOR, None)
        assert line["ledger"]["voided_cents"] == AWARD
        assert line["as_settled"]["win_cents"] == WIN
        assert doc["net_cents"] == -500 + BLACKJACK
        assert doc["settlement"]["net_cents"] == -500 + BLACKJACK
        assert doc["as_settled"]["net_cents"] == WIN + BLACKJACK
        assert doc["as_settled"]["changed_since"] is True
        assert jp_event(doc)["win_cents"] == -500
        assert jp_line(stored_text(server, table))["win_cents"] == WIN  # the record as written


def test_an_open_tables_settled_round_reads_as_the_ledger_has_it(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        name = new_progressive(c, server, "jackpot-party:P1", table)
        sub = royal_round("x")["submission"]
        sub = {**sub, "wagers": [w for w in sub["wagers"] if w["wager"] != "match-the-dealer"]}
        r = c.post(
            "/tables", json={"table": table, "submission": sub}, headers=keyed(server.auth(PIT))
        )
        assert r.status_code == 201, r.text
        for body in royal_round("x")["steps"][:-1]:
            assert c.post(
                f"/tables/{table}/steps", json=body, headers=keyed(server.auth(DEALER))
            ).is_success
        done = c.post(
            f"/tables/{table}/steps", json={"action": "settle"}, headers=keyed(server.auth(DEALER))
        )
        assert done.status_code == 200, done.text
        settled = done.json()["settled"]
        assert [f["progressive"] for f in settled["progressives"]] == [name]
        (a,) = jp_line(settled)["ledger"]["awards"]
        assert (a["status"], a["amount_cents"]) == ("pending", AWARD)
        assert done.json()["settlement"] == settled["settlement"]
        c.post(
            f"/awards/{a['award']}/validate", headers=keyed(server.auth(FLOOR))
        ).raise_for_status()
        now = c.get(f"/rounds/{table}/round-1", headers=server.auth(DEALER)).json()
        assert jp_line(now)["ledger"]["awards"][0]["status"] == "paid"


# -- 5. reports ------------------------------------------------------------------------------


def test_the_hold_report_takes_the_summarys_filters(server: Server) -> None:
    """The trial: ``?since=2030-01-01T00:00:00Z&table=BJ-9`` answered the all-time, all-table
    report. By hand: at T, 8♠ 8♠ wins the $5 Perfect Pairs wager 25 to 1 (+$125), 8♠ 9♥ loses it
    (−$5): the players' net +$120, the hold −$120 on a $10 handle."""
    table, other = uid("BJ"), uid("BJ")
    with server.client() as c:
        h = server.auth(DEALER)
        for t, rid, cards in ((table, "a", "8s 8s"), (table, "b", "8s 9h"), (other, "a", "8s 8s")):
            body = pp_round(rid, cards=cards)
            r = c.post("/rounds/settle", params={"table": t}, json=body, headers=keyed(h))
            assert r.status_code == 201, r.text
        report = c.get("/hold-report", params={"table": table}, headers=server.auth(PIT)).json()
        (row,) = report["rows"]
        assert (row["table"], row["wager"], row["rounds"]) == (table, "perfect-pairs", 2)
        assert (row["handle_cents"], row["hold_cents"]) == (1_000, -12_000)
        # round files, not an open table: their submission is kept, so the par sheet is known.
        # By hand, 6 decks (311 cards after the first): a perfect pair 5, colored 6, mixed 12
        # → (25·5 + 12·6 + 6·12 − 288) / 311 = −19/311 a unit, on $10: 61.09¢ theoretical
        assert "note" not in row, row
        assert (row["paytable"], row["decks"]) == ("A", 6)
        assert row["house_edge"] == pytest.approx(19 / 311, abs=1e-12)
        assert row["theoretical_cents"] == 61
        assert report["filters"]["table"] == table
        summary = c.get("/rounds/summary", params={"table": table}, headers=server.auth(PIT)).json()
        (pp,) = [w for w in summary["wagers"] if w["wager"] == "perfect-pairs"]
        assert (pp["stake_cents"], pp["hold_cents"]) == (row["handle_cents"], row["hold_cents"])
        for params in (
            {"table": table, "since": "2999-01-01T00:00:00Z"},
            {"table": table, "until": "2000-01-01T00:00:00Z"},
            {"table": table, "wager": "blackjack"},  # settled by the base game: no hold row
        ):
            assert (
                c.get("/hold-report", params=params, headers=server.auth(PIT)).json()["rows"] == []
            ), params
        both = c.get(
            "/hold-report", params={"wager": "perfect-pairs"}, headers=server.auth(PIT)
        ).json()
        assert {table, other} <= {r["table"] for r in both["rows"]}
        assert {r["wager"] for r in both["rows"]} == {"perfect-pairs"}
        bad = c.get("/hold-report", params={"since": "yesterday"}, headers=server.auth(PIT))
        assert bad.status_code == 422 and "since" in bad.json()["detail"]


def test_the_reconciliation_gives_what_the_table_paid_and_dollars(server: Server) -> None:
    """A fresh Match the Dealer paytable 1 progressive ($5): seat 1's K♦ 2♣ against the K♦ up is
    one suited match, 10 to 1, handed back by the table with the stake: $55. The meter: the
    $5,000 seed plus 15% of $5, $5,000.75 (§ 633b.3(i), (j))."""
    table = uid("BJ")
    with server.client() as c:
        name = new_progressive(c, server, "match-the-dealer:1", table)
        body = pp_round("r1")
        body["steps"] = [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Kd 2c"}, "dealer": "Kd 9c"},
            {"action": "settle"},
        ]
        r = c.post(
            "/rounds/settle", params={"table": table}, json=body, headers=keyed(server.auth(DEALER))
        )
        assert r.status_code == 201, r.text
        data = c.get("/reconciliation", params={"name": name}, headers=server.auth(PIT)).json()
        cli_shape = {k: v for k, v in data.items() if k != "balanced"}  # the CLI's JSON
        jsonschema.validate(cli_shape, schema("meters-report"))
        (p,) = data["progressives"]
        assert (p["paid_by_table_cents"], p["paid_by_table"]) == (5_500, "$55")
        (lv,) = p["levels"]
        assert (lv["closing_micros"], lv["closing"]) == (5_000_750_000, "$5,000.75")
        for key, value in lv.items():  # every money figure with its dollars beside it
            if key.endswith(("_micros", "_cents")):
                stem = re.sub(r"_(micros|cents)$", "", key)
                assert isinstance(lv[stem], str) and lv[stem].lstrip("-").startswith("$"), key
                assert isinstance(value, int), key
        text = c.get(
            "/reconciliation", params={"name": name, "format": "csv"}, headers=server.auth(PIT)
        ).text
        (row,) = list(csv.DictReader(io.StringIO(text)))
        assert int(row["paid_by_table_cents"]) == 5_500
        assert int(row["closing_micros"]) == lv["closing_micros"]


def test_the_readme_says_handle_not_drop() -> None:
    """/rounds/summary reports the amount wagered (the handle), not the drop (the cash and
    markers into the drop box)."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Serving over HTTP")[1]
    section = section.split("\n## ", 1)[0]
    assert "drop and hold" not in section.lower()
    assert "handle" in section
