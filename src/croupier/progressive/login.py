"""Login throttling: failed logins counted per staff member and per client address, and a
lockout after too many (NIST SP 800-63B § 5.2.2, *Rate Limiting (Throttling)*: a verifier limits
consecutive failed attempts on one account to no more than 100, and may make the claimant wait
longer as they approach it). 58 Pa. Code is silent on the system's logins (§ 605a.7's internal
controls are not among the texts copied); the project follows NIST here, as GLI's system
standards defer to it for user authentication (docs/interpretations.md).

:class:`LoginPolicy` (defaults; ``$CROUPIER_LOGIN_FAILURES``, ``$CROUPIER_LOGIN_LOCKOUT``,
``$CROUPIER_LOGIN_CLIENT_FAILURES`` override):

* a **member** is locked out after ``member_failures`` (5) consecutive failed logins, for
  ``member_lockout`` seconds (15 minutes), doubled at each further lockout before a correct login
  (up to a day); after ``member_disable`` (100, NIST's ceiling) consecutive failures the member
  stays locked until a shift manager sets a new credential. A correct login clears the count.
* a **client address** is locked out after ``client_failures`` (20) failed logins within
  ``client_window`` seconds (15 minutes) — of any names, known or not — for ``client_lockout``
  seconds. A correct login does not clear it (one's own account would otherwise reset the count
  between guesses at others').

While either is locked out a login is refused before its credential is looked at
(:class:`~croupier.errors.LoginLockedError`, a 429 with ``Retry-After`` over HTTP), and nothing is
written. Every failed login is a ``login-failure`` significant event and every lockout a
``login-lockout`` (:mod:`croupier.progressive.significant`'s events, recorded by the controller
itself: no actor), naming the member (a name typed that is no member's is not written: it may be a credential
typed into the wrong field) and the client — never the credential. The counts live in
``login_throttle`` (shared by every process serving the ledger); the events are the record.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import InputError, LoginLockedError
from croupier.progressive.meters import EventDraft
from croupier.progressive.model import EventKind, SignificantCode
from croupier.units import ascii_digits

Append = Callable[[Connection, Sequence[EventDraft]], None]
"""Chains events outside any progressive in a write transaction (the ledger's ``_append``)."""

RULE = "NIST SP 800-63B § 5.2.2"
FOREVER = 1e15
"""``locked_until`` of a member locked until a shift manager sets a new credential."""

ENV_FAILURES = "CROUPIER_LOGIN_FAILURES"
ENV_LOCKOUT = "CROUPIER_LOGIN_LOCKOUT"
ENV_CLIENT_FAILURES = "CROUPIER_LOGIN_CLIENT_FAILURES"


def _env_int(name: str, default: int, low: int, high: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not ascii_digits(text) or not low <= int(text) <= high:
        raise InputError(f"${name} is a whole number from {low} to {high}, not {text!r}")
    return int(text)


@dataclass(frozen=True)
class LoginPolicy:
    """How many failed logins lock out a member or a client, and for how long (seconds)."""

    member_failures: int = 5
    member_lockout: int = 900
    member_lockout_max: int = 86_400
    member_disable: int = 100
    client_failures: int = 20
    client_window: int = 900
    client_lockout: int = 900

    @classmethod
    def from_env(cls) -> LoginPolicy:
        """The defaults, with ``$CROUPIER_LOGIN_FAILURES`` (1–100), ``$CROUPIER_LOGIN_LOCKOUT``
        (seconds, 1–86,400, a member's and a client's) and ``$CROUPIER_LOGIN_CLIENT_FAILURES``
        (1–10,000) when set."""
        lockout = _env_int(ENV_LOCKOUT, cls.member_lockout, 1, 86_400)
        return cls(
            member_failures=_env_int(ENV_FAILURES, cls.member_failures, 1, 100),
            member_lockout=lockout,
            client_failures=_env_int(ENV_CLIENT_FAILURES, cls.client_failures, 1, 10_000),
            client_window=max(cls.client_window, lockout),
            client_lockout=lockout,
        )


def member_key(name: str) -> str:
    """The ``login_throttle`` key of a staff member."""
    return f"member:{name}"


def client_key(client: str) -> str:
    """The ``login_throttle`` key of a client address."""
    return f"client:{client[:200]}"


_ROWS = sa.select(t.login_throttle).where(
    t.login_throttle.c.key.in_(sa.bindparam("b_keys", expanding=True))
)


def rows(conn: Connection, keys: Sequence[str]) -> dict[str, Any]:
    """The throttle rows of ``keys`` (one indexed read)."""
    return {r.key: r for r in conn.execute(_ROWS, {"b_keys": list(keys)})}


def refuse_if_locked(found: dict[str, Any], now: float, name: str, client: str | None) -> None:
    """:class:`~croupier.errors.LoginLockedError` when the member or the client is locked out."""
    for key, r in found.items():
        if r.locked_until is None or r.locked_until <= now:
            continue
        raise LoginLockedError.lasting(
            _locked_text(key, name, client, r.locked_until - now), _wait(r, now)
        )


def _wait(r: Any, now: float) -> int:
    return max(1, math.ceil(min(float(r.locked_until), now + 10 * 86_400) - now))


def _locked_text(key: str, name: str, client: str | None, seconds: float) -> str:
    if key.startswith("member:"):
        if seconds > 10 * 86_400:
            return (
                f"logins as {name!r} are refused after too many failed ones ({RULE}): a shift "
                "manager sets a new credential to allow them again"
            )
        who = f"as {name!r}"
    else:
        who = f"from {client}"
    return (
        f"too many failed logins {who}: logins refused for {math.ceil(seconds)} more seconds "
        f"({RULE}, rate limiting); try again then"
    )


def clear_member(conn: Connection, name: str) -> None:
    """Forget a member's failed logins (a correct login, a new credential)."""
    conn.execute(sa.delete(t.login_throttle).where(t.login_throttle.c.key == member_key(name)))


def _put(conn: Connection, key: str, old: Any, values: dict[str, Any]) -> None:
    if old is None:
        conn.execute(sa.insert(t.login_throttle).values(key=key, **values))
    else:
        conn.execute(
            sa.update(t.login_throttle).where(t.login_throttle.c.key == key).values(**values)
        )


def _significant(
    append: Append, conn: Connection, code: SignificantCode, detail: dict[str, Any]
) -> None:
    append(conn, [EventDraft(EventKind.SIGNIFICANT, detail={"code": code.value, **detail})])


def record_failure(
    append: Append,
    conn: Connection,
    *,
    name: str,
    member: bool,
    client: str | None,
    now: float,
    policy: LoginPolicy,
) -> LoginLockedError | None:
    """Count a failed login of ``name`` (a member's, when ``member``) from ``client`` in the
    write transaction ``conn`` (its chain head locked: failures of several processes are counted
    one after the other), record it and any lockout it starts; the lockout's error, if one
    started."""
    keys = ([member_key(name)] if member else []) + ([client_key(client)] if client else [])
    found = rows(conn, keys)
    # the name typed is recorded only when it is a member's: an unknown one may be a credential
    # typed into the wrong field, and is never written down
    shown = name[:100] if member else None
    detail: dict[str, Any] = {"user": shown, "client": client, "member": member}
    lockouts: list[tuple[str, dict[str, Any], float]] = []
    if member:
        key = member_key(name)
        old = found.get(key)
        failures = (old.failures if old is not None else 0) + 1
        locks = old.lockouts if old is not None else 0
        values: dict[str, Any] = {
            "failures": failures,
            "lockouts": locks,
            "window_start": old.window_start if old is not None else now,
            "locked_until": old.locked_until if old is not None else None,
        }
        detail["failures"] = failures
        if failures >= policy.member_disable:
            values["locked_until"] = FOREVER
            lockouts.append(
                ("member", {"user": shown, "failures": failures, "until": None}, FOREVER)
            )
        elif failures % policy.member_failures == 0:
            seconds = min(policy.member_lockout * 2**locks, policy.member_lockout_max)
            values.update(lockouts=locks + 1, locked_until=now + seconds)
            lockouts.append(("member", {"user": shown, "failures": failures}, now + seconds))
        _put(conn, key, old, values)
    if client:
        key = client_key(client)
        old = found.get(key)
        fresh = old is None or now - old.window_start >= policy.client_window
        failures = 1 if fresh or old is None else old.failures + 1
        lock_count = int(old.lockouts) if old is not None else 0
        values = {
            "failures": failures,
            "lockouts": lock_count,
            "window_start": now if fresh or old is None else old.window_start,
            "locked_until": old.locked_until if old is not None else None,
        }
        detail["client_failures"] = failures
        if failures >= policy.client_failures:
            values.update(
                failures=0,
                window_start=now,
                locked_until=now + policy.client_lockout,
                lockouts=lock_count + 1,
            )
            lockouts.append(
                ("client", {"client": client, "failures": failures}, now + policy.client_lockout)
            )
        _put(conn, key, old, values)
    _significant(append, conn, SignificantCode.LOGIN_FAILURE, detail)
    error: LoginLockedError | None = None
    for scope, what, until in lockouts:
        seconds = None if until >= FOREVER else math.ceil(until - now)
        at = None if seconds is None else datetime.fromtimestamp(until, UTC).isoformat()
        _significant(
            append,
            conn,
            SignificantCode.LOGIN_LOCKOUT,
            {"scope": scope, **what, "seconds": seconds, "until": at, "rule": RULE},
        )
        if error is None:
            key = member_key(name) if scope == "member" else client_key(client or "")
            wait = min(until, now + 10 * 86_400) - now
            error = LoginLockedError.lasting(
                _locked_text(key, name, client, until - now), math.ceil(wait)
            )
    return error


__all__ = [
    "RULE",
    "LoginPolicy",
    "clear_member",
    "client_key",
    "member_key",
    "record_failure",
    "refuse_if_locked",
    "rows",
]
