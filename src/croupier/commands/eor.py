"""``croupier eor``: effects of removal, the balanced count and a simulated counter's gain."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from croupier.analysis.eor_table import (
    VERDICT_RULE,
    Vulnerability,
    default_decks,
    default_paytable,
    table_rows,
    vulnerability,
)
from croupier.commands.baccarat import BurnOption, CutCardOption, _progress
from croupier.commands.common import JsonFlag, _wager, app, out
from croupier.errors import InputError
from croupier.games.baccarat import BurnRule
from croupier.operations.presenters.eor import (
    counter_conditions,
    describe_count,
    describe_counter,
    describe_perfect,
    detail_dict,
    money_per_hour,
    row_dict,
    tag_text,
    unit_of,
)
from croupier.units import format_money


def _show_detail(row: Vulnerability, unit_cents: int) -> None:
    eor, count = row.eor, row.count
    assert eor is not None
    t = Table(
        title=f"Effect of removal · {eor.wager_name} · 58 Pa. Code § {eor.section} · "
        f"paytable {eor.paytable} · {eor.decks}-deck shoe",
        title_justify="left",
        caption="change in exact expected return (per unit wagered) when one card of the rank "
        "is removed from the full shoe" + (", by suit" if eor.suits_matter else ""),
        caption_justify="left",
    )
    t.add_column("Rank")
    t.add_column("Effect of removal", justify="right")
    t.add_column("Return without it", justify="right")
    if eor.suits_matter:
        for s in ("♣", "♦", "♥", "♠"):
            t.add_column(s, justify="right")
    t.add_column("Tag", justify="right")
    for r in eor.effects:
        cells = [r.rank.letter, f"{float(r.effect):+.5%}", f"{float(r.expected_return):+.5%}"]
        if eor.suits_matter:
            cells += [f"{float(c.effect):+.5%}" for c in eor.card_effects if c.card.rank is r.rank]
        if count is None:
            cells.append("")
        elif count.suit_aware:
            cells.append(
                " ".join(
                    tag_text(count.card_tag(c.card))
                    for c in eor.card_effects
                    if c.card.rank is r.rank
                )
            )
        else:
            cells.append(tag_text(count.tag(r.rank)))
        t.add_row(*cells)
    out.print(t)
    out.print(
        f"full-shoe expected return {float(eor.expected_return):+.4%} "
        f"(house edge {float(-eor.expected_return):.4%}); exact, from {eor.method}"
    )
    out.print(describe_count(count) if count is not None else str(row.no_count))
    counter = describe_counter(row, unit_cents)
    if counter:
        out.print(counter)
    out.print(f"verdict: {row.verdict} ({row.verdict_basis})")
    out.print(f"the verdict's rule: {VERDICT_RULE}")


def _show_table(rows: list[Vulnerability], unit_cents: int) -> None:
    t = Table(
        title="Count vulnerability of the side wagers",
        title_justify="left",
        caption=f"counter bets 1 unit ({format_money(unit_cents)}) when the true count is at or "
        "above the trigger (⌈break-even⌉), nothing otherwise; Blackjack: 75% penetration, "
        "3 seats, 60 rounds an hour unless set; ± one standard error. Verdict: "
        f"{VERDICT_RULE}",
        caption_justify="left",
    )
    for col in (
        "Wager",
        "Paytable",
        "Decks",
        "House edge",
        "Count",
        "Break-even TC",
        "Bets",
        "Edge when betting",
        "Units / shoe",
        "Per hour",
        "Verdict",
    ):
        t.add_column(
            col,
            justify="left" if col in ("Wager", "Paytable", "Verdict") else "right",
            no_wrap=col == "Wager",
        )
    for r in rows:
        c = r.count
        kind = "" if c is None else f"L{c.level}{' by card' if c.suit_aware else ''}"
        be = "" if c is None or c.threshold is None else f"{c.threshold:+.2f}"
        hour = r.win_per_hour
        se = f" ± {r.win_per_hour_se:.2f}" if r.win_per_hour_se is not None else ""
        t.add_row(
            r.wager,
            r.paytable,
            str(r.decks),
            "" if r.house_edge is None else f"{r.house_edge:.3%}",
            kind or "none",
            be,
            "" if r.bet_frequency is None else f"{r.bet_frequency:.2%}",
            "" if r.edge_when_betting is None else f"{r.edge_when_betting:+.2%}",
            "" if r.win_per_shoe is None else f"{r.win_per_shoe:+.3f}",
            "" if hour is None else f"{hour:+.2f}{se} ({money_per_hour(hour, unit_cents)})",
            r.verdict,
        )
    out.print(t)
    for r in rows:
        if r.eor is None or (r.count is None and r.no_count):
            out.print(f"{r.wager}: {r.no_count}")
        if r.perfect is not None:
            out.print(f"{r.wager}: {describe_perfect(r, unit_cents)}")


@app.command()
def eor(
    wagers: Annotated[
        list[str] | None,
        typer.Argument(help="Wager ids (see `croupier wagers`); none: every wager, as a table."),
    ] = None,
    paytable: Annotated[
        str | None, typer.Option("--paytable", "-p", help="Paytable id (one wager).")
    ] = None,
    decks: Annotated[
        int | None,
        typer.Option(
            "--decks", "-d", min=1, max=8, help="Decks (default: the most the wager allows)."
        ),
    ] = None,
    shoes: Annotated[
        int, typer.Option("--shoes", min=0, help="Whole shoes to simulate (0: none).")
    ] = 20_000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Random seed (PCG64).")] = 1,
    penetration: Annotated[
        float,
        typer.Option(
            "--penetration", help="Blackjack: share of the shoe dealt before the cut card."
        ),
    ] = 0.75,
    seats: Annotated[
        int, typer.Option("--seats", min=1, max=7, help="Blackjack: seats at the table.")
    ] = 3,
    rounds_per_hour: Annotated[
        int, typer.Option("--rounds-per-hour", min=1, help="Rounds (coups) an hour.")
    ] = 60,
    unit: Annotated[
        str, typer.Option("--unit", help="Dollars a counter bets, for the hourly figure.")
    ] = "25",
    cut_card: CutCardOption = 14,
    burn: BurnOption = BurnRule.FIRST_CARD,
    trigger: Annotated[
        int | None,
        typer.Option("--trigger", help="True count to bet at (default: the count's own)."),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Effect of removal of each card and rank, the balanced count built from it, the true count
    where the wager turns positive and a simulated counter's gain per shoe and per hour — for one
    wager, or as the count-vulnerability table of every wager."""
    from croupier.wagers.registry import all_wagers

    unit_cents = unit_of(unit)
    cond = counter_conditions(
        shoes, seed, penetration, seats, rounds_per_hour, trigger, decks, cut_card, burn
    )
    chosen = [_wager(w, None) for w in wagers or []]
    if len(chosen) == 1:
        w = chosen[0]
        d = decks if decks is not None else default_decks(w, paytable)
        key = paytable if paytable is not None else default_paytable(w, d)
        with _progress(f"dealing {d}-deck shoes", shoes, json_out) as advance:
            row = vulnerability(w, key, d, cond, progress=advance)
        if json_out:
            print(json.dumps(detail_dict(row, unit_cents), indent=2, ensure_ascii=False))
            return
        _show_detail(row, unit_cents)
        return
    if paytable is not None:
        raise InputError("--paytable names the paytable of one wager: give exactly one wager")
    rows = table_rows(chosen or list(all_wagers()), decks, cond)
    if json_out:
        doc = {
            "unit_cents": unit_cents,
            "verdict_rule": VERDICT_RULE,
            "wagers": [row_dict(r, unit_cents) for r in rows],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    _show_table(rows, unit_cents)
