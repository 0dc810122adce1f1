"""The staff store over HTTP: what ``croupier meters user`` does (:mod:`croupier.progressive.
staffing`).

* ``GET /staff`` — the members with their roles, and the names of those removed (a shift
  manager, or an auditor: the roster is the system's access control, § 605a.7).
* ``POST /staff`` — a shift manager adds a member with a role and a credential.
* ``DELETE /staff/{name}`` — a shift manager removes a member: they no longer log in or act,
  every token issued to them is refused; history still names them.
* ``POST /staff/{name}/role`` — a shift manager changes a member's role.
* ``POST /staff/{name}/credential`` — a member sets their own credential, giving the old one
  (``old_password``); a shift manager sets anyone's.

Each change is a staff event on the ledger naming the actor, refuses the member's earlier tokens
(:mod:`croupier.service.auth`), and takes an ``Idempotency-Key``. A credential is never part of
a request's digest nor of an answer.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from croupier.operations.schemas.staff import (
    CredentialChanged,
    MemberAdded,
    MemberRemoved,
    RoleChanged,
)
from croupier.operations.schemas.staff import (
    Roster as RosterBody,
)
from croupier.progressive import Role, StaffMember
from croupier.service.dependencies import LedgerDep, Once, require, signed_in
from croupier.service.forwarded import client_address

router = APIRouter()

ShiftManager = Annotated[
    StaffMember, Depends(require(Role.SHIFT_MANAGER, "605a.7", "managing staff"))
]
Changer = Annotated[StaffMember, Depends(signed_in("changing a credential"))]
"""Any member (their own credential, with the old one) or a shift manager (anyone's)."""
Roster = Annotated[
    StaffMember, Depends(require(Role.SHIFT_MANAGER, "605a.7", "reading the staff roster"))
]


@router.get(
    "/staff", response_model=RosterBody, summary="The staff: members, roles, and those removed"
)
def roster(ledger: LedgerDep, _member: Roster) -> dict[str, Any]:
    """Every member with their role, by name, and the names of the members removed (a shift
    manager or an auditor reads it)."""
    return {
        "staff": [{"user": m.name, "role": m.role.value} for m in ledger.users()],
        "removed": ledger.removed_users(),
    }


class NewMember(BaseModel):
    """A staff member to add, with a role and a credential."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"name": "flo", "role": "floorperson", "password": "a long passphrase"}]
        },
    )
    name: str = Field(description="Their name (croupier.names: at most 100 characters, no '/').")
    role: Role
    password: str = Field(min_length=1, max_length=1000)


@router.post(
    "/staff",
    status_code=201,
    response_model=MemberAdded,
    summary="Add a staff member (shift manager)",
)
def add_staff(ledger: LedgerDep, member: ShiftManager, body: NewMember, once: Once) -> Response:
    """Recorded in the ledger (a ``user`` event naming the shift manager, § 605a.7); the
    credential is kept only as its argon2 hash. A name that is, or reads as, one the staff ever
    had is a 409 naming it."""

    # the credential is not part of the request's digest: no fast hash of it is stored
    if (
        replayed := once.replay({"name": body.name, "role": body.role.value}, member.name)
    ) is not None:
        return replayed
    m = ledger.add_user(body.name, body.role, body.password, by=member.name)
    return once.answer(201, {"user": m.name, "role": m.role.value, "added_by": member.name})


@router.delete(
    "/staff/{name}",
    response_model=MemberRemoved,
    summary="Remove a staff member (shift manager)",
)
def remove_staff(ledger: LedgerDep, member: ShiftManager, name: str, once: Once) -> Response:
    """A ``user-removed`` event naming the shift manager: the member no longer logs in or acts,
    their tokens are refused; the ledger's history still names them. The last shift manager is
    not removed (409)."""

    if (replayed := once.replay({"remove": name}, member.name)) is not None:
        return replayed
    ledger.remove_user(name, by=member.name)
    return once.answer(200, {"user": name, "removed": True, "removed_by": member.name})


class NewRole(BaseModel):
    """A member's new role."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"role": "pit-manager"}]}
    )
    role: Role


@router.post(
    "/staff/{name}/role",
    response_model=RoleChanged,
    summary="Change a member's role (shift manager)",
)
def change_role(
    ledger: LedgerDep, member: ShiftManager, name: str, body: NewRole, once: Once
) -> Response:
    """A ``user-role`` event naming the shift manager and the role before; the member's earlier
    tokens are refused (they log in again, under the new role)."""

    if (replayed := once.replay({"user": name, "role": body.role.value}, member.name)) is not None:
        return replayed
    m = ledger.set_role(name, body.role, by=member.name)
    return once.answer(200, {"user": m.name, "role": m.role.value, "changed_by": member.name})


class NewCredential(BaseModel):
    """A new credential, and the old one when it is the member's own."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"old_password": "her old passphrase", "password": "a new passphrase"}]
        },
    )
    password: str = Field(min_length=1, max_length=1000)
    old_password: str | None = Field(default=None, min_length=1, max_length=1000)


@router.post(
    "/staff/{name}/credential",
    response_model=CredentialChanged,
    summary="Set a member's credential",
)
def change_credential(
    request: Request,
    ledger: LedgerDep,
    member: Changer,
    name: str,
    body: NewCredential,
    once: Once,
) -> Response:
    """One's own, with the old one (a wrong old one counts as a failed login); anyone's, as a
    shift manager. A ``user-credential`` event with the new hash; the member's earlier tokens
    are refused, and a lockout of theirs ends."""

    # neither credential is part of the digest: a retry with the same key answers the first
    if (replayed := once.replay({"credential": name}, member.name)) is not None:
        return replayed
    client = client_address(request)  # behind trusted proxies, the real one
    ledger.change_credential(
        name, body.password, by=member.name, old_secret=body.old_password, client=client
    )
    return once.answer(200, {"user": name, "credential_changed": True, "by": member.name})


__all__ = ["router"]
