"""The analysis commands: ``wagers``, ``paytables``, ``analyze``, ``simulate``, ``parsheet`` and
``hand``."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from croupier.analysis import game_store
from croupier.analysis.meters import (
    MeterReturn,
    ReseedFunding,
    long_run_assumptions,
)
from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.analysis.report import (
    long_run_warning,
    parsheets_csv,
    parsheets_json,
    write_report,
    write_sheet,
)
from croupier.analysis.summary import summary_csv, summary_json, summary_rows
from croupier.cards import Card, decks_phrase, parse_cards
from croupier.commands.common import (
    GAME_ANALYSES,
    DecksOpt,
    JsonFlag,
    MeterOpt,
    PaytableFiles,
    StakeOpt,
    WagerAmountOpt,
    WagerArg,
    _book,
    _print_sheet,
    _progress,
    _wager,
    app,
    err,
    fitted,
    money_json,
    out,
)
from croupier.commands.summary_table import print_summary
from croupier.errors import (
    InputError,
    OutputError,
    PaytableError,
    citation,
    one_of,
)
from croupier.operations.analysis import analyse_sheet
from croupier.operations.presenters.arguments import meter_arg, meter_money, money
from croupier.operations.presenters.paytables import paytable_dict, section_of, wager_dict
from croupier.paytables import Paytable
from croupier.units import format_money
from croupier.wagers import ProgressiveStake, Wager, all_wagers, get_wager
from croupier.wagers.at_table import RoundSettlement
from croupier.wagers.base import line_of

if TYPE_CHECKING:  # the strategy engine is imported only when a command works figures out
    from croupier.analysis.switch_hands import GameSheet


@app.command()
def wagers(json_out: JsonFlag = False, paytable_files: PaytableFiles = None) -> None:
    """List the wagers croupier settles and analyses, with their paytables and deck counts."""
    rows: list[dict[str, Any]] = []
    for w in all_wagers():
        w = w.with_book(_book(paytable_files)) if paytable_files else w
        rows.append(wager_dict(w))
    if json_out:
        print(json.dumps({"wagers": rows}, indent=2, ensure_ascii=False))
        return
    t = Table(title="Wagers", title_justify="left")
    for col in ("Wager", "Name", "Game", "Section", "Paytables (decks)"):
        t.add_column(col)
    for r in rows:
        tables = _compact_paytables(r["paytables"])
        t.add_row(r["wager"], r["name"], r["game"], r["citation"], tables)
    out.print(t)


def _compact_paytables(tables: list[dict[str, Any]]) -> str:
    """'A, B (1/2/4/6/8 decks)' or '1–10 (6 decks); 1–10 (8 decks)'."""
    keys = list(dict.fromkeys(p["paytable"] for p in tables))
    if len(keys) > 12:  # e.g. Jackpot Party's 76: the range, the count and the deck counts
        every = sorted({d for p in tables for d in p["decks"]})
        return f"{keys[0]} … {keys[-1]}: {len(keys)} paytables ({decks_phrase(every)})"
    groups: dict[tuple[int, ...], list[str]] = {}
    for p in tables:
        groups.setdefault(tuple(p["decks"]), []).append(p["paytable"])
    parts = []
    for decks, keys in groups.items():
        numeric = all(k.isdigit() for k in keys)
        if (
            numeric
            and len(keys) > 2
            and [int(k) for k in keys] == list(range(int(keys[0]), int(keys[-1]) + 1))
        ):
            names = f"{keys[0]}–{keys[-1]}"
        else:
            names = ", ".join(keys)
        parts.append(f"{names} ({decks_phrase(decks)})")
    return "; ".join(parts)


@app.command()
def paytables(
    section: Annotated[
        str | None, typer.Argument(help="A section (e.g. 633b.2) or a wager id; omit for all.")
    ] = None,
    paytable: Annotated[
        str | None, typer.Option("--paytable", "-p", help="Show only this paytable id.")
    ] = None,
    json_out: JsonFlag = False,
    paytable_files: PaytableFiles = None,
) -> None:
    """Show the paytables printed in the regulation (and any you add), with seeds and rates."""
    book = _book(paytable_files)
    have = {(t.section, t.key.upper(), d) for t in book for d in t.decks}
    extra = (  # tables a wager reads besides the book's (§ 641a.7's EXAMPLE operator tables)
        t
        for w in all_wagers()
        for t in w.with_book(book).book
        if (t.section, t.key.upper(), t.decks[0]) not in have
    )
    book = book.with_paytables(dict.fromkeys(extra))
    if section is not None:
        section = section_of(section, book)
    tables = [t for t in book if section is None or t.section == section]
    if paytable is not None:
        tables = [t for t in tables if t.key.upper() == paytable.upper()]
        if not tables:
            raise PaytableError(f"no paytable {paytable!r} in § {section or 'any section'}")
    if json_out:
        print(
            json.dumps(
                {"paytables": [paytable_dict(t) for t in tables]}, indent=2, ensure_ascii=False
            )
        )
        return
    if section is None and paytable is None:
        t = Table(title="Paytables as data (one file per section)", title_justify="left")
        for col in ("Section", "Wagers (the id to type)", "Paytables (--paytable ID)", "Decks"):
            t.add_column(col)
        t.add_column("Source")
        for sec in book.sections():
            group = book.for_section(sec)
            t.add_row(
                f"§ {sec}",
                ", ".join(w.id for w in all_wagers() if w.section == sec) or "—",
                ", ".join(dict.fromkeys(x.key for x in group)),
                ", ".join(map(str, sorted({d for x in group for d in x.decks}))),
                ", ".join(dict.fromkeys(x.source for x in group)),
            )
        out.print(t)
        out.print("Show one section with: croupier paytables SECTION")
        return
    for table in tables:
        d = paytable_dict(table)
        t = Table(
            title=f"§ {table.section} · {table.title} · {decks_phrase(table.decks, ', ')}",
            title_justify="left",
            caption=table.citation,
            caption_justify="left",
        )
        t.add_column("Outcome")
        t.add_column("Pays")
        envy = any(line.envy_cents is not None for line in table.lines)
        if envy:
            t.add_column("Envy")
        for line in d["lines"]:
            t.add_row(line["label"], line["pays"], *([line.get("envy", "")] if envy else []))
        out.print(t)
        out.print(f"  paytable id {table.key} (--paytable {table.key})")
        out.print(f"  sha256 {d['sha256']} (its data's configuration digest)", soft_wrap=True)
        if "progressive" in d:
            p = d["progressive"]
            meters = "; ".join(
                f"{m['level']} seed {m['seed']}"
                + "".join(
                    f", {k.replace('_', ' ')} {v}" for k, v in m.items() if k.endswith("rate")
                )
                for m in p["meters"]
            )
            total = (
                f"; total increment rate {p['total_increment_rate']}"
                if "total_increment_rate" in p
                else ""
            )
            out.print(f"  wager {one_of(p['wagers'])}; {meters}{total}")
        for m in table.multipliers:
            out.print(f"  {m.label}: ×{m.factor}")
        out.print()


ReseedOpt = Annotated[
    ReseedFunding,
    typer.Option(
        "--reseed",
        help="Who pays each reseed of a progressive in the long-run return: the reserve "
        "(default; the house funds only the initial seed, § 633b.3(j)) or the house "
        "(see docs/interpretations.md).",
    ),
]
OutDirOpt = Annotated[
    Path | None,
    typer.Option("--out", "-o", help="Also write this sheet's .json, .csv and .html here."),
]


def _check_out_dir(out_dir: Path | None) -> None:
    """Refuse an ``--out`` that is a file before any work is done."""
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out {str(out_dir)!r} is a file, not a folder")


OnePaytableOpt = Annotated[
    str | None,
    typer.Option(
        "--paytable", "-p", help="Paytable id; may be omitted when the wager has only one."
    ),
]


@app.command()
def analyze(
    wager: WagerArg,
    paytable: OnePaytableOpt = None,
    decks: DecksOpt = None,
    meter: MeterOpt = None,
    wager_amount: WagerAmountOpt = None,
    stake: StakeOpt = ProgressiveStake.COLLECTED,
    json_out: JsonFlag = False,
    out_dir: OutDirOpt = None,
    reseed: ReseedOpt = ReseedFunding.RESERVE,
    paytable_files: PaytableFiles = None,
) -> None:
    """Exact par sheet of one wager × paytable × deck count: every outcome's count and return;
    with --out DIR also written as JSON (what --json prints), CSV (exact fractions beside the
    decimals) and HTML."""
    game = GAME_ANALYSES.get(wager.strip().lower())
    if game is not None:
        if paytable is not None or meter is not None or wager_amount is not None or out_dir:
            raise InputError(
                f"{wager} takes only --decks and --json (its figures as files: "
                f"croupier parsheet --wager {wager.strip().lower()} --out DIR)"
            )
        game(decks, json_out)
        return
    _check_out_dir(out_dir)
    w = _wager(wager, paytable_files)
    analysed = analyse_sheet(
        w,
        _only_paytable(w, paytable),
        decks=decks,
        meter_cents=meter_arg(meter),
        wager_cents=money(wager_amount, "--amount"),
        stake=stake,
        reseed=reseed,
    )
    sheet, meters, extras, d = analysed.sheet, analysed.meter, analysed.extras, analysed.document
    written = write_sheet(sheet, d, out_dir, reseed, meters) if out_dir is not None else []
    if json_out:
        print(json.dumps(d, indent=2, ensure_ascii=False))
    else:
        more = [_meter_summary(meters, sheet, reseed)] if meters is not None else []
        more += [text for _, text, _ in extras if text]
        _print_sheet(sheet, "\n".join(more))
    if written:
        err.print("wrote " + ", ".join(str(p) for p in written), soft_wrap=True)


def _meter_summary(mr: MeterReturn, sheet: ParSheet, reseed: ReseedFunding) -> str:
    """The return as a function of the meters, the breakeven meter and the long-run return."""
    wager = format_money(mr.wager_cents)
    terms = " + ".join(
        f"{float(s * Fraction(100_000, mr.wager_cents)):.6f} per $1,000 on the {lvl.value} meter"
        for lvl, s in mr.slopes.items()
    )
    lines = [f"return on a {wager} wager = {float(mr.fixed):+.6f} + {terms}"]
    be = mr.breakeven_cents()
    if be is not None and be >= 0 and not mr.positive_at_seed():
        lines.append(
            f"breakeven {mr.top.value} meter {format_money(round(be))} on a {wager} wager "
            "(other meters at their seeds)"
        )
    elif mr.positive_at_seed():
        lines.append("the return is positive with every meter at its seed")
    warning = long_run_warning(sheet, mr, reseed)
    assuming = "" if warning else f"; assuming {long_run_assumptions(reseed)}"
    lines.append(
        f"long-run expected return {float(mr.long_run(reseed=reseed)):+.4%} "
        f"({float(1 + mr.long_run(reseed=reseed)):.4%} of the wager returned, as in the "
        f"parsheet summary; increment rates {float(mr.total_increment_rate):.2%}; "
        f"--reseed {reseed.value}{assuming}; docs/interpretations.md)"
    )
    if warning is not None:
        lines.append(warning)
    return "\n".join(lines)


def _only_paytable(w: Wager, paytable: str | None) -> str:
    """``paytable``, or the wager's one paytable when it has only one. Raises
    :class:`InputError` naming the paytables when it has several and none is given."""
    if paytable is not None:
        return paytable
    keys = list(dict.fromkeys(t.key for t in w.paytables()))
    if len(keys) != 1:
        raise InputError(
            f"the {w.name} wager has paytables {', '.join(keys) or 'none'}: give --paytable"
        )
    return keys[0]


GAME_DECKS = game_store.GAME_DECKS
"""Deck counts of the whole-game § 633b.4 figures in ``croupier parsheet``."""


def _parsheet_jobs(
    wager_ids: list[str] | None, decks_asked: list[int] | None, paytable_files: list[Path] | None
) -> tuple[list[tuple[Wager, Paytable, int]], list[int]]:
    """What ``croupier parsheet`` analyses: each (wager, paytable, decks) asked for, and the deck
    counts of the § 633b.4 whole-game figures; :class:`InputError` when nothing is offered."""
    decks_only = set(decks_asked or ())
    book = _book(paytable_files)
    games_asked = {x.strip().lower() for x in wager_ids or []} & set(GAME_ANALYSES)
    wanted = {get_wager(x).id for x in wager_ids or [] if x.strip().lower() not in games_asked}
    jobs = [
        (w, table, decks)
        for w in (x.with_book(book) if paytable_files else x for x in all_wagers())
        if not wager_ids or w.id in wanted
        for table, decks in w.offerings()
        if not decks_only or decks in decks_only
    ]
    game_decks = [
        d
        for d in GAME_DECKS
        if (not wager_ids or games_asked) and (not decks_only or d in decks_only)
    ]
    if not jobs and not game_decks:
        raise InputError(
            f"no paytable of {', '.join(wager_ids or ['any wager'])} is offered with "
            f"{decks_phrase(sorted(decks_only), ' or ')}"
        )
    return jobs, game_decks


def _write_report(
    sheets: list[ParSheet],
    out_dir: Path,
    games: list[GameSheet],
    reseed: ReseedFunding,
    quiet: bool,
) -> list[Path]:
    """:func:`~croupier.analysis.report.write_report`, a wager at a time on a progress bar (on
    stderr, to a person at a terminal): the HTML report's charts take a few seconds."""
    with _progress(disable=quiet) as progress:
        task = progress.add_task("report", total=None)

        def step(done: int, total: int, wager: str) -> None:
            progress.update(task, completed=done, total=total, description=f"report: {wager}")

        return write_report(sheets, out_dir, games, reseed, progress=step)


@app.command()
def parsheet(
    json_out: JsonFlag = False,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Also write parsheets.json, .csv and .html here."),
    ] = None,
    summary: Annotated[
        bool,
        typer.Option(
            "--summary",
            help="Print only the summary: one row per sheet (with --json or --csv, as JSON "
            "or CSV).",
        ),
    ] = False,
    csv_out: Annotated[
        bool,
        typer.Option(
            "--csv",
            help="Print CSV: the summary rows with --summary, else every outcome of every sheet "
            "(the parsheets.csv of --out).",
        ),
    ] = False,
    wager_ids: Annotated[
        list[str] | None,
        typer.Option("--wager", help="Only this wager (a wager id); repeatable."),
    ] = None,
    decks_asked: Annotated[
        list[int] | None,
        typer.Option("--decks", "-d", help="Only paytables at this deck count; repeatable."),
    ] = None,
    reseed: ReseedOpt = ReseedFunding.RESERVE,
    paytable_files: PaytableFiles = None,
) -> None:
    """Par sheets of every wager × paytable × allowed deck count (progressives at their seeds),
    or of the wagers and deck count asked for; the summary compares paytables: house edge at
    the seed, long-run return, breakeven meter and the wager it is on, hit frequency, standard
    deviation and volatility index."""
    _check_out_dir(out_dir)
    if json_out and csv_out:
        raise InputError("give --json or --csv, not both")
    jobs, game_decks = _parsheet_jobs(wager_ids, decks_asked, paytable_files)
    sheets: list[ParSheet] = []
    games: list[GameSheet] = []
    figures: list[game_store.GameFigures] = []
    machine = json_out or csv_out
    # the house edges only (shipped, game_store) for the text; nothing for the summary CSV
    text_only = not machine and out_dir is None
    no_games = csv_out and summary and out_dir is None
    with _progress(disable=machine) as progress:
        task = progress.add_task("exact par sheets", total=len(jobs) + len(game_decks))
        for w, table, decks in jobs:
            progress.update(task, description=f"{w.id} {table.key} {decks_phrase(decks)}")
            sheets.append(exact_parsheet(w, table, decks=decks))
            progress.advance(task)
        for decks in game_decks:  # § 633b.4 changes the game: whole-game figures, not outcomes
            progress.update(task, description=f"switch hands {decks_phrase(decks)}")
            if no_games:
                pass  # the summary CSV holds par sheets only
            elif text_only:
                figures += game_store.game_figures(decks)
            else:
                from croupier.analysis.switch_hands import game_sheet

                games.append(game_sheet(decks))
                figures += game_store.computed(decks)
            progress.advance(task)
    # the files first: a folder that cannot be written is the one error, with nothing printed
    written = _write_report(sheets, out_dir, games, reseed, machine) if out_dir is not None else []
    if summary and machine:
        rows = summary_rows(sheets, reseed)
        if json_out:
            print(summary_json(rows, [g.to_dict() for g in games]))
        else:
            sys.stdout.write(summary_csv(rows))
    elif json_out:
        print(parsheets_json(sheets, games, reseed))
    elif csv_out:
        sys.stdout.write(parsheets_csv(sheets, games, reseed))
    else:
        if not summary:
            for s in sheets:
                _print_sheet(s)
        print_summary(summary_rows(sheets, reseed), reseed)
        _print_game_figures(figures)
    if written:
        err.print("wrote " + ", ".join(str(p) for p in written), soft_wrap=True)


def _print_game_figures(figures: list[game_store.GameFigures]) -> None:
    """The whole-game house edges of Switch Hands and Blackjack Premium (§ 633b.4) by deck count,
    as a table; nothing when there are none."""
    if not figures:
        return
    g = Table(
        title="Switch Hands and Blackjack Premium (58 Pa. Code § 633b.4), whole game",
        title_justify="left",
    )
    for col in (
        "Decks",
        "Game",
        "Player",
        "Tie BJ 1 to 2",
        "House edge / BJ wager",
        "House edge / total",
    ):
        g.add_column(col, justify="right" if col.startswith(("Decks", "House")) else "left")
    for a in figures:
        g.add_row(
            str(a.decks),
            a.game,
            "Ante" if a.ante else "plain Blackjack",
            "yes" if a.tie_pays else "no",
            f"{a.house_edge:.4%}",
            f"{a.house_edge_total:.4%}",
        )
    out.print(fitted(g))


@app.command()
def hand(
    wager: WagerArg,
    cards: Annotated[
        str,
        typer.Argument(
            help="The cards the wager reads, in the order `croupier wagers --json` gives under "
            "'reads' (e.g. the player's two cards, then the dealer's upcard: '7h 7c 7h')."
        ),
    ],
    paytable: OnePaytableOpt = None,
    decks: DecksOpt = None,
    amount: Annotated[str, typer.Option("--amount", "-a", help="Wager in dollars.")] = "5",
    meter: MeterOpt = None,
    stake: StakeOpt = ProgressiveStake.COLLECTED,
    json_out: JsonFlag = False,
    paytable_files: PaytableFiles = None,
) -> None:
    """Classify and settle one dealt hand for a wager."""
    w = _wager(wager, paytable_files)
    table = w.paytable(_only_paytable(w, paytable), decks)
    d = decks if decks is not None else table.decks[0]
    if decks is None and len(table.decks) > 1:
        raise InputError(
            f"paytable {table.key} is offered with {decks_phrase(table.decks, ', ')}: give --decks"
        )
    amount_cents = money(amount, "--amount")
    assert amount_cents is not None
    meter_cents = meter_money(meter, "--meter") if meter is not None else None
    meters = None
    if meter_cents is not None:
        if table.progressive is None or len(table.progressive.meters) != 1:
            raise InputError(
                f"--meter applies to a paytable with one progressive meter, not {table.key}"
            )
        meters = {table.progressive.meters[0].level: meter_cents}
    s = w.settle(parse_cards(cards), table, amount_cents, d, meter_cents=meters, stake=stake)
    groups = _groups(w, s.cards)
    result: dict[str, Any] = {
        "wager": w.id,
        "section": s.section,
        "citation": citation(s.section),
        "paytable": s.paytable,
        "decks": d,
        "cards": [str(c) for c in s.cards],
        "reads": groups,
        "outcome": s.outcome.key if s.outcome else None,
        "paid_as": s.line.label if s.line else None,
        "pays": str(s.line.pays) if s.line else None,
        **money_json("amount", s.amount_cents),
        **money_json("win", s.win_cents),
        **money_json("returned", s.returned_cents),
        "pending_validation": s.pending_validation,
        "rounding_dropped_cent_fraction": _exact(s.rounding_cents_dropped),
        "settlement": RoundSettlement((line_of(1, s),)).to_json(),
    }
    if json_out:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    out.print("; ".join(f"{name}: {' '.join(c)}" for name, c in groups.items()))
    out.print(s.describe())
    if s.rounding_cents_dropped:
        out.print(f"(rounded down to the cent: {float(s.rounding_cents_dropped):.4f}¢ not paid)")
    if s.pending_validation:
        out.print(
            "A floorperson or above must validate this progressive payout before it is paid "
            f"(58 Pa. Code § {w.section}(h)(3))."
        )
        if meter is None:
            out.print(
                "The pay is valued at the meter's seed; the progressive meter decides the pay "
                "(--meter values it at a meter's amount)."
            )


def _exact(x: Fraction) -> str:
    """An exact fraction as JSON text: '3/8'."""
    return f"{x.numerator}/{x.denominator}"


def _groups(w: Wager, cards: tuple[Card, ...]) -> dict[str, list[str]]:
    """The dealt cards under the names of the groups the wager reads."""
    out_groups: dict[str, list[str]] = {}
    i = 0
    for n, g in enumerate(w.deal.groups, start=1):
        # the last group takes every card left (AxMan's dealer hand has two or more)
        end = len(cards) if n == len(w.deal.groups) else i + g.size
        out_groups[g.name] = [str(c) for c in cards[i:end]]
        i += g.size
    return out_groups
