"""``croupier meters suspend | resume | reconfigure``: parameters of a progressive change only
by a recorded reconfiguration of a suspended link (58 Pa. Code § 605a.7, § 605a.8; NY 9 NYCRR
5321.18(b)(4), N.J.A.C. 13:69E-1.39C; docs/interpretations.md). Registered on
:data:`croupier.commands.meters.meters_app` when imported: the ``meters`` entry of
:data:`croupier.commands.COMMANDS` lists this module."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer

from croupier.commands.meters import (
    AsUser,
    DbOpt,
    JsonOut,
    PasswordFile,
    _done,
    _ledger,
    login,
    meters_app,
)
from croupier.errors import InputError
from croupier.operations.presenters.arguments import money
from croupier.operations.progressives import reconfigure_progressive
from croupier.paytables import MeterLevel
from croupier.progressive import ProgressiveDefinition


@meters_app.command()
def suspend(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The progressive.")],
    by: AsUser,
    reason: Annotated[str, typer.Option("--reason", help="Why it is taken out of play.")],
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Take a progressive's link out of play before a reconfiguration, as a pit manager or
    above: no wager is accepted at its tables until `resume` (58 Pa. Code § 605a.8; NY 9 NYCRR
    5321.18(b)(4))."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        ledger.suspend(name, by=who.name, reason=reason)
        _done(
            json_out,
            {"progressive": name, "suspended": True, "by": who.name},
            f"{name} suspended by {who.name}: no wager is accepted until it is resumed",
        )


@meters_app.command()
def resume(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The progressive.")],
    by: AsUser,
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Put a suspended progressive back in play, as a pit manager or above."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        ledger.resume(name, by=who.name)
        _done(
            json_out,
            {"progressive": name, "suspended": False, "by": who.name},
            f"{name} resumed by {who.name}",
        )


def _level_values(
    defn: ProgressiveDefinition, specs: list[str], option: str
) -> dict[MeterLevel, str]:
    """``LEVEL=VALUE`` (or ``VALUE`` for a one-level progressive) per level."""
    out_: dict[MeterLevel, str] = {}
    for spec in specs:
        text, sep, value = spec.rpartition("=")
        if not sep:
            if len(defn.levels) != 1:
                raise InputError(f"{option} {spec}: name the level, LEVEL=VALUE")
            out_[defn.levels[0].level] = value
        else:
            out_[defn.named_level(text)] = value
    return out_


def _rate(text: str, option: str) -> Fraction:
    t = text.strip().removesuffix("%")
    try:
        r = Fraction(t) / 100
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{option} {text!r} is not a percentage (e.g. 15%, 3.75%)") from None
    if not 0 <= r < 1:
        raise InputError(f"{option} {text!r} must be from 0% up to (not including) 100%")
    return r


@meters_app.command()
def reconfigure(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The progressive (suspended).")],
    by: AsUser,
    approval: Annotated[
        str, typer.Option("--approval", help="The approval's reference (ticket, letter).")
    ],
    seed: Annotated[
        list[str] | None, typer.Option("--seed", help="LEVEL=DOLLARS: the seed/reset amount.")
    ] = None,
    rate: Annotated[
        list[str] | None,
        typer.Option("--rate", help="LEVEL=PRIMARY%[+SECONDARY%]: the increment rates."),
    ] = None,
    limit: Annotated[
        list[str] | None, typer.Option("--limit", help="LEVEL=DOLLARS: the limit (ceiling).")
    ] = None,
    password_file: PasswordFile = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Change a suspended progressive's seed, rates or limit, as a shift manager, naming the
    approval (58 Pa. Code § 605a.7; NY 9 NYCRR 5321.18(b)(4), N.J.A.C. 13:69E-1.39C); the meters
    are not moved."""
    with _ledger(ctx, db) as ledger:
        who = login(ledger, by, password_file)
        defn = ledger.definition(name)
        seeds = {
            lv: c
            for lv, v in _level_values(defn, seed or [], "--seed").items()
            if (c := money(v, "--seed")) is not None
        }
        rates: dict[MeterLevel, tuple[Fraction, Fraction]] = {}
        for lv, v in _level_values(defn, rate or [], "--rate").items():
            primary, _, secondary = v.partition("+")
            rates[lv] = (
                _rate(primary, "--rate"),
                _rate(secondary, "--rate") if secondary else defn.level(lv).secondary_rate,
            )
        limits = {
            lv: money(v, "--limit") for lv, v in _level_values(defn, limit or [], "--limit").items()
        }
        changes = reconfigure_progressive(
            ledger,
            name,
            by=who.name,
            approval=approval,
            seeds_cents=seeds,
            rates=rates,
            limits_cents=limits,
        )
        _done(
            json_out,
            {"progressive": name, "by": who.name, "approval": approval, "changes": changes},
            f"{name} reconfigured by {who.name} (approval {approval}): "
            + "; ".join(
                f"{lv} {f} {old} → {new}"
                for lv, fs in changes.items()
                for f, (old, new) in fs.items()
            ),
        )
