"""The checking commands' ``--json`` documents: ``check`` (each submission's violations),
``check --digests`` (with its configuration digests) and ``verify-parsheets``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import (
    CITATION_PATTERN,
    SECTION_PATTERN,
    Sha256,
)


class Violation(Shape):
    """one thing a submission gets wrong, with the rule it breaks"""

    message: str
    section: Annotated[str, Field(pattern=SECTION_PATTERN)] | None
    """the paragraph of 58 Pa. Code; null when no rule is at stake"""
    citation: Annotated[str, Field(pattern=CITATION_PATTERN)] | None
    """the section's full citation: "58 Pa. Code § 633b.1(e)"; null when no rule is at stake"""


Violations = Annotated[
    dict[str, list[Violation]],
    Field(description="submission path → its violations (empty: the submission is ok)"),
]
"""``croupier check --json``."""


class SubmissionDigests(Shape):
    """a submission's violations and, when it has none, its configuration digests"""

    violations: list[Violation]
    submission_sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None
    """SHA-256 of the checked submission's canonical data
    (croupier.table.submission.submission_digest); null when it has violations"""
    paytables_sha256: dict[str, Sha256]
    """WAGER:PAYTABLE → SHA-256 of each offered paytable; empty when the submission has
    violations"""


CheckedDigests = Annotated[
    dict[str, SubmissionDigests],
    Field(description="submission path → its violations and digests"),
]
"""``croupier check --json --digests``."""


class VerifiedSheet(Shape):
    """one par sheet: its exact house edge against the simulated one"""

    wager: str
    section: str
    paytable: str
    decks: int | None
    rounds: int = Field(ge=2)
    exact_house_edge: float
    exact_house_edge_fraction: Annotated[str, Field(pattern=r"^-?[0-9]+(/[0-9]+)?$")]
    simulated_house_edge: float
    standard_error: float = Field(ge=0)
    z_score: float | None
    """(simulated - exact house edge) / standard error; null for a zero standard error"""
    chi_square: float = Field(ge=0)
    """Pearson's chi-square statistic of the simulated counts against the exact probabilities
    (outcomes expected fewer than 5 times pooled, as croupier simulate's evidence states)"""
    degrees_of_freedom: int = Field(ge=0)
    """the chi-square test's degrees of freedom: cells - 1"""
    chi_square_p_value: float | None
    """the chi-square test's p-value (shown, not flagged on); null without a degree of freedom"""
    flagged: bool
    target_reached: bool
    """false when --max-rounds stopped the sheet before its standard error reached the target"""
    kernel: bool
    """whether a compiled kernel dealt the rounds (else the numpy simulator)"""


class ParSheetVerification(Shape):
    """``croupier verify-parsheets``: every par sheet simulated to a target standard error"""

    target_se: float = Field(gt=0)
    """the standard error of the house edge (per unit wagered) each sheet is simulated to"""
    max_rounds: int = Field(ge=2)
    """the most rounds dealt for one par sheet"""
    seed_entropy: str = Field(pattern=r"^[0-9]+$")
    """the entropy of the run's numpy SeedSequence (decimal digits; may exceed 2^53)"""
    workers: int = Field(ge=1)
    scheduler: str | None
    flag_z: float
    """a sheet is flagged when |z| exceeds this"""
    sheets: list[VerifiedSheet]
    flagged: int = Field(ge=0)
    """how many sheets are flagged (the exit status is 1 when any is)"""


__all__ = [
    "CheckedDigests",
    "ParSheetVerification",
    "SubmissionDigests",
    "VerifiedSheet",
    "Violation",
    "Violations",
]
