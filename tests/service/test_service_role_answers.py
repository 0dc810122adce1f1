"""What a role can learn from a refusal (issue 27): a member who may not act on a resource gets
one answer whether its id exists or not, and the significant events — failed logins naming
members and client addresses — are a shift manager's or an auditor's to read, over HTTP and on
the command line alike.

The trial: a dealer validating award 999 got a 404 and award 3 a 403, so award ids could be
enumerated by trying them; a dealer read ``GET /significant-events``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli_support import assert_one_error_line, run_main
from croupier.progressive import Ledger, Role
from progressive_support import add_staff, secret
from service_support import (
    ASH,
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    Server,
    keyed,
    pending_award,
    serving,
)

ACCT, AUDIT = "acct-r", "audit-r"
MISSING = 9_000_000_000  # an award id no ledger of these tests reaches


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("role-answers")) as srv:
        with srv.client() as c:
            for name, role in ((ACCT, "accounting"), (AUDIT, "auditor")):
                member = {"name": name, "role": role, "password": secret(name)}
                r = c.post("/staff", json=member, headers=keyed(srv.auth(SHIFT)))
                assert r.status_code == 201, r.text
        yield srv


def shape(r: httpx.Response) -> dict[str, Any]:
    """A problem as a client sees it, its ``instance`` (the path asked: the id) left out."""
    body = dict(r.json())
    body.pop("instance")
    return {"status": r.status_code, "content-type": r.headers["content-type"], **body}


AWARD_ROUTES = (
    ("validate", None, "633b.2(h)(3)", "validating a progressive payout"),
    ("void", {"reason": "misread"}, "633b.2(h)(1)", "voiding a progressive payout"),
)


@pytest.mark.parametrize("who", [DEALER, ACCT, AUDIT])
@pytest.mark.parametrize(("action", "body", "section", "what"), AWARD_ROUTES)
def test_a_role_that_may_not_decide_awards_gets_one_answer_for_any_id(
    server: Server, who: str, action: str, body: Any, section: str, what: str
) -> None:
    with server.client() as c:
        real = pending_award(server, c, "BJ-2")["award"]
        answers = [
            c.post(f"/awards/{i}/{action}", json=body, headers=keyed(server.auth(who)))
            for i in (real, MISSING)
        ]
        still = c.get("/awards", params={"status": "pending"}, headers=server.auth(FLOOR))
    exists, missing = answers
    assert exists.status_code == 403, exists.text
    assert shape(exists) == shape(missing)  # the same status, type, words and section
    said = exists.json()
    assert said["error_type"] == "AuthorizationError" and said["section"] == section
    # the paragraph of both games, since the refusal names no award's progressive
    assert what in said["detail"] and "floorperson or above" in said["detail"]
    paragraph = section.removeprefix("633b.2")
    assert f"§ 633b.2{paragraph}; 58 Pa. Code § 633b.3{paragraph})" in said["detail"]
    assert f"award {real}" not in said["detail"]
    assert real in {a["award"] for a in still.json()["awards"]}  # nothing changed


def test_a_member_who_may_decide_awards_is_told_a_missing_one(server: Server) -> None:
    """A floorperson may act on awards and reads them all: a missing id is a 404 to them."""
    with server.client() as c:
        r = c.post(f"/awards/{MISSING}/validate", headers=keyed(server.auth(FLOOR)))
    assert r.status_code == 404, r.text
    assert r.json()["detail"] == f"no award {MISSING}"


@pytest.mark.parametrize(
    ("who", "path", "body"),
    [
        (PIT, "/progressives/{}/links", {"table": "BJ-9"}),
        (FLOOR, "/progressives/{}/adjust", {"level": "Progressive", "meter": "1", "reason": "t"}),
        (DEALER, "/progressives/{}/suspend", {"reason": "r"}),
        (DEALER, "/progressives/{}/resume", None),
        (PIT, "/progressives/{}/reconfigure", {"approval": "A", "rates": {"Progressive": "12%"}}),
    ],
)
def test_a_progressive_route_refuses_a_role_alike_whether_the_name_exists(
    server: Server, who: str, path: str, body: Any
) -> None:
    with server.client() as c:
        answers = [
            c.post(path.format(name), json=body, headers=keyed(server.auth(who)))
            for name in ("mtd-5", "no-such-progressive")
        ]
    exists, missing = answers
    assert exists.status_code == 403, exists.text
    assert shape(exists) == shape(missing)


def test_a_staff_route_refuses_a_role_alike_whether_the_member_exists(server: Server) -> None:
    """Only a shift manager or an auditor reads the roster: a refused member learns no name."""
    with server.client() as c:
        for method, path, body in (
            ("DELETE", "/staff/{}", None),
            ("POST", "/staff/{}/role", {"role": "dealer"}),
            ("POST", "/staff/{}/credential", {"password": "a new passphrase"}),
        ):
            exists, missing = (
                c.request(method, path.format(n), json=body, headers=keyed(server.auth(PIT)))
                for n in (FLOOR, f"nobody-{uuid.uuid4().hex[:6]}")
            )
            assert exists.status_code == 403, (path, exists.text)
            assert shape(exists) == shape(missing), path


EVENTS_REFUSED = [DEALER, FLOOR, PIT, ASH, ACCT]
EVENTS_READERS = [SHIFT, AUDIT]


@pytest.mark.parametrize("who", EVENTS_REFUSED)
def test_the_significant_events_are_refused_below_a_shift_manager(server: Server, who: str) -> None:
    with server.client() as c:
        plain = c.get("/significant-events", headers=server.auth(who))
        named = c.get(
            "/significant-events",
            params={"progressive": "no-such-progressive", "code": "login-failure"},
            headers=server.auth(who),
        )
    assert plain.status_code == 403, plain.text
    assert shape(plain) == shape(named)  # refused before the filters are looked at
    said = plain.json()
    assert said["section"] == "605a.7"
    assert said["detail"].endswith(
        "reading the significant events needs a shift-manager or above, or an auditor "
        "(58 Pa. Code § 605a.7; NIST SP 800-53 AU-9(4))"
    )
    assert "events" not in said


@pytest.mark.parametrize("who", EVENTS_READERS)
def test_a_shift_manager_and_an_auditor_read_the_login_failures(server: Server, who: str) -> None:
    name = f"mo-{uuid.uuid4().hex[:6]}"
    with server.client() as c:
        member = {"name": name, "role": "dealer", "password": secret(name)}
        assert c.post("/staff", json=member, headers=keyed(server.auth(SHIFT))).is_success
        failed = c.post("/token", data={"username": name, "password": "a wrong one"})
        assert failed.status_code == 401
        got = c.get(
            "/significant-events", params={"code": "login-failure"}, headers=server.auth(who)
        )
    assert got.status_code == 200, got.text
    mine = [e for e in got.json()["events"] if e["detail"].get("user") == name]
    assert [(e["code"], e["detail"]["client"]) for e in mine] == [("login-failure", "127.0.0.1")]


# -- the command line: the same rule ----------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    with Ledger(url) as ledger:
        add_staff(ledger)
        ledger.add_user(AUDIT, Role.AUDITOR, secret(AUDIT), by=SHIFT)
        ledger.add_user(ACCT, Role.ACCOUNTING, secret(ACCT), by=SHIFT)
    return url


@pytest.mark.parametrize("who", [DEALER, FLOOR, PIT, ACCT])
def test_croupier_meters_events_refuses_a_role_below_a_shift_manager(
    db: str, who: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_PASSWORD", secret(who))
    run = run_main(["meters", "events", "--as", who, "--db", db])
    line = assert_one_error_line(run)
    assert "reading the significant events needs a shift-manager or above, or an auditor" in line
    assert "58 Pa. Code § 605a.7; NIST SP 800-53 AU-9(4)" in line
    assert run.out == ""  # not one event shown


@pytest.mark.parametrize("who", [SHIFT, AUDIT])
def test_croupier_meters_events_shows_a_shift_manager_and_an_auditor_the_failures(
    db: str, who: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Ledger(db) as ledger, pytest.raises(Exception, match="not a staff member"):
        ledger.authenticate(DEALER, "a wrong one", client="10.0.0.7")
    monkeypatch.setenv("CROUPIER_PASSWORD", secret(who))
    run = run_main(["meters", "events", "--code", "login-failure", "--as", who, "--db", db,
                    "--json"])  # fmt: skip
    assert run.code == 0, run.err
    (failure,) = json.loads(run.out)["events"]
    assert (failure["detail"]["user"], failure["detail"]["client"]) == (DEALER, "10.0.0.7")


def test_croupier_meters_events_needs_the_reader_named(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No --as: refused before the ledger is opened (a usage error)."""
    monkeypatch.setenv("CROUPIER_PASSWORD", secret(SHIFT))
    run = run_main(["meters", "events", "--db", db])
    assert run.code == 2 and run.out == ""
    assert "--as" in run.err
