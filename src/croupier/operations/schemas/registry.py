"""Every generated schema file and the model it is made from (:mod:`.files`)."""

from __future__ import annotations

from croupier.operations.schemas import analysis, eor, problems, reading, rounds, simulation
from croupier.operations.schemas.document import Document

DOCUMENTS: tuple[Document, ...] = (
    Document("analyze", "croupier analyze --json (a wager's exact par sheet)", analysis.ParSheet),
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
)
"""The generated files, in name order; each helper module adds its own documents here."""

HAND_WRITTEN: frozenset[str] = frozenset(
    {
        "analyze-game",
        "axman",
        "baccarat",
        "blackjack-round",
        "check",
        "check-digests",
        "dealer",
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
        "play",
        "round-file",
        "strategy",
        "verify-parsheets",
    }
)
"""Files under docs/schemas not yet generated from a model (empty when every one is)."""
