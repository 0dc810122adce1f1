"""Baccarat commands: a dealt coup and its settlement, effect of removal, whole-shoe simulation.

``croupier baccarat --cards "..."`` plays the coup dealt as those cards (§ 631a.9–§ 631a.12) and
settles the wagers given with ``--bet`` (or shows what every Baccarat wager would do);
``croupier eor WAGER`` prints the effect of removal of each rank, the balanced count built from it
and, for Baccarat wagers, how that count plays in simulated shoes; ``croupier simulate-shoes`` deals
whole shoes (burn, cut card) and sets every Baccarat wager's observed return beside the exact one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from croupier.analysis.baccarat_shoe import shoe_parsheet, simulate_shoes
from croupier.analysis.parsheet import exact_parsheet
from croupier.cards import parse_cards
from croupier.commands.common import (
    JsonFlag,
    app,
    did_you_mean,
    err,
    money_json,
    out,
)
from croupier.errors import InputError, citation
from croupier.games.baccarat import BaccaratRules, BurnRule
from croupier.operations.presenters.arguments import money
from croupier.units import format_money
from croupier.wagers.at_table import RoundSettlement, cents_note
from croupier.wagers.baccarat import (
    BaccaratTable,
    CoupSettlement,
    baccarat_wagers,
    settle_round,
)
from croupier.wagers.base import Settlement

DecksOption = Annotated[
    int, typer.Option("--decks", "-d", min=1, max=8, help="Decks in the shoe (1–8).")
]
ShoesOption = Annotated[
    int, typer.Option("--shoes", min=0, help="Whole shoes to simulate (0: none).")
]
SeedOption = Annotated[int, typer.Option("--seed", "-s", help="Random seed (PCG64).")]
CutCardOption = Annotated[
    int, typer.Option("--cut-card", help="Cards behind the cut card (14: the usual placement).")
]
BurnOption = Annotated[
    BurnRule, typer.Option("--burn", help="How cards are burned at the start of the shoe.")
]


@contextmanager
def _progress(what: str, total: int, quiet: bool) -> Iterator[Any]:
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    ) as progress:
        task = progress.add_task(what, total=total)
        yield lambda done: progress.update(task, completed=done)


def _parse_bets(bets: list[str] | None) -> dict[str, int]:
    out_bets: dict[str, int] = {}
    for text in bets or []:
        wager, sep, amount = text.partition("=")
        if not sep or not wager.strip():
            raise InputError(f"--bet takes WAGER=DOLLARS, e.g. banker=25, not {text!r}")
        cents = money(amount, f"--bet {wager.strip()}")
        assert cents is not None
        key = wager.strip().lower()
        if key in out_bets:
            raise InputError(f"--bet {key} given twice")
        out_bets[key] = cents
    return out_bets


_PAYTABLE_FIELDS = {"player": "player", "banker": "banker", "tie": "tie"}


def _parse_paytables(choices: list[str] | None) -> dict[str, str]:
    """``--paytable WAGER=ID`` (repeatable) as :class:`BaccaratTable` fields; a 5 Treasures wager
    id or ``five-treasures`` names the one paytable they share (§ 631c.3(h))."""
    treasures = {w.id for w in baccarat_wagers()} - set(_PAYTABLE_FIELDS) | {"five-treasures"}
    fields: dict[str, str] = {}
    for text in choices or []:
        wager, sep, key = text.partition("=")
        wager = wager.strip().lower()
        if not sep or not wager or not key.strip():
            raise InputError(f"--paytable takes WAGER=ID, e.g. banker=ez, not {text!r}")
        field = _PAYTABLE_FIELDS.get(wager, "five_treasures" if wager in treasures else None)
        if field is None:
            known = sorted(_PAYTABLE_FIELDS.keys() | treasures)
            raise InputError(f"--paytable: no Baccarat wager {wager!r}{did_you_mean(wager, known)}")
        if field in fields and fields[field] != key.strip():
            raise InputError(f"--paytable {wager} given twice")
        fields[field] = key.strip()
    return fields


@app.command()
def baccarat(
    cards: Annotated[
        str,
        typer.Option(
            "--cards",
            "-c",
            help="The coup's cards in dealing order: Player, Banker, Player, Banker, then the "
            "third cards drawn, e.g. 'Ks 4h 2d Qc 3h 3s'.",
        ),
    ],
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", help="A wager and its amount in dollars, e.g. banker=25; repeat."
        ),
    ] = None,
    decks: DecksOption = 8,
    paytable: Annotated[
        list[str] | None,
        typer.Option(
            "--paytable",
            "-p",
            help="A wager's paytable as WAGER=ID; repeat. banker=commission (default), "
            "no-commission or ez; tie=8-to-1 (default) or 9-to-1; five-treasures=A (default) or B "
            "(§ 631c.3(h), for all five 5 Treasures wagers).",
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Play one dealt coup (§ 631a.9–§ 631a.12) and settle its wagers (with --bet), or show what
    every Baccarat wager does on it."""
    dealt = parse_cards(cards)
    chosen = _parse_paytables(paytable)
    table = BaccaratTable(decks=decks, **chosen)
    for w in baccarat_wagers():  # every paytable named exists at this deck count
        table.paytable_for(w)
    bets = _parse_bets(bet)
    if bets:  # a paytable chosen for a wager not bet is a mistake, not a silent no-op
        bet_fields = {_PAYTABLE_FIELDS.get(k, "five_treasures") for k in bets}
        unused = sorted(set(chosen) - bet_fields)
        if unused:
            names = ", ".join(f.replace("_", "-") for f in unused)
            raise InputError(f"--paytable given for {names}, which no --bet wagers on")
    if bets:
        result = settle_round(dealt, bets, table)
    else:
        result = settle_round(dealt, {w.id: 100 for w in baccarat_wagers()}, table)
    if json_out:
        print(json.dumps(_round_dict(result, table, bool(bets)), indent=2, ensure_ascii=False))
        return
    out.print(result.coup.describe())
    t = Table(
        title="Wagers settled" if bets else "Every Baccarat wager on this coup",
        title_justify="left",
    )
    for col in ("Wager", "Section", "Paytable", "Outcome", "Pays"):
        t.add_column(col)
    if bets:
        t.add_column("Amount", justify="right")
        t.add_column("Result", justify="right")
    for s in result.settlements:
        row = [s.wager, f"§ {s.section}", s.paytable, _outcome_label(s), _pays(s)]
        if bets:
            sign = "+" if s.win_cents >= 0 else ""
            mark = "*" if s.rounding_cents_dropped else ""
            row += [format_money(s.amount_cents), f"{sign}{format_money(s.win_cents)}{mark}"]
        t.add_row(*row)
    out.print(t)
    for s in result.settlements if bets else ():
        if s.rounding_cents_dropped:
            out.print(
                f"  * {s.wager}: the pay is rounded down to the cent; "
                f"{cents_note(s.rounding_cents_dropped)} is not paid."
            )
    if bets:
        sign = "+" if result.win_cents >= 0 else ""
        out.print(
            f"net {sign}{format_money(result.win_cents)}; the dealer returns "
            f"{format_money(result.returned_cents)}"
        )


def _fraction(value: Fraction) -> str:
    """An exact fraction as JSON gives it: ``"1/2"``, ``"0/1"``."""
    return f"{value.numerator}/{value.denominator}"


def _outcome_label(s: Settlement) -> str:
    if s.line is not None:
        return str(s.line.label)
    if s.outcome is not None:
        return f"{s.outcome.key} (not paid under this paytable)"
    return "loses"


def _pays(s: Settlement) -> str:
    return str(s.line.pays) if s.line is not None else "loses"


def _round_dict(result: CoupSettlement, table: BaccaratTable, settled: bool) -> dict[str, Any]:
    coup = result.coup
    d: dict[str, Any] = {
        "cards": [str(c) for c in coup.cards],
        "player": {
            "cards": [str(c) for c in coup.player.cards],
            "total": coup.player.total,
            "natural": coup.player.natural,
            "drew": str(coup.player.third_card) if coup.player.third_card else None,
        },
        "banker": {
            "cards": [str(c) for c in coup.banker.cards],
            "total": coup.banker.total,
            "natural": coup.banker.natural,
            "drew": str(coup.banker.third_card) if coup.banker.third_card else None,
        },
        "result": coup.winner.value,
        "decks": table.decks,
    }
    wagers = []
    for s in result.settlements:
        entry: dict[str, Any] = {
            "wager": s.wager,
            "section": s.section,
            "citation": citation(s.section),
            "paytable": s.paytable,
            "outcome": s.outcome.key if s.outcome else None,
            "paid_as": s.line.label if s.line else None,
            "pays": str(s.line.pays) if s.line else None,
        }
        if settled:
            entry |= {
                **money_json("amount", s.amount_cents),
                **money_json("win", s.win_cents),
                **money_json("returned", s.returned_cents),
                "rounding_dropped_cent_fraction": _fraction(s.rounding_cents_dropped),
            }
        wagers.append(entry)
    d["wagers"] = wagers
    if settled:
        d |= money_json("net", result.win_cents) | money_json("returned", result.returned_cents)
        d["settlement"] = RoundSettlement(result.lines()).to_json()
    return d


# ------------------------------------------------------------------------- simulate-shoes


@app.command("simulate-shoes")
def simulate_shoes_command(
    decks: DecksOption = 8,
    shoes: Annotated[int, typer.Option("--shoes", min=1, help="Whole shoes to deal.")] = 20_000,
    seed: SeedOption = 1,
    cut_card: CutCardOption = 14,
    burn: BurnOption = BurnRule.FIRST_CARD,
    json_out: JsonFlag = False,
) -> None:
    """Deal whole Baccarat shoes (burn, cut card) and set every Baccarat wager's observed return
    beside its exact one, in standard errors."""
    rules = BaccaratRules(decks=decks, cut_card=cut_card, burn=burn)
    with _progress(f"dealing {decks}-deck shoes", shoes, json_out) as advance:
        sim = simulate_shoes(shoes, seed, rules, progress=advance)
    rows: list[dict[str, Any]] = []
    for w in baccarat_wagers():
        for table in w.paytables():
            if decks not in table.decks:
                continue
            observed = shoe_parsheet(sim, w, table)
            exact = exact_parsheet(w, table, decks=decks)
            se = observed.standard_error or 0.0
            # z > 0: the simulated house edge is above the exact one (as in `croupier simulate`)
            z = float(observed.house_edge - exact.house_edge) / se if se else 0.0
            rows.append(
                {
                    "wager": w.id,
                    "section": w.section,
                    "citation": citation(w.section),
                    "paytable": table.key,
                    "coups": observed.total,
                    "exact_house_edge": float(exact.house_edge),
                    "simulated_house_edge": float(observed.house_edge),
                    "standard_error": se,
                    "z_score": z,
                }
            )
    convention = (
        f"{shoes:,} shuffled {decks}-deck shoes, cut card {cut_card} cards from the end, burn "
        f"{burn.value}, {rules.coups_after_cut_card} coup after the cut card; {sim.coups:,} coups "
        f"({sim.coups / shoes:.2f} a shoe); seed {seed}"
    )
    if json_out:
        print(json.dumps({"simulation": convention, "wagers": rows}, indent=2, ensure_ascii=False))
        return
    t = Table(
        title="Whole-shoe simulation against the exact par sheets",
        title_justify="left",
        caption=convention,
        caption_justify="left",
    )
    for col in ("Wager", "Paytable", "Exact house edge", "Simulated", "Std. error", "z"):
        t.add_column(col, justify="left" if col in ("Wager", "Paytable") else "right")
    for r in rows:
        t.add_row(
            r["wager"],
            r["paytable"],
            f"{r['exact_house_edge']:.4%}",
            f"{r['simulated_house_edge']:.4%}",
            f"{r['standard_error']:.4%}",
            f"{r['z_score']:+.2f}",
        )
    out.print(t)
    worst = max(abs(r["z_score"]) for r in rows)
    out.print(f"largest deviation {worst:.2f} standard errors (z: simulated return − exact, in SE)")
