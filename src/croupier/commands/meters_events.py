"""``croupier meters events``: the significant events of the progressive controller (GLI-13;
N.J.A.C. 13:69D-1.52, NY 9 NYCRR 5320.8; docs/interpretations.md): start-up self-checks,
verification failures, configuration mismatches, recoveries after a crash, shutdowns, failed
logins and lockouts (NIST SP 800-63B § 5.2.2) — each with its table, code, time and actor.
Read by a shift manager or an auditor only, who names themselves with ``--as`` and gives their
credential as every ``--as`` does (:data:`croupier.progressive.significant.READER`: the events
name members and client addresses; NIST SP 800-53 AU-9(4)), as ``GET /significant-events``.
Registered on :data:`croupier.commands.meters.meters_app` when imported: the ``meters`` entry of
:data:`croupier.commands.COMMANDS` lists this module."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from croupier.commands.common import out, shown
from croupier.commands.meters import (
    AsUser,
    DbOpt,
    JsonOut,
    PasswordFile,
    _ledger,
    login,
    meters_app,
)
from croupier.errors import InputError
from croupier.operations.progressives import significant_events
from croupier.progressive import SignificantCode
from croupier.progressive.significant import check_reader
from croupier.progressive.views import significant_dict


def _summary(code: str, d: dict[str, Any]) -> str:
    if code == SignificantCode.STARTUP_SELF_CHECK.value:
        extra = f", mismatched: {', '.join(d['mismatched'])}" if d.get("mismatched") else ""
        return f"{d.get('result')}: {d.get('events', '?')} events checked{extra}"
    if code == SignificantCode.CONFIGURATION_MISMATCH.value:
        return "; ".join(d.get("differences", []))
    if code == SignificantCode.CRASH_RECOVERY.value:
        return (
            f"session {str(d.get('crashed_session'))[:8]} (pid {d.get('crashed_pid')}) "
            f"recovered: {d.get('replayed_events')} events replayed"
        )
    if code == SignificantCode.VERIFICATION_FAILURE.value:
        return f"during {d.get('during')}: {d.get('error')}"
    if code == SignificantCode.LOGIN_FAILURE.value:
        who = d.get("user") or "a name that is no member's"
        return f"{who} from {d.get('client') or 'the command line'}"
    if code == SignificantCode.LOGIN_LOCKOUT.value:
        who = d.get("user") or d.get("client")
        wait = f"{d['seconds']} s" if d.get("seconds") else "until a new credential"
        return f"{d.get('scope')} {who} locked out for {wait} after {d.get('failures')} failures"
    if code == SignificantCode.HEAD_COPY_RECREATED.value:
        return f"{d.get('head_file')} made anew at event {d.get('seq')} ({d.get('was')})"
    if code in (SignificantCode.CHECKPOINT_FAILURE.value, SignificantCode.CHECKPOINT_RESUMED.value):
        return f"{d.get('location')}: {d.get('error') or d.get('checkpoint')}"
    return f"session {str(d.get('session', ''))[:8]}"


@meters_app.command()
def events(
    ctx: typer.Context,
    as_name: AsUser,
    name: Annotated[str | None, typer.Option("--name", help="Only this progressive's.")] = None,
    code: Annotated[
        str | None,
        typer.Option(
            "--code",
            help="Only this code: startup-self-check, verification-failure, "
            "configuration-mismatch, crash-recovery, shutdown, login-failure, login-lockout, "
            "head-copy-recreated, checkpoint-failure or checkpoint-resumed.",
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the last N.")] = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
    password_file: PasswordFile = None,
) -> None:
    """The significant events of the progressive controller (GLI-13; N.J.A.C. 13:69D-1.52, NY 9
    NYCRR 5320.8): start-up self-checks, verification failures, configuration mismatches,
    recoveries after a crash, failed logins and lockouts, each with its table, code, time and
    actor. A shift manager or an auditor reads them (--as; NIST SP 800-53 AU-9(4))."""
    codes = {c.value for c in SignificantCode}
    if code is not None and code not in codes:
        raise InputError(f"unknown code {code!r} (expected one of {', '.join(sorted(codes))})")
    if limit is not None and limit < 1:
        raise InputError(f"--limit must be 1 or more, not {limit}")
    with _ledger(ctx, db) as ledger:
        who = login(ledger, as_name, password_file)
        check_reader(who.name, who.role)  # before anything is looked up
        found = significant_events(ledger, name, code, limit)
    rows = [significant_dict(e) for e in found]
    if json_out:
        print(json.dumps({"events": rows}, indent=2, ensure_ascii=False))
        return
    if not rows:
        out.print("no significant events")
        return
    t = Table(title="Significant events (GLI-13; N.J.A.C. 13:69D-1.52)", title_justify="left")
    for col in ("Seq", "At (UTC)", "Code", "Progressive", "Table", "By", "What"):
        t.add_column(col, justify="right" if col == "Seq" else "left")
    for r in rows:
        t.add_row(
            str(r["seq"]),
            r["at"][:19],
            r["code"],
            shown(r["progressive"] or ""),
            shown(r["table"] or ""),
            shown(r["by"] or "(controller)"),
            shown(_summary(r["code"], r["detail"])),
        )
    out.print(t)
