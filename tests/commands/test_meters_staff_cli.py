"""Issue 16 through ``croupier meters user`` / ``users``: the staff lifecycle, its JSON against
docs/schemas, and every refusal one error line that names what was wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cli_support import assert_one_error_line, run_main
from croupier.progressive import Ledger, LoginPolicy
from progressive_support import DEALER, FLOOR, PIT, SHIFT, add_staff, secret
from repo_paths import ROOT

SCHEMAS = ROOT / "docs" / "schemas"


def _valid(name: str, data: Any) -> Any:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    return data


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'staff.sqlite3'}"
    with Ledger(url) as ledger:
        add_staff(ledger)
    yield url


@pytest.fixture
def as_member(monkeypatch: pytest.MonkeyPatch) -> Any:
    def use(name: str, password: str | None = None, new: str | None = None) -> None:
        monkeypatch.setenv("CROUPIER_PASSWORD", password or secret(name))
        if new is not None:
            monkeypatch.setenv("CROUPIER_NEW_PASSWORD", new)

    return use


def meters(db: str, *args: str) -> Any:
    run = run_main(["meters", *args, "--db", db, "--json"])
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_the_lifecycle_through_the_cli(db: str, as_member: Any) -> None:
    as_member(SHIFT, new="eve's passphrase")
    added = _valid("meters-user", meters(db, "user", "eve", "--role", "dealer", "--as", SHIFT))
    assert added == {"user": "eve", "role": "dealer", "added_by": SHIFT}
    changed = meters(db, "user", "eve", "--set-role", "floorperson", "--as", SHIFT)
    assert _valid("meters-user", changed) == {"user": "eve", "role": "floorperson", "by": SHIFT}
    as_member("eve", "eve's passphrase", new="eve's second passphrase")
    own = meters(db, "user", "eve", "--new-credential", "--as", "eve")
    assert _valid("meters-user", own) == {"user": "eve", "credential_changed": True, "by": "eve"}
    as_member(SHIFT)
    removed = meters(db, "user", "eve", "--remove", "--as", SHIFT)
    assert _valid("meters-user", removed) == {"user": "eve", "removed": True, "by": SHIFT}
    staff = _valid("meters-users", meters(db, "users"))
    assert staff["removed"] == ["eve"]
    assert {m["user"]: m["role"] for m in staff["staff"]} == {
        SHIFT: "shift-manager",
        DEALER: "dealer",
        FLOOR: "floorperson",
        PIT: "pit-manager",
    }
    table = run_main(["meters", "users", "--db", db])
    assert "eve" in table.out and "(removed)" in table.out
    with Ledger(db) as ledger:
        kinds = [e.event.kind.value for e in ledger.history()][-4:]
        assert kinds == ["user", "user-role", "user-credential", "user-removed"]
        ledger.audit()


@pytest.mark.parametrize(
    ("as_", "args", "says"),
    [
        (SHIFT, ["user", "x"], "say what to do with the member: one of --role"),
        (SHIFT, ["user", "x", "--remove", "--set-role", "dealer"], "given: --remove, --set-role"),
        (SHIFT, ["user", "x", "--set-role", "croupier"], "unknown role 'croupier'"),
        (SHIFT, ["user", "nobody", "--remove"], "no staff member named 'nobody'"),
        (SHIFT, ["user", "Dana", "--role", "dealer"], "looks like the existing 'dana'"),
        (SHIFT, ["user", "BJ\u200bx", "--role", "dealer"], "U+200B ZERO WIDTH SPACE"),
        (SHIFT, ["user", SHIFT, "--remove"], "without a shift manager"),
        (PIT, ["user", DEALER, "--remove"], "pat is a pit-manager; removing staff needs a shift"),
        (DEALER, ["user", FLOOR, "--new-credential"], "setting another member's credential"),
        (DEALER, ["user", DEALER, "--remove"], "removing staff needs a shift-manager"),
    ],
)
def test_every_refusal_is_one_line_and_changes_nothing(
    db: str, as_member: Any, as_: str, args: list[str], says: str
) -> None:
    as_member(as_, new="a new passphrase")
    with Ledger(db) as ledger:
        before = ledger.event_count()
    line = assert_one_error_line(run_main(["meters", *args, "--as", as_, "--db", db]))
    assert says in line, line
    assert "a new passphrase" not in line and secret(as_) not in line
    with Ledger(db) as ledger:
        assert ledger.event_count() == before


def test_a_removed_member_and_a_locked_out_one_are_told_so(db: str, as_member: Any) -> None:
    as_member(SHIFT)
    meters(db, "user", DEALER, "--remove", "--as", SHIFT)
    as_member(DEALER)
    line = assert_one_error_line(run_main(["meters", "login", "--as", DEALER, "--db", db]))
    assert "'dana' and that credential are not a staff member" in line
    as_member(FLOOR, "wrong")
    policy = LoginPolicy()
    for _ in range(policy.member_failures - 1):
        assert_one_error_line(run_main(["meters", "login", "--as", FLOOR, "--db", db]))
    line = assert_one_error_line(run_main(["meters", "login", "--as", FLOOR, "--db", db]))
    assert "too many failed logins as 'flo'" in line and "NIST SP 800-63B § 5.2.2" in line
    as_member(FLOOR)
    line = assert_one_error_line(run_main(["meters", "login", "--as", FLOOR, "--db", db]))
    assert "logins refused for" in line
    as_member(SHIFT)  # the significant events are a shift manager's (or an auditor's) to read
    events = json.loads(
        run_main(
            ["meters", "events", "--code", "login-lockout", "--as", SHIFT, "--db", db, "--json"]
        ).out
    )
    _valid("meters-events", events)
    (lock,) = events["events"]
    assert lock["detail"]["user"] == FLOOR and lock["by"] is None
    assert "locked out" in run_main(["meters", "events", "--as", SHIFT, "--db", db]).out
