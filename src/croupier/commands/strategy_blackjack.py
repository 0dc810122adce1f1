"""Blackjack strategy and the § 633b.4 games (Switch Hands, Blackjack Premium).

``croupier strategy blackjack --decks 6 --s17 [--surrender] [--strategy basic|composition]
[--blackjack-pays 3:2|6:5|1:1] [--peek|--no-peek] [--double any|9-11|10-11] [--effects] [--json]``
prints a rule set's house edge under the strategy named (:mod:`croupier.analysis.blackjack_exact`,
through :mod:`croupier.operations.blackjack`), the basic-strategy chart of two-card hands (read
off the older composition-dependent engine, :mod:`croupier.analysis.blackjack_strategy`, which
models the peek only) and, with ``--effects``, each rule's change to the house edge;
``croupier strategy switch-hands --decks 6 [--tie-pays]`` the switch decision chart;
``croupier analyze switch-hands --decks 6`` and ``croupier analyze blackjack-premium`` the house
edges of 58 Pa. Code § 633b.4.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from rich.table import Table

from croupier.commands.common import GAME_ANALYSES, GAME_STRATEGIES, out
from croupier.errors import InputError, citation

if TYPE_CHECKING:
    from croupier.analysis.blackjack_strategy import PlayRules
    from croupier.analysis.switch_hands import SwitchAnalysis

# The strategy engine (numpy) is imported by the commands that run it, not when this module
# registers them: `croupier parsheet` loads this module for its game names only (issue 33).


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one-line usage errors, status 2 (croupier.cli.main)
        raise InputError(f"{self.prog}: {message}")


def _rules_parser(prog: str) -> _Parser:
    p = _Parser(prog=prog, add_help=False, exit_on_error=False)
    p.add_argument("--decks", "-d", type=int, default=6)
    soft = p.add_mutually_exclusive_group()
    soft.add_argument("--s17", dest="h17", action="store_false", default=False)
    soft.add_argument("--h17", dest="h17", action="store_true")
    p.add_argument("--no-das", dest="das", action="store_false", default=True)
    p.add_argument("--split-hands", type=int, default=4)
    p.add_argument("--resplit-aces", action="store_true")
    p.add_argument("--hit-split-aces", action="store_true")
    p.add_argument("--surrender", action="store_true", help="late surrender")
    p.add_argument("--help", "-h", action="store_true")
    return p


_RULES_HELP = (
    "options: --decks N (6), --s17 (default) | --h17, --no-das, --split-hands N (4), "
    "--resplit-aces, --hit-split-aces, --surrender (late), --json"
)


def _rules(ns: argparse.Namespace) -> PlayRules:
    from croupier.analysis.blackjack_strategy import PlayRules

    if ns.decks < 1:
        raise InputError(f"--decks must be at least 1, not {ns.decks}")
    return PlayRules.of(
        ns.decks,
        ns.h17,
        ns.das,
        ns.split_hands,
        ns.resplit_aces,
        ns.hit_split_aces,
        ns.surrender,
    )


def _parse(parser: _Parser, args: list[str]) -> argparse.Namespace | None:
    try:
        ns = parser.parse_args(args)
    except argparse.ArgumentError as exc:
        raise InputError(f"{parser.prog}: {exc}") from None
    if ns.help:
        out.print(f"{parser.prog} [OPTIONS]\n{_RULES_HELP}")
        return None
    return ns


_BLACKJACK_HELP = (
    _RULES_HELP + ", --strategy basic (default) | composition, --blackjack-pays 3:2 | 6:5 | 1:1, "
    "--peek (default) | --no-peek, --double any | 9-11 | 10-11, --effects (the effect of each "
    "rule)"
)


def _blackjack_parser() -> _Parser:
    p = _rules_parser("croupier strategy blackjack")
    p.add_argument("--strategy", default=None)
    p.add_argument("--blackjack-pays", default="3:2")
    peek = p.add_mutually_exclusive_group()
    peek.add_argument("--peek", dest="peek", action="store_true", default=True)
    peek.add_argument("--no-peek", dest="peek", action="store_false")
    p.add_argument("--double", default="any")
    p.add_argument("--effects", action="store_true")
    return p


def blackjack_strategy(args: list[str], json_out: bool) -> None:
    """``croupier strategy blackjack``: a rule set's house edge under the strategy named (basic
    by default), the basic-strategy chart and, with ``--effects``, the effect of each rule."""
    parser = _blackjack_parser()
    try:
        ns = parser.parse_args(args)
    except argparse.ArgumentError as exc:
        raise InputError(f"{parser.prog}: {exc}") from None
    if ns.help:
        out.print(f"{parser.prog} [OPTIONS]\n{_BLACKJACK_HELP}")
        return
    from croupier.operations.blackjack import SECTIONS, play_rules, strategy_of

    strategy = strategy_of(ns.strategy)
    rules = play_rules(
        ns.decks,
        ns.h17,
        ns.das,
        ns.split_hands,
        ns.resplit_aces,
        ns.hit_split_aces,
        ns.surrender,
        peek=ns.peek,
        blackjack_pays=ns.blackjack_pays,
        double=ns.double,
    )
    doc: dict[str, Any] = {"game": "blackjack", "sections": SECTIONS}
    doc.update(_figures(rules, strategy, ns.effects, json_out))
    rows = _chart(rules)
    if rows is not None:
        doc["chart"] = rows
    if json_out:
        doc = {k: doc[k] for k in _ORDER if k in doc}
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    _print_blackjack(doc)


_ORDER = (
    "game",
    "sections",
    "rules",
    "rule_set",
    "house_edge",
    "strategy",
    "strategy_description",
    "chart",
    "effects",
)


def _figures(rules: PlayRules, strategy: Any, effects: bool, quiet: bool) -> dict[str, Any]:
    """The house edge (and with ``effects`` the effects table), a progress bar on a terminal."""
    from croupier.commands.common import _progress
    from croupier.operations.blackjack import effects_document, house_edge_document

    with _progress(disable=quiet) as progress:
        task = progress.add_task(f"Blackjack · {strategy.value} strategy", total=1)

        def step(done: int, total: int, what: str) -> None:
            progress.update(task, completed=done, total=total, description=what)

        if effects:
            return effects_document(rules, strategy, progress=step)
        doc = house_edge_document(rules, strategy)
        progress.update(task, completed=1)
        return doc


def _chart(rules: PlayRules) -> list[dict[str, Any]] | None:
    """The basic-strategy chart of two-card hands, read off the composition-dependent engine
    of :mod:`croupier.analysis.blackjack_strategy` (``None`` without the peek, which that engine
    does not model)."""
    if not rules.table.peek:
        return None
    from croupier.analysis.blackjack_strategy import basic_strategy_chart
    from croupier.analysis.switch_hands import UPCARDS

    return [
        {
            "kind": r.kind,
            "hand": r.label,
            "actions": {u: r.actions[u].value for u in UPCARDS},
            "ev": {u: {a.value: v for a, v in r.values[u].items()} for u in UPCARDS},
        }
        for r in basic_strategy_chart(rules)
    ]


_LETTERS = {"stand": "S", "hit": "H", "double": "D", "split": "P", "surrender": "R"}


def _print_blackjack(doc: dict[str, Any]) -> None:
    """The text form: the chart, the house edge and strategy, the effects table."""
    from croupier.analysis.switch_hands import UPCARDS

    chart = doc.get("chart")
    if chart is not None:
        table = Table(title=f"Blackjack basic strategy · {doc['rules']}")
        table.add_column("Hand")
        for u in UPCARDS:
            table.add_column(u, justify="center")
        kind = ""
        for r in chart:
            if r["kind"] != kind and kind:
                table.add_section()
            kind = r["kind"]
            table.add_row(r["hand"], *(_LETTERS[r["actions"][u]] for u in UPCARDS))
        out.print(table)
        out.print(
            "S stand · H hit · D double (hit if not allowed) · P split · R surrender; the play "
            "with the best EV given no dealer Blackjack (after the peek), averaged over the "
            "two-card hands of each total"
        )
    else:
        out.print(f"Blackjack · {doc['rules']}")
        out.print("(no chart without the peek: the chart's engine models the peek only)")
    out.print(
        f"house edge {doc['house_edge'] * 100:.4f}% of the initial wager · {doc['strategy']} "
        f"strategy ({doc['strategy_description']}) · every round from a full shoe (no cut card)"
    )
    effects = doc.get("effects")
    if effects is None:
        return
    table = Table(title=f"The effect of each rule · {doc['strategy']} strategy")
    table.add_column("Rule")
    table.add_column("Variation")
    table.add_column("House edge", justify="right")
    table.add_column("Change", justify="right")
    table.add_row("base", "the rules above", f"{doc['house_edge'] * 100:.4f}%", "")
    table.add_section()
    for e in effects:
        table.add_row(
            e["rule"], e["label"], f"{e['house_edge'] * 100:.4f}%", f"{e['change'] * 100:+.4f}"
        )
    out.print(table)
    out.print("change: percentage points of the initial wager (+ costs the player)")


def switch_strategy(args: list[str], json_out: bool) -> None:
    """``croupier strategy switch-hands``: keep or switch, by face-up pair and upcard."""
    parser = _rules_parser("croupier strategy switch-hands")
    parser.add_argument("--tie-pays", action="store_true")
    parser.add_argument("--premium", action="store_true")
    ns = _parse(parser, args)
    if ns is None:
        return
    from croupier.analysis.switch_hands import UPCARDS, Variant, analyze, switch_chart

    rules = _rules(ns)
    variant = Variant.PREMIUM if ns.premium else Variant.SWITCH_HANDS
    a = analyze(variant, rules, True, ns.tie_pays or ns.premium)
    chart = switch_chart(a)
    if json_out:
        print(
            json.dumps(
                {
                    "game": variant.value,
                    "section": "633b.4(f)",
                    "citation": citation("633b.4(f)"),
                    "rules": rules.describe(),
                    "tie_blackjack_pays_1_to_2": a.tie_pays,
                    "switch_rate": a.switch_rate,
                    "chart": {
                        pair: {
                            u: {
                                "switch": c.switches,
                                "keep_ev": c.keep,
                                "switch_ev": c.switch,
                            }
                            for u, c in cells.items()
                        }
                        for pair, cells in chart.items()
                    },
                },
                indent=2,
            )
        )
        return
    table = Table(title=f"{_title(a)} · switch decision · {rules.describe()}")
    table.add_column("Face-up pair")
    for u in UPCARDS:
        table.add_column(u, justify="center")
    for pair in sorted(chart, key=lambda p: -chart[p]["T"].keep):
        cells = chart[pair]
        table.add_row(pair, *("W" if cells[u].switches else "K" for u in UPCARDS))
    out.print(table)
    out.print(
        "K keep the face-up pair · W switch to the face-down pair (§ 633b.4(f)); rows by the "
        f"face-up pair's value against a ten; switches {a.switch_rate * 100:.2f}% of deals"
    )


def _title(a: SwitchAnalysis) -> str:
    return "Switch Hands" if a.variant.value == "switch-hands" else "Blackjack Premium"


def _report(game: str, decks: int | None, json_out: bool) -> None:
    """``croupier analyze GAME``: ``game`` is a :class:`~croupier.analysis.switch_hands.Variant`
    value."""
    from croupier.analysis.blackjack_strategy import PlayRules
    from croupier.analysis.switch_hands import PremiumColoredPays, Variant, analyze, figures

    variant = Variant(game)
    rules = PlayRules.of(decks or 6)
    if variant is Variant.SWITCH_HANDS:
        results = [analyze(variant, rules, True, tie) for tie in (False, True)]
    else:
        results = [analyze(variant, rules, ante, True) for ante in (True, False)]
    strategy = (
        "each hand played optimally (composition-dependent) from the shoe less the cards seen; "
        "an Ante player switches whenever the face-down pair's average value is higher"
    )
    if json_out:
        doc = {
            "game": variant.value,
            "section": "633b.4",
            "citation": citation("633b.4"),
            "rules": rules.describe(),
            "strategy": strategy,
            "premium_colored_pays": PremiumColoredPays.ANTE.value,
            "figures": [figures(a) for a in results],
        }
        print(json.dumps(doc, indent=2))
        return
    table = Table(title=f"{_title(results[0])} · 58 Pa. Code § 633b.4 · {rules.describe()}")
    for col in ("Player", "Tie BJ 1 to 2", "Ante", "BJ wager EV", "House edge / BJ wager"):
        table.add_column(col, justify="right" if col != "Player" else "left")
    table.add_column("House edge / total wagered", justify="right")
    table.add_column("Switches", justify="right")
    for a in results:
        table.add_row(
            "Ante (Switch Hands)" if a.ante else "plain Blackjack",
            "yes" if a.tie_pays else "no",
            f"{a.ante_rate:.2f}",
            f"{a.expected_hand:+.6f}",
            f"{a.house_edge * 100:.4f}%",
            f"{a.house_edge_total * 100:.4f}%",
            f"{a.switch_rate * 100:.2f}%" if a.ante else "—",
        )
    out.print(table)
    out.print(f"strategy: {strategy}")


GAME_STRATEGIES["blackjack"] = blackjack_strategy
GAME_STRATEGIES["switch-hands"] = switch_strategy
GAME_ANALYSES["switch-hands"] = lambda decks, j: _report("switch-hands", decks, j)
GAME_ANALYSES["blackjack-premium"] = lambda decks, j: _report("blackjack-premium", decks, j)

__all__ = ["blackjack_strategy", "switch_strategy"]
