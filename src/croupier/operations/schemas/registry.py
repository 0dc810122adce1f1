"""Every generated schema file and the model it is made from (:mod:`.files`)."""

from __future__ import annotations

from croupier.operations.schemas.analysis import GameAnalysis, ParSheet, Strategy
from croupier.operations.schemas.checks import CheckedDigests, ParSheetVerification, Violations
from croupier.operations.schemas.document import Document
from croupier.operations.schemas.games import (
    AxManGiven,
    BaccaratCoup,
    BlackjackRound,
    DealerResults,
    FourCardPokerRound,
    HandResult,
)
from croupier.operations.schemas.meters import METERS
from croupier.operations.schemas.settlement import PlayedRound
from croupier.table.record import RoundFile

DOCUMENTS: tuple[Document, ...] = (
    Document("analyze", "croupier analyze --json (a wager's exact par sheet)", ParSheet),
    Document(
        "analyze-game", "croupier analyze switch-hands|blackjack-premium --json", GameAnalysis
    ),
    Document("axman", "croupier axman --json: AxMan given the player's cards", AxManGiven),
    Document("baccarat", "croupier baccarat --json", BaccaratCoup),
    Document("check", "croupier check --json: each submission's violations", Violations),
    Document(
        "check-digests",
        "croupier check --json --digests: each submission's violations and configuration digests",
        CheckedDigests,
    ),
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
    Document(
        "round-file",
        "croupier round file (the input of croupier settle)",
        RoundFile,
        mode="validation",
    ),
    Document("strategy", "croupier strategy GAME --json (one shape per game)", Strategy),
    Document("verify-parsheets", "croupier verify-parsheets --json", ParSheetVerification),
    *METERS,
)
"""The generated files, in name order; each helper module adds its own documents here."""

HAND_WRITTEN: frozenset[str] = frozenset(
    {
        "eor",
        "eor-table",
        "error",
        "parsheet",
        "paytables",
        "service-round",
        "settle",
        "simulate",
        "wagers",
    }
)
"""Files under docs/schemas not yet generated from a model (empty when every one is)."""
