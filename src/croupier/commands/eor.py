"""``croupier eor``: effects of removal, the balanced count and a simulated counter's gain."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.table import Table

from croupier.analysis.eor import (
    CARD_ORDER,
    RANK_ORDER,
    BalancedCount,
    EffectOfRemoval,
)
from croupier.analysis.eor_table import (
    VERDICT_RULE,
    CounterConditions,
    Vulnerability,
    default_decks,
    default_paytable,
    table_rows,
    vulnerability,
)
from croupier.commands.baccarat import BurnOption, CutCardOption, _progress
from croupier.commands.common import JsonFlag, _wager, app, out
from croupier.errors import InputError
from croupier.games.baccarat import BaccaratRules, BurnRule
from croupier.units import format_money


def _tag(tag: int) -> str:
    return f"{tag:+d}" if tag else "0"


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def describe_count(count: BalancedCount) -> str:
    """The count in words: tags, level, correlation, gain and threshold."""
    if count.suit_aware:
        tags = "  ".join(f"{c.symbol} {_tag(count.card_tag(c))}" for c in CARD_ORDER)
        kind = "suit-aware balanced count"
    else:
        tags = "  ".join(f"{r.letter} {_tag(count.tag(r))}" for r in RANK_ORDER)
        kind = "balanced count"
    text = (
        f"{kind} (level {count.level}): {tags}\n"
        f"betting correlation {count.betting_correlation:.3f}; each true-count point moves the "
        f"expected return by {count.gain_per_true_count:+.4%}"
    )
    if count.threshold is None:
        return text + "; the count never turns the wager positive"
    return (
        text + f"; the wager turns positive at true count {count.threshold:+.2f} "
        f"(a counter bets at {count.trigger:+d} or more)"
    )


def describe_counter(row: Vulnerability, unit_cents: int) -> str:
    """The simulated counter in words."""
    unit = format_money(unit_cents)
    if row.counter is not None:
        c = row.counter
        if not c.bets:
            return c.conditions() + f": no round reached true count {c.trigger:+d}"
        return (
            c.conditions() + f": bets on {c.bet_frequency:.2%} of {c.rounds:,} rounds, in "
            f"{c.shoes_with_a_bet / c.shoes:.1%} of shoes; observed return on those bets "
            f"{c.edge_when_betting or 0:+.3%} (linear estimate {c.linear_edge_when_betting or 0:+.3%}); "
            f"{c.win_per_shoe:+.3f} ± {c.win_per_shoe_se:.3f} units a shoe, "
            f"{c.win_per_hour:+.3f} ± {c.win_per_hour_se:.3f} units an hour "
            f"({_money_per_hour(c.win_per_hour, unit_cents)} an hour at {unit} a bet)"
        )
    if row.coups is not None:
        r = row.coups
        if not r.bets:
            return (
                f"{r.shoes:,} simulated Baccarat shoes: no coup reached true count {r.trigger:+d}"
            )
        return (
            f"{r.shoes:,} simulated Baccarat shoes: {r.bet_frequency:.2%} of {r.coups:,} coups at "
            f"true count {r.trigger:+d} or more, in {r.shoes_with_a_bet:.1%} of shoes; exact edge "
            f"on those coups {r.average_edge or 0:+.3%} ({r.positive_share or 0:.1%} of them "
            f"positive; {r.evaluated:,} evaluated); {r.win_per_shoe:+.3f} ± "
            f"{r.win_per_shoe_se:.3f} units a shoe, {row.win_per_hour or 0:+.3f} ± "
            f"{row.win_per_hour_se or 0:.3f} units an hour at {row.coups_per_hour} coups an hour "
            f"({_money_per_hour(row.win_per_hour or 0, unit_cents)} an hour at {unit} a bet)"
        )
    if row.perfect is not None:
        return describe_perfect(row, unit_cents)
    return f"no simulated counter: {row.not_simulated}" if row.not_simulated else ""


def describe_perfect(row: Vulnerability, unit_cents: int) -> str:
    """The perfect-information bound in words."""
    p = row.perfect
    assert p is not None
    edge = p.edge_when_betting
    return (
        f"no count, but a computer knowing every unseen card ({p.shoes:,} simulated shoes, the "
        f"same table) would bet {p.bet_frequency:.2%} of {p.rounds:,} rounds"
        + (f" at an exact {edge:+.3%}" if edge is not None else "")
        + f": {p.win_per_shoe:+.4f} units a shoe, {p.win_per_hour:+.4f} units an hour "
        f"({_money_per_hour(p.win_per_hour, unit_cents)} an hour at {format_money(unit_cents)} "
        "a bet) — the most any count could win; the best exact return before a round was "
        f"{p.best:+.3%} ({p.bets:,} rounds above 0)"
    )


def _money_per_hour(units: float, unit_cents: int) -> str:
    return format_money(round(units * unit_cents))


def _effects_dict(eor: EffectOfRemoval, count: BalancedCount | None) -> dict[str, Any]:
    suit_aware = count is not None and count.suit_aware
    return {
        "expected_return": float(eor.expected_return),
        "expected_return_exact": _frac(eor.expected_return),
        "method": eor.method,
        "suits_matter": eor.suits_matter,
        "effects": [
            {
                "rank": r.rank.letter,
                "effect": float(r.effect),
                "effect_exact": _frac(r.effect),
                "expected_return_without": float(r.expected_return),
                "tag": None if count is None or suit_aware else count.tag(r.rank),
            }
            for r in eor.effects
        ],
        "card_effects": [
            {
                "card": str(c.card),
                "effect": float(c.effect),
                "effect_exact": _frac(c.effect),
                "tag": None if count is None else count.card_tag(c.card),
            }
            for c in eor.card_effects
        ],
    }


def _row_dict(row: Vulnerability, unit_cents: int) -> dict[str, Any]:
    hour = row.win_per_hour
    return row.to_dict() | {
        "win_per_hour_cents": None if hour is None else round(hour * unit_cents)
    }


def detail_dict(row: Vulnerability, unit_cents: int) -> dict[str, Any]:
    """The JSON of ``croupier eor WAGER --json`` (docs/schemas/eor.schema.json) for one row
    whose effects of removal are known; ``unit_cents``: the counter's bet, for the hourly
    figure in cents."""
    assert row.eor is not None
    c = row.count
    d: dict[str, Any] = {
        "wager": row.wager,
        "wager_name": row.wager_name,
        "section": row.section,
        "citation": f"58 Pa. Code § {row.section}",
        "paytable": row.paytable,
        "decks": row.decks,
        **_effects_dict(row.eor, c),
        "count": None
        if c is None
        else {
            "suit_aware": c.suit_aware,
            "tags": {str(card): c.card_tag(card) for card in CARD_ORDER}
            if c.suit_aware
            else {r.letter: c.tag(r) for r in RANK_ORDER},
            "level": c.level,
            "betting_correlation": c.betting_correlation,
            "gain_per_true_count": c.gain_per_true_count,
            "threshold_true_count": c.threshold,
            "trigger_true_count": c.trigger,
        },
        "no_count": row.no_count or "",
        "counter": row.counter.to_dict() if row.counter is not None else None,
        "vulnerability": _row_dict(row, unit_cents),
        "verdict_rule": VERDICT_RULE,
    }
    if row.coups is not None and row.baccarat_rules is not None:
        r = row.baccarat_rules
        d["shoes"] = {
            "decks": r.decks,
            "cut_card": r.cut_card,
            "burn": r.burn.value,
            "coups_after_cut_card": r.coups_after_cut_card,
            "seed": row.coups_seed,
            **row.coups.to_dict(),
        }
    return d


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
                    _tag(count.card_tag(c.card)) for c in eor.card_effects if c.card.rank is r.rank
                )
            )
        else:
            cells.append(_tag(count.tag(r.rank)))
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
            "" if hour is None else f"{hour:+.2f}{se} ({_money_per_hour(hour, unit_cents)})",
            r.verdict,
        )
    out.print(t)
    for r in rows:
        if r.eor is None or (r.count is None and r.no_count):
            out.print(f"{r.wager}: {r.no_count}")
        if r.perfect is not None:
            out.print(f"{r.wager}: {describe_perfect(r, unit_cents)}")


def unit_of(unit: str, option: str = "--unit") -> int:
    """The counter's bet in cents from dollars (``"25"``); :class:`InputError` unless positive,
    naming ``option`` (the service passes its query parameter's name)."""
    from croupier.commands.common import _money

    unit_cents = _money(unit, option)
    if unit_cents is None or unit_cents <= 0:
        raise InputError(f"{option} is a positive number of dollars, not {unit!r}")
    return unit_cents


def counter_conditions(
    shoes: int,
    seed: int,
    penetration: float,
    seats: int,
    rounds_per_hour: int,
    trigger: int | None = None,
    decks: int | None = None,
    cut_card: int = 14,
    burn: BurnRule = BurnRule.FIRST_CARD,
) -> CounterConditions:
    """How the simulated counter plays, from the options of ``croupier eor`` (the service's
    ``GET /eor/{wager}`` takes the same); :class:`InputError` for a penetration outside (0, 1)."""
    if not 0 < penetration < 1:
        raise InputError(f"--penetration is a share above 0 and below 1, not {penetration}")
    return CounterConditions(
        shoes=shoes,
        seed=seed,
        penetration=Fraction(penetration).limit_denominator(1000),
        seats=seats,
        rounds_per_hour=rounds_per_hour,
        trigger=trigger,
        baccarat=BaccaratRules(decks=decks or 8, cut_card=cut_card, burn=burn),
    )


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
            "wagers": [_row_dict(r, unit_cents) for r in rows],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    _show_table(rows, unit_cents)
