"""Blackjack by rule set, open to anyone: ``GET /blackjack/house-edge`` answers a rule set's
house edge under one strategy, ``GET /blackjack/effects`` the effect of each rule on it — the
figures of ``croupier strategy blackjack --json`` (without the chart) and ``--effects``
(:mod:`croupier.operations.blackjack`; 58 Pa. Code §§ 633a.7–633a.11).

The query names the rules as the command's options do: ``decks`` (1–8, default 6), ``h17``,
``das`` (default true), ``split_hands`` (1–4, default 4), ``resplit_aces``, ``hit_split_aces``,
``surrender``, ``peek`` (default true), ``blackjack_pays`` (``3:2``, ``6:5``, ``1:1``),
``double`` (``any``, ``9-11``, ``10-11``) and ``strategy`` (``basic``, the default, or
``composition``). A rule set not asked before takes seconds (the effects table one per
variation): the routes are plain functions, run in the server's thread pool, so the event loop
keeps answering; the answers are remembered (the last
:data:`~croupier.analysis.blackjack_effects.CACHE_SIZE` rule sets). The exact engine (numpy,
numba's compiled kernels) is imported by the first request, not when the service starts.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from croupier.games.blackjack_rules import PlayRules
from croupier.operations.schemas.strategy import BlackjackEffects, BlackjackHouseEdge
from croupier.service.jsontext import answer

router = APIRouter()

MAX_SPLIT_HANDS = 4
"""The most hands by splitting a query may ask for (the published tables' most)."""

Decks = Annotated[int, Query(ge=1, le=8, description="Decks in the shoe.")]
H17 = Annotated[bool, Query(description="The dealer hits soft 17 (false: stands).")]
Das = Annotated[bool, Query(description="A hand made by splitting may double.")]
SplitHands = Annotated[
    int,
    Query(ge=1, le=MAX_SPLIT_HANDS, description="The most hands by splitting (1: no splitting)."),
]
ResplitAces = Annotated[
    bool, Query(description="Split aces may be split again (needs split_hands of 3 or more).")
]
HitSplitAces = Annotated[bool, Query(description="Split aces may draw more than one card.")]
Surrender = Annotated[bool, Query(description="Late surrender is offered.")]
Peek = Annotated[
    bool,
    Query(
        description="The dealer peeks under an ace or a ten (false: a dealer Blackjack takes "
        "doubles and splits too)."
    ),
]
Pays = Annotated[Literal["3:2", "6:5", "1:1"], Query(description="What a Blackjack pays.")]
Double = Annotated[
    Literal["any", "9-11", "10-11"],
    Query(description="Which first two cards may be doubled: any, hard 9–11, hard 10–11."),
]
StrategyName = Annotated[
    Literal["basic", "composition"],
    Query(
        description="The player's strategy: basic (total-dependent) or composition "
        "(composition-dependent)."
    ),
]


def rule_set(
    decks: Decks = 6,
    h17: H17 = False,
    das: Das = True,
    split_hands: SplitHands = 4,
    resplit_aces: ResplitAces = False,
    hit_split_aces: HitSplitAces = False,
    surrender: Surrender = False,
    peek: Peek = True,
    blackjack_pays: Pays = "3:2",
    double: Double = "any",
) -> PlayRules:
    """The rule set a query names (a dependency of both routes: one list of parameters)."""
    from croupier.operations.blackjack import play_rules

    return play_rules(
        decks,
        h17,
        das,
        split_hands,
        resplit_aces,
        hit_split_aces,
        surrender,
        peek=peek,
        blackjack_pays=blackjack_pays,
        double=double,
    )


RuleSet = Annotated[PlayRules, Depends(rule_set)]


@router.get(
    "/blackjack/house-edge",
    response_model=BlackjackHouseEdge,
    summary="Blackjack's house edge under a rule set and a strategy",
)
def blackjack_house_edge(
    rules: RuleSet,
    strategy: StrategyName = "basic",
) -> Response:
    """As ``croupier strategy blackjack --json`` without the chart: the rules, the strategy and
    the house edge as a fraction of the initial wager (every round from a full shoe, no cut
    card). Seconds for a rule set not asked before; remembered after."""
    from croupier.operations.blackjack import house_edge_document, strategy_of

    return answer(house_edge_document(rules, strategy_of(strategy)))


@router.get(
    "/blackjack/effects",
    response_model=BlackjackEffects,
    summary="The effect of each rule on Blackjack's house edge",
)
def blackjack_effects(
    rules: RuleSet,
    strategy: StrategyName = "basic",
    only: Annotated[
        list[str] | None,
        Query(
            description="Only these variations, by key (`h17`, `decks-8`, `pays-6:5`, "
            "`no-peek` …); omit for all.",
        ),
    ] = None,
) -> Response:
    """As ``croupier strategy blackjack --effects --json`` without the chart: the base rule
    set's house edge and, for each one-rule variation (decks, soft 17, double after split,
    split hands, re-split and hit split aces, surrender, Blackjack pays, peek, doubling), its
    house edge and its change from the base. A second or more per rule set not asked before
    (about seventeen rule sets)."""
    from croupier.operations.blackjack import effects_document, strategy_of

    return answer(effects_document(rules, strategy_of(strategy), only))
