"""Every generated schema file and the model it is made from (:mod:`.files`)."""

from __future__ import annotations

from croupier.operations.schemas.document import Document
from croupier.operations.schemas.meters import METERS

DOCUMENTS: tuple[Document, ...] = (*METERS,)
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
        "parsheet",
        "paytables",
        "play",
        "round-file",
        "service-round",
        "settle",
        "simulate",
        "strategy",
        "verify-parsheets",
        "wagers",
    }
)
"""Files under docs/schemas not yet generated from a model (empty when every one is)."""
