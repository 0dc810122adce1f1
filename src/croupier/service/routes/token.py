"""``POST /token`` (log in: a bearer token) and ``POST /token/revoke`` (log out) — the OAuth2
password flow over the ledger's staff store; the tokens themselves are :mod:`croupier.service.auth`'s.
A login refused for too many failed ones is a 429 problem with ``Retry-After`` (:func:`install`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Request
from fastapi.responses import JSONResponse
from fastapi.security import OAuth2PasswordRequestForm
from pydantic import BaseModel, ConfigDict

from croupier.errors import LoginLockedError
from croupier.operations.schemas.staff import LoggedOut
from croupier.progressive import Ledger, StaffMember
from croupier.service.auth import TERMINAL_HEADER, issue, known_terminal, terminal_mark
from croupier.service.dependencies import signed_in
from croupier.service.forwarded import client_address
from croupier.service.problems import MEDIA_TYPE, PROBLEM_BASE, problem

Member = Annotated[StaffMember, Depends(signed_in("logging out"))]
"""The member logging out (``POST /token/revoke``)."""


class Token(BaseModel):
    """An OAuth2 bearer token."""

    model_config = ConfigDict(extra="forbid")

    access_token: str
    token_type: str = "bearer"
    expires_in: int
    user: str
    role: str
    terminal: str = ""
    """A mark of this terminal for this member: sent back with a later login as the
    ``Croupier-Terminal`` header, it lets that login past its address's pacing (never past the
    member's own lockout) for 30 days."""


router = APIRouter()

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


@router.post(
    "/token/revoke",
    response_model=LoggedOut,
    summary="Log out: every token of the member is refused from now",
)
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


__all__ = ["Member", "Token", "install", "router"]
