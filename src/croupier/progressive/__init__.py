"""The progressive table game system (58 Pa. Code § 605a.7, § 605a.8; § 633b.2(d)–(j),
§ 633b.3(d)–(j)): meters, envy bonuses, linked tables and floorperson validation on a durable,
append-only ledger.

* :mod:`~croupier.progressive.model` — a :class:`ProgressiveDefinition` built from a paytable of
  the regulation (levels with seed/reseed, primary and secondary increment rates, pay lines, envy
  amounts), roles, statuses and the readings chosen where the regulation is silent.
* :mod:`~croupier.progressive.meters` — the pure meter arithmetic: contributions, awards in the
  regulated order, envy bonuses, resets, and the :class:`Replayer` that rebuilds every meter
  from the event log.
* :mod:`~croupier.progressive.ledger` — the :class:`Ledger` (SQLAlchemy; SQLite file by default,
  PostgreSQL by URL; Alembic migrations shipped in the package), built on
  :mod:`~croupier.progressive.store` (database, ledger key, the events' HMAC chain) and
  :mod:`~croupier.progressive.core` (transactions, staff with argon2 credentials,
  :mod:`~croupier.progressive.staff`); :mod:`~croupier.progressive.audit` replays the whole
  ledger for ``verify``; :mod:`~croupier.progressive.records` holds what it returns.
* :mod:`~croupier.progressive.meterset` — the § 605a.7(a) meters of each progressive and level
  (:meth:`Ledger.meters`), from the stored level states and running totals
  (:mod:`~croupier.progressive.totals`, moved with the events that make them) or replayed from
  the log (:meth:`Ledger.replay_meters`, what ``verify`` compares them with).
* :mod:`~croupier.progressive.rounds` — the per-progressive procedure :class:`ProgressiveSystem`
  the table engine calls: ``accept_wagers`` → ``lock_out`` → ``verify_chips`` → ``settle_round``
  (one transaction, idempotency key) → ``validate``.
* :mod:`~croupier.progressive.longrun` — the long-run return of a progressive paytable.
* :mod:`~croupier.progressive.configuration` — the approved configuration's digests (paytable,
  Rules Submission) compared with the running one; play refused while they differ.
* :mod:`~croupier.progressive.significant` — significant events (start-up self-check,
  verification failure, configuration mismatch, crash recovery) and :meth:`Ledger.open`'s
  sessions.
* :mod:`~croupier.progressive.views` — the JSON of a status, award and event, and the parsing of
  a paytable spec and a signed amount, for ``croupier meters`` and the HTTP service.

Layering: this package imports from :mod:`croupier.paytables`, :mod:`croupier.wagers`,
:mod:`croupier.analysis` and (the views, for the progressive wagers) :mod:`croupier.table`;
:mod:`croupier.cli` (``croupier meters``) imports it.
"""

from croupier.analysis.meters import ReseedFunding
from croupier.progressive.audit import AuditReport
from croupier.progressive.configuration import ConfigurationCheck
from croupier.progressive.ledger import Ledger
from croupier.progressive.login import LoginPolicy
from croupier.progressive.meters import LevelState, Replayer, settlement_order
from croupier.progressive.meterset import LevelMeters, ProgressiveMeters
from croupier.progressive.model import (
    MICROS_PER_CENT,
    AwardKind,
    AwardStatus,
    EnvyRule,
    EventKind,
    HitPolicy,
    LevelDefinition,
    LineRule,
    ProgressiveDefinition,
    QualifyingHand,
    ResetTiming,
    Role,
    RoundStatus,
    SignificantCode,
    format_micros,
)
from croupier.progressive.records import (
    Award,
    Contribution,
    LedgerEvent,
    ProgressiveStatus,
    RoundSettlement,
    RoundView,
    StaffMember,
)
from croupier.progressive.roster import LoggedMember
from croupier.progressive.rounds import ProgressiveSystem
from croupier.progressive.store import default_key_file, default_url

__all__ = [
    "MICROS_PER_CENT",
    "AuditReport",
    "Award",
    "AwardKind",
    "AwardStatus",
    "ConfigurationCheck",
    "Contribution",
    "EnvyRule",
    "EventKind",
    "HitPolicy",
    "Ledger",
    "LedgerEvent",
    "LevelDefinition",
    "LevelMeters",
    "LevelState",
    "LineRule",
    "LoggedMember",
    "LoginPolicy",
    "ProgressiveDefinition",
    "ProgressiveMeters",
    "ProgressiveStatus",
    "ProgressiveSystem",
    "QualifyingHand",
    "Replayer",
    "ReseedFunding",
    "ResetTiming",
    "Role",
    "RoundSettlement",
    "RoundStatus",
    "RoundView",
    "SignificantCode",
    "StaffMember",
    "default_key_file",
    "default_url",
    "format_micros",
    "settlement_order",
]
