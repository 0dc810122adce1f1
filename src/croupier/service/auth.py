"""Staff log in with the ledger's staff store and act under signed tokens (OAuth2 password flow).

``POST /token`` (form fields ``username``, ``password``, as OAuth2's password grant) checks the
credential with :meth:`croupier.progressive.Ledger.authenticate` — the argon2 hashes of the
ledger's staff store; there is no default password (the first shift manager is made with
``croupier meters bootstrap``) — and answers a bearer token (a JWT, HS256, by PyJWT) naming the
member and the role the ledger's log gives them, valid for ``token_ttl`` seconds.

The token's key is derived from the ledger key (HMAC-SHA256 of a fixed label): every process
serving the same ledger — several workers, several hosts — accepts each other's tokens, and a
token is worth nothing without the key that also guards the ledger's chain.

Routes that change money or configuration name the role they need (:func:`require`); the member's
name is then the ``by`` of every ledger operation, and the ledger checks the role again against
its own log (a role changed since the token was issued counts there).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable
from typing import Annotated

import jwt
from fastapi import Depends, Request
from fastapi.security import OAuth2PasswordBearer

from croupier.errors import AuthenticationError, AuthorizationError, LedgerKeyError
from croupier.progressive import Ledger, Role, StaffMember

ISSUER = "croupier"
ALGORITHM = "HS256"
_LABEL = b"croupier service token v1"

oauth2 = OAuth2PasswordBearer(tokenUrl="token", auto_error=False)


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
    """A signed token for ``member``, valid ``ttl`` seconds."""
    at = int(time.time())
    claims = {
        "iss": ISSUER,
        "sub": member.name,
        "role": member.role.value,
        "iat": at,
        "exp": at + ttl,
    }
    return jwt.encode(claims, token_key(ledger), algorithm=ALGORITHM)


_READ: dict[tuple[bytes, str], tuple[StaffMember, float]] = {}
_READ_MAX = 1024


def read_token(ledger: Ledger, token: str) -> StaffMember:
    """The member a token names; :class:`AuthenticationError` for a token that is not ours,
    altered or expired.

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
        return StaffMember(str(claims["sub"]), Role(claims["role"])), float(claims["exp"])
    except jwt.ExpiredSignatureError:
        raise AuthenticationError("the token has expired: log in again (POST /token)") from None
    except (jwt.PyJWTError, KeyError, ValueError):
        raise AuthenticationError("not a valid token: log in with POST /token") from None


REQUIREMENTS: dict[Callable[..., Awaitable[StaffMember]], tuple[Role, str, str]] = {}
"""Each :func:`require` dependency's (role, section, what): what the OpenAPI document says a
route's 401 and 403 problems are (:mod:`croupier.service.openapi`)."""


def require(role: Role, section: str, what: str) -> Callable[..., Awaitable[StaffMember]]:
    """A dependency: the authenticated member, if their role is ``role`` or above
    (:class:`AuthorizationError` citing ``section`` otherwise; :class:`AuthenticationError`
    without a valid token)."""

    # async: a signature check, no I/O — run on the event loop, not a trip to the thread pool
    async def dependency(
        request: Request, token: Annotated[str | None, Depends(oauth2)]
    ) -> StaffMember:
        if not token:
            raise AuthenticationError(
                f"{what} needs a staff member's token: log in with POST /token"
            )
        member = read_token(request.app.state.ledger, token)
        if not member.role.at_least(role):
            raise AuthorizationError(
                f"{member.name} is a {member.role.value}; {what} needs a {role.value} or above",
                section=section,
            )
        return member

    REQUIREMENTS[dependency] = (role, section, what)
    return dependency


__all__ = ["REQUIREMENTS", "issue", "oauth2", "read_token", "require", "token_key"]
