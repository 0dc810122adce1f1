"""Every generated schema file and the model it is made from (:mod:`.files`)."""

from __future__ import annotations

from croupier.operations.schemas import analysis, eor, problems, reading, rounds, simulation
from croupier.operations.schemas.bundle import BundleManifest
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
from croupier.operations.schemas.live import EVENTS
from croupier.operations.schemas.meters import METERS
from croupier.operations.schemas.settlement import PlayedRound
from croupier.operations.schemas.strategy import GameAnalysis, Strategy
from croupier.table.record import RoundFile

DOCUMENTS: tuple[Document, ...] = (
    Document("analyze", "croupier analyze --json (a wager's exact par sheet)", analysis.ParSheet),
    Document(
        "analyze-game", "croupier analyze switch-hands|blackjack-premium --json", GameAnalysis
    ),
    Document("axman", "croupier axman --json: AxMan given the player's cards", AxManGiven),
    Document(
        "bundle-manifest",
        "croupier bundle --out DIR: DIR/manifest.json, a lab's report bundle",
        BundleManifest,
    ),
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
    Document("eor", "croupier eor WAGER --json", eor.EorDetail),
    Document(
        "eor-table",
        "croupier eor --json (no wager, or several): the count-vulnerability table",
        eor.EorTable,
    ),
    Document(
        "error",
        "An error of any croupier command under --json (stdout; exit status 2)",
        problems.CommandError,
    ),
    Document(
        "parsheet", "croupier parsheet --json (and parsheets.json of --out)", analysis.ParSheetFile
    ),
    Document(
        "parsheet-summary",
        "croupier parsheet --summary --json (and summary.json of --out)",
        analysis.ParSheetSummaryFile,
    ),
    Document("paytables", "croupier paytables --json", reading.PaytableList),
    Document(
        "service-round",
        "croupier serve: a settled round (POST /rounds/settle, GET /rounds/{table}/{round}, "
        "GET /rounds, the 'settled' of a table's settle step, the 'voided' of a table's void)",
        rounds.StoredRound,
    ),
    Document("settle", "croupier settle --json: each round file settled", rounds.SettledRounds),
    Document("simulate", "croupier simulate --json", simulation.SimulatedParSheet),
    Document("wagers", "croupier wagers --json", reading.WagerList),
    *EVENTS,
    *METERS,
)
"""The generated files, in name order; each helper module adds its own documents here."""

HAND_WRITTEN: frozenset[str] = frozenset()
"""Files under docs/schemas not yet generated from a model (empty when every one is)."""
