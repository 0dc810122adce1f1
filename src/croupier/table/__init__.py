"""The table: Rules Submissions (§ 601a.2), the regulated round procedure and round records.

>>> from croupier.table import load_submission, TableRound, settle_file
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOME = {
    **dict.fromkeys(("settle_file", "settle_record"), "record"),
    **dict.fromkeys(
        ("PROCEDURE", "Action", "Bet", "DealtCards", "Event", "Phase", "TableRound"), "round"
    ),
    **dict.fromkeys(
        (
            "RulesSubmission",
            "TableGame",
            "Violation",
            "check_file",
            "check_submission",
            "load_submission",
            "submission_from_data",
        ),
        "submission",
    ),
}
"""Each re-exported name → its module, imported on first use (start-up time: ``croupier check``
needs the submission, not the round procedure)."""


def __getattr__(name: str) -> Any:
    """The re-exported ``name``, its module imported now."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"croupier.table.{home}"), name)
    globals()[name] = value
    return value


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
