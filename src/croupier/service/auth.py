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

Routes name the role they need (:func:`require`): a change needs that role or above in the pit's
chain; a read (``GET``) is also open to the roles that only read — accounting reads what a pit
manager reads, an auditor everything (:meth:`~croupier.progressive.Role.may_read`). The member's
name is then the ``by`` of every ledger operation, and the ledger checks the role again against
its own log.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import jwt
from fastapi import APIRouter, Depends, FastAPI, Header, Request
from fastapi.responses import JSONResponse
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm
from pydantic import BaseModel

from croupier.errors import (
    AuthenticationError,
    AuthorizationError,
    LedgerKeyError,
    LoginLockedError,
)
from croupier.names import login_name
from croupier.progressive import Ledger, Role, StaffMember
from croupier.service.forwarded import client_address
from croupier.service.problems import MEDIA_TYPE, PROBLEM_BASE, problem

ISSUER = "croupier"
ALGORITHM = "HS256"
_LABEL = b"croupier service token v1"
_READS = frozenset({"GET", "HEAD"})

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


REQUIREMENTS: dict[Callable[..., Awaitable[StaffMember]], tuple[Role, str, str, str | None]] = {}
"""Each :func:`require` dependency's (role, section, what, also): what the OpenAPI document says
a route's 401 and 403 problems are (:mod:`croupier.service.openapi`)."""


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


def _token_of(request: Request, token: str | None, what: str) -> StaffMember:
    if not token:
        raise AuthenticationError(f"{what} needs a staff member's token: log in with POST /token")
    return check_token(request.app.state.ledger, token)


def require(
    role: Role, section: str, what: str, *, also: str | None = None
) -> Callable[..., Awaitable[StaffMember]]:
    """A dependency: the authenticated member, if their role is ``role`` or above — or, for a
    read (``GET``), one that reads what a ``role`` reads (:meth:`Role.may_read`)
    (:class:`AuthorizationError` citing ``section``, and ``also`` — another rule the choice
    follows — after it, otherwise; :class:`AuthenticationError` without a valid token, or with
    a revoked one). Decided before the route looks anything up: a member refused is refused
    alike whatever the path names."""

    # async: a signature check remembered and one indexed read — on the event loop, not a trip
    # to the thread pool
    async def dependency(
        request: Request, token: Annotated[str | None, Depends(oauth2)]
    ) -> StaffMember:
        member = _token_of(request, token, what)
        r = member.role
        if request.method in _READS and r.may_read(role):
            return member
        if not r.at_least(role):
            only = " (a role that reads and changes nothing)" if r.read_only else ""
            who = role.who_may(reading=request.method in _READS)  # who reads it, if a read
            raise AuthorizationError(
                f"{member.name} is {r.said}{only}; {what} needs {who}", section=section, also=also
            )
        return member

    REQUIREMENTS[dependency] = (role, section, what, also)
    return dependency


REPORTS = Role.PIT_MANAGER
"""Who reads a financial report or export (the reconciliation, the hold report, the handle and
hold summary): a pit manager or above in the pit, accounting and an auditor
(docs/interpretations.md, *Who reads the money*)."""


def report_reader(what: str) -> Callable[..., Awaitable[StaffMember]]:
    """The dependency of a financial report's route (:data:`REPORTS`; § 605a.7's internal
    controls)."""
    return require(REPORTS, "605a.7", what)


EVERY_ROLE: set[Callable[..., Any]] = set()
"""The dependencies that take a member of any role, the ones that only read included
(:func:`signed_in`): their routes answer no 403."""


def signed_in(what: str) -> Callable[..., Awaitable[StaffMember]]:
    """A dependency: the authenticated member, whatever their role (:class:`AuthenticationError`
    naming ``what`` without a valid token) — for what a member does for themselves: their own
    logout, their own credential."""

    async def dependency(
        request: Request, token: Annotated[str | None, Depends(oauth2)]
    ) -> StaffMember:
        return _token_of(request, token, what)

    REQUIREMENTS[dependency] = (Role.DEALER, "605a.7", what, None)
    EVERY_ROLE.add(dependency)  # no 403 to document
    return dependency


Member = Annotated[StaffMember, Depends(signed_in("logging out"))]
"""The member logging out (``POST /token/revoke``)."""


class Token(BaseModel):
    """An OAuth2 bearer token."""

    access_token: str
    token_type: str = "bearer"
    expires_in: int
    user: str
    role: str
    terminal: str = ""
    """A mark of this terminal for this member: sent back with a later login as the
    ``Croupier-Terminal`` header, it lets that login past its address's pacing (never past the
    member's own lockout) for 30 days."""


router = APIRouter(tags=["auth"])

_LOCKED: dict[int | str, dict[str, Any]] = {
    429: {
        "description": "Too many failed logins of this member (locked out), or from this "
        "address (paced: one attempt taken per turn, a sooner one refused): try again after "
        "the seconds Retry-After gives (NIST SP 800-63B § 5.2.2).",
        "content": {
            MEDIA_TYPE: {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "examples": {
                    "locked-out": {
                        "summary": "Too many failed logins as dana",
                        "value": {
                            "type": f"{PROBLEM_BASE}LoginLockedError",
                            "title": "LoginLockedError",
                            "status": 429,
                            "detail": "too many failed logins as 'dana': logins refused for 900 "
                            "more seconds (NIST SP 800-63B § 5.2.2, rate limiting); try again "
                            "then",
                            "instance": "/token",
                            "error_type": "LoginLockedError",
                            "section": None,
                            "retry_after": 900,
                        },
                    }
                },
            }
        },
        "headers": {
            "Retry-After": {
                "description": "Seconds until a login is taken again.",
                "schema": {"type": "integer"},
            }
        },
    }
}


@router.post("/token", response_model=Token, summary="Log in: a bearer token", responses=_LOCKED)
def token(
    request: Request,
    form: Annotated[OAuth2PasswordRequestForm, Depends()],
    terminal: Annotated[
        str | None,
        Header(
            alias=TERMINAL_HEADER,
            description="The `terminal` mark of an earlier login of the same member on this "
            "terminal: that login is not held back by its address's pacing.",
        ),
    ] = None,
) -> Token:
    """OAuth2 password flow: ``username`` and ``password`` (form fields) of a member of the
    ledger's staff store (argon2; `croupier meters bootstrap` makes the first). A wrong name or
    credential is a 401 problem; after too many, of one member or from one address, a 429 with
    ``Retry-After`` (each failure and lockout a significant event). A terminal that sends the
    ``terminal`` mark of the member's earlier login (header ``Croupier-Terminal``) is not held
    back by its address's pacing (:func:`known_terminal`)."""
    ledger: Ledger = request.app.state.ledger
    client = client_address(request)  # behind trusted proxies, the real one
    known = known_terminal(ledger, terminal, form.username)
    member = ledger.authenticate(form.username, form.password, client=client, known=known)
    ttl: int = request.app.state.config.token_ttl
    return Token(
        access_token=issue(ledger, member, ttl), expires_in=ttl, user=member.name,
        role=member.role.value, terminal=terminal_mark(ledger, member.name),
    )  # fmt: skip


@router.post("/token/revoke", summary="Log out: every token of the member is refused from now")
def revoke(request: Request, member: Member) -> dict[str, object]:
    """A ``logout`` staff event by the member: every token issued to them before — on this
    terminal and any other — is refused from now on (401); they log in again."""
    ledger: Ledger = request.app.state.ledger
    ledger.logout(member.name)
    return {"user": member.name, "logged_out": True}


def install(app: FastAPI) -> None:
    """Serve ``POST /token`` and ``POST /token/revoke``; a login refused for too many failed
    ones is a 429 problem with ``Retry-After``."""

    @app.exception_handler(LoginLockedError)
    async def _locked(request: Request, exc: Exception) -> JSONResponse:
        wait = exc.retry_after if isinstance(exc, LoginLockedError) else 1
        response = problem(429, type(exc).__name__, str(exc), request.url.path, retry_after=wait)
        response.headers["Retry-After"] = str(wait)
        return response

    app.include_router(router)


__all__ = [
    "REPORTS",
    "REQUIREMENTS",
    "Member",
    "Token",
    "check_token",
    "install",
    "issue",
    "known_terminal",
    "oauth2",
    "read_token",
    "report_reader",
    "require",
    "signed_in",
    "terminal_mark",
    "token_key",
]
