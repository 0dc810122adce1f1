"""Simulation as evidence (issue 30): what a test lab attaches beside the exact par sheet.

Two calls:

* :func:`simulation_evidence` ``(exact, simulated, run) -> Evidence`` sets a simulated par sheet
  against the exact one (:mod:`croupier.analysis.evidence_stats`): the return's confidence
  intervals at 90, 95 and 99 %, observed against expected counts per outcome, Pearson's
  chi-square goodness-of-fit test (rare outcomes pooled by :data:`POOLING_RULE`; the p-value from
  SciPy, imported only then) and the run's record (:class:`RunInfo`: generator, seed, chunks,
  versions); :meth:`Evidence.to_dict` is the ``evidence`` of ``croupier simulate --json``,
  :meth:`Evidence.document` the whole document;
* :func:`write_evidence` ``(evidence, out_dir) -> list[Path]`` writes it as JSON, CSV and HTML
  (:mod:`croupier.analysis.evidence_report`), as ``croupier simulate --out DIR`` does.
"""

from __future__ import annotations

from croupier.analysis.evidence_report import evidence_stem, write_evidence
from croupier.analysis.evidence_stats import (
    ALPHA,
    MINIMUM_EXPECTED,
    POOLING_RULE,
    Cell,
    Evidence,
    GoodnessOfFit,
    OutcomeCheck,
    ReturnInterval,
    RunInfo,
    chi_square_p_value,
    goodness_of_fit,
    outcome_checks,
    pooled_cells,
    return_intervals,
    run_info,
    simulation_evidence,
)

__all__ = [
    "ALPHA",
    "MINIMUM_EXPECTED",
    "POOLING_RULE",
    "Cell",
    "Evidence",
    "GoodnessOfFit",
    "OutcomeCheck",
    "ReturnInterval",
    "RunInfo",
    "chi_square_p_value",
    "evidence_stem",
    "goodness_of_fit",
    "outcome_checks",
    "pooled_cells",
    "return_intervals",
    "run_info",
    "simulation_evidence",
    "write_evidence",
]
