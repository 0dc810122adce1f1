"""Reading, open to anyone: the wagers, the paytables with their sections, exact par sheets.

Each answers the JSON of the matching command: ``GET /wagers`` is ``croupier wagers --json``,
``GET /paytables`` is ``croupier paytables --json`` (``?section=`` a section or wager id,
``?paytable=`` one paytable), ``GET /parsheets/{wager}`` is ``croupier analyze WAGER --json``
(``?paytable=``, ``?decks=``, ``?meter=`` one amount or amounts by level as ``Mega=60000,
Major=6000``, ``?amount=`` the wager's stake, ``?stake=`` collected or returned). Money in integer
cents (meters in micro-dollars), probabilities exact beside their decimals.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from croupier.errors import CroupierError, InputError, UnknownPaytableError
from croupier.operations.analysis import analyse_sheet
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.operations.presenters.paytables import paytable_dict, section_of, wager_dict
from croupier.operations.schemas.analysis import ParSheet
from croupier.operations.schemas.reading import Health, PaytableList, WagerList
from croupier.paytables import builtin_paytables
from croupier.progressive.migrate import current_revision as ledger_revision
from croupier.service import store
from croupier.service.auth import read_token
from croupier.service.jsontext import answer as json_answer
from croupier.units import amount_schema
from croupier.wagers import ProgressiveStake, all_wagers, get_wager

router = APIRouter()


@router.get("/health", response_model=Health, summary="Whether the service and its database answer")
def health(request: Request) -> Response:
    """The schema revisions of the ledger and the service; to a staff member (a valid bearer
    token, not required) also the database it serves (password hidden) — where the casino's
    records are is not for anyone who can reach the port."""
    ledger = request.app.state.ledger
    with request.app.state.reader.connect() as conn:  # no writer lock for a health check
        answer = {
            "status": "ok",
            "ledger_revision": ledger_revision(conn),
            "service_revision": store.current_revision(conn),
        }
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token:
        try:
            read_token(ledger, token.strip())
        except CroupierError:
            return json_answer(answer)  # a health check answers; a bad token sees less
        answer["database"] = ledger.display_url
    return json_answer(answer)


@router.get("/wagers", response_model=WagerList, summary="The wagers croupier settles and analyses")
def wagers() -> Response:
    """As ``croupier wagers --json``: id, name, game, section, the cards each reads, deck counts
    and paytables."""
    return json_answer({"wagers": [wager_dict(w) for w in all_wagers()]})


@router.get(
    "/paytables",
    response_model=PaytableList,
    summary="The paytables printed in the regulation, with their sections",
)
def paytables(
    section: Annotated[
        str | None, Query(description="A section (633b.2) or a wager id; omit for all.")
    ] = None,
    paytable: Annotated[str | None, Query(description="Only this paytable id.")] = None,
) -> Response:
    """As ``croupier paytables --json``: each paytable's section, id, decks, citation, source,
    lines (pays as printed, envy in cents), and its progressive meters."""
    book = builtin_paytables()
    wanted = section_of(section, book) if section is not None else None
    tables = [t for t in book if wanted is None or t.section == wanted]
    if paytable is not None:
        tables = [t for t in tables if t.key.upper() == paytable.upper()]
        if not tables:
            raise UnknownPaytableError(f"no paytable {paytable!r} in § {wanted or 'any section'}")
    return json_answer({"paytables": [paytable_dict(t) for t in tables]})


def parsheet_document(
    wager: str,
    paytable: str | None,
    decks: int | None,
    meter: str | None,
    amount: str | None,
    stake: ProgressiveStake,
) -> dict[str, Any]:
    """The JSON of ``GET /parsheets/{wager}`` (:func:`parsheet`), as a dict: the web page's
    explorer shows the same."""
    w = get_wager(wager.strip().lower())
    if paytable is None:
        keys = list(dict.fromkeys(t.key for t in w.paytables()))
        if len(keys) != 1:
            raise InputError(
                f"the {w.name} wager has paytables {', '.join(keys) or 'none'}: give ?paytable="
            )
        paytable = keys[0]
    return analyse_sheet(
        w,
        paytable,
        decks=decks,
        meter_cents=meter_arg(meter, "the meter parameter"),
        wager_cents=money(amount, "the amount parameter"),
        stake=stake,
    ).document


def parsheet_example() -> dict[str, Any]:
    """``GET /parsheets/{wager}``'s example in the OpenAPI document: its own answer to
    ``/parsheets/perfect-pairs?paytable=A&decks=6``, made by the code that answers it (when the
    document is built, not when the service starts)."""
    return parsheet_document("perfect-pairs", "A", 6, None, None, ProgressiveStake.COLLECTED)


@router.get(
    "/parsheets/{wager}",
    response_model=ParSheet,
    summary="The exact par sheet of a wager × paytable × deck count",
)
def parsheet(
    wager: str,
    paytable: Annotated[
        str | None, Query(description="Paytable id; may be omitted when the wager has one.")
    ] = None,
    decks: Annotated[int | None, Query(ge=1, le=8, description="Deck count.")] = None,
    meter: Annotated[
        str | None,
        Query(
            description="A progressive's meter in dollars ('50000'), or by level "
            "('Mega=60000,Major=6000'); default: the seeds."
        ),
    ] = None,
    amount: Annotated[
        str | None,
        Query(description="The wager's stake in dollars.", json_schema_extra=amount_schema()),
    ] = None,
    stake: Annotated[
        ProgressiveStake, Query(description="Whether a meter award returns the stake.")
    ] = ProgressiveStake.COLLECTED,
) -> Response:
    """As ``croupier analyze WAGER --json``: every outcome's exact count and probability, the
    pays, house edge, hit frequency, variance; for a progressive, the return as a function of
    the meters (``meter_analysis``)."""
    return json_answer(parsheet_document(wager, paytable, decks, meter, amount, stake))
