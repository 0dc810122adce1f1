"""Failed logins throttled per member (a lockout after too many, NIST SP 800-63B § 5.2.2) and per
client address (paced, never locked out: a member who waits gets in from an address that guessed),
each failure and lockout a significant event (issues 16 and 27)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import croupier.progressive.schema as t
from croupier.errors import AuthenticationError, InputError, LoginLockedError
from croupier.progressive import Ledger, LoginPolicy, Role, SignificantCode
from progressive_support import BACKENDS, DEALER, FLOOR, SHIFT, mtd_ledger, new_db_url, secret

POLICY = LoginPolicy(
    member_failures=3, member_lockout=60, client_failures=5, client_pace=2, client_pace_max=8
)


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


def test_a_client_guessing_many_names_is_paced_not_locked_out(ledger: Ledger, clock: Clock) -> None:
    names = ["mallory", "trent", DEALER, "eve", FLOOR]
    for i, name in enumerate(names[:-1]):
        with pytest.raises(AuthenticationError) as e:
            ledger.authenticate(name, f"guess {i}", client="203.0.113.9")
        assert not isinstance(e.value, LoginLockedError)
    with pytest.raises(
        LoginLockedError, match=r"from 203\.0\.113\.9: one login from it is taken every 2 s"
    ) as e:
        ledger.authenticate(names[-1], "guess", client="203.0.113.9")
    assert e.value.retry_after == POLICY.client_pace
    events = ledger.event_count()
    clock.now += 1  # sooner than the pace: refused before the credential is looked at
    with pytest.raises(LoginLockedError) as early:
        ledger.authenticate(SHIFT, secret(SHIFT), client="203.0.113.9")
    assert early.value.retry_after == 1
    assert ledger.event_count() == events  # nothing written
    assert ledger.authenticate(SHIFT, secret(SHIFT), client="198.51.100.7").name == SHIFT
    clock.now += 1  # the turn has come: a member who is not locked out gets in
    assert ledger.authenticate(SHIFT, secret(SHIFT), client="203.0.113.9").name == SHIFT
    with pytest.raises(LoginLockedError):  # that login took the turn; the next waits its pace
        ledger.authenticate(FLOOR, secret(FLOOR), client="203.0.113.9")
    failures = _significant(ledger, SignificantCode.LOGIN_FAILURE)
    assert [f["client_failures"] for f in failures] == [1, 2, 3, 4, 5]
    assert [f.get("pace") for f in failures] == [None, None, None, None, 2]
    assert all(f["client"] == "203.0.113.9" for f in failures)
    # a name that is no member's is not written down (it may be a credential typed in the
    # wrong field); a member's is
    assert [f["user"] for f in failures] == [None, None, DEALER, None, FLOOR]
    (lockout,) = _significant(ledger, SignificantCode.LOGIN_LOCKOUT)
    assert (lockout["scope"], lockout["client"], lockout["pace"]) == ("client", "203.0.113.9", 2)
    assert "NIST SP 800-63B" in lockout["rule"]


def test_twenty_five_guesses_from_an_address_then_a_member_waits_the_pace_and_gets_in(
    ledger: Ledger, clock: Clock
) -> None:
    """The pit behind one NAT address: 25 wrong logins from it (unknown names, none locked),
    then a floor supervisor with the right credential. The guesses past the 20th are paced (1 s,
    doubled each failure: 1, 2, 4, 8, 16, 32); ones sent sooner are refused unchecked; the member
    waits the pace and is let in."""
    ledger.login_policy = LoginPolicy(client_failures=20, client_pace=1, client_pace_max=60)
    nat = "192.0.2.77"
    paces: list[int] = []
    refused_early = 0
    for i in range(25):
        if i >= 20:  # a guess sent at once after a paced one is refused before it is checked
            with pytest.raises(LoginLockedError, match="one login from it is taken every"):
                ledger.authenticate(f"nobody{i}", "guess", client=nat)
            refused_early += 1
            clock.now += paces[-1]
        with pytest.raises(AuthenticationError) as e:
            ledger.authenticate(f"nobody{i}", f"guess {i}", client=nat)
        if i >= 19:
            assert isinstance(e.value, LoginLockedError)
            paces.append(e.value.retry_after)
        else:
            assert not isinstance(e.value, LoginLockedError)
    assert paces == [1, 2, 4, 8, 16, 32]
    assert refused_early == 5
    with pytest.raises(LoginLockedError) as wait:  # the right credential, too soon
        ledger.authenticate(FLOOR, secret(FLOOR), client=nat)
    assert wait.value.retry_after == 32
    clock.now += wait.value.retry_after
    assert ledger.authenticate(FLOOR, secret(FLOOR), client=nat).name == FLOOR
    failures = _significant(ledger, SignificantCode.LOGIN_FAILURE)
    assert len(failures) == 25  # every guess checked is recorded, none refused early is
    assert all(f["client"] == nat for f in failures)
    assert [f["client_failures"] for f in failures] == list(range(1, 26))


def test_an_ipv6_client_is_paced_with_its_64_network(ledger: Ledger, clock: Clock) -> None:
    """One subscriber's /64 holds 2**64 addresses: rotating through them escapes nothing. The
    events still name each address."""
    for i in range(1, POLICY.client_failures + 1):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(f"nobody{i}", "guess", client=f"2001:db8:1:2::{i}")
    with pytest.raises(LoginLockedError, match=r"from 2001:db8:1:2::99: one login"):
        ledger.authenticate(SHIFT, secret(SHIFT), client="2001:db8:1:2::99")
    assert ledger.authenticate(SHIFT, secret(SHIFT), client="2001:db8:1:3::1").name == SHIFT
    failures = _significant(ledger, SignificantCode.LOGIN_FAILURE)
    assert [f["client"] for f in failures] == [f"2001:db8:1:2::{i}" for i in range(1, 6)]
    assert [f["client_failures"] for f in failures] == [1, 2, 3, 4, 5]


def test_a_known_terminal_is_not_held_back_by_the_pace_but_by_the_members_lockout(
    ledger: Ledger, clock: Clock
) -> None:
    for i in range(POLICY.client_failures):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(f"nobody{i}", "guess", client="192.0.2.200")
    with pytest.raises(LoginLockedError):  # an ordinary login waits its turn
        ledger.authenticate(FLOOR, secret(FLOOR), client="192.0.2.200")
    assert ledger.authenticate(FLOOR, secret(FLOOR), client="192.0.2.200", known=True).name == FLOOR
    for _ in range(POLICY.member_failures - 1):  # a wrong credential is a plain failure, counted
        with pytest.raises(AuthenticationError) as e:
            ledger.authenticate(FLOOR, "wrong", client="192.0.2.200", known=True)
        assert not isinstance(e.value, LoginLockedError)
    with pytest.raises(LoginLockedError, match="failed logins as 'flo'"):  # the member's lockout
        ledger.authenticate(FLOOR, "wrong", client="192.0.2.200", known=True)
    with pytest.raises(LoginLockedError, match="failed logins as 'flo'"):
        ledger.authenticate(FLOOR, secret(FLOOR), client="192.0.2.200", known=True)
    counts = [f["client_failures"] for f in _significant(ledger, SignificantCode.LOGIN_FAILURE)]
    assert counts == list(range(1, POLICY.client_failures + POLICY.member_failures + 1))


def test_a_pace_ends_after_a_quiet_window(ledger: Ledger, clock: Clock) -> None:
    for i in range(POLICY.client_failures):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(f"nobody{i}", "guess", client="198.51.100.3")
    clock.now += POLICY.client_window  # no failure for the window: the run is over
    for i in range(POLICY.client_failures - 1):
        with pytest.raises(AuthenticationError) as e:
            ledger.authenticate(f"again{i}", "guess", client="198.51.100.3")
        assert not isinstance(e.value, LoginLockedError)
    counts = [f["client_failures"] for f in _significant(ledger, SignificantCode.LOGIN_FAILURE)]
    assert counts == [1, 2, 3, 4, 5, 1, 2, 3, 4]


def test_parallel_attempts_from_a_paced_address_take_one_turn(ledger: Ledger, clock: Clock) -> None:
    """Six attempts at once (a service's threads) from a paced address whose turn has come:
    one is checked, five are refused before their credential is looked at."""
    for i in range(POLICY.client_failures):
        with pytest.raises(AuthenticationError):
            ledger.authenticate(f"nobody{i}", "guess", client="203.0.113.50")
    clock.now += POLICY.client_pace

    def attempt(i: int) -> str:
        try:
            ledger.authenticate(f"burst{i}", "guess", client="203.0.113.50")
        except LoginLockedError as e:
            return "checked" if "not a staff member's" in str(e) else "refused"
        return "in"  # pragma: no cover - the credential is wrong

    with ThreadPoolExecutor(6) as pool:
        outcomes = list(pool.map(attempt, range(6)))
    assert sorted(outcomes) == ["checked"] + ["refused"] * 5
    counted = [f["client_failures"] for f in _significant(ledger, SignificantCode.LOGIN_FAILURE)]
    assert counted == list(range(1, POLICY.client_failures + 2))
    ledger.audit()


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
    monkeypatch.setenv("CROUPIER_LOGIN_CLIENT_PACE", "3")
    monkeypatch.setenv("CROUPIER_LOGIN_CLIENT_PACE_MAX", "30")
    p = LoginPolicy.from_env()
    assert (p.member_failures, p.member_lockout, p.client_pace, p.client_pace_max) == (
        7,
        120,
        3,
        30,
    )
    assert [p.pace(n) for n in (19, 20, 21, 22, 23, 24)] == [0, 3, 6, 12, 24, 30]
    monkeypatch.setenv("CROUPIER_LOGIN_CLIENT_PACE_MAX", "2")  # below the first pace
    with pytest.raises(InputError, match="CROUPIER_LOGIN_CLIENT_PACE_MAX is a whole number"):
        LoginPolicy.from_env()
    monkeypatch.delenv("CROUPIER_LOGIN_CLIENT_PACE_MAX")
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


def _answer(ledger: Ledger, name: str) -> tuple[str, str, int | None]:
    """A wrong login's answer: its kind, its words with ``name`` masked, its wait."""
    with pytest.raises(AuthenticationError) as e:
        ledger.authenticate(name, "wrong")
    words = str(e.value).replace(repr(name), "NAME")
    return type(e.value).__name__, words, getattr(e.value, "retry_after", None)


def test_a_made_up_name_is_locked_out_exactly_as_a_member_so_answers_reveal_no_member(
    ledger: Ledger, clock: Clock
) -> None:
    """A trial's defect: a member's name got a 429 after its failures, a made-up name stayed
    401 forever, telling members' names apart. Now both get the same answers — 3 wrong (the
    third locks for 60 s), one refused while locked, then after the 60 s 3 more (the lockout
    doubled) — the made-up name's count kept under a keyed hash of it, never the name."""
    start = clock.now
    answers: dict[str, list[tuple[str, str, int | None]]] = {}
    for who in (DEALER, "nobody-zz"):
        clock.now = start
        out = [_answer(ledger, who) for _ in range(3)]
        clock.now += 1
        out.append(_answer(ledger, who))
        clock.now += 59
        out += [_answer(ledger, who) for _ in range(3)]
        answers[who] = out
    wrong = ("AuthenticationError", "NAME and that credential are not a staff member of the ledger")
    assert [a[0] for a in answers[DEALER]] == ["AuthenticationError"] * 2 + [
        "LoginLockedError"
    ] * 2 + ["AuthenticationError"] * 2 + ["LoginLockedError"]
    assert answers[DEALER][0][:2] == wrong
    assert [a[2] for a in answers[DEALER] if a[0] == "LoginLockedError"] == [60, 59, 120]
    assert answers["nobody-zz"] == answers[DEALER]  # word for word, wait for wait
    with ledger.engine.connect() as conn:
        keys = [r.key for r in conn.execute(sa.select(t.login_throttle.c.key))]
    assert f"member:{DEALER}" in keys
    assert not any("nobody" in k for k in keys)
    (hashed,) = [k for k in keys if k.startswith("name:")]
    assert len(hashed) == len("name:") + 32
    failures = _significant(ledger, SignificantCode.LOGIN_FAILURE)
    lockouts = _significant(ledger, SignificantCode.LOGIN_LOCKOUT)
    assert not any("nobody" in str(d) for d in [*failures, *lockouts])  # named nowhere
    assert [(d["user"], d["failures"]) for d in failures] == [
        *((DEALER, n) for n in range(1, 7)),
        *((None, n) for n in range(1, 7)),
    ]
    assert [(d["scope"], d["user"], d["seconds"]) for d in lockouts] == [
        ("member", DEALER, 60),
        ("member", DEALER, 120),
        ("name", None, 60),
        ("name", None, 120),
    ]
    ledger.audit()


def test_a_member_added_under_a_locked_name_starts_with_a_clean_count(
    ledger: Ledger, clock: Clock
) -> None:
    for _ in range(POLICY.member_failures - 1):
        with pytest.raises(AuthenticationError):
            ledger.authenticate("newcomer", "wrong")
    with pytest.raises(LoginLockedError):
        ledger.authenticate("newcomer", "wrong")
    ledger.add_user("newcomer", Role.DEALER, "the newcomer's own", by=SHIFT)
    assert ledger.authenticate("newcomer", "the newcomer's own").name == "newcomer"
