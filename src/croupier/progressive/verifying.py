"""Verifying the ledger (58 Pa. Code § 605a.7): the whole-ledger audit against the chain, the
copy of its head and signed checkpoints, the configuration check of each progressive, and the
checkpoint itself — :class:`VerifyingLedger`, the part of :class:`~croupier.progressive.ledger.
Ledger` that reads the log to vouch for it (split from :mod:`croupier.progressive.ledger` along
that seam: the writes stay there)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection

import croupier.progressive.schema as t
from croupier.errors import LedgerError, LedgerHaltedError, LedgerIntegrityError
from croupier.paytables import MeterLevel
from croupier.progressive.audit import AuditReport, audit
from croupier.progressive.checkpoint import (
    ENV_CHECKPOINT_DIR,
    Checkpoint,
    automatic_folder,
    checkpoint_dir,
    document,
    prunable,
    read,
    read_state,
)
from croupier.progressive.configuration import ledger_check
from croupier.progressive.core import LedgerBase
from croupier.progressive.meters import LevelState
from croupier.progressive.model import SignificantCode
from croupier.progressive.significant import log_mismatch, try_record, write_automatic
from croupier.progressive.store import HALTED_MISSING, create_head, head_trouble

__all__ = ["VerifyingLedger"]

_FIRST = sa.select(t.ledger_events.c.mac).where(t.ledger_events.c.seq == 1)


class VerifyingLedger(LedgerBase):
    """The ledger's verification: :meth:`audit`, :meth:`verify_all`, :meth:`checkpoint`."""

    def audit(
        self, *, checkpoints: Sequence[Checkpoint] = (), accept_missing_head: bool = False
    ) -> AuditReport:
        """Check the whole ledger against its log (:func:`~croupier.progressive.audit.audit`):
        the chain (with the key, when it is here; and against the copy of its head kept beside
        the key, which a ledger with events must have — :meth:`head_trouble` — unless
        ``accept_missing_head``), who did what, every derived table, and each of
        ``checkpoints`` (:mod:`~croupier.progressive.checkpoint`).
        :class:`~croupier.errors.LedgerIntegrityError` naming the first thing that differs."""
        trouble = None if accept_missing_head else self.head_trouble()
        if trouble is not None:
            raise LedgerHaltedError(trouble, HALTED_MISSING)
        with self._snapshot() as conn:
            return audit(conn, self.key, self.kept_head(), checkpoints)

    @contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            if self.dialect == "postgresql":
                # one snapshot for every table read: linked tables writing meanwhile (a
                # controller's start-up audits while the others play) cannot show the log at one
                # moment and a derived table at the next
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            yield conn

    def checkpoint(self, *, actor: str | None = None) -> dict[str, Any]:
        """A signed checkpoint of the ledger's head as it is now (:mod:`~croupier.progressive.
        checkpoint`), made only after the whole ledger verified (:meth:`audit`, in the same
        snapshot the checkpoint records): an auditor keeps it off the box, and
        ``verify(checkpoints=…)`` later fails if the log no longer holds that head.
        :class:`~croupier.errors.LedgerKeyError` without the ledger key; a failed audit is
        recorded (``verification-failure``) and raised."""
        key = self._require_key()
        try:
            trouble = self.head_trouble()
            if trouble is not None:
                raise LedgerHaltedError(trouble, HALTED_MISSING)
            with self._snapshot() as conn:
                audit(conn, key, self.kept_head())
                state = read_state(conn)
        except LedgerIntegrityError as exc:
            detail = {"during": "checkpoint", "error": str(exc)}
            try_record(self, SignificantCode.VERIFICATION_FAILURE, actor=actor, detail=detail)
            raise
        return document(key, state)

    def verify(
        self, progressive: str, *, actor: str | None = None, table: str | None = None
    ) -> dict[MeterLevel, LevelState]:
        """:meth:`verify_all` for ``progressive``'s configuration; its levels as replayed."""
        self.definition(progressive)
        report = self.verify_all([progressive], actor=actor, table=table)
        return report.levels[progressive]

    def verify_all(
        self,
        progressives: Sequence[str] | None = None,
        *,
        actor: str | None = None,
        table: str | None = None,
        checkpoints: Sequence[Checkpoint] = (),
        accept_missing_head: bool = False,
    ) -> AuditReport:
        """:meth:`audit` (with ``checkpoints``), and the running configuration of each of
        ``progressives`` (default: every one) compared with its approved digests. A failure is
        recorded as a significant event (``verification-failure``; a ``configuration-mismatch``
        for each progressive that differs) before it is raised:
        :class:`~croupier.errors.LedgerIntegrityError`,
        :class:`~croupier.errors.ConfigurationMismatchError` (the first that differs).

        ``accept_missing_head``: the operator says this ledger never had a copy of its chain
        head (or it was lost, and they know why): the whole ledger is verified without it and,
        if it verifies, the copy is made anew at the head verified — the report's
        ``head_recreated`` names it — and that is recorded as a ``head-copy-recreated``
        significant event; an unreadable copy is first moved aside, kept as evidence."""
        missing = accept_missing_head and self.head_trouble() is not None
        try:
            report = self.audit(checkpoints=checkpoints, accept_missing_head=accept_missing_head)
        except LedgerIntegrityError as exc:
            try_record(
                self,
                SignificantCode.VERIFICATION_FAILURE,
                table=table,
                actor=actor,
                detail={"during": "verify", "error": str(exc)},
            )
            raise
        if missing:
            report = self._remake_head(report, actor)
        names = self.names() if progressives is None else list(progressives)
        bad = [c for c in (ledger_check(self, self.definition(n)) for n in names) if not c.ok]
        for c in bad:
            log_mismatch(self, c, table=table, actor=actor, once=False)
        if bad:
            raise bad[0].error()
        return report

    def automatic_checkpoints(self) -> tuple[Path | None, list[Checkpoint]]:
        """The location ``$CROUPIER_CHECKPOINT_DIR`` (``None`` when unset) and the automatic
        checkpoints of this ledger kept there (its ``<ledger>/`` folder; none when the ledger
        holds no event or the folder is not there); :class:`~croupier.errors.InputFileError`
        naming a file there that is not a checkpoint."""
        where = checkpoint_dir()
        if where is None:
            return None, []
        with self.engine.connect() as conn:
            first = conn.execute(_FIRST).scalar()
        if first is None:
            return where, []
        folder = automatic_folder(where, str(first))
        if not folder.is_dir() or not any(folder.glob("*.json")):
            return where, []
        return where, read([folder])

    def prune_checkpoints(self, keep: int) -> tuple[Path, list[Path]]:
        """Remove from ``$CROUPIER_CHECKPOINT_DIR`` this ledger's automatic checkpoints the
        retention rule lets go (:func:`~croupier.progressive.checkpoint.prunable`: security
        ones older than the newest ``keep``), only once every one there is held by the log
        (:meth:`audit`: a :class:`~croupier.errors.CheckpointError` removes nothing — evidence
        of a rollback is never pruned); the location and the files removed.
        :class:`~croupier.errors.LedgerError` when no location is set."""
        where, automatic = self.automatic_checkpoints()
        if where is None:
            raise LedgerError(
                f"--prune: ${ENV_CHECKPOINT_DIR} is not set: there is no location to prune"
            )
        self.audit(checkpoints=automatic)
        gone: list[Path] = []
        for c in prunable(automatic, keep):
            Path(c.source).unlink(missing_ok=True)
            gone.append(Path(c.source))
        return where, gone

    def _anchor(self, reason: str) -> None:
        write_automatic(self, reason)

    def _remake_head(self, report: AuditReport, actor: str | None) -> AuditReport:
        """Make the copy of the chain head anew at ``report``'s head, which the audit verified
        (writers refuse the ledger while it is missing, so the head has not moved), and record
        it; an unreadable copy is renamed ``<head>.unreadable-<time>`` first."""
        path = self.head_file
        assert path is not None  # head_trouble is None in memory
        was = head_trouble(path) or "is missing"
        if path.exists():
            path.rename(path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%dT%H%M%S')}"))
        made = create_head(path, report.events, report.head_mac)
        if made:
            detail = {
                "head_file": str(path),
                "seq": report.events,
                "head_mac": report.head_mac,
                "was": was,
            }
            try_record(self, SignificantCode.HEAD_COPY_RECREATED, actor=actor, detail=detail)
        kept = self.kept_head()  # past the recreation's own event, when it was recorded
        now_kept = kept[0] if kept is not None else report.events
        return replace(report, head_recreated=str(path) if made else None, head_kept=now_kept)
