"""The schema files of ``croupier meters ... --json`` (docs/schemas/meters-*.schema.json), each
made from the model the service's progressive, report and staff routes answer with too."""

from __future__ import annotations

from croupier.operations.schemas.document import Document
from croupier.operations.schemas.liability import ContributionsReport, LiabilityReport, Slip
from croupier.operations.schemas.progressives import (
    Adjusted,
    Award,
    Bootstrapped,
    Linked,
    LoggedIn,
    MetersStatus,
    MetersVerified,
    Progressive,
    Reconfigured,
    SignificantEvents,
    SuspendedState,
    VoidedAward,
)
from croupier.operations.schemas.reports import MetersReport
from croupier.operations.schemas.staff import Roster, UserChange

METERS: tuple[Document, ...] = (
    Document(
        "meters-adjust", "croupier meters adjust --json: the level after the correction", Adjusted
    ),
    Document("meters-bootstrap", "croupier meters bootstrap --json", Bootstrapped),
    Document(
        "meters-contributions",
        "croupier meters contributions --json: each table's contributions to each progressive "
        "over a period (58 Pa. Code § 605a.7(a)(1), § 605a.8)",
        ContributionsReport,
    ),
    Document("meters-create", "croupier meters create --json: the new progressive", Progressive),
    Document(
        "meters-events",
        "croupier meters events --json: the progressive controller's significant events",
        SignificantEvents,
    ),
    Document(
        "meters-liability",
        "croupier meters liability --json: what the house owes on each progressive, at an "
        "instant or over a period (58 Pa. Code § 605a.7(a))",
        LiabilityReport,
    ),
    Document("meters-link", "croupier meters link --json", Linked),
    Document("meters-login", "croupier meters login --json", LoggedIn),
    Document(
        "meters-reconfigure",
        "croupier meters reconfigure --json: the parameters changed, with the approval",
        Reconfigured,
    ),
    Document(
        "meters-report",
        "croupier meters report --json: each progressive's levels reconciled over a period "
        "(58 Pa. Code § 605a.7(a))",
        MetersReport,
    ),
    Document(
        "meters-slip",
        "croupier meters slip --json: a progressive award's hand-pay slip",
        Slip,
    ),
    Document(
        "meters-status",
        "croupier meters --json: every progressive's levels and pending awards",
        MetersStatus,
    ),
    Document(
        "meters-suspend",
        "croupier meters suspend|resume --json: the progressive's link out of play or back in",
        SuspendedState,
    ),
    Document(
        "meters-user",
        "croupier meters user --json: a member added (--role), removed (--remove), their role "
        "(--set-role) or credential (--new-credential) changed",
        UserChange,
    ),
    Document(
        "meters-users",
        "croupier meters users --json: the staff (GET /staff answers the same)",
        Roster,
    ),
    Document(
        "meters-validate", "croupier meters validate --json: the award validated and paid", Award
    ),
    Document("meters-verify", "croupier meters verify --json: the ledger replayed", MetersVerified),
    Document("meters-void", "croupier meters void --json: the award voided", VoidedAward),
)
"""The meters documents, in name order."""

__all__ = ["METERS"]
