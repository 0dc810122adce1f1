"""A table printed without colour, drawn by string formatting: the same characters Rich draws for it,
in a tenth of the time (issue 33: Rich renders every cell through its wrapping and padding
machinery, about 3 ms a par sheet table, most of ``croupier parsheet``'s time).

:func:`plain` takes a :class:`rich.table.Table` whose every column already has its width (what
:func:`croupier.commands.common.fitted` sets when the table fits the console) and returns a
renderable that yields the table's lines as plain text, with its edges or without (``show_edge``);
the title and caption are still wrapped by Rich (two texts a table). Anything this drawing does not
reproduce exactly — a console that prints colour or styles (a terminal), cells that are not plain
one-style text, wrapping, lines, footers, vertical alignment other than the default, justification
other than left, right or center — gets the table back unchanged, for Rich to draw.
``tests/commands/test_fitted_tables.py`` holds the two drawings to the same characters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.table import Table

_JUSTIFY = ("left", "right", "center")


def _cell_lines(text: str, width: int, justify: str) -> list[str] | None:
    """The lines of one cell ``width`` columns wide, as Rich justifies them; ``None`` when a
    line would be wrapped or holds what Rich treats specially (control characters, trailing
    spaces)."""
    from rich.cells import cell_len

    lines = []
    for line in text.split("\n"):
        if not line.isprintable() or line != line.rstrip():
            return None
        size = cell_len(line)
        if size > width:
            return None
        room = width - size
        if justify == "right":
            lines.append(" " * room + line)
        elif justify == "center":
            lines.append(" " * (room // 2) + line + " " * (room - room // 2))
        else:
            lines.append(line + " " * room)
    return lines


def _body(table: Table, console: Console) -> str | None:
    """The table's lines from its top edge to its bottom edge, ``None`` when it is not one
    :func:`plain` draws."""
    if (
        table.box is None
        or not table.show_header
        or table.show_footer
        or table.show_lines
        or table.leading
        or table.collapse_padding
        or not table.pad_edge
    ):
        return None
    top, right, bottom, left = table.padding
    if top or bottom:
        return None
    columns = table.columns
    emoji = getattr(console, "_emoji", True)  # Rich would replace ':name:' codes
    widths = []
    grid: list[list[list[str]]] = []  # by column: the header's lines, then each row's
    for column in columns:
        if column.width is None or column.justify not in _JUSTIFY or column.vertical != "top":
            return None
        cells = []
        for text in [column.header, *column.cells]:
            if not isinstance(text, str) or (emoji and ":" in text):
                return None
            lines = _cell_lines(text, column.width, column.justify)
            if lines is None:
                return None
            cells.append(lines)
        widths.append(column.width + left + right)
        grid.append(cells)
    box = table.box.substitute(
        console.options, safe=console.safe_box if table.safe_box is None else table.safe_box
    )
    pad_left, pad_right = " " * left, " " * right
    edge = table.show_edge  # without it, no top or bottom line and no left or right edge
    out = [box.get_top(widths), "\n"] if edge else []
    blank = [" " * (column.width or 0) for column in columns]
    for index in range(len(table.rows) + 1):
        cells = [grid[c][index] for c in range(len(columns))]
        height = max(len(x) for x in cells)
        if index == 0:  # Rich aligns a header to the bottom of its row
            cells = [[blank[c]] * (height - len(x)) + x for c, x in enumerate(cells)]
            edge_left, edge_right, divider = box.head_left, box.head_right, box.head_vertical
        else:
            cells = [x + [blank[c]] * (height - len(x)) for c, x in enumerate(cells)]
            last = index == len(table.rows)
            edge_left, edge_right, divider = (
                (box.foot_left, box.foot_right, box.foot_vertical)
                if last
                else (box.mid_left, box.mid_right, box.mid_vertical)
            )
        if not edge:
            edge_left = edge_right = ""
        for n in range(height):
            inner = divider.join(pad_left + cell[n] + pad_right for cell in cells)
            out += [edge_left, inner, edge_right, "\n"]
        if index == 0:
            out += [box.get_row(widths, "head", edge=edge), "\n"]
        elif index < len(table.rows) and table.rows[index - 1].end_section:
            out += [box.get_row(widths, "row", edge=edge), "\n"]
    if edge:
        out += [box.get_bottom(widths), "\n"]
    return "".join(out)


class _Plain:
    """A table drawn as plain text (:func:`plain`): its title and caption through Rich."""

    def __init__(self, table: Table, body: str, width: int) -> None:
        self.table, self.body, self.width = table, body, width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment
        from rich.style import Style

        table = self.table
        render_options = options.update(width=self.width, highlight=table.highlight, height=None)

        def annotation(text: object, style: object, justify: str) -> RenderResult:
            shown = (
                console.render_str(text, style=style, highlight=False)  # type: ignore[arg-type]
                if isinstance(text, str)
                else text
            )
            return console.render(shown, options=render_options.update(justify=justify))  # type: ignore[arg-type]

        if table.title:
            style = Style.pick_first(table.title_style, "table.title")
            yield from annotation(table.title, style, table.title_justify)
        yield Segment(self.body)
        if table.caption:
            style = Style.pick_first(table.caption_style, "table.caption")
            yield from annotation(table.caption, style, table.caption_justify)


def plain(table: Table, console: Console) -> RenderableType:
    """``table`` drawn as plain text when ``console`` prints no colour and the table
    is one it draws exactly (module docstring), else ``table`` itself."""
    if console.color_system is not None or console.is_terminal:
        return table
    if table.width is not None or table.expand or table.min_width is not None:
        return table
    body = _body(table, console)
    if body is None:
        return table
    from rich.cells import cell_len

    width = cell_len(body.partition("\n")[0])  # the top edge, or the header's first line
    if width > console.width:
        return table
    return _Plain(table, body, width)
