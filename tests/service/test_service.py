"""``croupier serve`` as a real server process on a loopback port, talked to over HTTP, on SQLite
and on PostgreSQL: the README's flows, the role rules, idempotent retries, open tables, problem
details, several tables posting at once. One server per backend for the module; the crash tests
(a SIGKILL during a settlement, then the retry) are under ``-m slow``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from math import comb
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from progressive_support import BACKENDS, secret
from repo_paths import ROOT
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    TABLES,
    Server,
    keyed,
    link,
    pp_round,
    round_file,
    royal_round,
    serving,
)

PROBLEM = "application/problem+json"
runner = CliRunner()


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"service-{request.param}")) as srv:
        yield srv


def cli_json(*args: str) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def settle(
    srv: Server,
    body: dict[str, Any],
    *,
    table: str = "BJ-1",
    user: str = DEALER,
    key: str | None = None,
    progressive: tuple[str, ...] = (),
) -> httpx.Response:
    headers = keyed(srv.auth(user), key)  # a new key unless one is given
    params: list[tuple[str, str | int | float | bool | None]] = [("table", table)]
    params += [("progressive", p) for p in progressive]
    return httpx.post(
        f"{srv.base}/rounds/settle", params=params, json=body, headers=keyed(headers), timeout=60
    )


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


# -- reading -----------------------------------------------------------------------------------


def test_reading_is_open_and_answers_the_cli_json(server: Server) -> None:
    with server.client() as c:
        assert c.get("/wagers").json() == cli_json("wagers", "--json")
        assert c.get("/paytables", params={"section": "633b.1"}).json() == cli_json(
            "paytables", "633b.1", "--json"
        )
        sheet = c.get("/parsheets/perfect-pairs", params={"paytable": "A", "decks": 6}).json()
    assert sheet == cli_json("analyze", "perfect-pairs", "-p", "A", "-d", "6", "--json")
    # by hand: a perfect pair is two of the 6 copies of one card; a colored pair two cards of
    # one rank and color in the other suit of that color: 36 pairs per rank and color
    by = {o["outcome"]: o["combinations"] for o in sheet["outcomes"]}
    assert by["perfect-pair"] == 52 * comb(6, 2) == 780
    assert by["colored-pair"] == 13 * 2 * 6 * 6 == 936


def test_a_par_sheet_takes_meters_and_decks_as_parameters(server: Server) -> None:
    params: dict[str, str | int] = {"paytable": "P1", "decks": 6, "meter": "60000"}
    with server.client() as c:
        sheet = c.get("/parsheets/jackpot-party", params=params).json()
    cli = cli_json("analyze", "jackpot-party", "-p", "P1", "-d", "6", "--meter", "60000", "--json")
    assert sheet == cli
    assert "meter_analysis" in sheet


def test_openapi_lists_every_route_with_examples(server: Server) -> None:
    with server.client() as c:
        spec = c.get("/openapi.json").json()
    settle_op = spec["paths"]["/rounds/settle"]["post"]
    assert settle_op["requestBody"]["content"]["application/json"]["examples"]["blackjack"]
    assert "/awards/{award_id}/validate" in spec["paths"]
    assert "/tables/{table}/steps" in spec["paths"]
    # the web page is listed as what it is: HTML, under the "pages" tag (issue 29)
    assert list(spec["paths"]["/"]["get"]["responses"]["200"]["content"]) == ["text/html"]
    assert spec["paths"]["/"]["get"]["tags"] == ["pages"]
    assert spec["components"]["securitySchemes"]["OAuth2PasswordBearer"]["type"] == "oauth2"
    problem_ref = {"$ref": "#/components/schemas/Problem"}
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            where = f"{method.upper()} {path}"
            assert op.get("description"), where
            body = op.get("requestBody")
            if body is not None:  # every request body has an example
                (media,) = body["content"].values()
                ref = media["schema"].get("$ref", "")
                named = spec["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
                assert media.get("example") or media.get("examples") or named.get("examples"), where
                assert "413" in op["responses"], where
            for status, answer in op["responses"].items():
                if status.startswith("4"):  # errors are problem details, with examples
                    content = answer["content"][PROBLEM]
                    assert content["schema"] == problem_ref, (where, status)
                    assert content["examples"], (where, status)
                    for example in content["examples"].values():
                        assert example["value"]["status"] == int(status), (where, status)
            if op.get("security"):
                assert "401" in op["responses"], where
    (refused,) = spec["paths"]["/awards/{award_id}/validate"]["post"]["responses"]["403"][
        "content"
    ][PROBLEM]["examples"].values()
    assert refused["value"]["section"] == "633b.2(h)(3)"


# -- settling ----------------------------------------------------------------------------------


def test_a_round_settles_as_croupier_settle_does(server: Server, tmp_path: Path) -> None:
    body = pp_round(uid("pp"))
    r = settle(server, body)
    assert r.status_code == 201, r.text
    doc = r.json()
    path = tmp_path / "round.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    (cli,) = cli_json("settle", str(path), "--json")
    assert doc["settlement"] == cli["settlement"]
    assert doc["events"] == cli["events"]
    # by hand: a perfect pair pays 25 to 1 on $5 (§ 633b.1(f) paytable A)
    pp = next(line for line in doc["settlement"]["lines"] if line["wager"] == "perfect-pairs")
    assert (pp["win_cents"], pp["returned_cents"]) == (25 * 500, 26 * 500)
    assert doc["recorded_by"] == DEALER
    with server.client(headers=server.auth(DEALER)) as c:
        stored = c.get(f"/rounds/BJ-1/{body['id']}").json()
    assert stored == doc


def test_rounds_are_queried_by_table_period_and_wager(server: Server) -> None:
    table = "BJ-2"
    ids = [uid("q") for _ in range(3)]
    for i, rid in enumerate(ids):
        assert settle(server, pp_round(rid, jp=i == 0), table=table).status_code == 201
    with server.client(headers=server.auth(DEALER)) as c:
        mine = c.get("/rounds", params={"table": table}).json()
        assert [d["round"] for d in mine["rounds"]][-3:] == ids
        first = mine["rounds"][-3]["settled_at"]
        later = c.get("/rounds", params={"table": table, "since": first}).json()
        assert [d["round"] for d in later["rounds"]][-3:] == ids
        none = c.get("/rounds", params={"table": table, "until": first}).json()
        assert not set(ids) & {d["round"] for d in none["rounds"]}
        jp = c.get("/rounds", params={"table": table, "wager": "jackpot-party"}).json()
        assert ids[0] in {d["round"] for d in jp["rounds"]}
        assert not set(ids[1:]) & {d["round"] for d in jp["rounds"]}
        summary = c.get(
            "/rounds/summary",
            params={"table": table, "since": first},
            headers=server.auth(PIT),  # a financial report: a pit manager or above
        ).json()
    pp = next(w for w in summary["wagers"] if w["wager"] == "perfect-pairs")
    # three perfect pairs of $5 at 25 to 1: the table holds -3 × $125
    assert summary["rounds"] >= 3
    assert pp["hold_cents"] == -pp["win_cents"]


def test_same_key_same_body_answers_the_first_response(server: Server) -> None:
    body, key = pp_round(uid("idem")), uid("key")
    first = settle(server, body, key=key)
    again = settle(server, body, key=key)
    assert first.status_code == again.status_code == 201
    # the first answer, marked as settling nothing (no award to show as the ledger has it now)
    assert again.json() == {"stored_already": True, **first.json()}
    assert again.headers["Idempotent-Replayed"] == "true"
    other = pp_round(uid("idem"))
    conflict = settle(server, other, key=key)
    assert conflict.status_code == 409
    assert conflict.headers["content-type"] == PROBLEM
    assert conflict.json()["error_type"] == "IdempotencyConflictError"
    with server.client(headers=server.auth(DEALER)) as c:
        rounds = c.get("/rounds", params={"table": "BJ-1", "limit": 1000}).json()["rounds"]
    assert [d["round"] for d in rounds].count(body["id"]) == 1
    assert other["id"] not in {d["round"] for d in rounds}


def test_a_round_id_is_stored_once(server: Server) -> None:
    rid = uid("once")
    assert settle(server, pp_round(rid)).status_code == 201
    again = settle(server, pp_round(rid))  # another key, same content: the stored round
    assert again.status_code == 200
    assert again.json()["stored_already"] is True and "Idempotent-Replayed" not in again.headers
    other = settle(server, pp_round(rid, cards="8s 8h"))
    assert other.status_code == 409
    assert other.json()["error_type"] == "RoundConflictError"


def test_a_step_that_breaks_a_rule_is_a_problem_citing_its_section(server: Server) -> None:
    body = pp_round(uid("late"))
    body["steps"].insert(3, {"action": "bet", "seat": 4, "wager": "blackjack", "amount": "$10"})
    r = settle(server, body)
    assert r.status_code == 422
    assert r.headers["content-type"] == PROBLEM
    p = r.json()
    assert p["error_type"] == "LockoutError"
    assert p["section"] == "633b.1(d)"  # the round procedure: wagers before "No more bets"
    assert "step 4 (bet)" in p["detail"]
    assert p["type"].endswith("/LockoutError")


# -- authentication and roles ------------------------------------------------------------------


def test_no_route_changes_money_without_a_token(server: Server) -> None:
    body = pp_round(uid("anon"))
    with server.client() as c:
        for method, path, payload in [
            ("POST", "/rounds/settle?table=BJ-1", body),
            ("POST", "/tables", {"table": "X", "submission": body["submission"]}),
            ("POST", "/tables/BJ-1/steps", {"action": "no-more-bets"}),
            ("POST", "/awards/1/validate", None),
            ("POST", "/awards/1/void", {"reason": "r"}),
            ("POST", "/progressives/jp-5/links", {"table": "T"}),
            ("POST", "/progressives/jp-5/adjust", {"level": "Progressive", "reason": "r"}),
            ("POST", "/progressives/jp-5/suspend", {"reason": "r"}),
            ("POST", "/progressives/jp-5/resume", None),
            ("POST", "/progressives/jp-5/reconfigure", {"approval": "A"}),
            ("GET", "/reconciliation", None),
            ("POST", "/staff", {"name": "x", "role": "dealer", "password": "p"}),
            ("GET", "/rounds", None),
            ("GET", "/progressives", None),
        ]:
            r = c.request(method, path, json=payload)
            assert r.status_code == 401, (path, r.text)
            assert r.headers["content-type"] == PROBLEM
            assert r.json()["error_type"] == "AuthenticationError"
        bad = c.post("/token", data={"username": DEALER, "password": "wrong"})
        assert bad.status_code == 401
        forged = c.get("/rounds", headers={"Authorization": "Bearer not.a.token"})
        assert forged.status_code == 401


def test_a_dealer_cannot_validate_a_floorperson_can(server: Server) -> None:
    r = settle(server, royal_round(uid("royal")), table="BJ-3", progressive=("jp-5",))
    assert r.status_code == 201, r.text
    (fed,) = r.json()["progressives"]
    (award,) = [a for a in fed["awards"] if a["status"] == "pending"]
    with server.client() as c:
        pending = c.get("/awards", params={"status": "pending"}, headers=server.auth(DEALER))
        assert award["award"] in {a["award"] for a in pending.json()["awards"]}
        no = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(DEALER)))
        assert no.status_code == 403
        assert no.json()["section"] == "633b.2(h)(3)"
        assert no.json()["error_type"] == "AuthorizationError"
        yes = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert yes.status_code == 200, yes.text
        assert (yes.json()["status"], yes.json()["validated_by"]) == ("paid", FLOOR)
        assert yes.json()["amount_cents"] == award["amount_cents"]
        twice = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert twice.status_code == 409
        events = c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json()
        validation = [e for e in events["history"] if e["kind"] == "validation"]
        assert validation[-1]["by"] == FLOOR
        assert validation[-1]["role"] == "floorperson"
        settled = [e for e in events["history"] if e["round"] == fed["ledger_round"]]
        at = validation[-1]["seq"]
        assert {e["by"] for e in settled if e["seq"] < at} == {DEALER}  # the round: the dealer
        assert {e["by"] for e in settled if e["seq"] >= at} == {FLOOR}  # its payment
        verified = c.get("/verify", headers=server.auth(DEALER)).json()
    assert verified["chain_checked"] is True


def test_the_controller_answers_the_meters_json(server: Server) -> None:
    with server.client(headers=server.auth(DEALER)) as c:
        one = c.get("/progressives/mtd-5").json()
        every = c.get("/progressives").json()
    assert one["name"] == "mtd-5" and one["tables"] == sorted(TABLES)
    assert one in every["progressives"]
    assert cli_json("meters", "--db", server.url, "--name", "mtd-5", "--json")["progressives"] == [
        one
    ]


def test_configuration_needs_its_role(server: Server) -> None:
    name = uid("mtd")
    spec = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$1", "name": name}
    with server.client() as c:
        no = c.post("/progressives", json=spec, headers=keyed(server.auth(PIT)))
        assert no.status_code == 403 and no.json()["section"] == "605a.7"
        yes = c.post("/progressives", json=spec, headers=keyed(server.auth(SHIFT)))
        assert yes.status_code == 201, yes.text
        assert yes.json()["wager_cents"] == 100
        link = c.post(
            f"/progressives/{name}/links", json={"table": "BJ-9"}, headers=keyed(server.auth(SHIFT))
        )
        assert link.status_code == 201
        adj = {"level": yes.json()["levels"][0]["level"], "meter": "1.00", "reason": "test"}
        dealer = c.post(
            f"/progressives/{name}/adjust", json=adj, headers=keyed(server.auth(DEALER))
        )
        assert dealer.status_code == 403 and dealer.json()["section"] == "605a.7(a)(6)"
        pit = c.post(f"/progressives/{name}/adjust", json=adj, headers=keyed(server.auth(PIT)))
        assert pit.status_code == 200
        seed = yes.json()["levels"][0]["meter_micros"]
        assert pit.json()["meter_micros"] == seed + 1_000_000  # $1 in micro-dollars


def mtd_round(round_id: str) -> dict[str, Any]:
    """Seat 4: $25 Blackjack and a $5 Match the Dealer wager on 8♠ 7♥ against the dealer's K♦:
    neither card matches the up card, so the wager loses (§ 633b.3) and only contributes."""
    return round_file(
        round_id,
        [
            {"action": "bet", "seat": 4, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": 4, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"4": "8s 7h"}, "dealer": "Kd 9c"},
            {"action": "settle"},
        ],
        base_game="external",  # the players' play is not recorded
    )


def test_suspend_reconfigure_resume_with_their_roles(server: Server) -> None:
    name, table = uid("mtd"), uid("R")
    spec = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": name}
    with server.client() as c:
        shift, pit, dealer = server.auth(SHIFT), server.auth(PIT), server.auth(DEALER)
        made = c.post("/progressives", json={**spec, "tables": [table]}, headers=keyed(shift))
        assert made.status_code == 201, made.text
        level = made.json()["levels"][0]["level"]
        old_seed = made.json()["levels"][0]["seed_cents"]
        change = {"approval": "CHG-118", "seeds": {level: "$2,000"}, "rates": {level: "10%"}}
        in_play = c.post(f"/progressives/{name}/reconfigure", json=change, headers=keyed(shift))
        assert in_play.status_code == 409  # suspend it first
        assert in_play.json()["error_type"] == "RoundStateError"
        why = {"reason": "new seed approved: CHG-118"}
        no = c.post(f"/progressives/{name}/suspend", json=why, headers=keyed(dealer))
        assert no.status_code == 403 and no.json()["section"] == "605a.7"
        key = {"Idempotency-Key": uid("suspend")}
        yes = c.post(f"/progressives/{name}/suspend", json=why, headers=keyed({**pit, **key}))
        assert yes.status_code == 200, yes.text
        assert yes.json() == {"progressive": name, "suspended": True, "by": PIT}
        again = c.post(f"/progressives/{name}/suspend", json=why, headers=keyed({**pit, **key}))
        assert again.json() == yes.json() and again.headers["Idempotent-Replayed"] == "true"
        twice = c.post(f"/progressives/{name}/suspend", json=why, headers=keyed(pit))
        assert twice.status_code == 409  # suspended already
        # no wager is accepted while it is suspended; nothing is stored
        refused = settle(server, mtd_round(uid("s")), table=table, progressive=(name,))
        assert refused.status_code == 422, refused.text
        assert (
            refused.json()["error_type"] == "LinkError" and "suspended" in refused.json()["detail"]
        )
        assert c.get(f"/rounds?table={table}", headers=dealer).json()["count"] == 0
        by_pit = c.post(f"/progressives/{name}/reconfigure", json=change, headers=keyed(pit))
        assert by_pit.status_code == 403 and by_pit.json()["section"] == "605a.7"
        done = c.post(f"/progressives/{name}/reconfigure", json=change, headers=keyed(shift))
        assert done.status_code == 200, done.text
        changes = done.json()["changes"][level]
        assert changes["seed_cents"] == [old_seed, 200_000]  # $2,000
        assert changes["primary_rate"][1] == "10%"  # as the request gives it
        assert changes["primary_rate_exact"][1] == "1/10"
        assert done.json()["approval"] == "CHG-118" and done.json()["by"] == SHIFT
        nothing = c.post(f"/progressives/{name}/reconfigure", json=change, headers=keyed(shift))
        assert nothing.status_code == 409  # the same values again change nothing
        assert "changes nothing" in nothing.json()["detail"]
        resumed = c.post(f"/progressives/{name}/resume", headers=keyed(pit))
        assert resumed.status_code == 200 and resumed.json()["suspended"] is False
        assert c.post(f"/progressives/{name}/resume", headers=keyed(pit)).status_code == 409
        status = c.get(f"/progressives/{name}", headers=dealer).json()
        assert status["levels"][0]["seed_cents"] == 200_000
        kinds = [
            e["kind"]
            for e in c.get(f"/progressives/{name}/history", headers=dealer).json()["history"]
        ]
        assert kinds[-3:] == ["suspend", "reconfigure", "resume"]


def test_the_reconciliation_report_balances_a_period(server: Server) -> None:
    name, table = uid("mtd"), uid("R")
    spec = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": name}
    with server.client() as c:
        shift, pit, dealer = server.auth(SHIFT), server.auth(PIT), server.auth(DEALER)
        made = c.post(
            "/progressives", json={**spec, "tables": [table]}, headers=keyed(shift)
        ).json()
        levels = [lv["level"] for lv in made["levels"]]
        # every level's rate made 10% (+ 2% to the reserve) so the period's flows are known
        assert c.post(
            f"/progressives/{name}/suspend", json={"reason": "r"}, headers=keyed(pit)
        ).is_success
        change = {"approval": "A-1", "rates": {lv: "10%+2%" for lv in levels}}
        assert c.post(
            f"/progressives/{name}/reconfigure", json=change, headers=keyed(shift)
        ).is_success
        assert c.post(f"/progressives/{name}/resume", headers=keyed(pit)).is_success
        start = c.get(f"/progressives/{name}/history", headers=dealer).json()["history"][-1]["at"]
        for _ in range(3):
            r = settle(server, mtd_round(uid("m")), table=table, progressive=(name,))
            assert r.status_code == 201, r.text
        report = c.get("/reconciliation", params={"name": name, "from": start}, headers=pit)
        assert report.status_code == 200, report.text
        (rec,) = report.json()["progressives"]
        csv_text = c.get("/reconciliation", params={"name": name, "format": "csv"}, headers=pit)
        assert c.get("/reconciliation").status_code == 401
    assert report.json()["balanced"] is True and rec["balanced"] is True
    for row in rec["levels"]:
        # by hand: three losing $5 wagers, 10% of each to the meter, 2% to the reserve
        assert row["wagers"] == 3
        assert row["contributions_micros"] == 3 * 5_000_000 // 10
        assert row["reserve_contributions_micros"] == 3 * 5_000_000 * 2 // 100
        assert row["awards_micros"] == 0
        assert row["closing_micros"] == row["opening_micros"] + row["contributions_micros"]
    assert csv_text.headers["content-type"].startswith("text/csv")
    header, *rows = csv_text.text.splitlines()
    assert header.split(",")[:3] == ["progressive", "level", "opening_micros"]
    assert len(rows) == len(levels)


# -- open tables -------------------------------------------------------------------------------


def test_an_open_table_runs_its_round_step_by_step(server: Server) -> None:
    table = uid("T")
    sub = pp_round("x")["submission"]
    with server.client() as c:
        dealer, pit = server.auth(DEALER), server.auth(PIT)
        assert (
            c.post(
                "/tables", json={"table": table, "submission": sub}, headers=keyed(dealer)
            ).status_code
            == 403
        )
        spec = {"table": table, "submission": sub, "progressives": ["jp-5"]}
        # not linked yet: its progressive wagers would have no progressive (§ 605a.8)
        unlinked = c.post("/tables", json=spec, headers=keyed(pit))
        assert unlinked.status_code == 422, unlinked.text
        assert (unlinked.json()["error_type"], unlinked.json()["section"]) == (
            "LinkError",
            "605a.8",
        )
        link(c, server, table)  # jp-5, mtd-1, mtd-5: one for each progressive wager offered
        opened = c.post("/tables", json=spec, headers=keyed(pit))
        assert opened.status_code == 201, opened.text
        assert opened.json()["allowed"] == ["bet"]  # no wager yet: nothing to lock out
        # the named one first, then the one linked for each other wager and size offered
        assert opened.json()["progressives"] == ["jp-5", "mtd-1", "mtd-5"]

        def step(body: dict[str, Any], key: str | None = None) -> httpx.Response:
            return c.post(f"/tables/{table}/steps", json=body, headers=keyed(dealer, key))

        bet = {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$25"}
        first = step(bet, "bet-1")
        assert first.status_code == 200, first.text
        assert step(bet, "bet-1").json() == first.json()  # a retry places it once
        assert step(bet).json()["error_type"] == "ProcedureError"  # placed twice: refused
        assert (
            step({"action": "bet", "seat": 2, "wager": "perfect-pairs", "amount": "$5"}).status_code
            == 200
        )
        jp = {"action": "bet", "seat": 2, "wager": "jackpot-party", "amount": "$5"}
        assert step(jp).status_code == 200
        assert step({"action": "no-more-bets"}).json()["allowed"] == ["deal"]
        late = step({"action": "bet", "seat": 5, "wager": "blackjack", "amount": "$10"})
        assert late.status_code == 422 and late.json()["section"] == "633b.1(d)"
        # the upcard and the hole card; the dealer draws after the hand (§ 633a.7)
        dealt = step({"action": "deal", "players": {"2": "Th 6c"}, "dealer": "9s 7d"})
        assert dealt.status_code == 200, dealt.text
        kinds = set(dealt.json()["allowed"])  # the hand is played before settle (§ 633a.7)
        assert {"hit", "stand"} <= kinds and "settle" not in kinds
        assert step({"action": "stand", "seat": 2}).status_code == 200
        assert step({"action": "dealer-draw", "card": "Ts"}).status_code == 200
        done = step({"action": "settle"}, "settle-1")
        assert done.status_code == 200, done.text
        settled = done.json()["settled"]
        assert settled["round"] == "round-1" and settled["recorded_by"] == DEALER
        (fed,) = settled["progressives"]  # the Jackpot Party wager fed to the table's jp-5
        assert (fed["progressive"], fed["ledger_round"]) == ("jp-5", f"{table}/round-1")
        # by hand: 16 stands, the dealer 9 7 T busts with 26: the $25 Blackjack wager wins 1 to 1
        bj = next(x for x in settled["settlement"]["lines"] if x["wager"] == "blackjack")
        assert bj["win_cents"] == 2500
        nxt = c.get(f"/tables/{table}", headers=dealer).json()
        assert (nxt["round"], nxt["phase"], nxt["allowed"]) == (
            "round-2",
            "betting open",
            ["bet"],
        )
        stored = c.get(f"/rounds/{table}/round-1", headers=dealer).json()
        assert stored == settled
        # one settlement in the answer: the top level is the stored one, the ledger's amounts
        # on the Jackpot Party line (the trial's dealer screen read a seed-valued copy)
        answer = done.json()
        for k in ("events", "settlement", "net_cents"):
            assert answer[k] == settled[k], k


# -- problems, limits, CORS --------------------------------------------------------------------


def test_errors_are_problem_details(server: Server) -> None:
    with server.client() as c:
        r = c.get("/parsheets/perfect-pears")
        assert r.status_code == 404 and r.headers["content-type"] == PROBLEM
        assert r.json()["error_type"] == "UnknownWagerError"
        r = c.get("/nowhere")
        assert r.status_code == 404 and r.headers["content-type"] == PROBLEM
        bad = pp_round(uid("bad"))
        bad["submission"]["decks"] = 2
        r = settle(server, bad)
        assert r.status_code == 422
        assert r.json()["error_type"] == "SubmissionError"
        assert r.json()["violations"]
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-1"},
            content=b"{not json",
            headers=keyed({**server.auth(DEALER), "Content-Type": "application/json"}),
        )
        # a body that is not JSON at all is a bad request, not JSON that fails validation
        assert r.status_code == 400 and r.headers["content-type"] == PROBLEM
        assert r.json()["error_type"] == "NotJSON"


def test_a_request_too_large_is_refused(server: Server) -> None:
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-1"},
            content=b" " * (2 << 20),
            headers=keyed({**server.auth(DEALER), "Content-Type": "application/json"}),
        )
    assert r.status_code == 413
    assert r.json()["error_type"] == "RequestTooLarge"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b" " * 65536

    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-1"},
            content=chunks(),
            headers=keyed({**server.auth(DEALER), "Content-Type": "application/json"}),
        )
    assert r.status_code == 413
    assert r.json()["error_type"] == "RequestTooLarge"


def test_cors_is_closed_unless_configured(server: Server) -> None:
    with server.client() as c:
        r = c.options(
            "/wagers",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"},
        )
        assert "access-control-allow-origin" not in r.headers
        r = c.get("/wagers", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


# -- several tables at once --------------------------------------------------------------------


def test_several_tables_posting_at_once(server: Server) -> None:
    with server.client(headers=server.auth(DEALER)) as c:
        before = c.get("/progressives/jp-5").json()["levels"][0]["wagered_cents"]
    tag = uuid.uuid4().hex[:6]
    jobs = [(t, f"c{tag}-{i}") for t in TABLES for i in range(5)]

    def one(job: tuple[str, str]) -> int:
        table, rid = job
        return settle(
            server, pp_round(rid, jp=True), table=table, key=f"{table}/{rid}", progressive=("jp-5",)
        ).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(one, jobs))
    assert codes == [201] * len(jobs)
    with server.client(headers=server.auth(DEALER)) as c:
        after = c.get("/progressives/jp-5").json()["levels"][0]["wagered_cents"]
        for table in TABLES:
            stored = c.get("/rounds", params={"table": table, "limit": 1000}).json()["rounds"]
            assert sum(1 for d in stored if d["round"].startswith(f"c{tag}-")) == 5
        assert c.get("/verify").json()["chain_checked"] is True
    assert after - before == len(jobs) * 500  # every $5 Jackpot Party wager counted once


# -- the README's flows ------------------------------------------------------------------------


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Serving over HTTP", 1)[1].split("\n## ", 1)[0]


def test_the_readme_settles_a_round_with_curl(server: Server) -> None:
    block = re.search(r"```console\n(.*?)```", readme_section(), re.S)
    assert block is not None
    lines = [ln[2:] for ln in block.group(1).splitlines() if ln.startswith(("$ TOKEN=", "$ curl"))]
    assert len(lines) == 2
    script = "\n".join(lines).replace("http://127.0.0.1:8000", server.base)
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        env={**os.environ, "CROUPIER_PASSWORD": secret(DEALER)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert (doc["table"], doc["round"]) == ("BJ-1", "r1")
    pp = next(x for x in doc["settlement"]["lines"] if x["wager"] == "perfect-pairs")
    assert pp["win_cents"] == 25 * 500  # 25 to 1 on $5


def test_the_readme_python_client_settles_a_round(server: Server) -> None:
    """The README's Python example runs as written, in a process of its own from the
    repository's root: nothing is defined for it but dana's credential in the environment."""
    blocks = re.findall(r"```python\n(.*?)```", readme_section(), re.S)
    # the plain httpx example (the generated client's runs in test_generated_client.py)
    (code,) = [b for b in blocks if "croupier_client" not in b]
    code = code.replace("http://127.0.0.1:8000", server.base)
    run = subprocess.run(
        [sys.executable, "-c", code + "\nprint(json.dumps(lines))\n"],
        cwd=ROOT,
        env={**os.environ, "CROUPIER_PASSWORD": secret(DEALER)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [["perfect-pairs", 25 * 500], ["blackjack", None]]


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_cors_opens_to_the_origins_configured(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from croupier.service.app import ServiceConfig, create_app

    origin = "https://pit.example"
    cfg = ServiceConfig(db=f"sqlite:///{tmp_path / 'cors.sqlite3'}", cors_origins=(origin,))
    with TestClient(create_app(cfg)) as c:
        ok = c.options(
            "/wagers", headers={"Origin": origin, "Access-Control-Request-Method": "GET"}
        )
        assert ok.headers["access-control-allow-origin"] == origin
        other = c.get("/wagers", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_a_settled_round_matches_its_json_schema(server: Server) -> None:
    schema = json.loads((ROOT / "docs" / "schemas" / "service-round.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    plain = settle(server, pp_round(uid("schema"))).json()
    fed = settle(server, royal_round(uid("schema")), table="BJ-4", progressive=("jp-5",)).json()
    assert fed["progressives"][0]["awards"]
    for doc in (plain, fed):
        jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)


def test_a_simulation_runs_as_a_job_with_progress(server: Server) -> None:
    spec = {"wager": "perfect-pairs", "paytable": "A", "decks": 6, "rounds": 100_000, "seed": 3}
    with server.client() as c:
        assert c.post("/simulations", json=spec).status_code == 401
        started = c.post("/simulations", json=spec, headers=keyed(server.auth(DEALER)))
        assert started.status_code == 202, started.text
        job = started.json()
        assert (job["done"], job["total"]) == (0, 100_000)
        deadline = time.monotonic() + 120
        while job["status"] in ("queued", "preparing", "running") and time.monotonic() < deadline:
            time.sleep(0.2)
            job = c.get(f"/simulations/{job['job']}").json()
        assert c.get("/simulations/nope").status_code == 404
        # a bad amount is refused before the job is accepted, not found by the job later
        bad = c.post(
            "/simulations", json={**spec, "amount": "1e400"}, headers=keyed(server.auth(DEALER))
        )
        assert bad.status_code == 422 and bad.json()["error_type"] == "InputError", bad.text
    assert job["status"] == "done", job
    assert job["done"] == 100_000
    # the same seed: the same figures as the command line
    cli = cli_json(
        "simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "100000", "-s", "3", "--json"
    )
    assert job["result"] == cli


def test_a_json_body_is_held_to_croupiers_input_limits(server: Server) -> None:
    h = {**server.auth(DEALER), "Content-Type": "application/json"}
    with server.client() as c:
        deep = c.post(
            "/rounds/settle", params={"table": "BJ-1"}, content=b"[" * 5000, headers=keyed(h)
        )
        huge = c.post(
            "/tables/BJ-1/steps", content=b'{"seat": 1' + b"0" * 100 + b"}", headers=keyed(h)
        )
        nan = c.post("/tables/BJ-1/steps", content=b'{"seat": NaN}', headers=keyed(h))
    for r in (deep, huge):  # JSON past croupier's limits: 422
        assert r.status_code == 422, r.text
        assert r.headers["content-type"] == PROBLEM
        assert r.json()["error_type"] == "InputFileError"
    # NaN is not a JSON number (RFC 8259 § 6): the body is not JSON, a 400
    assert nan.status_code == 400 and nan.headers["content-type"] == PROBLEM, nan.text
    assert nan.json()["error_type"] == "NotJSON"


def test_the_server_starts_as_a_controller_and_records_it(server: Server) -> None:
    """`croupier serve` opens the ledger as a controller (issue 15): its start-up self-check —
    the whole ledger verified, every progressive's configuration against its approved digests —
    is a significant event, read back with GET /significant-events (a shift manager's)."""
    with server.client() as c:
        assert c.get("/significant-events").status_code == 401
        h = server.auth(SHIFT)
        got = c.get("/significant-events", params={"code": "startup-self-check"}, headers=h)
        assert got.status_code == 200, got.text
        (*_, last) = got.json()["events"]
        assert last["code"] == "startup-self-check" and last["detail"]["result"] == "passed"
        assert (
            c.get("/significant-events", params={"code": "nonsense"}, headers=h).status_code == 422
        )
