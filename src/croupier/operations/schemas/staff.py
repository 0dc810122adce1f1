"""The staff roster and its changes as JSON: what ``croupier meters user | users | login
--json`` print and the service's ``/staff`` and ``/token/revoke`` routes answer. A credential is
never part of an answer."""

from __future__ import annotations

from typing import Literal

from croupier.operations.schemas import Shape
from croupier.progressive import Role


class RosterMember(Shape):
    """A staff member and their role."""

    user: str
    """The member's name."""
    role: Role
    """Their role."""


class Roster(Shape):
    """The staff (``GET /staff``, ``croupier meters users --json``)."""

    staff: list[RosterMember]
    """Every member with their role, by name."""
    removed: list[str]
    """The names of the members removed (the ledger's history still names them)."""


class MemberAdded(Shape):
    """A member added with a role (``POST /staff``, ``croupier meters user NAME --role``)."""

    user: str
    """The member added."""
    role: Role
    """Their role."""
    added_by: str
    """The shift manager who added them."""


class MemberRemoved(Shape):
    """A member removed (``DELETE /staff/{name}``): they no longer log in or act."""

    user: str
    """The member removed."""
    removed: Literal[True]
    """Always true."""
    removed_by: str
    """The shift manager who removed them."""


class RoleChanged(Shape):
    """A member's role changed (``POST /staff/{name}/role``): their earlier tokens are
    refused."""

    user: str
    """The member."""
    role: Role
    """Their new role."""
    changed_by: str
    """The shift manager who changed it."""


class CredentialChanged(Shape):
    """A member's credential set (``POST /staff/{name}/credential``, ``croupier meters user NAME
    --new-credential``): their earlier tokens are refused."""

    user: str
    """The member."""
    credential_changed: Literal[True]
    """Always true (the credential itself is never shown)."""
    by: str
    """Who set it: the member, or a shift manager."""


class UserRemoved(Shape):
    """``croupier meters user NAME --remove --json``: a member removed."""

    user: str
    """The member removed."""
    removed: Literal[True]
    """Always true."""
    by: str
    """The shift manager who removed them."""


class UserRoleSet(Shape):
    """``croupier meters user NAME --set-role ROLE --json``: a member's role changed."""

    user: str
    """The member."""
    role: Role
    """Their new role."""
    by: str
    """The shift manager who changed it."""


UserChange = MemberAdded | UserRemoved | UserRoleSet | CredentialChanged
"""What ``croupier meters user --json`` prints: a member added (--role), removed (--remove),
their role (--set-role) or credential (--new-credential) changed."""


class LoggedOut(Shape):
    """A member logged out (``POST /token/revoke``): every token issued to them before is
    refused from now on."""

    user: str
    """The member."""
    logged_out: Literal[True]
    """Always true."""


__all__ = [
    "CredentialChanged",
    "LoggedOut",
    "MemberAdded",
    "MemberRemoved",
    "RoleChanged",
    "Roster",
    "RosterMember",
    "UserChange",
    "UserRemoved",
    "UserRoleSet",
]
