"""The staff as the ledger's log makes them: one fold of the staff events, used by the ledger
when it reads who may act (:mod:`croupier.progressive.staffing`) and by ``verify``
(:mod:`croupier.progressive.audit`), so the two can never read the log differently.

The staff events are the events outside any progressive of the kinds :data:`STAFF_KINDS`:

* ``user`` — a member added with a role and a credential (an argon2id hash), the first by
  themself (the bootstrap of a shift manager);
* ``user-removed`` — a member removed: they no longer log in or act, their name stays in the
  history and is never given to anyone else;
* ``user-role`` — a member's role changed;
* ``user-credential`` — a member's credential changed (the new hash);
* ``logout`` — a member ended their sessions.

Each of the last four, and the ``user`` event, sets the member's :attr:`LoggedMember.since` to
its own ``seq``: a token names the ``since`` it was issued under, and one that names an older one
was issued before a removal, a role or credential change or a logout, and is refused
(:mod:`croupier.service.auth`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from croupier.progressive.model import EventKind, Role

STAFF_KINDS = (
    EventKind.USER,
    EventKind.USER_REMOVED,
    EventKind.USER_ROLE,
    EventKind.USER_CREDENTIAL,
    EventKind.LOGOUT,
)
"""The kinds of the staff events (all outside any progressive)."""

SELF_KINDS = frozenset({EventKind.USER_CREDENTIAL, EventKind.LOGOUT})
"""Staff events a member may make about themself, whatever their role (a shift manager makes
every other staff event, and these for others too, but a logout only for themself)."""


class LoggedMember(NamedTuple):
    """A member as the log makes them: role, credential hash and the seq of the event that last
    set either or logged them out (a token issued under an older one is refused)."""

    role: Role
    credential: str | None
    since: int


class StaffLogError(ValueError):
    """A staff event that does not follow from the ones before it (``verify`` reports it)."""


@dataclass
class Roster:
    """Every member the log has, and every name it ever had (removed members' names included)."""

    members: dict[str, LoggedMember] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    """Removed members, with the seq of their removal."""

    def names(self) -> list[str]:
        """Every name the staff ever had: no new member takes one that reads as any of them."""
        return [*self.members, *self.removed]

    def shift_managers(self) -> list[str]:
        """The members who are shift managers."""
        return [n for n, m in self.members.items() if m.role is Role.SHIFT_MANAGER]

    def apply(self, seq: int, kind: EventKind, detail: Mapping[str, Any]) -> None:
        """Fold one staff event in (:class:`StaffLogError` when it does not follow: a member
        added twice or after their removal, a change of someone who is not a member)."""
        user = str(detail.get("user"))
        if kind is EventKind.USER:
            if user in self.members or user in self.removed:
                raise StaffLogError(f"adds {user!r} a second time")
            self.members[user] = LoggedMember(Role(detail["role"]), detail.get("credential"), seq)
            return
        member = self.members.get(user)
        if member is None:
            raise StaffLogError(f"changes {user!r}, who is no staff member at that point")
        if kind is EventKind.USER_REMOVED:
            del self.members[user]
            self.removed[user] = seq
        elif kind is EventKind.USER_ROLE:
            self.members[user] = member._replace(role=Role(detail["role"]), since=seq)
        elif kind is EventKind.USER_CREDENTIAL:
            self.members[user] = member._replace(credential=detail.get("credential"), since=seq)
        elif kind is EventKind.LOGOUT:
            self.members[user] = member._replace(since=seq)
        else:  # pragma: no cover - callers pass STAFF_KINDS only
            raise StaffLogError(f"{kind.value} is not a staff event")


__all__ = ["SELF_KINDS", "STAFF_KINDS", "LoggedMember", "Roster", "StaffLogError"]
