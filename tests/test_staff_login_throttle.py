"""Issue 16, item 3: failed logins throttled per member and per client address, with a lockout
after too many (NIST SP 800-63B § 5.2.2), each failure and lockout a significant event."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from croupier.errors import AuthenticationError, InputError, LoginLockedError
from croupier.progressive import Ledger, LoginPolicy, Role, SignificantCode
from progressive_support import BACKENDS, DEALER, FLOOR, SHIFT, mtd_ledger, new_db_url, secret

POLICY = LoginPolicy(member_failures=3, member_lockout=60, client_failures=5, client_lockout=30)


class Clock:
    """The time the throttle reads (``time.time`` of croupier.progressive.staffing)."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr("croupier.progressive.staffing.time.time", c)
    return c


@pytest.fixture(params=BACKENDS)
def ledger(request: pytest.FixtureRequest, tmp_path: Path, clock: Clock) -> Iterator[Ledger]:
    urls = new_db_url(request.param, tmp_path)
    led = mtd_ledger(next(urls))
    led.login_policy = POLICY
    yield led
    led.close()
    urls.close()  # type: ignore[attr-defined]


def _significant(ledger: Ledger, code: SignificantCode) -> list[dict[str, Any]]:
    return [
        dict(e.event.detail)
        for e in ledger.history()
        if e.event.kind.value == "significant" and e.event.detail.get("code") == code.value
    ]


def test_a_member_is_locked_out_after_three_wrong_and_the_right_one_waits(
    ledger: Ledger, clock: Clock
) -> None:
    for _ in range(POLICY.member_failures - 1):
        with pytest.raises(AuthenticationError) as e:
            ledger.authenticate(DEALER, "wrong")
        assert not isinstance(e.value, LoginLockedError)
    with pytest.raises(LoginLockedError, match="logins refused for 60 more seconds") as locked:
        ledger.authenticate(DEALER, "wrong")
    assert locked.value.retry_after == 60
    events = ledger.event_count()
    clock.now += 59
    with pytest.raises(LoginLockedError) as still:  # the right credential too, not looked at
        ledger.authenticate(DEALER, secret(DEALER))
    assert still.value.retry_after == 1
    assert ledger.event_count() == events  # refused while locked: nothing written
    assert ledger.authenticate(FLOOR, secret(FLOOR)).name == FLOOR  # others are not locked
    clock.now += 1
    assert ledger.authenticate(DEALER, secret(DEALER)).role is Role.DEALER
    failures = _significant(ledger, SignificantCode.LOGIN_FAILURE)
    assert [f["failures"] for f in failures] == [1, 2, 3]
    assert all(f["user"] == DEALER and f["member"] is True for f in failures)
    (lockout,) = _significant(ledger, SignificantCode.LOGIN_LOCKOUT)
    assert (lockout["scope"], lockout["user"], lockout["seconds"]) == ("member", DEALER, 60)
    assert "NIST SP 800-63B" in lockout["rule"]
    assert all("wrong" not in str(d) for d in [*failures, lockout])  # never the credential
    ledger.audit()  # the events are on the chain, by the controller itself


def test_a_correct_login_clears_the_count_and_lockouts_grow(ledger: Ledger, clock: Clock) -> None:
    for _ in range(POLICY.member_failures - 1):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(DEALER, "wrong")
    ledger.authenticate(DEALER, secret(DEALER))  # the count starts again
    for _ in range(POLICY.member_failures - 1):
        with pytest.raises(AuthenticationError) as e:
            ledger.authenticate(DEALER, "wrong")
        assert not isinstance(e.value, LoginLockedError)
    waits = []
    for _ in range(3):
        with pytest.raises(LoginLockedError) as e:
            ledger.authenticate(DEALER, "wrong")
        waits.append(e.value.retry_after)
        clock.now += e.value.retry_after
        for _ in range(POLICY.member_failures - 1):
            with pytest.raises(AuthenticationError):
                ledger.authenticate(DEALER, "wrong")
    assert waits == [60, 120, 240]  # doubled at each lockout before a correct login


def test_a_new_credential_set_by_a_shift_manager_ends_a_lockout(ledger: Ledger) -> None:
    for _ in range(POLICY.member_failures):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(DEALER, "wrong")
    with pytest.raises(LoginLockedError):
        ledger.authenticate(DEALER, secret(DEALER))
    ledger.change_credential(DEALER, "a fresh pin", by=SHIFT)
    assert ledger.authenticate(DEALER, "a fresh pin").name == DEALER


def test_a_client_guessing_many_names_is_locked_out(ledger: Ledger, clock: Clock) -> None:
    names = ["mallory", "trent", DEALER, "eve", FLOOR]
    for i, name in enumerate(names[:-1]):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(name, f"guess {i}", client="203.0.113.9")
    with pytest.raises(LoginLockedError, match=r"from 203\.0\.113\.9") as e:
        ledger.authenticate(names[-1], "guess", client="203.0.113.9")
    assert e.value.retry_after == POLICY.client_lockout
    with pytest.raises(LoginLockedError):  # any name, the right credential too
        ledger.authenticate(SHIFT, secret(SHIFT), client="203.0.113.9")
    assert ledger.authenticate(SHIFT, secret(SHIFT), client="198.51.100.7").name == SHIFT
    failures = _significant(ledger, SignificantCode.LOGIN_FAILURE)
    assert [f["client_failures"] for f in failures] == [1, 2, 3, 4, 5]
    # a name that is no member's is not written down (it may be a credential typed in the
    # wrong field); a member's is
    assert [f["user"] for f in failures] == [None, None, DEALER, None, FLOOR]
    (lockout,) = _significant(ledger, SignificantCode.LOGIN_LOCKOUT)
    assert (lockout["scope"], lockout["client"]) == ("client", "203.0.113.9")
    clock.now += POLICY.client_lockout
    assert ledger.authenticate(SHIFT, secret(SHIFT), client="203.0.113.9").name == SHIFT


def test_a_member_is_disabled_at_nists_ceiling_until_a_new_credential(
    ledger: Ledger, clock: Clock
) -> None:
    ledger.login_policy = LoginPolicy(member_failures=100, member_lockout=1, member_disable=4)
    for _ in range(3):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(DEALER, "wrong")
    with pytest.raises(LoginLockedError, match="a shift manager sets a new credential"):
        ledger.authenticate(DEALER, "wrong")
    clock.now += 30 * 86_400
    with pytest.raises(LoginLockedError, match="a shift manager sets a new credential"):
        ledger.authenticate(DEALER, secret(DEALER))
    ledger.change_credential(DEALER, "new after the lock", by=SHIFT)
    assert ledger.authenticate(DEALER, "new after the lock").name == DEALER


def test_the_policy_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_LOGIN_FAILURES", "7")
    monkeypatch.setenv("CROUPIER_LOGIN_LOCKOUT", "120")
    p = LoginPolicy.from_env()
    assert (p.member_failures, p.member_lockout, p.client_lockout) == (7, 120, 120)
    monkeypatch.setenv("CROUPIER_LOGIN_FAILURES", "101")  # above NIST's ceiling
    with pytest.raises(InputError, match="CROUPIER_LOGIN_FAILURES is a whole number from 1 to"):
        LoginPolicy.from_env()


def test_failures_made_at_once_are_each_counted_once(ledger: Ledger) -> None:
    """Six threads (a service's workers) failing at once: every failure counted, in order, and
    exactly one lockout at the threshold."""
    ledger.login_policy = LoginPolicy(member_failures=12, member_lockout=60)

    def attempt(_: int) -> str:
        try:
            ledger.authenticate(DEALER, "wrong", client="192.0.2.1")
        except LoginLockedError:
            return "locked"
        except AuthenticationError:
            return "wrong"
        return "in"  # pragma: no cover - the credential is wrong

    with ThreadPoolExecutor(6) as pool:
        outcomes = list(pool.map(attempt, range(12)))
    assert sorted(outcomes) == ["locked"] + ["wrong"] * 11
    counted = [f["failures"] for f in _significant(ledger, SignificantCode.LOGIN_FAILURE)]
    assert counted == list(range(1, 13))
    assert len(_significant(ledger, SignificantCode.LOGIN_LOCKOUT)) == 1
    ledger.audit()
