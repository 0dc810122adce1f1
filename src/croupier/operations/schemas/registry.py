"""Every generated schema file and the model it is made from (:mod:`.files`)."""

from __future__ import annotations

from croupier.operations.schemas.document import Document
from croupier.table.record import RoundFile

DOCUMENTS: tuple[Document, ...] = (
    Document(
        "round-file",
        "croupier round file (the input of croupier settle)",
        RoundFile,
        mode="validation",
    ),
)
"""The generated files, in name order; each helper module adds its own documents here."""

HAND_WRITTEN: frozenset[str] = frozenset(
    {
        "analyze",
        "analyze-game",
        "axman",
        "baccarat",
        "blackjack-round",
        "check",
        "check-digests",
        "dealer",
        "eor",
        "eor-table",
        "error",
        "four-card-poker",
        "hand",
        "meters-adjust",
        "meters-bootstrap",
        "meters-create",
        "meters-events",
        "meters-link",
        "meters-login",
        "meters-reconfigure",
        "meters-report",
        "meters-status",
        "meters-suspend",
        "meters-user",
        "meters-users",
        "meters-validate",
        "meters-verify",
        "meters-void",
        "parsheet",
        "paytables",
        "play",
        "service-round",
        "settle",
        "simulate",
        "strategy",
        "verify-parsheets",
        "wagers",
    }
)
"""Files under docs/schemas not yet generated from a model (empty when every one is)."""
