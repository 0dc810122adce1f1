"""Issue 16 over HTTP, against a real ``croupier serve`` (SQLite and PostgreSQL): the staff
routes, tokens revoked by a removal, a role or credential change and a logout, login throttling
answered as a 429 with Retry-After, one name rule, and financial reports closed to the floor."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from croupier.progressive import Ledger, Role
from progressive_support import BACKENDS, SHIFT, new_db_url, secret
from service_support import DEALER, FLOOR, PIT, Server, keyed, make_ledger

AUDITOR = "aud"
ACCOUNTING = "acc"
LOCKOUT_SECONDS = 3
FAILURES = 3


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp(f"staff-{request.param}")
    urls = new_db_url(request.param, tmp)
    url = next(urls)
    make_ledger(url)
    with Ledger(url) as ledger:
        ledger.add_user(AUDITOR, Role.AUDITOR, secret(AUDITOR), by=SHIFT)
        ledger.add_user(ACCOUNTING, Role.ACCOUNTING, secret(ACCOUNTING), by=SHIFT)
    env = {
        "CROUPIER_LOGIN_FAILURES": str(FAILURES),
        "CROUPIER_LOGIN_LOCKOUT": str(LOCKOUT_SECONDS),
        "CROUPIER_LOGIN_CLIENT_FAILURES": "1000",
    }
    srv = Server(url, tmp / "server.log", env=env).start()
    try:
        yield srv
    finally:
        srv.stop()
        urls.close()  # type: ignore[attr-defined]


def login(srv: Server, user: str, password: str | None = None) -> httpx.Response:
    return httpx.post(
        f"{srv.base}/token",
        data={"username": user, "password": secret(user) if password is None else password},
        timeout=60,
    )


def bearer(response: httpx.Response) -> dict[str, str]:
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


def key() -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex}


def new_member(srv: Server, c: httpx.Client, role: str = "dealer") -> str:
    name = f"m{uuid.uuid4().hex[:8]}"
    made = c.post(
        "/staff",
        json={"name": name, "role": role, "password": secret(name)},
        headers=keyed({**srv.auth(SHIFT), **key()}),
    )
    assert made.status_code == 201, made.text
    return name


def test_a_removed_member_is_logged_out_and_locked_out(server: Server) -> None:
    with server.client() as c:
        name = new_member(server, c)
        mine = bearer(login(server, name))
        assert c.get("/progressives", headers=mine).status_code == 200
        gone = c.delete(f"/staff/{name}", headers=keyed({**server.auth(SHIFT), **key()}))
        assert gone.status_code == 200, gone.text
        assert gone.json() == {"user": name, "removed": True, "removed_by": SHIFT}
        refused = c.get("/progressives", headers=mine)
        assert refused.status_code == 401
        assert "was revoked" in refused.json()["detail"]
        assert login(server, name).status_code == 401
        roster = c.get("/staff", headers=server.auth(SHIFT)).json()
        assert name in roster["removed"] and name not in {m["user"] for m in roster["staff"]}
        again = c.post(
            "/staff",
            json={"name": name.upper(), "role": "dealer", "password": "a new one"},
            headers=keyed({**server.auth(SHIFT), **key()}),
        )
        assert again.status_code == 409
        assert again.json()["error_type"] == "ConfusableNameError"
        assert repr(name) in again.json()["detail"]


def test_a_role_change_refuses_the_tokens_issued_before(server: Server) -> None:
    with server.client() as c:
        name = new_member(server, c, "floorperson")
        before = bearer(login(server, name))
        changed = c.post(
            f"/staff/{name}/role",
            json={"role": "dealer"},
            headers=keyed({**server.auth(SHIFT), **key()}),
        )
        assert changed.status_code == 200, changed.text
        assert changed.json()["role"] == "dealer"
        assert c.get("/awards", headers=before).status_code == 401
        after = login(server, name)
        assert after.json()["role"] == "dealer"
        assert c.get("/awards", headers=bearer(after)).status_code == 200
        by_pit = c.post(
            f"/staff/{name}/role",
            json={"role": "shift-manager"},
            headers=keyed({**server.auth(PIT), **key()}),
        )
        assert by_pit.status_code == 403 and by_pit.json()["section"] == "605a.7"


def test_own_credential_with_the_old_one_and_a_logout(server: Server) -> None:
    with server.client() as c:
        name = new_member(server, c)
        first = bearer(login(server, name))
        second = bearer(login(server, name))  # another terminal
        no_old = c.post(
            f"/staff/{name}/credential", json={"password": "my new pass"}, headers=keyed(first)
        )
        assert no_old.status_code == 401 and "needs the old one" in no_old.json()["detail"]
        wrong = c.post(
            f"/staff/{name}/credential",
            json={"password": "my new pass", "old_password": "not it"},
            headers=keyed(first),
        )
        assert wrong.status_code == 401
        done = c.post(
            f"/staff/{name}/credential",
            json={"password": "my new pass", "old_password": secret(name)},
            headers=keyed(first),
        )
        assert done.status_code == 200, done.text
        assert "my new pass" not in done.text and secret(name) not in done.text
        assert c.get("/awards", headers=second).status_code == 401
        assert login(server, name).status_code == 401
        fresh = bearer(login(server, name, "my new pass"))
        other = c.post(
            f"/staff/{FLOOR}/credential", json={"password": "taken over"}, headers=keyed(fresh)
        )
        assert other.status_code == 403
        out = c.post("/token/revoke", headers=fresh)
        assert out.status_code == 200 and out.json() == {"user": name, "logged_out": True}
        assert c.get("/awards", headers=fresh).status_code == 401
        assert c.post("/token/revoke", headers=fresh).status_code == 401


def test_wrong_logins_lock_a_member_out_with_a_429(server: Server) -> None:
    with server.client() as c:
        name = new_member(server, c)
        codes = [login(server, name, "wrong").status_code for _ in range(FAILURES - 1)]
        assert codes == [401] * (FAILURES - 1)
        locked = login(server, name, "wrong")
        assert locked.status_code == 429, locked.text
        assert locked.headers["content-type"].startswith("application/problem+json")
        assert locked.json()["error_type"] == "LoginLockedError"
        assert int(locked.headers["Retry-After"]) == LOCKOUT_SECONDS
        right_too = login(server, name)
        assert right_too.status_code == 429
        assert 1 <= int(right_too.headers["Retry-After"]) <= LOCKOUT_SECONDS
        time.sleep(int(right_too.headers["Retry-After"]) + 0.2)
        assert login(server, name).status_code == 200
        events = c.get(
            "/significant-events", params={"code": "login-lockout"}, headers=server.auth(SHIFT)
        ).json()["events"]
        mine = [e for e in events if e["detail"].get("user") == name]
        assert len(mine) == 1 and mine[0]["by"] is None
        assert mine[0]["detail"]["seconds"] == LOCKOUT_SECONDS
        failures = c.get(
            "/significant-events", params={"code": "login-failure"}, headers=server.auth(SHIFT)
        ).json()["events"]
        assert [e["detail"]["failures"] for e in failures if e["detail"].get("user") == name] == [
            1,
            2,
            3,
        ]
        assert all(e["detail"]["client"] == "127.0.0.1" for e in failures)
        assert "wrong" not in str(failures)


def test_look_alike_names_are_one_name(server: Server) -> None:
    nfc, nfd = "Zo\u00eb", "Zoe\u0308"
    with server.client() as c:
        h = server.auth(SHIFT)
        first = c.post(
            "/staff",
            json={"name": nfc, "role": "dealer", "password": "zoe's pin"},
            headers=keyed({**h, **key()}),
        )
        assert first.status_code == 201, first.text
        second = c.post(
            "/staff",
            json={"name": nfd, "role": "shift-manager", "password": "zoe's pin"},
            headers=keyed({**h, **key()}),
        )
        assert second.status_code == 409 and nfc in second.json()["detail"]
        logged = login(server, nfd, "zoe's pin")
        assert logged.status_code == 200 and logged.json()["user"] == nfc
        submission = {
            "game": "blackjack",
            "name": "BJ",
            "decks": 6,
            "dealer": "S17",
            "wagers": [{"wager": "blackjack", "min": "$10", "max": "$1,000"}],
        }
        pit = {**server.auth(PIT)}
        for table, status, kind in [
            ("BJ-1\u200b", 422, "NameRuleError"),
            ("BJ-1\u202e", 422, "NameRuleError"),
            ("BJ\u20111", 409, "ConfusableNameError"),  # BJ-1 is linked to the progressives
        ]:
            r = c.post(
                "/tables",
                json={"table": table, "submission": submission},
                headers=keyed({**pit, **key()}),
            )
            assert (r.status_code, r.json()["error_type"]) == (status, kind), r.text


@pytest.mark.parametrize(
    "path", ["/reconciliation", "/hold-report", "/rounds/summary", "/reconciliation?format=csv"]
)
def test_financial_reports_need_a_pit_manager_accounting_or_an_auditor(
    server: Server, path: str
) -> None:
    with server.client() as c:
        for user in (DEALER, FLOOR):
            r = c.get(path, headers=server.auth(user))
            assert r.status_code == 403, (user, r.text)
            assert "needs a pit-manager or above" in r.json()["detail"]
        for user in (PIT, SHIFT, ACCOUNTING, AUDITOR):
            assert c.get(path, headers=server.auth(user)).status_code == 200, user


def test_the_read_only_roles_read_and_change_nothing(server: Server) -> None:
    with server.client() as c:
        auditor, accounting = server.auth(AUDITOR), server.auth(ACCOUNTING)
        assert c.get("/staff", headers=auditor).status_code == 200
        assert c.get("/staff", headers=accounting).status_code == 403
        assert c.get("/staff", headers=server.auth(PIT)).status_code == 403
        assert c.get("/verify", headers=accounting).status_code == 200
        refused = c.post(
            "/progressives/mtd-5/suspend",
            json={"reason": "audit"},
            headers=keyed({**auditor, **key()}),
        )
        assert refused.status_code == 403
        assert "an auditor (a role that reads and changes nothing)" in refused.json()["detail"]
        added = c.post(
            "/staff",
            json={"name": "x" + uuid.uuid4().hex[:6], "role": "dealer", "password": "pppp"},
            headers=keyed({**auditor, **key()}),
        )
        assert added.status_code == 403
        # their own logout and credential they may change
        assert c.post("/token/revoke", headers=accounting).status_code == 200
        server.tokens.pop(ACCOUNTING)
