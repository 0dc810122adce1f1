"""Configuration digests enforced: a progressive plays only under its approved configuration.

When a progressive is created its definition stores the SHA-256 of the paytable's data it was
made from (:func:`~croupier.paytables.paytable_digest`) and, when it is offered under a Rules
Submission, of the submission (:func:`~croupier.table.submission.submission_digest`): the
approved configuration (58 Pa. Code § 601a.2, § 605a.7; NY 9 NYCRR 5321.18, N.J.A.C.
13:69E-1.39C — GLI-13's configuration check). The *running* configuration is what this process
would play: the paytable the package's wagers hold today for the definition's section, paytable
and deck count (found through the registry), and the submission digest the ledger was opened with
(``Ledger(…, submission_sha256=…)`` / :meth:`~croupier.progressive.Ledger.open`).

:func:`check_configuration` compares them; :func:`require_configuration` raises
:class:`~croupier.errors.ConfigurationMismatchError` (citing the rule) when they differ, which is
what accepting a wager does, so no round is played under a configuration that was not approved.
A definition stored before the digests existed has none and is not compared; a submission digest
is compared only when the ledger knows the running one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from croupier.errors import ConfigurationMismatchError, CroupierError
from croupier.paytables import paytable_digest
from croupier.progressive.model import ProgressiveDefinition
from croupier.wagers import all_wagers

if TYPE_CHECKING:
    from croupier.progressive.core import LedgerBase

CONFIGURATION_RULE = "605a.7"
"""The PA rule a configuration mismatch is cited to (the progressive table game system)."""
OTHER_RULES = "NY 9 NYCRR 5321.18, N.J.A.C. 13:69E-1.39C"
"""The other states' rules the check follows where § 605a.7's text is not in the seeds."""
RECONFIGURATION_RULE = "NY 9 NYCRR 5321.18(b)(4)"
"""The rule a progressive's parameters change by (a recorded reconfiguration of a suspended
link), cited after § 605a.7 or § 605a.8 (:func:`croupier.errors.cite`)."""


@functools.lru_cache(maxsize=256)
def running_paytable_digest(section: str, paytable: str, decks: int) -> str | None:
    """The digest of the progressive paytable the registered wagers of § ``section`` hold today
    for ``paytable`` at ``decks`` decks, or ``None`` when none holds it any more."""
    for w in all_wagers():
        if w.section != section:
            continue
        try:
            table = w.book.get(section, paytable, decks)
        except CroupierError:
            continue
        if table.progressive is not None:
            return paytable_digest(table)
    return None


def _short(digest: str | None) -> str:
    return "none" if digest is None else digest[:12] + "…"


@dataclass(frozen=True)
class ConfigurationCheck:
    """The approved and running digests of one progressive's configuration."""

    progressive: str
    section: str
    paytable: str
    approved_paytable: str | None
    running_paytable: str | None
    approved_submission: str | None
    running_submission: str | None

    @property
    def differences(self) -> tuple[str, ...]:
        """What differs, in words (empty: the running configuration is the approved one)."""
        out = []
        if self.approved_paytable is not None and self.running_paytable != self.approved_paytable:
            if self.running_paytable is None:
                out.append(f"paytable {self.paytable} of § {self.section} is no longer offered")
            else:
                out.append(
                    f"paytable {self.paytable} of § {self.section} runs with digest "
                    f"{_short(self.running_paytable)}, approved {_short(self.approved_paytable)}"
                )
        if (
            self.approved_submission is not None
            and self.running_submission is not None
            and self.running_submission != self.approved_submission
        ):
            out.append(
                f"the Rules Submission runs with digest {_short(self.running_submission)}, "
                f"approved {_short(self.approved_submission)}"
            )
        return tuple(out)

    @property
    def ok(self) -> bool:
        """Whether nothing differs."""
        return not self.differences

    def detail(self) -> dict[str, Any]:
        """The check as a significant event's detail."""
        return {
            "paytable_sha256": {
                "approved": self.approved_paytable,
                "running": self.running_paytable,
            },
            "submission_sha256": {
                "approved": self.approved_submission,
                "running": self.running_submission,
            },
            "differences": list(self.differences),
            "rule": f"58 Pa. Code § {CONFIGURATION_RULE}; {OTHER_RULES}",
        }

    def error(self) -> ConfigurationMismatchError:
        """The refusal of play while the configuration differs."""
        return ConfigurationMismatchError(
            f"progressive {self.progressive!r} is not played: its running configuration differs "
            f"from the approved one ({'; '.join(self.differences)}); restore the approved "
            "configuration, or create the progressive anew under an approved one",
            section=CONFIGURATION_RULE,
            also=OTHER_RULES,
        )


def check_configuration(
    defn: ProgressiveDefinition, running_submission: str | None
) -> ConfigurationCheck:
    """Compare ``defn``'s approved digests with the running configuration."""
    running = (
        running_paytable_digest(defn.section, defn.paytable, defn.decks)
        if defn.paytable_sha256 is not None
        else None
    )
    return ConfigurationCheck(
        defn.name,
        defn.section,
        defn.paytable,
        defn.paytable_sha256,
        running,
        defn.submission_sha256,
        running_submission,
    )


def ledger_check(ledger: LedgerBase, defn: ProgressiveDefinition) -> ConfigurationCheck:
    """:func:`check_configuration` with the ledger's running submission, cached per ledger."""
    key = (defn.name, defn.section, defn.paytable, defn.decks, defn.paytable_sha256,
           defn.submission_sha256, ledger.running_submission)  # fmt: skip
    cached = ledger._configuration.get(key)
    if cached is None:
        cached = ledger._configuration[key] = check_configuration(defn, ledger.running_submission)
    return cached


def require_configuration(ledger: LedgerBase, defn: ProgressiveDefinition) -> None:
    """Raise :class:`~croupier.errors.ConfigurationMismatchError` when ``defn``'s running
    configuration is not the approved one."""
    check = ledger_check(ledger, defn)
    if not check.ok:
        raise check.error()
