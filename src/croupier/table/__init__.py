"""The table: Rules Submissions (§ 601a.2), the regulated round procedure and round records.

>>> from croupier.table import load_submission, TableRound, settle_file
"""

from croupier.table.record import settle_file, settle_record
from croupier.table.round import PROCEDURE, Action, Bet, DealtCards, Event, Phase, TableRound
from croupier.table.submission import (
    RulesSubmission,
    TableGame,
    Violation,
    check_file,
    check_submission,
    load_submission,
    submission_from_data,
)

__all__ = [
    "PROCEDURE",
    "Action",
    "Bet",
    "DealtCards",
    "Event",
    "Phase",
    "RulesSubmission",
    "TableGame",
    "TableRound",
    "Violation",
    "check_file",
    "check_submission",
    "load_submission",
    "settle_file",
    "settle_record",
    "submission_from_data",
]
