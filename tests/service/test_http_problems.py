"""Each refusal has the status its meaning calls for and the words of the request it refuses, and
the OpenAPI document shows each operation's own problems (issue 16, items 4, 5 and 7).

The trial found a weak new password answered 401 (as if the caller's token were bad), "a staff
member needs a name" and "voiding an award needs a reason" answered 409 (input errors, not
conflicts), ``DELETE /tables/BJ-1`` refused as "opening a table", rates shown as fractions in a
reconfiguration's answer, one 422 example (a lock-out at a Perfect Pairs table) on all 34
operations, ``/health`` included, and the 401 example of ``/staff`` speaking of validating an
award. Also: CORS allowed ``GET`` and ``POST`` only, so a browser could not close a table, and
``/health`` showed anyone the database.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import croupier.errors as errors
from croupier.service.problems import status_of
from progressive_support import secret
from service_support import (
    ASH,
    DEALER,
    FLOOR,
    PIT,
    PLAIN_SUBMISSION,
    SHIFT,
    Server,
    keyed,
    pending_award,
    round_file,
    royal_round,
    serving,
)

PROBLEM = "application/problem+json"
SAMPLE = {
    "wager": "perfect-pairs",
    "name": "jp-5",
    "award_id": "1",
    "table": "BJ-1",
    "round_id": "r1",
    "job": "nope",
    "kind": "LockoutError",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("problems")) as srv:
        yield srv


@pytest.fixture(scope="module")
def spec(server: Server) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(f"{server.base}/openapi.json", timeout=60).json()
    return document


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def problems(op: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """An operation's example problems by status."""
    return {
        status: [e["value"] for e in answer["content"][PROBLEM]["examples"].values()]
        for status, answer in op["responses"].items()
        if not status.startswith("2")
    }


# -- the status of each kind of error ---------------------------------------------------------

MEANING = {
    "IdempotencyKeyError": 400,  # a request without the key it needs (the draft's 400)
    "AuthenticationError": 401,  # who is asking is not known
    "AuthorizationError": 403,  # their role is below the rule's
    "LedgerLookupError": 404,
    "UnknownWagerError": 404,
    "UnknownPaytableError": 404,
    "IdempotencyConflictError": 409,  # conflicts with what is recorded
    "RoundConflictError": 409,
    "RoundStateError": 409,
    "ConfusableNameError": 409,  # the name reads as one recorded already
    "LedgerError": 409,
    "LoginLockedError": 429,  # too many failed logins: wait (Retry-After)
    "LedgerIntegrityError": 500,  # the ledger's own fault: not the caller's
    "LedgerKeyError": 500,
    "LedgerFileError": 500,  # the ledger's folder cannot be made where configured: the server's
    "CheckpointError": 500,  # a checkpoint the ledger does not hold: the ledger's integrity
    "DatabaseRefusedError": 500,  # the database refuses what it would refuse again: no retry
    "MeterLimitError": 409,  # the level recorded cannot grow that far (its column is full)
    "LedgerDatabaseError": 503,  # the database cannot be used now: retry later
    "UnconfirmedFlushError": 503,  # committed, its flush not confirmed: the retry answers it
    "LedgerHaltedError": 503,  # halted for an integrity fault until the operator acts (no retry)
}
"""What each kind of error means over HTTP; every other kind is the caller's input or a rule of
the regulation (422)."""


def test_every_error_type_has_the_status_of_its_meaning() -> None:
    import croupier.service.app  # noqa: F401  (every module of the service, its errors too)

    kinds, todo = set(), [errors.CroupierError]
    while todo:  # every subclass, wherever it is declared
        cls = todo.pop()
        kinds.add(cls)
        todo.extend(cls.__subclasses__())
    names = {cls.__name__ for cls in kinds}
    assert {"IdempotencyKeyError", "LedgerDatabaseError", "AuthenticationError"} <= names
    assert len(kinds) > 20
    for cls in kinds:
        exc = cls.__new__(cls)
        assert status_of(exc) == MEANING.get(cls.__name__, 422), cls.__name__


def test_a_weak_new_credential_is_input_not_authentication(server: Server) -> None:
    """sam's token is good: a new member's three-character password is a 422, not the 401 that
    tells a client to log in again; nothing is added."""
    name = uid("eve")
    with server.client() as c:
        r = c.post(
            "/staff",
            json={"name": name, "role": "dealer", "password": "abc"},
            headers=keyed(server.auth(SHIFT)),
        )
        assert r.status_code == 422, r.text
        assert "WWW-Authenticate" not in r.headers
        assert (r.json()["error_type"], r.json()["detail"]) == (
            "InputError",
            "a staff credential (password or PIN) needs at least 4 characters",
        )
        login = c.post("/token", data={"username": name, "password": "abc"})
        assert login.status_code == 401  # no such member was made
        blank = c.post(
            "/staff",
            json={"name": " ", "role": "dealer", "password": "a long passphrase"},
            headers=keyed(server.auth(SHIFT)),
        )
        # the one name rule's refusal (croupier.names), an input error
        assert (blank.status_code, blank.json()["error_type"]) == (422, "NameRuleError")
        assert blank.json()["detail"] == "a staff member needs a name"


def test_a_reason_left_blank_is_input_and_changes_nothing(server: Server) -> None:
    with server.client() as c:
        award = pending_award(server, c)
        void = c.post(
            f"/awards/{award['award']}/void",
            json={"reason": "   "},
            headers=keyed(server.auth(FLOOR)),
        )
        assert (void.status_code, void.json()["error_type"]) == (422, "InputError"), void.text
        assert void.json()["detail"] == "voiding an award needs a reason"
        pending = c.get("/awards", params={"status": "pending"}, headers=server.auth(DEALER))
        assert award["award"] in {a["award"] for a in pending.json()["awards"]}
        why = c.post(
            "/progressives/mtd-5/suspend", json={"reason": " "}, headers=keyed(server.auth(PIT))
        )
        assert (why.status_code, why.json()["detail"]) == (
            422,
            "suspending a progressive needs a reason",
        )
        assert c.get("/progressives/mtd-5", headers=server.auth(DEALER)).status_code == 200


def test_closing_a_table_is_refused_as_closing(server: Server) -> None:
    table = uid("C")
    with server.client() as c:
        opened = c.post(
            "/tables",
            json={"table": table, "submission": PLAIN_SUBMISSION},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        r = c.delete(f"/tables/{table}", headers=keyed(server.auth(DEALER)))
        assert r.status_code == 403
        assert r.json()["detail"] == (
            "dana is a dealer; closing a table needs a pit-manager or above (58 Pa. Code § 601a.2)"
        )
        assert c.get(f"/tables/{table}", headers=server.auth(DEALER)).status_code == 200


def test_an_unknown_paytable_is_not_found(server: Server) -> None:
    r = httpx.get(
        f"{server.base}/paytables", params={"section": "633b.1", "paytable": "Z"}, timeout=60
    )
    assert (r.status_code, r.json()["error_type"]) == (404, "UnknownPaytableError")


MTD_2_DECKS = (
    "the Match the Dealer Progressive wager is played with 6 or 8 decks, not 2 "
    "(58 Pa. Code § 633b.3(b))"
)
"""§ 633b.3(b): Match the Dealer is dealt from six or eight decks (the trial's input)."""
MTD_99 = (
    "the Match the Dealer Progressive wager: § 633b.3 has no paytable '99' (its paytables: 1, 2, "
    "3, 4, 5, 6, 7, 8, 9, 10)"
)
"""§ 633b.3(i) prints paytables 1 to 10."""


def test_a_body_naming_what_the_rule_refuses_is_refused_alike_on_every_route(
    server: Server,
) -> None:
    """The trial: Match the Dealer at 2 decks was a 404 ``UnknownPaytableError`` ("paytable 1 of
    § 633b.3 is not for 2 decks", no section) from ``POST /progressives`` and a 422
    ``RulesError`` (§ 633b.3(b)) from ``POST /simulations``. A body naming a paytable its
    section does not print is a 422 citing the section on every route that takes one; a Rules
    Submission says it in the same words. Nothing is made."""
    name = uid("mtd")
    with server.client() as c:

        def post(path: str, body: dict[str, Any], **params: str) -> httpx.Response:
            return c.post(path, json=body, params=params, headers=keyed(server.auth(SHIFT)))

        for decks, paytable, detail, section in (
            (2, "1", MTD_2_DECKS, "633b.3(b)"),
            (6, "99", f"{MTD_99} (58 Pa. Code § 633b.3)", "633b.3"),
        ):
            made = post(
                "/progressives",
                {"paytable": f"match-the-dealer:{paytable}", "decks": decks, "amount": "$5",
                 "name": name},
            )  # fmt: skip
            simulated = post(
                "/simulations", {"wager": "match-the-dealer", "paytable": paytable, "decks": decks}
            )
            for r in (made, simulated):
                assert (r.status_code, r.json()["error_type"]) == (422, "RulesError"), r.text
                assert (r.json()["detail"], r.json()["section"]) == (detail, section)
        submission = {
            **PLAIN_SUBMISSION,
            "wagers": [
                *PLAIN_SUBMISSION["wagers"],
                {"wager": "match-the-dealer", "paytable": "99", "amounts": ["$5"]},
            ],
        }
        table = post("/tables", {"table": uid("T"), "submission": submission})
        assert (table.status_code, table.json()["error_type"]) == (422, "SubmissionError")
        assert table.json()["violations"] == [{"message": MTD_99, "section": "633b.3"}]
        assert c.get(f"/progressives/{name}", headers=server.auth(SHIFT)).status_code == 404


def test_a_body_naming_nothing_is_a_422_a_path_naming_nothing_a_404(server: Server) -> None:
    """A request whose body (or, for a change, its query) names a wager or a progressive that
    does not exist is unprocessable as sent — a 422 saying so, citing the rule where one binds
    (a table's progressive wagers feed progressives linked to it, § 605a.8: the same refusal as
    for one that exists and is not linked); a 404 is for a path that names nothing."""
    ghost = "nope-" + uuid.uuid4().hex[:6]
    not_linked = (
        f"table {{table}} is not linked to progressive {ghost!r}: no progressive named {ghost!r}"
    )
    with server.client() as c:
        table = uid("T")
        opened = c.post(
            "/tables",
            json={"table": table, "submission": PLAIN_SUBMISSION, "progressives": [ghost]},
            headers=keyed(server.auth(PIT)),
        )
        fed = c.post(
            "/rounds/settle",
            params={"table": "BJ-1", "progressive": ghost},
            json=royal_round(uid("r")),
            headers=keyed(server.auth(DEALER)),
        )
        for r, where in ((opened, table), (fed, "BJ-1")):
            assert (r.status_code, r.json()["error_type"], r.json()["section"]) == (
                422,
                "LinkError",
                "605a.8",
            ), r.text
            assert r.json()["detail"].startswith(not_linked.format(table=where))
        assert c.get(f"/tables/{table}", headers=server.auth(DEALER)).status_code == 404
        wager = c.post(
            "/simulations",
            json={"wager": "perfect-pears", "paytable": "A", "decks": 6},
            headers=server.auth(DEALER),
        )
        assert (wager.status_code, wager.json()["error_type"]) == (422, "InputError")
        assert wager.json()["detail"].startswith("no wager 'perfect-pears'; did you mean")
        for method, path, body in (
            ("GET", f"/progressives/{ghost}", None),
            ("POST", f"/progressives/{ghost}/links", {"table": "BJ-9"}),
            ("POST", f"/progressives/{ghost}/adjust", {"level": "Progressive", "reason": "r"}),
            ("POST", "/tables/NO-SUCH-TABLE/steps", {"action": "no-more-bets"}),
            ("GET", "/parsheets/perfect-pears", None),
        ):
            r = c.request(method, path, json=body, headers=keyed(server.auth(SHIFT)))
            assert r.status_code == 404, (path, r.text)


def test_an_adjustment_says_which_condition_it_breaks_citing_its_rule(server: Server) -> None:
    """The trial's 409 said "would leave the Progressive meter at $0 or below, below what is
    held for pending awards, or the reserve below zero" — which, it did not say — and cited
    nothing. By hand (§ 633b.3(j)): a new $5 paytable 1 progressive stands at 1,000 × $5 =
    $5,000 with a $0 reserve; one $5 wager adds 15% ($0.75) to the meter and 6% ($0.30) to the
    reserve, and seat 2's 2 Suited Match (7♥ 7♥ against the 7♥ up) takes 10% of the $5,000.75
    meter, $500.075 paid rounded down to the cent (docs/interpretations.md): $500.07 held until a
    floorperson validates it. Each refusal changes nothing."""
    name, table = uid("mtd"), uid("BJ")
    spec = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": name}
    rule = ("605a.7(a)(6)", "(58 Pa. Code § 605a.7(a)(6))")
    with server.client() as c:

        def adjust(**change: str) -> httpx.Response:
            body = {"level": "Progressive", "reason": "meter test", **change}
            return c.post(
                f"/progressives/{name}/adjust", json=body, headers=keyed(server.auth(PIT))
            )

        def level() -> dict[str, Any]:
            r = c.get(f"/progressives/{name}", headers=server.auth(PIT))
            (lv,) = r.json()["levels"]
            return dict(lv)

        made = c.post(
            "/progressives", json={**spec, "tables": [table]}, headers=keyed(server.auth(SHIFT))
        )
        assert made.status_code == 201, made.text
        for change, said in (
            ({"meter": "-5000"}, "the Progressive meter at $0, not above $0"),
            ({"reserve": "-0.01"}, "the Progressive reserve at -$0.01, below $0"),
            (
                {"meter": "-6000", "reserve": "-1"},
                "the Progressive meter at -$1,000, not above $0 and the Progressive reserve at "
                "-$1, below $0",
            ),
        ):
            r = adjust(**change)
            assert (r.status_code, r.json()["error_type"], r.json()["section"]) == (
                409,
                "LedgerError",
                rule[0],
            ), r.text
            assert r.json()["detail"] == f"the adjustment would leave {said} {rule[1]}"
        assert (level()["meter_micros"], level()["reserve_micros"]) == (5_000_000_000, 0)
        steps: list[dict[str, Any]] = [
            {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": 2, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"2": "7h 7h"}, "dealer": "7h Qs"},
            {"action": "stand", "seat": 2},
            {"action": "settle"},
        ]
        fed = c.post(
            "/rounds/settle",
            params={"table": table, "progressive": name},
            json=round_file(uid("r"), steps),
            headers=keyed(server.auth(DEALER)),
        )
        assert fed.status_code == 201, fed.text
        before = level()
        assert (before["meter_micros"], before["held_micros"], before["reserve_micros"]) == (
            5_000_750_000,
            500_070_000,
            300_000,
        )
        r = adjust(meter="-4500.69")  # $5,000.75 − $4,500.69 = $500.06 < $500.07
        assert (r.status_code, r.json()["section"]) == (409, rule[0])
        assert r.json()["detail"] == (
            "the adjustment would leave the Progressive meter at $500.06, below the $500.07 it "
            f"holds for pending awards {rule[1]}"
        )
        assert level() == before
        ok = adjust(meter="-4500.68")  # leaves $500.07: all of it held, none below
        assert ok.status_code == 200, ok.text
        assert ok.json()["meter_micros"] == 500_070_000


def test_a_reconfiguration_shows_rates_as_the_request_gives_them(server: Server) -> None:
    name = uid("mtd")
    spec = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": name}
    with server.client() as c:
        made = c.post("/progressives", json=spec, headers=keyed(server.auth(SHIFT)))
        assert made.status_code == 201, made.text
        level = made.json()["levels"][0]
        old = level["primary_rate"]  # as GET /progressives shows it: a percentage
        assert old.endswith("%")
        stopped = c.post(
            f"/progressives/{name}/suspend", json={"reason": "r"}, headers=keyed(server.auth(PIT))
        )
        assert stopped.status_code == 200
        change = {"approval": "CHG-1", "rates": {level["level"]: "18.5%+1.25%"}}
        done = c.post(
            f"/progressives/{name}/reconfigure", json=change, headers=keyed(server.auth(SHIFT))
        )
        assert done.status_code == 200, done.text
        shown = done.json()["changes"][level["level"]]
        now = c.get(f"/progressives/{name}", headers=server.auth(DEALER)).json()["levels"][0]
    # by hand: 18.5% = 37/200, 1.25% = 1/80
    assert shown["primary_rate"] == [old, "18.5%"] and shown["primary_rate_exact"][1] == "37/200"
    assert shown["secondary_rate"][1] == "1.25%" and shown["secondary_rate_exact"][1] == "1/80"
    assert (now["primary_rate"], now["secondary_rate"]) == ("18.5%", "1.25%")


# -- the 500 problem ----------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_a_failure_never_invites_a_retry(tmp_path: Path) -> None:
    """An unexpected failure is a fault of the service that the same request meets again: its
    500 never tells the client to retry, with an Idempotency-Key or without (issue 27: it told a
    client sending a lone surrogate to retry under the same key, forever)."""
    from fastapi.testclient import TestClient

    from croupier.service.app import ServiceConfig, create_app

    app = create_app(ServiceConfig(db=f"sqlite:///{tmp_path / 'fail.sqlite3'}"))

    @app.get("/boom", include_in_schema=False)
    @app.post("/boom", include_in_schema=False)
    def boom() -> None:
        raise RuntimeError("an internal failure")

    with TestClient(app, raise_server_exceptions=False) as c:
        got = c.get("/boom")
        posted = c.post("/boom", headers={"Idempotency-Key": "k-1"})
    assert got.status_code == posted.status_code == 500
    assert got.json()["detail"] == posted.json()["detail"]
    assert got.json()["detail"].startswith("the service failed (see its log)")
    assert "retry" not in got.text.lower() and "idempotency" not in got.text.lower()
    assert "internal failure" not in got.text + posted.text


# -- the OpenAPI document's examples ------------------------------------------------------------


def test_each_operations_examples_are_its_own(server: Server, spec: dict[str, Any]) -> None:
    details: dict[tuple[str, str], tuple[str, str]] = {}
    operations = 0
    for path, ops in spec["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"
        for method, op in ops.items():
            operations += 1
            where = f"{method.upper()} {path}"
            for status, examples in problems(op).items():
                assert examples, (where, status)
                for example in examples:
                    assert example["status"] == int(status), (where, status)
                    assert re.match(pattern, example["instance"]), (where, example)
                first = examples[0]["detail"]
                if status in ("400", "409", "422"):  # an operation's own words, no other's
                    other = details.setdefault((status, first), (where, first))
                    assert other[0] == where, (status, where, other)
    assert operations == 57  # every route: a new one needs its own examples
    settled = spec["paths"]["/rounds/settle"]["post"]["responses"]
    assert settled["200"]["content"] == settled["201"]["content"]  # stored already: the same doc
    assert problems(spec["paths"]["/health"]["get"]) == {}
    token = problems(spec["paths"]["/token"]["post"])
    assert "credential" in token["401"][0]["detail"]
    assert "password" in token["422"][0]["detail"]
    lockouts = [
        (p, m)
        for p, ops in spec["paths"].items()
        for m, op in ops.items()
        for e in problems(op).get("422", [])
        if e["error_type"] == "LockoutError"
    ]
    assert lockouts == [("/rounds/settle", "post")]  # the settlement's, and no other's
    staff = problems(spec["paths"]["/staff"]["post"])
    assert staff["401"][0]["detail"].startswith("managing staff needs a staff member's token")


def test_each_401_example_is_what_the_route_answers(server: Server, spec: dict[str, Any]) -> None:
    with server.client() as c:
        for path, ops in spec["paths"].items():
            for method, op in ops.items():
                if "401" not in op["responses"] or path == "/token":
                    continue
                (example,) = problems(op)["401"]
                r = c.request(method.upper(), path.format(**SAMPLE))
                assert r.status_code == 401, (method, path, r.text)
                assert r.json()["detail"] == example["detail"], (method, path)


REFUSED = {
    ("post", "/tables"): (FLOOR, "/tables", {"table": "X", "submission": {}}),
    ("delete", "/tables/{table}"): (FLOOR, "/tables/BJ-1", None),
    ("post", "/progressives"): (
        PIT,
        "/progressives",
        {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": "mtd-5"},
    ),
    ("post", "/progressives/{name}/links"): (PIT, "/progressives/mtd-5/links", {"table": "BJ-2"}),
    ("post", "/progressives/{name}/adjust"): (
        FLOOR,
        "/progressives/mtd-5/adjust",
        {"level": "Progressive", "meter": "1", "reason": "t"},
    ),
    ("post", "/staff"): (ASH, "/staff", {"name": "x", "role": "dealer", "password": "long enough"}),
    ("get", "/staff"): (ASH, "/staff", None),
    ("get", "/checkpoint"): (ASH, "/checkpoint", None),
    ("delete", "/staff/{name}"): (ASH, f"/staff/{DEALER}", None),
    ("post", "/staff/{name}/role"): (ASH, f"/staff/{DEALER}/role", {"role": "floorperson"}),
    ("post", "/tables/{table}/void"): (DEALER, "/tables/BJ-1/void", {"reason": "misdeal"}),
    ("get", "/reconciliation"): (FLOOR, "/reconciliation", None),
    ("get", "/hold-report"): (FLOOR, "/hold-report", None),
    ("get", "/rounds/summary"): (FLOOR, "/rounds/summary", None),
    ("get", "/liability"): (FLOOR, "/liability", None),
    ("get", "/contributions"): (FLOOR, "/contributions", None),
    ("post", "/progressives/{name}/suspend"): (
        DEALER,
        "/progressives/mtd-5/suspend",
        {"reason": "r"},
    ),
    ("post", "/progressives/{name}/resume"): (DEALER, "/progressives/mtd-5/resume", None),
    ("get", "/significant-events"): (ASH, "/significant-events", None),
    ("post", "/progressives/{name}/reconfigure"): (
        PIT,
        "/progressives/mtd-5/reconfigure",
        {"approval": "A", "rates": {"Progressive": "12%"}},
    ),
}


def test_each_403_example_is_what_the_route_answers(server: Server, spec: dict[str, Any]) -> None:
    """Asked by a member of the example's role, each route refuses in the example's words."""
    with server.client() as c:
        award = pending_award(server, c, "BJ-4")
        refused = {
            **REFUSED,
            ("post", "/awards/{award_id}/validate"): (
                DEALER,
                f"/awards/{award['award']}/validate",
                None,
            ),
            ("post", "/awards/{award_id}/void"): (
                DEALER,
                f"/awards/{award['award']}/void",
                {"reason": "misread"},
            ),
            ("get", "/awards/{award_id}/slip"): (DEALER, f"/awards/{award['award']}/slip", None),
        }
        checked = set()
        for path, ops in spec["paths"].items():
            for method, op in ops.items():
                if "403" not in op["responses"] or (method, path) not in refused:
                    continue
                (example,) = problems(op)["403"]
                user, url, body = refused[(method, path)]
                assert example["detail"].startswith(f"{user} is "), (method, path)
                r = c.request(method.upper(), url, json=body, headers=keyed(server.auth(user)))
                assert r.status_code == 403, (method, path, r.text)
                assert r.json()["detail"] == example["detail"], (method, path)
                assert r.json()["section"] == example["section"]
                checked.add((method, path))
    assert checked == set(refused)
    with_403 = {(m, p) for p, ops in spec["paths"].items() for m, op in ops.items()}
    with_403 = {(m, p) for m, p in with_403 if "403" in spec["paths"][p][m]["responses"]}
    assert with_403 == set(refused) | set(BY_AN_AUDITOR)


BY_AN_AUDITOR = {
    ("post", "/rounds/settle"): "/rounds/settle?table=BJ-1",
    ("post", "/tables/{table}/steps"): "/tables/BJ-1/steps",
    ("post", "/simulations"): "/simulations",
}
"""The routes a dealer may use that change something: the roles that only read are refused."""


def test_an_auditor_is_refused_what_changes_something(server: Server, spec: dict[str, Any]) -> None:
    """The 403 of a route open to a dealer is an auditor's (a role that reads and changes
    nothing), in the route's own words; what changes nothing for the member (their own logout,
    their own credential) has no 403."""
    with server.client() as c:
        member = {"name": "audrey", "role": "auditor", "password": secret("audrey")}
        assert c.post("/staff", json=member, headers=keyed(server.auth(SHIFT))).status_code == 201
        for (method, path), url in BY_AN_AUDITOR.items():
            (example,) = problems(spec["paths"][path][method])["403"]
            assert example["detail"].startswith("audrey is an auditor"), (method, path)
            r = c.request(method.upper(), url, json={}, headers=keyed(server.auth("audrey")))
            assert r.status_code == 403, (method, path, r.text)
            assert r.json()["detail"] == example["detail"], (method, path)
    for path in ("/token/revoke", "/staff/{name}/credential"):
        assert "403" not in spec["paths"][path]["post"]["responses"], path


# -- CORS, /health ------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_cors_allows_every_method_the_api_takes(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from croupier.service.app import ServiceConfig, create_app
    from croupier.service.openapi import api_routes

    origin = "https://pit.example"
    cfg = ServiceConfig(db=f"sqlite:///{tmp_path / 'cors.sqlite3'}", cors_origins=(origin,))
    app = create_app(cfg)
    methods = {m for _, ms, _ in api_routes(app) for m in ms}
    assert {"GET", "POST", "DELETE"} <= methods
    with TestClient(app) as c:
        for method in sorted(methods):
            r = c.options(
                "/tables/BJ-1",
                headers={
                    "Origin": origin,
                    "Access-Control-Request-Method": method,
                    "Access-Control-Request-Headers": "authorization,idempotency-key",
                },
            )
            assert r.status_code == 200, (method, r.text)
            assert method in r.headers["access-control-allow-methods"], method


def test_health_shows_the_database_only_to_staff(server: Server) -> None:
    with server.client() as c:
        anyone = c.get("/health")
        forged = c.get("/health", headers={"Authorization": "Bearer not.a.token"})
        staff = c.get("/health", headers=server.auth(DEALER))
    assert anyone.status_code == forged.status_code == staff.status_code == 200
    assert "database" not in anyone.json() and "database" not in forged.json()
    assert anyone.json()["status"] == "ok" and anyone.json()["service_revision"] == "s0005"
    assert staff.json()["database"].startswith("sqlite:///")
    assert staff.json()["database"].endswith(Path(server.url.removeprefix("sqlite:///")).name)


def test_each_415_example_is_what_the_route_answers(server: Server, spec: dict[str, Any]) -> None:
    """A body sent as another media type than the route reads: the example's words, on every
    route taking a body (the token form sent as JSON; a JSON body sent as text)."""
    sent = 0
    with server.client() as c:
        for path, ops in spec["paths"].items():
            for method, op in ops.items():
                if "requestBody" not in op:
                    assert "415" not in op["responses"], (method, path)
                    continue
                (example,) = problems(op)["415"]
                url = path.format(**SAMPLE)
                if path == "/token":
                    r = c.post(url, json={"username": DEALER, "password": "x"})
                else:
                    headers = {**keyed(server.auth(SHIFT)), "Content-Type": "text/plain"}
                    r = c.request(method.upper(), url, content=b"x", headers=headers)
                assert r.status_code == 415, (method, path, r.text)
                assert r.json()["detail"] == example["detail"], (method, path)
                sent += 1
    assert sent > 10


def test_a_method_the_path_does_not_take_is_a_405_with_allow(server: Server) -> None:
    """RFC 9110 § 15.5.6: a 405 MUST carry ``Allow``, the methods the path takes (Schemathesis's
    ``unsupported_method`` check found the service's problem without it)."""
    with server.client() as c:
        for method, path, allowed in [
            ("TRACE", "/awards", {"GET"}),
            ("PUT", "/tables/BJ-1", {"GET", "DELETE"}),
            ("PATCH", "/awards/1/validate", {"POST"}),
        ]:
            r = c.request(method, path, headers=server.auth(SHIFT))
            assert r.status_code == 405, (method, path, r.text)
            assert r.headers["content-type"] == PROBLEM
            assert r.json()["error_type"] == "MethodNotAllowed"
            said = {m.strip() for m in r.headers["allow"].split(",")}
            assert said - {"HEAD"} == allowed, (method, path, said)


def test_a_problems_type_leads_to_what_it_means(server: Server) -> None:
    """RFC 9457 § 3.1.1: ``type`` is a URI reference; resolved against the request's address it
    is ``GET /problems/{type}`` on the same service, which says the type's status and meaning —
    for every problem the service answered here, whatever made it (a croupier error, the
    service's own)."""
    with server.client() as c:
        answers = [
            c.post("/rounds/settle", params={"table": "BJ-1"}, json={}),  # no token: 401
            c.get("/paytables", params={"section": "633b.1", "paytable": "Z"}),  # 404
            c.post("/token", json={"username": "x", "password": "y"}),  # 415
            c.get("/nowhere"),  # the service's own 404
        ]
        for r in answers:
            kind = r.json()["error_type"]
            assert r.json()["type"] == f"/problems/{kind}"
            meant = c.get(httpx.URL(str(r.request.url)).join(r.json()["type"]))
            assert meant.status_code == 200, (kind, meant.text)
            assert (meant.json()["title"], meant.json()["status"]) == (kind, r.status_code)
            assert meant.json()["description"] and "``" not in meant.json()["description"]
        none = c.get("/problems/NoSuchThing")
        assert none.status_code == 404 and none.json()["error_type"] == "NotFound"
