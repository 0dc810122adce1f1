"""``GET /checkpoint``: a signed checkpoint of the ledger's chain head, for an auditor to keep
off the box — the document ``croupier meters checkpoint`` writes
(:mod:`croupier.progressive.checkpoint`; Certificate Transparency's signed tree heads, RFC 6962
§ 3.5 and RFC 9162 § 4.10, are the model; a CT log serves its latest one at ``get-sth``, RFC
6962 § 4.3). ``croupier meters verify --checkpoint FILE`` later fails, naming the file, when the
ledger does not hold that head.

Who may: a shift manager, or an auditor (the role that reads everything a shift manager reads,
:meth:`~croupier.progressive.Role.may_read`): a checkpoint is made after the whole ledger is
verified — the work of ``GET /verify`` — and holds every progressive's meters; a dealer, a
floorperson, a pit manager and accounting are refused with a 403 citing § 605a.7 (the system's
internal controls; docs/interpretations.md, *A rollback that cannot hide*). The command line
takes no ``--as``: it signs with the ledger key, readable only where the file system allows, as
for ``croupier meters verify``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from croupier.operations.schemas.progressives import Checkpoint
from croupier.progressive import Role, StaffMember
from croupier.service.dependencies import LedgerDep, require

router = APIRouter()

Anchorer = Annotated[
    StaffMember,
    Depends(require(Role.SHIFT_MANAGER, "605a.7", "taking a checkpoint of the ledger")),
]


@router.get(
    "/checkpoint",
    response_model=Checkpoint,
    summary="A signed checkpoint of the ledger's head, to keep off the box (auditor)",
)
def checkpoint(ledger: LedgerDep, member: Anchorer) -> Checkpoint:
    """As ``croupier meters checkpoint``: the whole ledger verified, then its head (the last
    event's sequence number and mac), the time and every progressive's meters, signed with the
    ledger key. A shift manager or an auditor; a failed verification is a 500 problem
    (``LedgerIntegrityError``), recorded as a significant event."""
    return Checkpoint.model_validate(ledger.checkpoint(actor=member.name))
