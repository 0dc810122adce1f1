"""Decisions on progressive awards (``POST /awards/{id}/validate``, ``POST /awards/{id}/void``):
who may make one, checked before the award is looked up (:func:`may_decide`), and the write
that records a decision with the request's ``Idempotency-Key`` in the ledger's transaction
(:class:`Decision`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from croupier.errors import AuthorizationError, CroupierError, RoundStateError
from croupier.progressive import Award, Ledger, Role, StaffMember
from croupier.progressive.model import AWARD_RULES
from croupier.progressive.store import LedgerDatabaseError
from croupier.progressive.views import award_dict as _award_dict
from croupier.service.committer import unique_violation
from croupier.service.idempotency import KeyRows, Write
from croupier.service.jsontext import dumps


def may_decide(ledger: Ledger, member: StaffMember, what: str, paragraph: str) -> object:
    """Who may validate or void an award: a floorperson or above (§ 633b.2(h)(3),
    § 633b.3(h)(3); a void answers to (h)(1)), checked against the ledger's log **before the
    award is looked up** — a member who may not decide awards gets one answer, a 403 citing
    :data:`AWARD_RULES`, for an award that exists and one that does not (no award id is learnt
    by trying it: docs/interpretations.md, *What a role can learn*). A member who may is then
    told a missing award's 404; the ledger checks the role again, citing the award's own
    progressive, in its transaction."""
    section, also = AWARD_RULES[paragraph]
    try:
        return ledger.check_role(member.name, Role.FLOORPERSON, section, what)
    except AuthorizationError as exc:
        raise AuthorizationError(exc.reason, section=section, also=also) from None


@dataclass(frozen=True)
class Decision:
    """The write of a decision on an award: the ledger's transaction records it **and** the
    request's ``Idempotency-Key`` with its answer (:data:`~croupier.progressive.ledger.Decided`),
    so a crash leaves both or neither — a retry under the key after a crash that followed the
    commit answers the first answer, not a 409 "paid already". An award decided meanwhile
    (``RoundStateError``), or the key recorded by a concurrent request of the member's, writes
    nothing: :class:`~croupier.service.idempotency.Idempotent` then answers the key's record, if
    there is one, and else :meth:`run` gives the refusal."""

    decide: Callable[..., Award]
    """The ledger's decision (``Ledger.validate`` or ``Ledger.void_award`` of the award, by the
    member), called with ``after=``: what it writes in its transaction."""
    answer: Callable[[Award], Any]
    """The answer, of the award as decided."""
    refused: list[CroupierError] = field(default_factory=list)

    def write(self) -> Write:
        """As :class:`~croupier.service.idempotency.Write`: :meth:`together`, else :meth:`run`."""
        return Write(self.run, together=self.together)

    def together(self, key_rows: KeyRows) -> tuple[int, str] | None:
        """The decision and the key's record in the ledger's one transaction; ``None`` when it
        wrote nothing."""
        record = _KeyRecord(key_rows, self.answer)
        try:
            self.decide(after=record)
        except RoundStateError as exc:
            self.refused.append(exc)
            return None
        except LedgerDatabaseError as exc:
            if unique_violation(exc):  # the key, recorded by a concurrent request
                return None
            raise
        return 200, record.made[0]

    def run(self, _conn: Connection) -> tuple[int, Any]:
        """The refusal of a decision :meth:`together` could not make."""
        if self.refused:
            raise self.refused[0]
        return 200, self.answer(self.decide(after=None))  # pragma: no cover - key released


@dataclass(frozen=True)
class _KeyRecord:
    """What a decision writes in the ledger's transaction
    (:data:`~croupier.progressive.ledger.Decided`): the key's record with the answer's text,
    kept in ``made``."""

    key_rows: KeyRows
    answer: Callable[[Award], Any]
    made: list[str] = field(default_factory=list)

    def __call__(self, conn: Connection, award: Award) -> None:
        text = dumps(self.answer(award))
        for stmt, values in self.key_rows(200, text):
            conn.execute(stmt, values)
        self.made.append(text)


def voided_answer(by: str, reason: str, award: Award) -> dict[str, Any]:
    """A void's answer: the award, who voided it and why."""
    return {**_award_dict(award), "voided_by": by, "reason": reason}


__all__ = ["Decision", "may_decide", "voided_answer"]
