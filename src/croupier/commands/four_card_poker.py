"""Four Card Poker commands (58 Pa. Code § 641a.7).

``croupier strategy four-card-poker`` prints the optimal Ante/Play strategy as a rule a player can
follow, with its exact figures; ``--regenerate`` recomputes the shipped dealer table it is read
from (a few minutes). ``croupier four-card-poker PLAYER DEALER --ante 5 --play 15 ...`` settles
a dealt round.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from croupier.cards import format_cards, parse_card, parse_cards
from croupier.commands.common import (
    GAME_STRATEGIES,
    JsonFlag,
    PaytableFiles,
    _book,
    app,
    did_you_mean,
    err,
    money_json,
    out,
)
from croupier.errors import InputError, citation, one_of, suggest
from croupier.games.four_card_poker import (
    AntePlayAnalysis,
    AntePlayStrategy,
    strategy_rule,
    upcard_rule,
)
from croupier.games.four_card_poker_exact import save_dealer_table, shipped_path
from croupier.games.four_card_poker_regenerate import regenerate
from croupier.operations.presenters.arguments import meter_money, money
from croupier.units import format_money
from croupier.wagers.at_table import RoundSettlement
from croupier.wagers.four_card_poker import (
    AntePlay,
    FourCardPokerBets,
    FourCardPokerSettlement,
    settle_round,
)
from croupier.wagers.registry import get_wager

GAMES = ("four-card-poker",)


def _ante_play(paytable_files: list[Path] | None) -> AntePlay:
    w = get_wager("four-card-poker")
    assert isinstance(w, AntePlay)
    return w.with_book(_book(paytable_files)) if paytable_files else w


_BJ = "Blackjack and Switch Hands rules"

_Decks = Annotated[
    int | None, typer.Option("--decks", "-d", help="Blackjack: decks in the shoe (6).")
]
_H17 = Annotated[
    bool, typer.Option("--h17/--s17", help="Blackjack: the dealer hits soft 17 (--h17).")
]
_NoDas = Annotated[bool, typer.Option("--no-das", help="Blackjack: no double after a split.")]
_SplitHands = Annotated[
    int | None, typer.Option("--split-hands", help="Blackjack: most hands by splitting (4).")
]
_ResplitAces = Annotated[
    bool, typer.Option("--resplit-aces", help="Blackjack: aces may be resplit.")
]
_HitSplitAces = Annotated[
    bool, typer.Option("--hit-split-aces", help="Blackjack: split aces may draw.")
]
_Surrender = Annotated[
    bool, typer.Option("--surrender", help="Blackjack: late surrender is offered.")
]
_TiePays = Annotated[
    bool, typer.Option("--tie-pays", help="Switch Hands: a blackjack tie pays 1 to 2.")
]
_Premium = Annotated[
    bool, typer.Option("--premium", help="Switch Hands: the Blackjack Premium variant.")
]
_Strategy = Annotated[
    str | None,
    typer.Option(
        "--strategy",
        help="Blackjack: the player's strategy, basic (total-dependent, the default: what a "
        "player plays from the chart) or composition (composition-dependent).",
    ),
]
_BlackjackPays = Annotated[
    str | None, typer.Option("--blackjack-pays", help="Blackjack: 3:2 (default), 6:5 or 1:1.")
]
_Peek = Annotated[
    bool | None,
    typer.Option(
        "--peek/--no-peek", help="Blackjack: the dealer peeks under an ace or a ten (--peek)."
    ),
]
_Double = Annotated[
    str | None,
    typer.Option("--double", help="Blackjack: doubling on any two cards (any), 9-11 or 10-11."),
]
_Effects = Annotated[
    bool, typer.Option("--effects", help="Blackjack: the effect of each rule on the house edge.")
]
_Regenerate = Annotated[
    bool,
    typer.Option(
        "--regenerate",
        help="Recompute the exact dealer table the strategy is read from (about five "
        "minutes, ~7 GB of memory) and write it over the shipped one (or to --out).",
    ),
]


@app.command()
def strategy(
    game: Annotated[
        str, typer.Argument(help="The game: four-card-poker, blackjack, switch-hands.")
    ],
    paytable: Annotated[
        str, typer.Option("--paytable", "-p", help="The Ante bonus paytable.")
    ] = "25-20-2",
    regenerate_table: _Regenerate = False,
    out_path: Annotated[
        Path | None, typer.Option("--out", "-o", help="With --regenerate: write the table here.")
    ] = None,
    json_out: JsonFlag = False,
    paytable_files: PaytableFiles = None,
    decks: _Decks = None,
    h17: _H17 = False,
    no_das: _NoDas = False,
    split_hands: _SplitHands = None,
    resplit_aces: _ResplitAces = False,
    hit_split_aces: _HitSplitAces = False,
    surrender: _Surrender = False,
    tie_pays: _TiePays = False,
    premium: _Premium = False,
    bj_strategy: _Strategy = None,
    blackjack_pays: _BlackjackPays = None,
    peek: _Peek = None,
    double: _Double = None,
    effects: _Effects = False,
) -> None:
    """The optimal strategy of a game: Four Card Poker's Ante/Play rule with its exact figures;
    Blackjack's house edge by rule set (basic or composition-dependent strategy), its
    basic-strategy chart and the effect of each rule; the Switch Hands decision chart."""
    rules = [
        *(["--decks", str(decks)] if decks is not None else []),
        *(["--h17"] if h17 else []),
        *(["--no-das"] if no_das else []),
        *(["--split-hands", str(split_hands)] if split_hands is not None else []),
        *(["--resplit-aces"] if resplit_aces else []),
        *(["--hit-split-aces"] if hit_split_aces else []),
        *(["--surrender"] if surrender else []),
        *(["--tie-pays"] if tie_pays else []),
        *(["--premium"] if premium else []),
        *(["--strategy", bj_strategy] if bj_strategy is not None else []),
        *(["--blackjack-pays", blackjack_pays] if blackjack_pays is not None else []),
        *([] if peek is None else ["--peek" if peek else "--no-peek"]),
        *(["--double", double] if double is not None else []),
        *(["--effects"] if effects else []),
    ]
    other = GAME_STRATEGIES.get(game.strip().lower())
    if other is not None:
        other(rules, json_out)
        return
    if game.strip().lower() not in GAMES:
        games = ", ".join((*GAMES, *GAME_STRATEGIES))
        raise InputError(
            f"no strategy for {game!r}{suggest(game, (*GAMES, *GAME_STRATEGIES))} "
            f"(games with one: {games})"
        )
    if rules:
        raise InputError(f"{' '.join(rules)}: options of blackjack and switch-hands, not {game}")
    w = _ante_play(paytable_files)
    table = w.paytable(paytable, 1)
    if regenerate_table:
        _regenerate_dealer_table(out_path)
        if out_path is not None:
            return
    strat = AntePlayStrategy.for_bonus(w.bonus_pays(table))
    if json_out:
        print(json.dumps(_strategy_json(table.key, strat), indent=2, ensure_ascii=False))
        return
    _print_rule(table.key, strat)
    out.print()
    _print_upcard_rule(strat)


def _regenerate_dealer_table(out_path: Path | None) -> None:
    """``--regenerate``: recompute the exact dealer table and write it to ``out_path`` (else over
    the shipped one, whose cached copy is then dropped so the strategy is read from the new)."""
    started = time.monotonic()
    dealer = regenerate(progress=lambda msg: err.print(msg))
    path = save_dealer_table(dealer, out_path or shipped_path())
    err.print(
        f"wrote {path} ({path.stat().st_size:,} bytes) in {time.monotonic() - started:.0f} s; "
        f"sha256 of the arrays {dealer.digest()}"
    )
    if out_path is None:
        from croupier.games.four_card_poker_exact import load_dealer_table

        load_dealer_table.cache_clear()


def _frequency_json(a: AntePlayAnalysis) -> dict[str, float]:
    """How often a strategy folds, plays 1× and plays 3× the Ante."""
    return {
        "fold": float(a.frequency(0)),
        "play_1x": float(a.frequency(1)),
        "play_3x": float(a.frequency(3)),
    }


def _strategy_json(key: str, strat: AntePlayStrategy) -> dict[str, Any]:
    """``croupier strategy four-card-poker --json``: the rule, with and without the dealer's
    face-up card, and their figures, for the Ante bonus paytable ``key``."""
    a = strat.analysis
    up = strat.upcard_analysis
    return {
        "game": "four-card-poker",
        "section": "641a.7(d)(1)",
        "citation": citation("641a.7(d)(1)"),
        "paytable": key,
        "ante_bonus": {c.value: str(v) for c, v in strat.bonus},
        "rule": [
            {
                "hands": ln.hands_text,
                "decision": ln.decision.value,
                "player_hands": ln.hands,
                "exceptions": ln.exceptions,
            }
            for ln in strategy_rule(strat)
        ],
        "house_edge_per_ante": float(a.house_edge),
        "house_edge_per_total_wagered": float(a.element_of_risk),
        "average_total_wager_in_antes": float(a.average_wager),
        "frequency": _frequency_json(a),
        "with_the_face_up_card": {
            "by_face_up_rank": [
                {
                    "hands": row.hands_text,
                    "decisions": {
                        rank: dec.value
                        for rank, dec in zip("23456789TJQKA", row.decisions, strict=True)
                    },
                    "exceptions": row.exceptions,
                    "deals": row.situations,
                }
                for row in upcard_rule(strat)
            ],
            "house_edge_per_ante": float(up.house_edge),
            "house_edge_per_total_wagered": float(up.element_of_risk),
            "frequency": _frequency_json(up),
        },
    }


def _print_figures(a: AntePlayAnalysis) -> None:
    """A strategy's house edge, average total wager and how often it folds or plays."""
    out.print(
        f"house edge {float(a.house_edge):.4%} of the Ante · {float(a.element_of_risk):.4%} of "
        f"the total wagered (Ante + Play averages {float(a.average_wager):.4f} Antes) · fold "
        f"{float(a.frequency(0)):.2%}, play 1× {float(a.frequency(1)):.2%}, play 3× "
        f"{float(a.frequency(3)):.2%}"
    )


def _print_rule(key: str, strat: AntePlayStrategy) -> None:
    """The Ante/Play rule without the dealer's face-up card, as a table, and its figures."""
    t = Table(
        title=f"Four Card Poker · optimal Ante/Play strategy · Ante bonus {key} · "
        "without the dealer's face-up card",
        title_justify="left",
        caption="the player's best four of five against the dealer's best four of six from the "
        "other 47 cards, not reading the dealer's face-up card; 'exceptions': hands of the line "
        "the exact strategy plays otherwise (it reads every card: `croupier four-card-poker` "
        "shows the exact decision)",
        caption_justify="left",
    )
    for col, just in (("Best four-card hand", "left"), ("Do", "left")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    t.add_column("Player hands", justify="right")
    t.add_column("Exceptions", justify="right")
    words = {"fold": "Fold", "play-1x": "Play 1× the Ante", "play-3x": "Play 3× the Ante"}
    for ln in strategy_rule(strat):
        t.add_row(ln.hands_text, words[ln.decision.value], f"{ln.hands:,}", f"{ln.exceptions:,}")
    out.print(t)
    _print_figures(strat.analysis)


def _print_upcard_rule(strat: AntePlayStrategy) -> None:
    """The rule reading the dealer's face-up card too, by its rank, and its figures."""
    u = Table(
        title="Reading the dealer's face-up card too (F fold, 1 play 1×, 3 play 3×)",
        title_justify="left",
        caption="by the rank of the dealer's face-up card; 'exceptions': (hand, face-up card) "
        "deals the exact strategy plays otherwise",
        caption_justify="left",
    )
    u.add_column("Best four-card hand")
    for rank in "23456789TJQKA":
        u.add_column(rank, justify="center")
    u.add_column("Exceptions", justify="right")
    short = {"fold": "F", "play-1x": "1", "play-3x": "3"}
    for row in upcard_rule(strat):
        u.add_row(row.hands_text, *(short[d.value] for d in row.decisions), f"{row.exceptions:,}")
    out.print(u)
    _print_figures(strat.upcard_analysis)


_BET_FIELDS = {
    "aces-up": "aces_up_cents",
    "bad-beat-bonus": "bad_beat_cents",
    "four-card-progressive": "four_card_progressive_cents",
    "five-card-progressive": "five_card_progressive_cents",
    "five-card-hand-bonus": "five_card_bonus_cents",
    "five-card-hand-bonus-dealer": "five_card_bonus_dealer_cents",
    "six-card-bonus": "six_card_bonus_cents",
}
"""The side wagers a ``--bet`` names (their wager ids) and their :class:`FourCardPokerBets`
fields; ``ante`` and ``play`` are the base game's."""


def _parse_bets(bets: list[str] | None) -> dict[str, str]:
    """``--bet WAGER=DOLLARS`` (repeatable) by wager id, the amounts still as given."""
    known = ["ante", "play", *_BET_FIELDS]
    given: dict[str, str] = {}
    for text in bets or []:
        wager, sep, amount = text.partition("=")
        wager = wager.strip().lower()
        if not sep or not wager:
            raise InputError(f"--bet takes WAGER=DOLLARS, e.g. ante=10, not {text!r}")
        if wager not in known:
            raise InputError(
                f"--bet: no Four Card Poker wager {wager!r}{did_you_mean(wager, known)}"
            )
        if wager in given:
            raise InputError(f"--bet {wager} given twice")
        given[wager] = amount
    return given


def _cents(text: str | None, what: str) -> int:
    return money(text, what) or 0 if text is not None else 0


@app.command(name="four-card-poker")
def four_card_poker_round(
    player: Annotated[str, typer.Argument(help="The player's five cards, e.g. '9h 9c 9d Ks 2s'.")],
    dealer: Annotated[str, typer.Argument(help="The dealer's six cards, the face-up card first.")],
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet",
            "-b",
            help="A wager and its amount in dollars, WAGER=DOLLARS; repeat. ante, play (1 to 3 "
            "times the Ante, or play=best for the optimal strategy; no play: fold), aces-up, "
            "bad-beat-bonus, four-card-progressive, five-card-progressive, five-card-hand-bonus, "
            "five-card-hand-bonus-dealer, six-card-bonus.",
        ),
    ] = None,
    bonus_card: Annotated[
        str | None, typer.Option("--bonus-card", help="The Six Card Bonus card.")
    ] = None,
    other: Annotated[
        list[str] | None,
        typer.Option("--other", help="Another player's five cards (for envy bonuses); repeatable."),
    ] = None,
    meter: Annotated[
        list[str] | None,
        typer.Option(
            "--meter",
            help="A progressive meter in dollars, WAGER=DOLLARS (four-card-progressive, "
            "five-card-progressive); repeatable. Default: the paytable's seed.",
        ),
    ] = None,
    json_out: JsonFlag = False,
    paytable_files: PaytableFiles = None,
) -> None:
    """Settle a dealt round of Four Card Poker (58 Pa. Code § 641a.7(d)); a progressive's meter
    award is valued at --meter (else the seed) and waits for a floorperson's validation."""
    p, d = parse_cards(player), parse_cards(dealer)
    given = _parse_bets(bet)
    ante_cents = _cents(given.pop("ante", None), "--bet ante")
    play = given.pop("play", None)
    if play is not None and play.strip().lower() == "best":
        if not ante_cents:
            raise InputError("--bet play=best needs an Ante (--bet ante=DOLLARS)")
        mult = AntePlayStrategy.for_bonus({}).decide_with_upcard(p, d[0]).multiple
        play_cents = mult * ante_cents
    else:
        play_cents = _cents(play, "--bet play")
    bets = FourCardPokerBets(
        ante_cents=ante_cents,
        play_cents=play_cents,
        **{
            field: _cents(text, f"--bet {wager}")
            for wager, text in given.items()
            for field in (_BET_FIELDS[wager],)
        },
    )
    meters = _parse_meters(meter)
    result = settle_round(
        p,
        d,
        bets,
        bonus_card=parse_card(bonus_card) if bonus_card else None,
        other_hands=[parse_cards(h) for h in other or []],
        meter_cents=meters,
        book=_book(paytable_files) if paytable_files else None,
    )
    if json_out:
        print(json.dumps(_round_dict(result), indent=2, ensure_ascii=False))
        return
    show = result.round.showdown()
    out.print(f"player {format_cards(p)}: {show.player.describe()}")
    out.print(f"dealer {format_cards(d)}: {show.dealer.describe()}")
    out.print(
        f"optimal play: {result.strategy_decision.value}"
        + (f" (you: {result.decision.value})" if result.decision else "")
    )
    t = Table(title_justify="left")
    for col in ("Wager", "Amount", "Result", "Net"):
        t.add_column(col, justify="right" if col in ("Amount", "Net") else "left")
    for r in result.results:
        t.add_row(
            f"{r.name} (§ {r.section})",
            format_money(r.amount_cents),
            r.detail,
            ("+" if r.win_cents >= 0 else "") + format_money(r.win_cents),
        )
    out.print(t)
    for r in result.results:
        if r.settlement is not None and r.settlement.pending_validation:
            valued = "the meter given" if r.wager in (meters or {}) else "the meter's seed"
            out.print(
                f"  the {r.name} award is valued at {valued}; a floorperson or above validates "
                "it before it is paid, the live meter deciding the amount (58 Pa. Code § 605a.7)",
                soft_wrap=True,
            )
    out.print(f"net {('+' if result.win_cents >= 0 else '') + format_money(result.win_cents)}")


_METER_WAGERS = ("four-card-progressive", "five-card-progressive")


def _parse_meters(meters: list[str] | None) -> dict[str, int] | None:
    """``--meter WAGER=DOLLARS`` (repeatable) → wager id → cents; ``None`` when none is given."""
    if not meters:
        return None
    got: dict[str, int] = {}
    for text in meters:
        wager, sep, amount = text.partition("=")
        wager = wager.strip().lower()
        if not sep or wager not in _METER_WAGERS:
            raise InputError(
                f"--meter takes WAGER=DOLLARS for {one_of(_METER_WAGERS)}, not {text!r}"
                + (did_you_mean(wager, _METER_WAGERS) if sep and wager else "")
            )
        if wager in got:
            raise InputError(f"--meter {wager} given twice")
        got[wager] = meter_money(amount, f"--meter {wager}")
    return got


def _round_dict(result: FourCardPokerSettlement) -> dict[str, Any]:
    show = result.round.showdown()
    return {
        "game": "four-card-poker",
        "section": "641a.7",
        "citation": citation("641a.7"),
        "player": [str(c) for c in result.round.player],
        "dealer": [str(c) for c in result.round.dealer],
        "player_hand": show.player.describe(),
        "dealer_hand": show.dealer.describe(),
        "showdown": show.result.value,
        "decision": result.decision.value if result.decision else None,
        "optimal_decision": result.strategy_decision.value,
        "wagers": [
            {
                "wager": r.wager,
                "name": r.name,
                "section": r.section,
                "citation": citation(r.section),
                **money_json("amount", r.amount_cents),
                **money_json("win", r.win_cents),
                "detail": r.detail,
                **(money_json("envy", r.envy_cents) if r.envy_cents else {}),
                **(
                    {"pending_validation": True}
                    if r.settlement is not None and r.settlement.pending_validation
                    else {}
                ),
            }
            for r in result.results
        ],
        **money_json("net", result.win_cents),
        "settlement": RoundSettlement(result.lines()).to_json(),
    }
