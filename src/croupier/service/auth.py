"""Staff log in with the ledger's staff store and act under signed tokens (OAuth2 password flow).

``POST /token`` (form fields ``username``, ``password``, as OAuth2's password grant) checks the
credential with :meth:`croupier.progressive.Ledger.authenticate` — the argon2 hashes of the
ledger's staff store, throttled per member and per client address (NIST SP 800-63B § 5.2.2: a
lockout, or an attempt sooner than a paced address's turn, is a 429 problem with
``Retry-After``; the address is the real client's behind trusted proxies,
:mod:`croupier.service.forwarded`); there is no default password (the first shift
manager is made with ``croupier meters bootstrap``) — and answers a bearer token (a JWT, HS256,
by PyJWT) naming the member, the role the ledger's log gives them and the staff event their
role and credential date from (``gen``: :attr:`~croupier.progressive.LoggedMember.since`), valid
for ``token_ttl`` seconds.

**Revocation.** Every request's token is checked against the staff as the log has them now
(:meth:`~croupier.progressive.Ledger.staff_now`: one indexed read, the staff events read again
only when one was added): a token whose member was removed, or whose ``gen`` is older than the
member's — a role or credential changed, or a logout (``POST /token/revoke``) since it was
issued — is refused (401). The signature and claims of a token are checked once and
remembered; the revocation check is made every time.

The token's key is derived from the ledger key (HMAC-SHA256 of a fixed label): every process
serving the same ledger — several workers, several hosts — accepts each other's tokens, and a
token is worth nothing without the key that also guards the ledger's chain.

The routes of ``POST /token`` and ``POST /token/revoke`` are
:mod:`croupier.service.routes.token`'s. Routes name the role they need
(:func:`croupier.service.dependencies.require`): a change needs that role or above in the pit's
chain; a read (``GET``) is also open to the roles that only read — accounting reads what a pit
manager reads, an auditor everything (:meth:`~croupier.progressive.Role.may_read`). The member's
name is then the ``by`` of every ledger operation, and the ledger checks the role again against
its own log.
"""

from __future__ import annotations

import hashlib
import hmac
import time

import jwt

from croupier.errors import (
    AuthenticationError,
    LedgerKeyError,
)
from croupier.names import login_name
from croupier.progressive import Ledger, Role, StaffMember

ISSUER = "croupier"
ALGORITHM = "HS256"
_LABEL = b"croupier service token v1"


def token_key(ledger: Ledger) -> bytes:
    """The key tokens are signed with, derived from the ledger key."""
    key = ledger.key
    if key is None:
        raise LedgerKeyError(
            f"the ledger key {ledger.key_file} is missing: no token is issued or accepted "
            "without it (set CROUPIER_LEDGER_KEY_FILE to where it is kept)"
        )
    return hmac.new(key, _LABEL, hashlib.sha256).digest()


def issue(ledger: Ledger, member: StaffMember, ttl: int) -> str:
    """A signed token for ``member`` (as :meth:`~croupier.progressive.Ledger.authenticate`
    returned them: their ``since`` is the token's ``gen``), valid ``ttl`` seconds."""
    at = int(time.time())
    claims = {
        "iss": ISSUER,
        "sub": member.name,
        "role": member.role.value,
        "gen": member.since,
        "iat": at,
        "exp": at + ttl,
    }
    return jwt.encode(claims, token_key(ledger), algorithm=ALGORITHM)


_READ: dict[tuple[bytes, str], tuple[StaffMember, float]] = {}
_READ_MAX = 1024


def read_token(ledger: Ledger, token: str) -> StaffMember:
    """The member a token names (their ``since`` the token's ``gen``);
    :class:`AuthenticationError` for a token that is not ours, altered or expired. Whether it
    was revoked since is :func:`check_token`'s.

    A token read once is remembered, under the key it was checked with, until it expires (a
    dealer's terminal sends the same token with every round: its signature and claims are
    checked once, its expiry every time)."""
    key = token_key(ledger)
    known = _READ.get((key, token))
    if known is not None:
        if time.time() < known[1]:
            return known[0]
        _READ.pop((key, token), None)  # expired: decoded again below, which says so
    member, exp = _decode(key, token)
    if len(_READ) >= _READ_MAX:
        _READ.pop(next(iter(_READ)), None)
    _READ[(key, token)] = (member, exp)
    return member


def _decode(key: bytes, token: str) -> tuple[StaffMember, float]:
    """The member a token names and when it expires (seconds since the epoch)."""
    try:
        claims = jwt.decode(
            token,
            key,
            algorithms=[ALGORITHM],
            issuer=ISSUER,
            options={"require": ["exp", "iat", "sub", "iss"]},
        )
        gen = claims["gen"]
        if not isinstance(gen, int) or isinstance(gen, bool):
            raise ValueError("gen")
        member = StaffMember(str(claims["sub"]), Role(claims["role"]), gen)
        return member, float(claims["exp"])
    except jwt.ExpiredSignatureError:
        raise AuthenticationError("the token has expired: log in again (POST /token)") from None
    except (jwt.PyJWTError, KeyError, ValueError):
        raise AuthenticationError("not a valid token: log in with POST /token") from None


KNOWN_TERMINAL_DAYS = 30
"""How long a terminal mark (:func:`terminal_mark`) is honoured, days."""
TERMINAL_HEADER = "Croupier-Terminal"
_TERMINAL_LABEL = b"croupier terminal mark v1"


def terminal_mark(ledger: Ledger, name: str) -> str:
    """A mark, given with a token, of the terminal ``name`` just logged in from: a JWT signed
    with a key of its own (derived from the ledger key under another label, so a mark is never
    a token and a token never a mark), naming the member and when."""
    claims = {"iss": ISSUER, "sub": name, "iat": int(time.time()), "typ": "terminal"}
    return jwt.encode(claims, _terminal_key(ledger), algorithm=ALGORITHM)


def _terminal_key(ledger: Ledger) -> bytes:
    return hmac.new(token_key(ledger), _TERMINAL_LABEL, hashlib.sha256).digest()


def known_terminal(ledger: Ledger, mark: str | None, name: str) -> bool:
    """Whether a login of ``name`` comes with a :func:`terminal_mark` this ledger gave ``name``
    within :data:`KNOWN_TERMINAL_DAYS` (header ``Croupier-Terminal``): a terminal the member
    logged in from before, which a paced address's turns do not hold back (OWASP's *device
    cookies*; NIST SP 800-63B § 5.2.2 lets a verifier favour the attempts likely to come from
    the subscriber). The member's own lockout applies either way. Anything else — no mark,
    one that is not ours or not theirs — is an ordinary login, never an error."""
    if not mark:
        return False
    try:
        claims = jwt.decode(
            mark.strip(),
            _terminal_key(ledger),
            algorithms=[ALGORITHM],
            issuer=ISSUER,
            options={"verify_exp": False, "require": ["iat", "sub", "iss"]},
        )
        issued = float(claims["iat"])
    except (jwt.PyJWTError, KeyError, TypeError, ValueError, LedgerKeyError):
        return False
    fresh = 0 <= time.time() - issued <= KNOWN_TERMINAL_DAYS * 86_400
    return fresh and claims.get("typ") == "terminal" and claims.get("sub") == login_name(name)


def check_token(ledger: Ledger, token: str) -> StaffMember:
    """:func:`read_token`, and the member as the log has them now still the one it names
    (:class:`AuthenticationError` for a token issued before the member was removed, changed
    role or credential, or logged out): one indexed read."""
    member = read_token(ledger, token)
    now = ledger.staff_now().get(member.name)
    if now is None or now.since != member.since or now.role is not member.role:
        raise AuthenticationError(
            f"the token of {member.name!r} was revoked (logged out, removed from the staff, or "
            "their role or credential changed since it was issued): log in again (POST /token)"
        )
    return member


__all__ = [
    "TERMINAL_HEADER",
    "check_token",
    "issue",
    "known_terminal",
    "read_token",
    "terminal_mark",
    "token_key",
]
