"""Login throttling: failed logins counted per staff member and per client address, and a
lockout after too many (NIST SP 800-63B § 5.2.2, *Rate Limiting (Throttling)*: a verifier limits
consecutive failed attempts on one account to no more than 100, and may make the claimant wait
longer as they approach it). 58 Pa. Code is silent on the system's logins (§ 605a.7's internal
controls are not among the texts copied); the project follows NIST here, as GLI's system
standards defer to it for user authentication (docs/interpretations.md).

:class:`LoginPolicy` (defaults; ``$CROUPIER_LOGIN_FAILURES``, ``$CROUPIER_LOGIN_LOCKOUT``,
``$CROUPIER_LOGIN_CLIENT_FAILURES``, ``$CROUPIER_LOGIN_CLIENT_PACE`` and
``$CROUPIER_LOGIN_CLIENT_PACE_MAX`` override):

* a **member** is locked out after ``member_failures`` (5) consecutive failed logins, for
  ``member_lockout`` seconds (15 minutes), doubled at each further lockout before a correct login
  (up to a day); after ``member_disable`` (100, NIST's ceiling) consecutive failures the member
  stays locked until a shift manager sets a new credential. A correct login clears the count.
* a **client address** (the real client's, as the service finds it behind trusted proxies:
  :mod:`croupier.service.forwarded`) that has had ``client_failures`` (20) failed logins — of any
  names, known or not, each within ``client_window`` seconds (15 minutes) of the one before — is
  **paced**, not locked out: one login attempt from it is taken every ``client_pace`` seconds
  (1), doubled at each further failure up to ``client_pace_max`` (60); an attempt that comes
  sooner is refused (:class:`~croupier.errors.LoginLockedError`, a 429 with ``Retry-After``)
  before its credential is looked at, and an attempt in its turn is checked as any other — a
  member who is not locked out gets in with the right credential, however many guesses came
  from their address (a casino's NAT, a reverse proxy). The turn is claimed with one conditional
  update of the address's row (:func:`take_turn`), so of several attempts at once, from one
  process or several sharing the ledger, one is taken and the others refused: parallel requests
  do not multiply the guesses. A correct login does not end the pacing (one's own account would
  otherwise reset the count between guesses at others'); ``client_window`` seconds without a
  failure from the address do. An IPv6 address is counted with its /64 network (what one
  subscriber is given whole).

A **name that is no member's** is counted and locked out exactly as a member's would be — the
same failures, lockouts, waits and words — so the answers to a login do not tell a member's name
from a made-up one (before, only a member's name ever got a 429). Its count is kept under a
keyed hash of the name (:func:`name_key`: HMAC-SHA256 under the ledger key, labelled), never
the name itself: a name typed that is no member's may be a credential typed into the wrong
field, and is written nowhere in clear.

While a member (or a name) is locked out, or an address's next turn has not come, a login is
refused before its credential is looked at, and nothing is written (a flood of refused attempts
writes nothing). Every failed login is a ``login-failure`` significant event and every lockout —
a member's, a name's (``scope`` ``name``), or an address's pacing starting — a ``login-lockout``
(:mod:`croupier.progressive.significant`'s events, recorded by the controller itself: no actor),
naming the member (a name that is no member's is not named: ``user`` is ``None``) and the
client — never the credential. The counts live in ``login_throttle`` (shared by every process serving the
ledger; an address's row keeps its failures, its last failure's time in ``window_start`` and its
next turn in ``locked_until``); the events are the record.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

import croupier.progressive.schema as t
from croupier.environment import env_int
from croupier.errors import LoginLockedError
from croupier.progressive.meters import EventDraft
from croupier.progressive.model import EventKind, SignificantCode

Append = Callable[[Connection, Sequence[EventDraft]], None]
"""Chains events outside any progressive in a write transaction (the ledger's ``_append``)."""

RULE = "NIST SP 800-63B § 5.2.2"
FOREVER = 1e15
"""``locked_until`` of a member locked until a shift manager sets a new credential."""

ENV_FAILURES = "CROUPIER_LOGIN_FAILURES"
ENV_LOCKOUT = "CROUPIER_LOGIN_LOCKOUT"
ENV_CLIENT_FAILURES = "CROUPIER_LOGIN_CLIENT_FAILURES"
ENV_CLIENT_PACE = "CROUPIER_LOGIN_CLIENT_PACE"
ENV_CLIENT_PACE_MAX = "CROUPIER_LOGIN_CLIENT_PACE_MAX"


@dataclass(frozen=True)
class LoginPolicy:
    """How many failed logins lock out a member or pace a client address, for how long and at
    what pace (seconds)."""

    member_failures: int = 5
    member_lockout: int = 900
    member_lockout_max: int = 86_400
    member_disable: int = 100
    client_failures: int = 20
    client_window: int = 900
    client_pace: int = 1
    client_pace_max: int = 60

    @classmethod
    def from_env(cls) -> LoginPolicy:
        """The defaults, with ``$CROUPIER_LOGIN_FAILURES`` (1–100), ``$CROUPIER_LOGIN_LOCKOUT``
        (a member's, seconds, 1–86,400; an address stays paced at least as long),
        ``$CROUPIER_LOGIN_CLIENT_FAILURES`` (1–10,000), ``$CROUPIER_LOGIN_CLIENT_PACE`` (the
        first pace, seconds, 1–3,600) and ``$CROUPIER_LOGIN_CLIENT_PACE_MAX`` (seconds, from the
        first pace to 3,600) when set; :class:`~croupier.errors.InputError` for a value out of
        its range."""
        lockout = env_int(ENV_LOCKOUT, cls.member_lockout, 1, 86_400)
        pace = env_int(ENV_CLIENT_PACE, cls.client_pace, 1, 3_600)
        return cls(
            member_failures=env_int(ENV_FAILURES, cls.member_failures, 1, 100),
            member_lockout=lockout,
            client_failures=env_int(ENV_CLIENT_FAILURES, cls.client_failures, 1, 10_000),
            client_window=max(cls.client_window, lockout),
            client_pace=pace,
            client_pace_max=env_int(
                ENV_CLIENT_PACE_MAX, max(pace, cls.client_pace_max), pace, 3_600
            ),
        )

    def pace(self, failures: int) -> int:
        """Seconds between the attempts taken from an address with ``failures`` failed logins
        in its run (0 below ``client_failures``): ``client_pace``, doubled at each failure past
        the threshold, up to ``client_pace_max``."""
        if failures < self.client_failures:
            return 0
        steps = min(failures - self.client_failures, 32)
        return min(self.client_pace * (1 << steps), self.client_pace_max)

    def paced(self, row: Any, now: float) -> bool:
        """Whether the address of throttle ``row`` (or ``None``) is paced at ``now``: it reached
        ``client_failures`` and its last failure was within ``client_window`` seconds."""
        return (
            row is not None
            and row.failures >= self.client_failures
            and now - row.window_start < self.client_window
        )


def member_key(name: str) -> str:
    """The ``login_throttle`` key of a staff member."""
    return f"member:{name}"


NAME_LABEL = b"croupier login throttle: a name that is no member's\x00"


def name_key(name: str, secret: bytes | None) -> str:
    """The ``login_throttle`` key of a typed ``name`` that is no member's: ``name:`` and the
    first 32 hex digits of HMAC-SHA256 under the ledger key ``secret`` of a label and the name
    (as :func:`croupier.names.login_name` made it). The name is not in it, nor can it be told
    from it without the key. Without a key (``None``) nothing is recorded anyway."""
    mac = hmac.new(secret or b"", NAME_LABEL + name.encode(), hashlib.sha256)
    return f"name:{mac.hexdigest()[:32]}"


def client_key(client: str) -> str:
    """The ``login_throttle`` key of a client address: an IPv6 address's /64 network (one
    subscriber's, handed out whole: its 2**64 addresses are one client's to rotate through),
    any other address as given."""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return f"client:{client[:200]}"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return f"client:{ipaddress.IPv6Network((address, 64), strict=False)}"
    return f"client:{address}"


_ROWS = sa.select(t.login_throttle).where(
    t.login_throttle.c.key.in_(sa.bindparam("b_keys", expanding=True))
)


def rows(conn: Connection, keys: Sequence[str]) -> dict[str, Any]:
    """The throttle rows of ``keys`` (one indexed read)."""
    return {r.key: r for r in conn.execute(_ROWS, {"b_keys": list(keys)})}


def refuse_if_locked(
    found: dict[str, Any],
    now: float,
    name: str,
    client: str | None,
    policy: LoginPolicy,
    unknown: str | None = None,
) -> None:
    """:class:`~croupier.errors.LoginLockedError` when the member — or the name's row
    ``unknown`` (:func:`name_key`), counted while the name was no member's — is locked out, or
    the client address is paced and its next turn has not come (nothing is written either
    way); the same words for a member and a name."""
    for key in (member_key(name), unknown):
        r = found.get(key) if key else None
        if r is not None and r.locked_until is not None and r.locked_until > now:
            raise LoginLockedError.lasting(
                _locked_text(name, r.locked_until - now), _wait(r.locked_until, now)
            )
    if not client:
        return
    r = found.get(client_key(client))
    if r is not None and policy.paced(r, now) and (r.locked_until or 0.0) > now:
        raise _paced_error(client, policy.pace(r.failures), r.locked_until - now)


def take_turn(engine: Engine, row: Any, client: str, now: float, policy: LoginPolicy) -> None:
    """Claim a paced address's turn for one login attempt (nothing to do for an address that
    is not paced): one conditional update moves its next turn a pace on, and of several
    attempts at once — threads or processes sharing the ledger — the one whose update finds
    the turn still open is taken; the others are refused
    (:class:`~croupier.errors.LoginLockedError`)."""
    if not policy.paced(row, now):
        return
    pace = policy.pace(row.failures)
    c = t.login_throttle.c
    with engine.begin() as conn:
        claimed = conn.execute(
            sa.update(t.login_throttle)
            .where(
                c.key == client_key(client),
                sa.or_(c.locked_until.is_(None), c.locked_until <= now),
            )
            .values(locked_until=now + pace)
        ).rowcount
    if claimed != 1:
        raise _paced_error(client, pace, pace)


def _paced_error(client: str, pace: int, left: float, wrong: bool = False) -> LoginLockedError:
    said = "that name and credential are not a staff member's; " if wrong else ""
    return LoginLockedError.lasting(
        f"{said}too many failed logins from {client}: one login from it is taken every {pace} "
        f"seconds ({RULE}, rate limiting); try again in {math.ceil(left)} seconds",
        math.ceil(left),
    )


def _wait(until: float, now: float) -> int:
    return max(1, math.ceil(min(float(until), now + 10 * 86_400) - now))


def _locked_text(name: str, seconds: float) -> str:
    if seconds > 10 * 86_400:
        return (
            f"logins as {name!r} are refused after too many failed ones ({RULE}): a shift "
            "manager sets a new credential to allow them again"
        )
    return (
        f"too many failed logins as {name!r}: logins refused for {math.ceil(seconds)} more "
        f"seconds ({RULE}, rate limiting); try again then"
    )


def clear_member(conn: Connection, name: str, unknown: str | None = None) -> None:
    """Forget a member's failed logins (a correct login, a new credential) and, given its key
    ``unknown`` (:func:`name_key`), the ones counted while the name was no member's (a member
    added under it)."""
    keys = [member_key(name)] + ([unknown] if unknown else [])
    conn.execute(sa.delete(t.login_throttle).where(t.login_throttle.c.key.in_(keys)))


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


def _member_failure(
    conn: Connection, key: str, old: Any, now: float, policy: LoginPolicy, shown: str | None
) -> tuple[int, tuple[dict[str, Any], float] | None]:
    """Count a member's (or a name's: ``key``) failure: the consecutive failures and the
    lockout it starts, if any (its detail and end)."""
    failures = (old.failures if old is not None else 0) + 1
    locks = old.lockouts if old is not None else 0
    values: dict[str, Any] = {
        "failures": failures,
        "lockouts": locks,
        "window_start": old.window_start if old is not None else now,
        "locked_until": old.locked_until if old is not None else None,
    }
    lockout: tuple[dict[str, Any], float] | None = None
    if failures >= policy.member_disable:
        values["locked_until"] = FOREVER
        lockout = ({"user": shown, "failures": failures, "until": None}, FOREVER)
    elif failures % policy.member_failures == 0:
        seconds = min(policy.member_lockout * 2**locks, policy.member_lockout_max)
        values.update(lockouts=locks + 1, locked_until=now + seconds)
        lockout = ({"user": shown, "failures": failures}, now + seconds)
    _put(conn, key, old, values)
    return failures, lockout


def _client_failure(
    conn: Connection, client: str, old: Any, now: float, policy: LoginPolicy
) -> tuple[int, int]:
    """Count an address's failure: its failures in this run and its pace from now (0: not
    paced). The run goes on while each failure comes within ``client_window`` of the last."""
    fresh = old is None or now - old.window_start >= policy.client_window
    failures = 1 if fresh else old.failures + 1
    pace = policy.pace(failures)
    turn = old.locked_until if old is not None and not fresh else None
    values = {
        "failures": failures,
        "lockouts": (old.lockouts if old is not None else 0) + (failures == policy.client_failures),
        "window_start": now,  # the last failure's time
        "locked_until": max(now + pace, turn or 0.0) if pace else None,
    }
    _put(conn, client_key(client), old, values)
    return failures, pace


def record_failure(
    append: Append,
    conn: Connection,
    *,
    name: str,
    member: bool,
    client: str | None,
    now: float,
    policy: LoginPolicy,
    paced: bool = True,
    unknown: str | None = None,
) -> LoginLockedError | None:
    """Count a failed login of ``name`` (a member's, when ``member``; else under its key
    ``unknown``, :func:`name_key`, when given) from ``client`` in the write transaction ``conn``
    (its chain head locked: failures of several processes are counted one after the other),
    record it and any lockout it starts; the error to answer with when the member or name is now
    locked out or (``paced``: the attempt is one the address's pacing holds back) the address
    paced — else ``None``, the plain failure."""
    key = member_key(name) if member else unknown
    keys = ([key] if key else []) + ([client_key(client)] if client else [])
    found = rows(conn, keys)
    # the name typed is recorded only when it is a member's: an unknown one may be a credential
    # typed into the wrong field, and is never written down (its count is under a keyed hash)
    shown = name[:100] if member else None
    detail: dict[str, Any] = {"user": shown, "client": client, "member": member}
    lockouts: list[tuple[str, dict[str, Any], float]] = []
    if key:
        detail["failures"], locked = _member_failure(conn, key, found.get(key), now, policy, shown)
        if locked is not None:
            lockouts.append(("member" if member else "name", *locked))
    pace = 0
    if client:
        failures, pace = _client_failure(conn, client, found.get(client_key(client)), now, policy)
        detail["client_failures"] = failures
        if pace:
            detail["pace"] = pace
        if failures == policy.client_failures:  # pacing starts
            what = {"client": client, "failures": failures, "pace": pace}
            lockouts.append(("client", what, now + pace))
    _significant(append, conn, SignificantCode.LOGIN_FAILURE, detail)
    for scope, what, until in lockouts:
        seconds = None if until >= FOREVER else math.ceil(until - now)
        at = None if seconds is None else datetime.fromtimestamp(until, UTC).isoformat()
        _significant(
            append,
            conn,
            SignificantCode.LOGIN_LOCKOUT,
            {"scope": scope, **what, "seconds": seconds, "until": at, "rule": RULE},
        )
    if lockouts and lockouts[0][0] in ("member", "name"):
        until = lockouts[0][2]
        return LoginLockedError.lasting(_locked_text(name, until - now), _wait(until, now))
    if pace and client and paced:
        return _paced_error(client, pace, pace, wrong=True)
    return None


__all__ = [
    "RULE",
    "LoginPolicy",
    "clear_member",
    "client_key",
    "member_key",
    "name_key",
    "record_failure",
    "refuse_if_locked",
    "rows",
    "take_turn",
]
