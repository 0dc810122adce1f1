"""``croupier meters``: the progressive table game system's meters, history and validations.

* ``croupier meters`` — every progressive: levels with meter, held, available, reserve, paid to
  date; pending awards; ``--history`` adds the ledger's events.
* ``croupier meters create --paytable match-the-dealer:1 --decks 6 --amount 5 --name mtd-5
  --table BJ-1`` (the paytable as WAGER:ID or SECTION:ID, e.g. ``633b.3:1``)
* ``croupier meters bootstrap NAME`` — the first shift manager, once, on a ledger with no staff.
* ``croupier meters login --as NAME`` — check a staff member's credential and show their role.
* ``croupier meters link NAME TABLE --as SHIFT_MANAGER`` — link another table (§ 605a.8).
* ``croupier meters user NAME --role floorperson --as SHIFT_MANAGER`` — add a staff member;
  ``--remove``, ``--set-role ROLE``, ``--new-credential`` and ``croupier meters users``
  (:mod:`croupier.commands.meters_staff`).
* ``croupier meters validate AWARD --as USER`` — a floorperson or above validates a pending
  award, which is then paid (§ 633b.2(h)(3)); ``croupier meters void AWARD --as USER --reason …``.
* ``croupier meters adjust NAME --level L --meter ±D --reason … --as PIT_MANAGER`` (§ 605a.7(a)(6)).
* ``croupier meters verify`` — replay the whole ledger and check every table and the chain.

Every command that changes the ledger authenticates the staff member it names with ``--as``: the
credential (password or PIN) is read from the file ``--password-file`` (or
``$CROUPIER_PASSWORD_FILE``), else from ``$CROUPIER_PASSWORD``, else asked for at the terminal.
A new member's credential (``meters user``) comes from ``--new-password-file``
(``$CROUPIER_NEW_PASSWORD_FILE``), else ``$CROUPIER_NEW_PASSWORD``, else the terminal, twice.

Only ``meters bootstrap`` creates a ledger; every other command (and ``croupier settle
--progressive``) opens an existing one, and a ``--db`` naming none is one error line, nothing
created. Every command takes ``--db URL`` (default ``$CROUPIER_DB``, else the SQLite file
``~/.local/share/croupier/progressive.sqlite3``, under ``$XDG_DATA_HOME`` if set) and ``--json``.
The ledger key is ``$CROUPIER_LEDGER_KEY_FILE``, else beside a SQLite file (``….key``), else
under ``$XDG_DATA_HOME/croupier/keys/`` (:func:`croupier.progressive.default_key_file`).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.commands.common import app, err, out, where
from croupier.commands.meters_report import ReportFormat, write_report
from croupier.commands.meters_view import _print_history, _print_status
from croupier.errors import (
    AuthenticationError,
    CroupierError,
    InputError,
    LedgerError,
    LedgerKeyError,
    one_line,
)
from croupier.operations.progressives import REPORT_READER, check_reader, reconcile_progressives
from croupier.operations.rounds import settle_on_ledger
from croupier.progressive import (
    EnvyRule,
    HitPolicy,
    Ledger,
    ReseedFunding,
    ResetTiming,
    RoundSettlement,
    StaffMember,
    default_url,
    format_micros,
)
from croupier.progressive.create import new_definition
from croupier.progressive.offers import (
    check_named_take,
    check_one_meter_per_wager,
    progressives_for,
)
from croupier.progressive.views import (
    award_dict,
    event_dict,
    signed_cents,
    status_dict,
)
from croupier.table.progressive import round_id_of, wager_of
from croupier.table.round import TableRound
from croupier.table.submission import load_submission, submission_digest
from croupier.units import format_money, parse_time
from croupier.wagers import ProgressiveStake

meters_app = typer.Typer(
    help="The progressive table game system (58 Pa. Code § 605a.7, § 605a.8): meters, linked "
    "tables, pending awards and floorperson validation, on a durable ledger.",
    no_args_is_help=False,
    invoke_without_command=True,
)
app.add_typer(meters_app, name="meters")

DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="CROUPIER_DB",
        help="Ledger database URL: sqlite:///path/file.sqlite3 or "
        "postgresql+psycopg://user@host/db (default: "
        "$XDG_DATA_HOME/croupier/progressive.sqlite3; without XDG_DATA_HOME, "
        "~/.local/share/croupier/progressive.sqlite3).",
    ),
]
JsonOut = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
AsUser = Annotated[
    str, typer.Option("--as", help="The staff member doing it; their credential is asked for.")
]
PasswordFile = Annotated[
    Path | None,
    typer.Option(
        "--password-file",
        envvar="CROUPIER_PASSWORD_FILE",
        help="Read the --as member's credential from this file (else $CROUPIER_PASSWORD, else "
        "the terminal asks).",
    ),
]
NewPasswordFile = Annotated[
    Path | None,
    typer.Option(
        "--password-file",
        envvar="CROUPIER_PASSWORD_FILE",
        help="Read the new shift manager's credential from this file (else $CROUPIER_PASSWORD, "
        "else the terminal asks, twice).",
    ),
]
ENV_PASSWORD = "CROUPIER_PASSWORD"
ENV_NEW_PASSWORD = "CROUPIER_NEW_PASSWORD"


def _ledger(ctx: typer.Context, db: str | None, *, create: bool = False) -> Ledger:
    """The ledger at ``--db``. Only ``meters bootstrap`` creates one (``create``); every other
    command opens an existing ledger, and a ``--db`` that names none is one error line
    (:class:`~croupier.errors.LedgerLookupError`), nothing created."""
    url = db or (ctx.obj or {}).get("db") or default_url()
    return Ledger(url, create=create)


def read_credential(
    name: str, path: Path | None, *, env: str = ENV_PASSWORD, confirm: bool = False
) -> str:
    """The credential of ``name``: the first line of ``path``, else ``$env``, else asked for at
    the terminal (twice with ``confirm``). :class:`~croupier.errors.AuthenticationError` when
    none is given and there is no terminal to ask at."""
    if path is not None:
        from croupier.errors import InputFileError
        from croupier.inputs import read_text

        try:  # a regular UTF-8 file of at most 4 KiB: one line of credential
            text = read_text(path, max_bytes=4096)
        except InputFileError as exc:
            raise AuthenticationError(f"the credential file: {exc}") from exc
        return text.splitlines()[0] if text else ""
    value = os.environ.get(env)
    if value:
        return value
    if not sys.stdin.isatty():
        raise AuthenticationError(
            f"no credential for {name}: give --password-file, set ${env}, or run at a terminal"
        )
    return str(
        typer.prompt(
            f"credential (password or PIN) for {name}", hide_input=True, confirmation_prompt=confirm
        )
    )


def login(ledger: Ledger, name: str, path: Path | None) -> StaffMember:
    """Authenticate ``name`` on ``ledger`` with the credential :func:`read_credential` finds."""
    return ledger.authenticate(name, read_credential(name, path))


def _done(json_out: bool, data: dict[str, Any], text: str) -> None:
    """What a command that changed the ledger did: ``data`` as JSON, else ``text`` (one line:
    the names in it printed as :func:`croupier.commands.common.shown` prints them)."""
    if json_out:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        out.print(one_line(text))


@meters_app.callback()
def meters(
    ctx: typer.Context,
    db: DbOpt = None,
    name: Annotated[str | None, typer.Option("--name", help="Show only this progressive.")] = None,
    history: Annotated[
        bool,
        typer.Option(
            "--history",
            help="Also show the ledger's events (the significant events: `croupier meters "
            "events --as NAME`, for a shift manager or an auditor).",
        ),
    ] = False,
    limit: Annotated[
        int | None, typer.Option("--limit", help="Only the last N events of the history.")
    ] = None,
    json_out: JsonOut = False,
) -> None:
    """Show every progressive's meters (§ 605a.7(a)): per level the meter shown to players, held
    for pending awards, available, reserve, limit and overflow, paid by an attendant, cumulative
    payouts, qualifying wagers, hits and wins; paid by the table; pending awards; with
    --history, the ledger's events."""
    ctx.obj = {"db": db}
    if ctx.invoked_subcommand is not None:
        return
    with _ledger(ctx, db) as ledger:
        names = [name] if name else ledger.names()
        snapshots = [ledger.snapshot(n) for n in names]  # stored state: no replay of the log
        statuses = [s for s, _ in snapshots]
        meter_sets = [m for _, m in snapshots]
        # the significant events are `croupier meters events --as NAME`'s, a shift manager's
        # or an auditor's (they name members and client addresses): not shown here
        events = ledger.history(name, limit, significant=False) if history else []
        if json_out:
            data: dict[str, Any] = {
                "database": ledger.display_url,
                "progressives": [
                    status_dict(s, m, ledger.suspension(n))
                    for n, s, m in zip(names, statuses, meter_sets, strict=True)
                ],
            }
            if history:
                data["history"] = [event_dict(e) for e in events]
            print(json.dumps(data, indent=2, ensure_ascii=False))
            return
        if not statuses:
            out.print(
                f"No progressive in {ledger.display_url}. Create one with "
                "`croupier meters create --paytable match-the-dealer:1 --decks 6 "
                "--amount 5 --name NAME --table TABLE`."
            )
        for s, m in zip(statuses, meter_sets, strict=True):
            _print_status(s, m)
        if history:
            _print_history(events)


@meters_app.command()
def create(
    ctx: typer.Context,
    paytable: Annotated[
        str,
        typer.Option(
            "--paytable",
            "-p",
            help="SECTION:PAYTABLE or WAGER:PAYTABLE of the regulation, e.g. 633b.3:1, "
            "match-the-dealer:1 or jackpot-party:P17-A.",
        ),
    ],
    decks: Annotated[int, typer.Option("--decks", "-d", help="The table's deck count.")],
    amount: Annotated[
        str, typer.Option("--amount", "-a", help="The progressive wager's stake in dollars.")
    ],
    name: Annotated[str, typer.Option("--name", help="A name for the progressive.")],
    table: Annotated[
        list[str] | None,
        typer.Option("--table", "-t", help="A table id to link (repeatable; § 605a.8)."),
    ] = None,
    reset_timing: Annotated[
        ResetTiming,
        typer.Option(
            "--reset-timing",
            help="When a share award leaves the meter and a 100% award resets it.",
        ),
    ] = ResetTiming.ON_VALIDATION,
    envy: Annotated[
        EnvyRule, typer.Option("--envy", help="Envy bonuses per player per round.")
    ] = EnvyRule.EACH,
    stake: Annotated[
        ProgressiveStake,
        typer.Option("--progressive-stake", help="Whether a meter award returns the stake."),
    ] = ProgressiveStake.COLLECTED,
    reseed: Annotated[
        ReseedFunding,
        typer.Option(
            "--reseed",
            help="Who funds a level's reset after a 100% award: the reserve (the house tops it "
            "up to the seed) or a new seed from the house, the reserve on top.",
        ),
    ] = ReseedFunding.RESERVE,
    submission: Annotated[
        Path | None,
        typer.Option(
            "--submission",
            help="The Rules Submission (TOML) the progressive is offered under: its digest is "
            "stored with the paytable's, and play is refused while the running one differs.",
        ),
    ] = None,
    hit_policy: Annotated[
        HitPolicy | None,
        typer.Option(
            "--hit-policy",
            help="Near-simultaneous 100% hits at linked tables: the first takes the meter and "
            "the next the reseeded value, or they share the first's value (needs --reset-timing "
            "on-award: the link is reseeded at the hit).",
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            help="A level's progressive limit (ceiling), LEVEL=DOLLARS or DOLLARS for a "
            "one-level progressive (repeatable; § 605a.7(a)): contributions above it go to the "
            "reserve, counted on the overflow meter.",
        ),
    ] = None,
    by: Annotated[str, typer.Option("--as", help="The shift manager creating it (§ 605a.7).")] = "",
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Create a progressive from a paytable of the regulation, its levels at their seeds; a shift
    manager does it. (``POST /progressives`` creates the same: :mod:`croupier.progressive.create`
    is both.)"""
    definition = new_definition(
        paytable,
        decks=decks,
        amount=amount,
        name=name,
        reset_timing=reset_timing,
        envy=envy,
        stake=stake,
        reseed=reseed,
        hit_policy=hit_policy,
        limits=[_limit_spec(spec) for spec in limit or []],
        submission=None if submission is None else load_submission(submission),
    )
    with _ledger(ctx, db) as ledger:
        who = login(ledger, _required_as(by), password_file)
        ledger.create_progressive(definition, tables=table or [], by=who.name)
        status, m = ledger.snapshot(definition.name)
        if json_out:
            shown = status_dict(status, m, ledger.suspension(definition.name))
            print(json.dumps(shown, indent=2, ensure_ascii=False))
            return
        _print_status(status, m)


def _submission_digest(path: Path) -> str:
    """The digest of the Rules Submission at ``path`` (checked as ``croupier check`` does)."""
    return submission_digest(load_submission(path))


def _limit_spec(spec: str) -> tuple[str | None, str]:
    """``--limit LEVEL=DOLLARS`` → ``(LEVEL, DOLLARS)``; ``--limit DOLLARS`` (a one-level
    progressive's) → ``(None, DOLLARS)``."""
    level, sep, dollars = spec.rpartition("=")
    return (level, dollars) if sep else (None, dollars)


@meters_app.command()
def link(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The progressive.")],
    table: Annotated[str, typer.Argument(help="The table id to link (§ 605a.8).")],
    by: Annotated[str, typer.Option("--as", help="The shift manager.")] = "",
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Link a table to a progressive's meters (§ 605a.8); a shift manager does it."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, _required_as(by), password_file)
        ledger.link_table(name, table, by=who.name)
        _done(
            json_out,
            {"progressive": name, "table": table, "linked_by": who.name},
            f"table {table} linked to {name}",
        )


@meters_app.command()
def bootstrap(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The first shift manager's name.")],
    password_file: NewPasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Create the first shift manager, once, on a ledger with no staff (their credential from
    --password-file, $CROUPIER_PASSWORD or the terminal, twice)."""
    # the credential first: a bootstrap that cannot read one leaves no ledger (nor key) behind
    credential = read_credential(name, password_file, confirm=True)
    with _ledger(ctx, db, create=True) as ledger:
        member = ledger.bootstrap(name, credential)
        key = str(ledger.key_file) if ledger.key_file else None
        _done(
            json_out,
            {"user": member.name, "role": member.role.value, "key_file": key},
            f"{member.name} is the ledger's first {member.role.value}; the ledger key is "
            f"{key or 'held in memory'}",
        )


@meters_app.command("login")
def login_command(
    ctx: typer.Context,
    by: AsUser,
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Check a staff member's credential and show their role (what every --as does)."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        _done(
            json_out,
            {"user": who.name, "role": who.role.value, "authenticated": True},
            f"{who.name} authenticated: {who.role.value}",
        )


def feed_rounds(
    rounds: list[tuple[Path, TableRound]],
    progressives: list[str],
    *,
    table: str,
    by: str,
    password_file: Path | None,
    db: str | None,
    quiet: bool = False,
) -> tuple[dict[Path, TableRound], set[Path], int]:
    """``croupier settle --progressive``: feed each round file to each progressive, each file on
    its own — a ledger error in one file is one error line (file, progressive, error) and the
    others are still fed. A progressive bet no named progressive takes feeds the progressive
    linked to the table that takes it; with none, the file is refused (§ 605a.8): what the ledger
    stores never values a progressive wager at the seed. A progressive named that takes none of
    a round's progressive bets refuses the file (:func:`~croupier.progressive.offers.
    check_named_take`). Each round is settled on the ledger by the use case ``POST
    /rounds/settle`` shares (:func:`~croupier.operations.rounds.settle_on_ledger`). The dealer
    ``by`` is authenticated once. Returns every file fed, its round with the ledger's amounts on
    its progressive lines (:func:`~croupier.table.progressive.with_ledger_amounts`), the files
    whose round the ledger held already — settled before, nothing changed: their awards as the
    ledger has them now (validated or voided since) — and how many files failed."""
    if not table.strip():
        raise InputError("--progressive needs --table (the ledger's table) and --as (the dealer)")
    fed: dict[Path, TableRound] = {}
    before: set[Path] = set()  # on the ledger already: settled nothing
    failed: set[Path] = set()
    with Ledger(default_url() if db is None else db, create=False) as ledger:
        who = login(ledger, _required_as(by), password_file)
        named = [ledger.definition(name) for name in progressives]
        check_one_meter_per_wager(named)
        for path, rnd in rounds:
            # the round's Rules Submission is the running one its progressives are checked against
            ledger.running_submission = submission_digest(rnd.submission)
            try:
                rid = round_id_of(path)
                # every progressive bet feeds a progressive: one named, else the one linked to
                # the table that takes it; none is an error, never a pay valued at the seed
                fed_to = progressives_for(
                    rnd,
                    table=table,
                    named=named,
                    linked=lambda: [d for d, _ in ledger.linked_progressives(table)],
                )
                check_named_take(rnd, named, f"round {rid}")  # each one named is used
                kinds = {d.name: (wager_of(d), d.wager_cents) for d in fed_to}

                settled = settle_on_ledger(
                    ledger,
                    rnd,
                    table=table,
                    round_id=rid,
                    progressives=[d.name for d in fed_to],
                    by=who.name,
                    kind=kinds.__getitem__,
                    check_configuration=True,
                    awards_now=True,
                    on_fed=None if quiet else functools.partial(_said_fed, path, table, rid),
                )
            except CroupierError as exc:
                if len(rounds) == 1:
                    raise
                err.print(f"error: {path.name}: {where(exc)}{exc}", style="red")
                failed.add(path)
                continue
            fed[path] = settled.shown
            if settled.replayed:
                before.add(path)
    return fed, before, len(failed)


def _said_fed(path: Path, table: str, rid: str, name: str, result: RoundSettlement) -> None:
    """The line ``croupier settle --progressive`` prints as a round file is fed to a progressive."""
    what = (
        "already on the ledger, nothing changed (its awards as the ledger has them now):"
        if result.replayed
        else "fed to"
    )
    err.print(f"{path.name}: {what} progressive {name!r} (round {table}/{rid})")


def result_section(ledger: Ledger, name: str) -> str:
    """The section of progressive ``name``'s definition."""
    return ledger.definition(name).section


def _required_as(by: str) -> str:
    if not by.strip():
        raise AuthenticationError("this changes the ledger: name the staff member with --as")
    return by.strip()


@meters_app.command()
def validate(
    ctx: typer.Context,
    award: Annotated[int, typer.Argument(help="The award id (see `croupier meters`).")],
    by: AsUser,
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Validate a pending progressive payout as a floorperson or above; it is then paid and,
    after a 100% award, the level resets (§ 633b.2(h)(3)–(4), § 633b.3(h)(3)–(4))."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        a = ledger.validate(award, by=who.name)
        if json_out:
            print(json.dumps(award_dict(a), indent=2, ensure_ascii=False))
            return
        level = ledger.status(a.progressive).levels
        now = next(s for s in level if s.level is a.level)
        out.print(
            one_line(
                f"{a.label} validated by {by} and paid: {format_money(a.amount_cents)} to "
                f"position {a.position} at {a.table_id} ({a.outcome}); {a.progressive} "
                f"{now.level.value} meter now {format_micros(now.meter)}"
            )
        )


@meters_app.command()
def void(
    ctx: typer.Context,
    award: Annotated[int, typer.Argument(help="The pending award id.")],
    by: AsUser,
    reason: Annotated[str, typer.Option("--reason", help="Why the award is void.")],
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Void a pending award that is not a winning hand (§ 633b.2(h)(1)); its amount stays on
    the meter."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        a = ledger.void_award(award, by=who.name, reason=reason)
        _done(
            json_out,
            {**award_dict(a), "voided_by": who.name, "reason": reason},
            f"{a.label} voided by {by}: {reason}",
        )


@meters_app.command()
def adjust(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The progressive.")],
    level: Annotated[str, typer.Option("--level", help="The level, e.g. Progressive or Mega.")],
    by: AsUser,
    reason: Annotated[str, typer.Option("--reason", help="Why the meter is corrected.")],
    meter: Annotated[
        str, typer.Option("--meter", help="Dollars added to the meter (negative: taken off).")
    ] = "0",
    reserve: Annotated[str, typer.Option("--reserve", help="Dollars added to the reserve.")] = "0",
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Correct a level by hand, with a reason, as a pit manager or above (§ 605a.7(a)(6))."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        lv = ledger.definition(name).named_level(level)
        after = ledger.adjust(
            name,
            lv,
            meter_cents=signed_cents(meter, "--meter"),
            reserve_cents=signed_cents(reserve, "--reserve"),
            by=who.name,
            reason=reason,
        )
        _done(
            json_out,
            {
                "progressive": name,
                "level": lv.value,
                "adjusted_by": who.name,
                "reason": reason,
                "meter": format_micros(after.meter),
                "meter_micros": after.meter,
                "reserve": format_micros(after.reserve),
                "reserve_micros": after.reserve,
            },
            f"{name} {lv.value} adjusted by {who.name}: meter {format_micros(after.meter)}, "
            f"reserve {format_micros(after.reserve)} ({reason})",
        )


@meters_app.command()
def verify(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Option("--name", help="Only this progressive.")] = None,
    submission: Annotated[
        Path | None,
        typer.Option(
            "--submission",
            help="The Rules Submission (TOML) running at the tables: compared with the approved "
            "one's digest.",
        ),
    ] = None,
    without_key: Annotated[
        bool,
        typer.Option(
            "--without-key",
            help="Check everything but the events' HMAC chain when the ledger key is not at hand "
            "(an auditor's copy of the database); without it a missing key is an error.",
        ),
    ] = False,
    checkpoint: Annotated[
        list[Path] | None,
        typer.Option(
            "--checkpoint",
            help="A checkpoint kept off the box (`croupier meters checkpoint`), or a directory of "
            "them: the ledger must hold the head each records (repeatable).",
        ),
    ] = None,
    no_checkpoint_dir: Annotated[
        bool,
        typer.Option(
            "--no-checkpoint-dir",
            help="Do not check the automatic checkpoints in $CROUPIER_CHECKPOINT_DIR (checked "
            "by default when it is set).",
        ),
    ] = False,
    accept_missing_head: Annotated[
        bool,
        typer.Option(
            "--accept-missing-head",
            help="This ledger never had a copy of its chain head beside the key: verify the whole "
            "chain without it and, if it verifies, make the copy anew (recorded as a "
            "significant event). Without it a missing copy is an error.",
        ),
    ] = False,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Replay the whole ledger from its first event: the events' HMAC chain (with the ledger
    key), who did each thing and in which role, and every table derived from the log (staff,
    links, rounds, settlements, awards, meters); the first difference is an error. Each
    progressive's running configuration is compared with its approved digests; a failure is
    recorded as a significant event. Without the ledger key the macs cannot be checked, so an
    edit of the events would not show: that is an error unless ``--without-key`` is given. A
    ledger with events whose copy of the chain head (beside the key) is missing is an error
    unless ``--accept-missing-head``; each ``--checkpoint`` must be this ledger's, signed with
    its key, and held by its log (not rolled back past, not forked), and so must every automatic
    checkpoint of this ledger in ``$CROUPIER_CHECKPOINT_DIR`` when it is set (unless
    ``--no-checkpoint-dir``)."""
    from croupier.commands.meters_view import checkpoints_said, print_verified, verify_document
    from croupier.progressive.checkpoint import read as read_checkpoints

    checkpoints = read_checkpoints(checkpoint or [])
    with _ledger(ctx, db) as ledger:
        where, automatic = (None, []) if no_checkpoint_dir else ledger.automatic_checkpoints()
        checkpoints = [*checkpoints, *automatic]
        if submission is not None:
            ledger.running_submission = _submission_digest(submission)
        if name is not None:
            ledger.definition(name)
        names = [name] if name else ledger.names()
        report = ledger.verify_all(
            names, checkpoints=checkpoints, accept_missing_head=accept_missing_head
        )
        checks = {n: ledger.check_configuration(n) for n in names}
        if not report.chain_checked and not without_key:
            raise LedgerKeyError(
                f"the ledger key {ledger.key_file} is not here: everything else matches the log, "
                "but the events' macs were not checked, so an edit of the events would not show; "
                "give the ledger's key file, or --without-key to check only the rest"
            )
        kept = _kept_said(report, ledger, accept_missing_head)
        anchored = checkpoints_said(checkpoints, where, len(automatic), no_checkpoint_dir)
        if json_out:
            data = verify_document(report, checkpoints, checks)
            print(json.dumps(data, indent=2))
            return
        print_verified(report, checks)
        out.print(f"{report.events} events in {ledger.display_url}")
        out.print(
            "the events' HMAC chain matches the ledger key"
            if report.chain_checked
            else f"the ledger key {ledger.key_file} is not here: the chain's macs were NOT "
            "checked (everything else was)"
        )
        out.print(kept)
        for line in anchored:
            out.print(line)
        if not names:
            raise LedgerError("the ledger holds no progressive to verify")


def _kept_said(report: Any, ledger: Ledger, accepted: bool) -> str:
    """What ``verify`` says of the copy of the chain head kept beside the ledger key."""
    if report.head_recreated is not None:
        return (
            f"--accept-missing-head: the whole chain verified without a copy of its head, so "
            f"{report.head_recreated} was made anew at event {report.events}, the head verified; "
            f"it now names event {report.head_kept}, the head-copy-recreated significant event "
            "that records it"
        )
    if report.head_kept is not None:
        also = " (--accept-missing-head: the copy was there, nothing made)" if accepted else ""
        return (
            f"the copy of the chain head beside the ledger key (event {report.head_kept}) is in "
            f"the log: no newest events were rolled back with the head{also}"
        )
    return (
        f"no copy of the chain head is kept beside the ledger key {ledger.key_file}: a rollback "
        "of the newest events together with the head would not show"
    )


@meters_app.command()
def report(
    ctx: typer.Context,
    as_name: AsUser,
    name: Annotated[str | None, typer.Option("--name", help="Only this progressive.")] = None,
    start: Annotated[
        str | None, typer.Option("--from", help="Start of the period (ISO date/time, UTC).")
    ] = None,
    end: Annotated[
        str | None, typer.Option("--to", help="End of the period, excluded (ISO, UTC).")
    ] = None,
    fmt: Annotated[
        ReportFormat, typer.Option("--format", help="text, json, csv or html.")
    ] = ReportFormat.TEXT,
    db: DbOpt = None,
    json_out: JsonOut = False,
    password_file: PasswordFile = None,
) -> None:
    """Reconcile each progressive and level over a period (a shift, a day, a month; § 605a.7(a)):
    opening meter, contributions, awards from the meter, resets, adjustments, closing meter —
    the balance equation checked — and the same for the reserve; paid by the table and by an
    attendant. A pit manager or above, accounting or an auditor (--as), as GET
    /reconciliation. Exit 2 (error) if a level does not balance."""
    lo, hi = parse_time(start, "--from"), parse_time(end, "--to")
    from croupier.progressive.report import check_period

    check_period(lo, hi)
    with _ledger(ctx, db) as ledger:
        who = login(ledger, as_name, password_file)
        check_reader(who, REPORT_READER, "reading the reconciliation")
        recs = reconcile_progressives(ledger, name, lo, hi)
    write_report(recs, lo, hi, ReportFormat.JSON if json_out else fmt)
