"""What every ``croupier`` command module shares: the Typer ``app``, the ``out``/``err`` consoles,
the common options and the helpers that parse them (money, meters, paytable files)."""

from __future__ import annotations

import difflib
import importlib
import inspect
import re
import sys
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.core
from rich.console import Console

from croupier import __version__
from croupier.commands import COMMANDS
from croupier.errors import one_line, suggest
from croupier.units import format_money, format_percent

if TYPE_CHECKING:  # imported where used: start-up time (issue 14)
    from rich.console import RenderableType
    from rich.progress import Progress
    from rich.table import Table

    from croupier.analysis.parsheet import ParSheet
    from croupier.paytables import PaytableBook
    from croupier.wagers import ProgressiveStake, Wager

    StakeOpt = Annotated[
        ProgressiveStake,
        typer.Option(
            "--progressive-stake",
            help="Whether a meter award returns the stake (see docs/interpretations.md).",
        ),
    ]


class LazyGroup(typer.core.TyperGroup):
    """The root command group: its commands' modules are imported only when one of their commands
    runs (or its own ``--help`` is asked for); ``croupier --help`` lists every command from
    :data:`~croupier.commands.COMMANDS` without importing any (issue 14: start-up time)."""

    def list_commands(self, ctx: Any) -> list[str]:
        """Every command, in :data:`~croupier.commands.COMMANDS` order."""
        return [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command if loaded, else a stand-in carrying its help for the listing."""
        found = self.commands.get(cmd_name)
        if found is not None or cmd_name not in COMMANDS:
            return found
        return typer.core.TyperCommand(name=cmd_name, help=COMMANDS[cmd_name][1])

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """Load the command named first in ``args`` (its modules), then resolve as usual."""
        name = args[0] if args else None
        if isinstance(name, str) and name in COMMANDS:
            if name not in self.commands:
                self.add_command(load_command(name), name)
            else:  # declared by a module loaded before (in-process use): the rest it needs
                for module in COMMANDS[name][0]:
                    importlib.import_module(f"croupier.commands.{module}")
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as exc:  # click's UsageError: "No such command"
            # Typer suggests among the loaded commands only: suggest among them all
            close = difflib.get_close_matches(name or "", self.list_commands(ctx))
            message = getattr(exc, "message", None)
            if close and isinstance(message, str) and "Did you mean" not in message:
                names = ", ".join(f"{m!r}" for m in close)
                exc.message = f"{message.rstrip('.')}. Did you mean {names}?"
            raise


def load_command(name: str) -> Any:
    """The click command of ``name`` (one of :data:`~croupier.commands.COMMANDS`), its modules
    imported and its help tidied (:func:`tidy_help`)."""
    for module in COMMANDS[name][0]:
        importlib.import_module(f"croupier.commands.{module}")
    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    tidy_help(command)
    return command


def _fold_help_tables() -> None:
    """Let ``--help`` wrap a long option name or word onto the next line instead of cutting it
    with '…' (Rich cuts a table cell, and a word too long for its column, by default): the
    tables and the help-text columns of Typer's help (``typer.rich_utils``) are replaced, once,
    when help is first printed."""
    from rich.columns import Columns
    from rich.table import Table
    from rich.text import Text
    from typer import rich_utils

    if getattr(rich_utils, "croupier_folds", False):
        return

    class FoldingTable(Table):
        def add_row(self, *renderables: Any, **kw: Any) -> None:
            super().add_row(*renderables, **kw)
            for column in self.columns:
                column.overflow = "fold"

    def joined(items: list[Any], *args: Any, **kw: Any) -> Any:
        """An option's help as one folding text (Rich's Columns would cut a long word)."""
        if all(isinstance(i, Text) for i in items):
            text = Text(" ").join(items)
            text.overflow = "fold"
            return text
        return Columns(items, *args, **kw)

    setattr(rich_utils, "Table", FoldingTable)  # noqa: B010 - not exported by typer
    setattr(rich_utils, "Columns", joined)  # noqa: B010
    setattr(rich_utils, "croupier_folds", True)  # noqa: B010


def tidy_help(command: Any) -> None:
    """No type column for on/off flags in ``--help`` (Typer would print ``<bool>``), and a
    docstring's line breaks inside a paragraph joined (Rich would break the line there)."""
    for attr in ("help", "short_help"):
        text = getattr(command, attr, None)
        if isinstance(text, str):
            paragraphs = inspect.cleandoc(text).split("\n\n")
            joined = "\n\n".join(" ".join(p.split()) for p in paragraphs)
            setattr(command, attr, joined.replace("``", ""))  # no RST markup on a terminal
    for param in getattr(command, "params", ()):
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        elif param.metavar is None and getattr(param, "multiple", False):
            bare = param.bare_type() if hasattr(param, "bare_type") else ""
            if bare.startswith("list[") and bare.endswith("]"):  # '<list[str]>' → '<str>'
                param.metavar = f"<{bare[5:-1]}>"
        elif getattr(param, "nargs", 1) == -1 and hasattr(param, "bare_type"):
            bare = param.bare_type()  # an argument taking several: its type column, not its name
            if bare.startswith("list[") and bare.endswith("]"):
                shown = f"<{bare[5:-1]}>"
                param.display_type_rich = lambda ctx, shown=shown: shown
    make_help = command.get_help_option
    format_help = command.format_help

    def folded_help(ctx: Any, formatter: Any) -> Any:
        _fold_help_tables()
        return format_help(ctx, formatter)

    command.format_help = folded_help

    def help_option(ctx: Any) -> Any:
        option = make_help(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


app = typer.Typer(
    name="croupier",
    help="Pennsylvania's regulated table-game wagers (58 Pa. Code): paytables, settlement, "
    "exact par sheets and simulation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
)
# Piped output keeps whole table rows instead of wrapping at Rich's default 80 columns.
# markup=False: text from users' paytable files and arguments is printed as it is, never styled.
out = Console(highlight=False, markup=False, width=None if sys.stdout.isatty() else 140)
err = Console(stderr=True, highlight=False, markup=False, soft_wrap=True, emoji=False)


def shown(text: object) -> str:
    r"""Text users gave croupier (a name, a table's or a round's id, a reason), as a cell or a
    title prints it: one line, every control, format or invisible-making character escaped
    (:func:`croupier.errors.one_line`) — a newline stored before the name rule would break a
    table's row, U+202E RIGHT-TO-LEFT OVERRIDE would print the text after it reversed.

    >>> shown("m1\nforged row"), shown("\u202eevil")
    ('m1\\nforged row', '\\u202eevil')
    """
    return one_line(str(text))


def where(exc: BaseException) -> str:
    """The context a :class:`CroupierError` collected on its way up (its notes, e.g. the round
    file and step), as a prefix for its one-line message."""
    notes = getattr(exc, "__notes__", ())
    return "".join(f"{one_line(str(n))}: " for n in notes)


def error_line(message: str) -> None:
    """Print one ``error:`` line on stderr: control characters in ``message`` escaped (a newline
    in user text cannot start a second line), no Rich markup or emoji codes interpreted."""
    err.print(f"error: {one_line(message)}", style="red", markup=False, emoji=False)


def _version(value: bool) -> None:
    if value:
        out.print(f"croupier {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Pennsylvania's regulated table-game wagers (58 Pa. Code): paytables, settlement, exact par
    sheets and simulation."""


PaytableFiles = Annotated[
    list[Path] | None,
    typer.Option(
        "--paytable-file",
        "-f",
        help="Extra paytable TOML file (same schema as the built-in ones); repeatable.",
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]

GAME_STRATEGIES: dict[str, Callable[[list[str], bool], None]] = {}
"""Games whose ``croupier strategy GAME [OPTIONS]`` a command module provides: called with the
options the ``strategy`` command does not know itself, and ``--json``."""

GAME_ANALYSES: dict[str, Callable[[int | None, bool], None]] = {}
"""Games (not wagers of the registry) that ``croupier analyze GAME`` reports: called with
``--decks`` and ``--json``."""


def _book(files: list[Path] | None, wager: Wager | None = None) -> PaytableBook:
    """The built-in paytables with the paytables of the user's ``files``.

    :class:`~croupier.errors.PaytableError` for a file whose ``section`` is not the section of
    any wager croupier settles, or — with ``wager`` — for files none of which holds a paytable of
    that wager's section (a paytable id would otherwise be looked for in vain, the error naming
    neither the file nor its section)."""
    from croupier.errors import PaytableError
    from croupier.paytables import builtin_paytables, load_paytable_file
    from croupier.wagers import all_wagers

    book = builtin_paytables()
    known = sorted({w.section for w in all_wagers()})
    held: list[str] = []
    mine = False
    for f in files or []:
        tables = load_paytable_file(f)
        sections = sorted({t.section for t in tables})
        for sec in sections:
            if sec not in known:
                raise PaytableError(
                    f"{one_line(str(f))}: section {sec!r} is not the section of a wager croupier "
                    f"settles (sections: {', '.join(known)})"
                )
        held.append(f"{one_line(str(f))} holds § {', § '.join(sections)}")
        mine = mine or (wager is not None and wager.section in sections)
        book = book.with_paytables(tables)
    if wager is not None and files and not mine:
        raise PaytableError(
            f"no paytable of {wager.id}'s § {wager.section} in the files given ({'; '.join(held)})"
        )
    return book


def _wager(wager_id: str, files: list[Path] | None) -> Wager:
    from croupier.wagers import get_wager

    wager = get_wager(wager_id)
    return wager.with_book(_book(files, wager)) if files else wager


def did_you_mean(text: str, known: Iterable[str]) -> str:
    """'; did you mean 'perfect-pairs'? (known wagers: …)' — the closest of ``known`` to ``text``
    (:func:`croupier.errors.suggest`), if any is close, then every known id."""
    ids = sorted(known)
    return f"{suggest(text, ids)} (known wagers: {', '.join(ids)})"


_UNKNOWN_WAGER = re.compile(r"no wager (?P<id>'[^']*'|\"[^\"]*\") \(known wagers: (?P<ids>[^)]*)\)")


def with_suggestion(message: str) -> str:
    """An unknown-wager message ('no wager 'perfect-pair' (known wagers: …)') with the closest
    known id suggested; any other message unchanged."""
    m = _UNKNOWN_WAGER.search(message)
    if m is None:
        return message
    hint = did_you_mean(m.group("id")[1:-1], m.group("ids").split(", "))
    return message[: m.start()] + f"no wager {m.group('id')}{hint}" + message[m.end() :]


SIGNED_MONEY = frozenset({"win", "net"})
"""The money fields that are a player's result, formatted with their sign (``"+$10"``,
``"-$5"``) as in every settlement line; stakes and amounts handed back are unsigned."""


def money_json(name: str, cents: int) -> dict[str, Any]:
    """A JSON money field: ``{"<name>": "$1,234.50", "<name>_cents": 123450}`` (integer cents,
    the formatted amount beside them; a result, :data:`SIGNED_MONEY`, with its sign)."""
    sign = "+" if name in SIGNED_MONEY and cents >= 0 else ""  # as signed_money (at_table)
    shown = sign + format_money(cents)
    return {name: shown, f"{name}_cents": cents}


def _progress(disable: bool) -> Progress:
    """A transient progress bar on stderr, shown only to a person at a terminal."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=disable or not err.is_terminal,
    )


def _pct(x: Fraction, digits: int = 4) -> str:
    return f"{float(x):.{digits}%}"


def _sheet_table(sheet: ParSheet) -> Table:
    from rich.table import Table

    from croupier.analysis.lab_report import one_in_cell

    exact = sheet.method == "exact"
    title = (
        f"{sheet.wager_name} · 58 Pa. Code § {sheet.section} · paytable {sheet.paytable} · "
        f"{sheet.shoe} · {sheet.method}"
    )
    if not sheet.regulation:
        title += f"\npaytable from {sheet.paytable_origin}"
    t = Table(title=title, title_justify="left", caption=sheet.convention, caption_justify="left")
    t.add_column("Outcome")
    t.add_column("Pays")
    t.add_column("Combinations" if exact else "Rounds", justify="right")
    t.add_column("Probability", justify="right")
    t.add_column("1 in" if exact else "1 in (seen)", justify="right")
    t.add_column("Return", justify="right")
    for r in sheet.rows:
        count = r.combinations if exact else r.hits
        t.add_row(
            r.label,
            r.pays,
            f"{count:,}",
            f"{float(r.probability):.8f}",
            one_in_cell(r.probability),
            f"{float(r.contribution):+.6f}",
        )
    t.add_section()
    t.add_row(
        "Total", "", f"{sheet.total:,}", "1.00000000", "", f"{float(sheet.expected_return):+.6f}"
    )
    return t


def _lab_lines(sheet: ParSheet) -> list[str]:
    """The volatility index at 90, 95 and 99 % with its definition (a simulation's from the
    sample SD), and the maximum win (in money on a progressive's wager size)."""
    from croupier.analysis.confidence import VI_NOTE
    from croupier.analysis.lab_report import max_win_text

    levels = ", ".join(f"{k}%" for k in sheet.volatility_indexes)
    vi = " · ".join(f"{v:.4f}" for v in sheet.volatility_indexes.values())
    sample = " (from the sample SD)" if sheet.method != "exact" else ""
    return [
        f"volatility index at {levels}: {vi}{sample} ({VI_NOTE.removeprefix('volatility index ')})",
        f"maximum win {max_win_text(sheet)}",
    ]


def _band_table(sheet: ParSheet) -> Table | None:
    """The confidence band of the player's return after 10², …, 10⁸ rounds at 90, 95 and 99 %
    (an exact sheet's; ``None`` for a simulation), its note as the caption."""
    if sheet.method != "exact":
        return None
    from rich.table import Table

    from croupier.analysis.confidence import CONFIDENCE_LEVELS
    from croupier.analysis.lab_report import band_note, band_rows, band_title

    t = Table(
        title=band_title(sheet),
        title_justify="left",
        caption=band_note(sheet),
        caption_justify="left",
    )
    t.add_column("Rounds N", justify="right")
    for lv in CONFIDENCE_LEVELS:
        t.add_column(f"{lv.label} band", justify="right")
    for n, cells in band_rows(sheet):
        t.add_row(f"{n:,}", *cells)
    return t


def _sheet_summary(sheet: ParSheet) -> str:
    parts = [
        f"house edge {_pct(sheet.house_edge)}",
        f"expected return {float(sheet.expected_return):+.6f}",
        f"hit frequency {_pct(sheet.hit_frequency)}",
        f"standard deviation {sheet.standard_deviation:.4f}",
    ]
    if sheet.standard_error is not None:
        parts.append(f"standard error {sheet.standard_error:.6f}")
    if sheet.meters:
        meters = ", ".join(f"{lvl.value} {format_money(c)}" for lvl, c in sheet.meters.items())
        parts.append(
            f"meters {meters} on a {format_money(sheet.wager_cents or 0)} wager (return there "
            f"{_pct(1 + sheet.expected_return)} of the wager)"
        )
    text = " · ".join(parts)
    text += "".join(f"\n{line}" for line in _lab_lines(sheet))
    if sheet.increment_rate:
        text += (
            f"\nmeter lines valued at the meter amounts shown; the increment rate "
            f"({format_percent(sheet.increment_rate)} of each wager, paid back through the meters "
            "over the long run) is not in this house edge"
        )
    if sheet.level_rates:
        from croupier.analysis.lab_report import rates_text

        text += f"\nincrement rates: {rates_text(sheet)}"
    seen = ", seen" if sheet.method != "exact" else ""  # a sample's odds, as its maximum win
    for lv in sheet.hit_odds:  # each level's hit odds (N.J.A.C. 13:69D-1.52(e)(4))
        awards = "; ".join(f"{a.label} {a.odds}" for a in lv.awards)
        text += f"\nhit odds, {lv.level.value} meter: {lv.odds}{seen}" + (
            f" ({awards})" if len(lv.awards) > 1 else ""
        )
    if sheet.paytable_sha256:
        text += f"\npaytable sha256 {sheet.paytable_sha256}"
    return text


def fitted(table: Table, console: Console | None = None) -> Table:
    """``table`` with each column as wide as its widest text, when the whole table fits the
    console's width (else as it was, for Rich to shrink and wrap): what Rich would make of it,
    without measuring every cell word by word first (a quarter of printing the 251 par sheets of
    ``croupier parsheet``; issue 33). Columns holding anything but text are left to Rich."""
    from rich.cells import cell_len

    if table.expand or table.width is not None or table.min_width is not None:
        return table
    if table.collapse_padding or not table.pad_edge:
        return table
    widths = []
    for column in table.columns:
        texts = [column.header, *column.cells]
        if not all(isinstance(x, str) for x in texts) or column.width is not None:
            return table
        if column.min_width is not None or column.max_width is not None or column.ratio:
            return table
        widths.append(max(cell_len(line) for x in texts for line in str(x).split("\n")))
    pad = table.padding[1] + table.padding[3]
    edges = 0 if table.box is None else len(widths) - 1 + (2 if table.show_edge else 0)
    if sum(widths) + pad * len(widths) + edges > (console or out).width:
        return table
    for column, width in zip(table.columns, widths, strict=True):
        column.width = width
    return table


def drawn(table: Table) -> RenderableType:
    """``table`` as ``out`` prints it fastest: its columns :func:`fitted`, and drawn as plain
    text when ``out`` prints no colour (:func:`croupier.commands.plain_tables.plain`)."""
    from croupier.commands.plain_tables import plain

    return plain(fitted(table), out)


def _print_sheet(sheet: ParSheet, more: str = "") -> None:
    """A par sheet on the terminal: its outcomes, its figures (``more``: lines of the caller's
    after them, a progressive's meter analysis) and, exact, the return's confidence band."""
    out.print(drawn(_sheet_table(sheet)))
    out.print(_sheet_summary(sheet))
    if more:
        out.print(more)
    bands = _band_table(sheet)
    if bands is not None:
        out.print(drawn(bands))
    out.print()


WagerArg = Annotated[str, typer.Argument(help="Wager id (see `croupier wagers`).")]
PaytableOpt = Annotated[str, typer.Option("--paytable", "-p", help="Paytable id, e.g. A or P17-A.")]
DecksOpt = Annotated[
    int | None,
    typer.Option("--decks", "-d", help="Deck count (may be omitted when the paytable allows one)."),
]
MeterOpt = Annotated[
    str | None,
    typer.Option(
        "--meter",
        help="Progressive meter amount in dollars (default: the seed); by level for a paytable "
        "with several meters: 'Mega=60000,Major=6000'.",
    ),
]
WagerAmountOpt = Annotated[
    str | None,
    typer.Option(
        "--amount",
        "-a",
        help="Wager size in dollars, for a progressive's meters (default: the smallest allowed).",
    ),
]


def __getattr__(name: str) -> Any:
    """``StakeOpt`` (the ``--progressive-stake`` option), built when a command module asks for it:
    its type imports :mod:`croupier.wagers` (start-up time)."""
    if name == "StakeOpt":
        from croupier.wagers import ProgressiveStake

        return Annotated[
            ProgressiveStake,
            typer.Option(
                "--progressive-stake",
                help="Whether a meter award returns the stake (see docs/interpretations.md).",
            ),
        ]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
