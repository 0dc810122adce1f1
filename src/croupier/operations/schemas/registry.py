"""Every generated schema file and the model it is made from (:mod:`.files`)."""

from __future__ import annotations

from croupier.operations.schemas.document import Document
from croupier.operations.schemas.games import (
    AxManGiven,
    BaccaratCoup,
    BlackjackRound,
    DealerResults,
    FourCardPokerRound,
    HandResult,
)
from croupier.operations.schemas.settlement import PlayedRound

DOCUMENTS: tuple[Document, ...] = (
    Document("axman", "croupier axman --json: AxMan given the player's cards", AxManGiven),
    Document("baccarat", "croupier baccarat --json", BaccaratCoup),
    Document(
        "blackjack-round",
        "croupier blackjack-round --json: a dealt Blackjack round settled through the round "
        "procedure (the same round record as croupier settle)",
        BlackjackRound,
    ),
    Document(
        "dealer", "croupier dealer --json: the dealer's final result by upcard", DealerResults
    ),
    Document("four-card-poker", "croupier four-card-poker --json", FourCardPokerRound),
    Document("hand", "croupier hand --json", HandResult),
    Document(
        "play", "croupier play --json: each random round dealt and settled", list[PlayedRound]
    ),
)
"""The generated files, in name order; each helper module adds its own documents here."""

HAND_WRITTEN: frozenset[str] = frozenset(
    {
        "analyze",
        "analyze-game",
        "check",
        "check-digests",
        "eor",
        "eor-table",
        "error",
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
