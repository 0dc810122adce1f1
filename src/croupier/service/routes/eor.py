"""Reading the count analysis, open to anyone: ``GET /eor/{wager}`` answers the JSON of
``croupier eor WAGER --json`` (docs/schemas/eor.schema.json).

``?paytable=`` and ``?decks=`` as the command's ``--paytable`` / ``--decks`` (defaults: the most
decks the wager is offered with, its first paytable there); the counter's conditions as its
options: ``?shoes=`` whole shoes simulated (default :data:`WEB_SHOES`, at most
:data:`MAX_SHOES`, so that an open route stays a few seconds of work), ``?seed=``,
``?penetration=``, ``?seats=``, ``?rounds_per_hour=``, ``?unit=`` (dollars a bet, for the
hourly figure in cents), ``?trigger=``. The effects of removal are exact (shipped for the
built-in wagers, :mod:`croupier.analysis.eor_store`); the same query gives the same figures
(seeded), and recent answers are kept in memory. A wager croupier cannot analyse this way is a
422 problem naming why (e.g. the Four Card Poker Ante and Play). The analysis (numpy, the effects
of removal, the shoe simulators) is imported by the first query, not when the service starts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response

from croupier.operations.schemas.eor import EorDetail
from croupier.service.jsontext import answer
from croupier.wagers import get_wager

router = APIRouter()

WEB_SHOES = 2_000
"""Whole shoes ``GET /eor/{wager}`` simulates unless asked (the command's default is 20,000)."""
MAX_SHOES = 20_000
"""The most whole shoes one request may simulate."""


@lru_cache(maxsize=64)
def eor_document(
    wager: str,
    paytable: str | None = None,
    decks: int | None = None,
    shoes: int = WEB_SHOES,
    seed: int = 1,
    penetration: float = 0.75,
    seats: int = 3,
    rounds_per_hour: int = 60,
    unit: str = "25",
    trigger: int | None = None,
) -> dict[str, Any]:
    """The JSON of ``croupier eor WAGER --json`` with these options (kept for recent queries).

    Raises what the command raises: :class:`~croupier.errors.UnknownWagerError`,
    :class:`~croupier.errors.PaytableError`, :class:`~croupier.errors.InputError` (bad options,
    or a wager whose effects of removal croupier does not compute)."""
    from croupier.analysis.eor_table import default_decks, default_paytable, vulnerability
    from croupier.operations.presenters.eor import counter_conditions, detail_dict, unit_of

    w = get_wager(wager.strip().lower())
    unit_cents = unit_of(unit, "the unit parameter")  # the query's word, not the CLI's
    cond = counter_conditions(shoes, seed, penetration, seats, rounds_per_hour, trigger, decks)
    d = decks if decks is not None else default_decks(w, paytable)
    key = paytable if paytable is not None else default_paytable(w, d)
    return detail_dict(vulnerability(w, key, d, cond), unit_cents)


@router.get(
    "/eor/{wager}",
    response_model=EorDetail,
    summary="Count analysis of a wager: effect of removal, count, gain",
)
def eor(
    wager: Annotated[str, Path(max_length=60, description="A wager id (`GET /wagers`).")],
    paytable: Annotated[str | None, Query(max_length=60, description="Paytable id.")] = None,
    decks: Annotated[int | None, Query(ge=1, le=8, description="Decks in the shoe.")] = None,
    shoes: Annotated[
        int, Query(ge=0, le=MAX_SHOES, description="Whole shoes to simulate (0: none).")
    ] = WEB_SHOES,
    seed: Annotated[int, Query(ge=0, le=2**32, description="Random seed (PCG64).")] = 1,
    penetration: Annotated[
        float, Query(gt=0, lt=1, description="Blackjack: share of the shoe dealt.")
    ] = 0.75,
    seats: Annotated[int, Query(ge=1, le=7, description="Blackjack: seats.")] = 3,
    rounds_per_hour: Annotated[int, Query(ge=1, le=1000, description="Rounds an hour.")] = 60,
    unit: Annotated[str, Query(max_length=20, description="Dollars a counter bets.")] = "25",
    trigger: Annotated[
        int | None, Query(ge=-50, le=50, description="True count to bet at (default: own).")
    ] = None,
) -> Response:
    """As ``croupier eor WAGER --json``: the exact effect of removal of each rank (and card), the
    balanced count's tags, the true count where the wager turns positive, and the simulated
    counter's gain per shoe and per hour (``win_per_hour_cents`` at ``unit`` dollars a bet)."""
    return answer(
        eor_document(
            wager, paytable, decks, shoes, seed, penetration, seats, rounds_per_hour, unit, trigger
        )
    )


__all__ = ["MAX_SHOES", "WEB_SHOES", "eor_document", "router"]
