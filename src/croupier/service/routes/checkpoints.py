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

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from croupier.progressive import Role, StaffMember
from croupier.progressive.checkpoint import FORMAT
from croupier.service.dependencies import LedgerDep, require

router = APIRouter()

Anchorer = Annotated[
    StaffMember,
    Depends(require(Role.SHIFT_MANAGER, "605a.7", "taking a checkpoint of the ledger")),
]

_EXAMPLE: dict[str, Any] = {
    "format": FORMAT,
    "ledger": "d00529a51771b517e12a34a5c3451359",
    "key_id": "5b3a6f87dac9d4f7",
    "seq": 412,
    "head_mac": "c69b21d6cb7e5ffdd059c2e1cefea2447f7f5d3fe4f0a789b65087b28397c256",
    "time": "2026-12-06T21:30:00.123456Z",
    "reason": "taken",
    "meters": {
        "mtd-5": {
            "Progressive": {
                "meter_micros": 5_003_750_000,
                "reserve_micros": 0,
                "held_micros": 500_370_000,
                "wagered_cents": 2_500,
                "paid_cents": 0,
                "hits": 0,
            }
        }
    },
    "mac": "966f992a0e097ed9ed9a9c1cfad9fdf41fc9ec5ee5d6b3f371ac944ddc0fd45b",
}


class Checkpoint(BaseModel):
    """A signed checkpoint of the ledger's chain head (:mod:`croupier.progressive.checkpoint`):
    keep it as it is — any change of a field breaks its ``mac``."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_EXAMPLE]})
    format: str = Field(description=f"Always {FORMAT!r}.")
    ledger: str = Field(description="The ledger's identity (SHA-256 of its first event's mac).")
    key_id: str = Field(description="Which ledger key signed it (not the key).")
    seq: int = Field(ge=1, description="The sequence number of the last event: the head.")
    head_mac: str = Field(description="That event's mac (HMAC-SHA256 chain, 64 hex digits).")
    time: str = Field(description="When it was made (UTC, ISO 8601).")
    reason: str = Field(description="'taken' (asked for) or the event an automatic one followed.")
    meters: dict[str, dict[str, dict[str, int]]] = Field(
        description="Each progressive's levels at that head: meter, reserve and held in "
        "micro-dollars, wagered and paid in cents, hits."
    )
    mac: str = Field(description="HMAC-SHA256 of every other field under the ledger key.")


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
    return Checkpoint(**ledger.checkpoint(actor=member.name))
