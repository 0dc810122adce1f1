"""The page's routes: server-rendered Jinja2 templates, the static assets, the CSV download.

* ``GET /`` — the par-sheet explorer (``?wager=&paytable=&decks=&meter=``): the sheet is
  computed on the server (:func:`croupier.service.routes.reading.parsheet_document`, the JSON of ``GET
  /parsheets/{wager}``) and rendered as a table; the chart is drawn by Chart.js from the same
  figures, embedded in the page as JSON.
* ``GET /compare`` — every paytable of a wager at a deck count side by side
  (:func:`croupier.service.web.figures.comparison`; ``?stake=`` a progressive wager size).
* ``GET /eor`` — the count analysis of a wager × paytable × deck count (``?wager=&paytable=
  &decks=&shoes=``): the effect of removal of each rank, the balanced count's tags, the true
  count where the wager turns positive, the simulated counter's gain per shoe and per hour —
  the JSON of ``GET /eor/{wager}`` (:mod:`croupier.service.routes.eor`) as a table and a chart.
* ``GET /pit``, ``GET /dealer`` — pages whose script talks to the service's JSON routes with a
  staff member's bearer token (``POST /token``): the progressive controller and open tables.
* ``GET /hold-report`` — the pit's hold report as JSON (:mod:`croupier.service.web.hold`).
* ``GET /designer`` and ``GET /designer/paytable.toml`` — the paytable designer
  (:mod:`croupier.service.web.designer`).
* ``GET /blackjack`` — the Blackjack calculator: a rule set's house edge for both strategies and
  the effect of each rule (its script calls :mod:`croupier.service.routes.blackjack`).
* ``GET /parsheet.csv`` — one par sheet as CSV (:func:`croupier.analysis.report.parsheets_csv`).
* ``GET /compare.csv`` — the comparison as CSV (:func:`croupier.analysis.summary.summary_csv`).

Every URL a page names is root-relative (``/static/app.js``, ``/pit``): none is built from the
request's ``Host`` header, so a client cannot make a page load a script from a host of its
choosing, and behind a TLS proxy nothing is fetched over ``http://`` (the templates' ``url_for``
is :func:`_url_path_for`).

Bad input is shown on the page as the croupier error's one line with its section (status 422),
never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context

import croupier
from croupier.analysis.confidence import VI_NOTE
from croupier.analysis.meters import ReseedFunding, long_run_sentence
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.report import parsheets_csv
from croupier.analysis.summary import compare_paytables, summary_csv
from croupier.errors import CroupierError, InputError, error_section
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.service.routes import reading
from croupier.service.routes.eor import MAX_SHOES, WEB_SHOES, eor_document
from croupier.service.web.designer import (
    PREFIX,
    base_paytable,
    edited,
    pays_from,
    solve,
    toml_text,
)
from croupier.service.web.figures import catalogue, choose, comparison, eor_view
from croupier.service.web.hold import router as hold_router
from croupier.units import ascii_digits, format_money
from croupier.wagers import ProgressiveStake, all_wagers, get_wager

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["version"] = croupier.__version__


@pass_context
def _url_path_for(context: Mapping[str, Any], name: str, /, **path_params: Any) -> str:
    """The templates' ``url_for``: the root-relative path of a route or mount (the server's
    configured root path, then the route's), never an absolute URL. Starlette's own builds it
    from the request's ``Host`` header and scheme — a page naming a host the client chose (a
    script from ``http://evil.example/…`` on the pages that keep a staff token), and ``http://``
    behind a TLS proxy."""
    request: Request = context["request"]
    root = str(request.scope.get("root_path", "")).rstrip("/")
    return root + str(request.app.url_path_for(name, **path_params))


templates.env.globals["url_for"] = _url_path_for

router = APIRouter()
"""The pages' routes, listed in the OpenAPI document (tags ``pages`` and ``exports``,
:mod:`croupier.service.operation_ids`) with their media types. An HTML page's query is its form's
fields: it is not held to the API's strict query names (:data:`croupier.service.query.LENIENT`);
the CSV takes only its own."""

Text = Annotated[str | None, Query(max_length=200)]


class CSVResponse(Response):
    """A CSV download (its media type documented as such)."""

    media_type = "text/csv"


class TOMLResponse(Response):
    """A TOML download (its media type documented as such)."""

    media_type = "application/toml"


_HTML = {"text/html": {"schema": {"type": "string"}}}
PAGE_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {
        "description": "A choice the page does not offer (a wager, paytable, deck count or "
        "figure): the page, with the croupier error's line and section in place of the figures "
        "(text/html); a query parameter longer than 200 characters or holding a NUL: a problem.",
        "content": _HTML,
    }
}
"""What an HTML page with a form answers besides its 200: its own page with the error (or the
problem of a parameter it never reads, :mod:`croupier.service.openapi`)."""


def _pct(x: float) -> str:
    return f"{x:.4%}"


templates.env.filters["pct"] = _pct


def _render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status)


def _problem(exc: CroupierError) -> dict[str, Any]:
    """The error as the page shows it: the one line ``croupier`` prints for it (its section
    cited in it; no error-class name), and the section."""
    return {"message": str(exc), "section": error_section(exc)}


@router.get("/", response_class=HTMLResponse, responses=PAGE_ERRORS)
def explorer(
    request: Request,
    wager: Text = None,
    paytable: Text = None,
    decks: Text = None,
    meter: Text = None,
) -> HTMLResponse:
    """The par-sheet explorer."""
    wagers = catalogue()
    error = None
    sheet: dict[str, Any] | None = None
    try:
        w, key, n = choose(wager, paytable, decks)
        sheet = reading.parsheet_document(
            w.id, key, n, meter or None, None, ProgressiveStake.COLLECTED
        )
    except CroupierError as exc:
        error = _problem(exc)
        w, key, n = choose(None, None, None)
    query = {"wager": w.id, "paytable": key, "decks": n, **({"meter": meter} if meter else {})}
    return _render(
        request,
        "explorer.html",
        422 if error else 200,
        page="explorer",
        wagers=wagers,
        picked={"wager": w.id, "paytable": key, "decks": n, "meter": meter or ""},
        sheet=sheet,
        error=error,
        query=query,
        api_query={k: v for k, v in query.items() if k != "wager"},  # the path names the wager
        chart=json.dumps(_chart_data(sheet)),
        above_sentence=_above_sentence(sheet),
        lab=_lab(sheet),
    )


def _one_in(n: float | None) -> str:
    """N of "1 in N" as the par sheets print it: '59.29', '597,653'; '—' for never."""
    if n is None:
        return "—"
    return f"{n:,.2f}" if n < 100 else f"{round(n):,}"


templates.env.filters["one_in"] = _one_in


def _lab(sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the explorer shows of a test lab's figures beyond the JSON's own keys: the
    volatility index's and the band's sentences, the band table's rows (N, then 'low – high' at
    each level), the maximum win and each level's increment rates in words."""
    if sheet is None:
        return None
    from croupier.analysis.confidence import BAND_NOTE, CONFIDENCE_LEVELS, VI_NOTE, floor_note

    cells: dict[int, list[str]] = {}
    for b in sheet["return_bands"]:
        cells.setdefault(b["rounds"], []).append(f"{b['low']:.2%} – {b['high']:.2%}")
    possible = [o for o in sheet["outcomes"] if o["combinations"] > 0]
    least = 1 + min(o["net_win"] for o in possible)
    band_note = BAND_NOTE
    if any(b["low"] < least for b in sheet["return_bands"]):
        band_note += f"; {floor_note(least)}"
    top = sheet["max_win"]
    net = top["net_win"]
    times = f"{net:,}" if isinstance(net, int) else f"{net:,.4f}"
    amount = f" = {top['amount']} on a {sheet['wager_amount']} wager" if "amount" in top else ""
    rates = "; ".join(
        f"{level} "
        + ", ".join(
            f"{r[key] * 100:g}% {what}"
            for key, what in (
                ("increment_rate", "to the meter"),
                ("secondary_increment_rate", "to the reserve"),
            )
            if r[key] is not None
        )
        for level, r in sheet.get("increment_rates", {}).items()
    )
    return {
        "vi_note": _sentence(VI_NOTE),
        "band_note": _sentence(band_note),
        "levels": [lv.label for lv in CONFIDENCE_LEVELS],
        "bands": list(cells.items()),
        "max_win": f"{times}× the wager{amount}",
        "max_win_detail": f"{top['label']}, pays {top['pays']}",
        "rates": rates,
    }


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _above_sentence(sheet: dict[str, Any] | None) -> str | None:
    """:func:`~croupier.analysis.meters.long_run_sentence` under the sheet's reading when its
    long-run return is above 100% of the wager (the explorer warns), else ``None``."""
    meters = (sheet or {}).get("meter_analysis")
    if not meters or meters["long_run_return"] <= 0:
        return None
    return long_run_sentence(ReseedFunding(meters["reseed_funding"]))


def _chart_data(sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the explorer's charts draw: each outcome's share of the return; for a
    progressive, the return against the top meter from the seed to past the breakeven."""
    if sheet is None:
        return None
    data: dict[str, Any] = {
        "labels": [o["label"] for o in sheet["outcomes"]],
        "returns": [o["return"] for o in sheet["outcomes"]],
        "probabilities": [o["probability"] for o in sheet["outcomes"]],
        "bands": _band_series(sheet),
    }
    ma = sheet.get("meter_analysis")
    if ma:
        # the return is linear in the top meter (the other levels held where they are), from the
        # meter the sheet is at to past the breakeven
        top = ma["top_meter"]
        start = sheet["meters_cents"][top]
        slope = ma["return_per_1000_on_meter"][top]  # per $1,000 on the top meter
        end = max(ma["breakeven_meter_cents"] or 0, start) * 1.25 or start * 2
        steps = 20
        xs = [start + (end - start) * i / steps for i in range(steps + 1)]
        data["meter"] = {
            "level": top,
            "dollars": [round(x / 100) for x in xs],
            # the axis's labels as every view writes money (format_money), not the browser's
            "labels": [format_money(round(x / 100) * 100) for x in xs],
            "returns": [ma["return_at_meters"] + slope * (x - start) / 100_000 for x in xs],
            "breakeven": ma["breakeven_meter"],
        }
    return data


def _band_series(sheet: dict[str, Any]) -> dict[str, Any]:
    """The band chart's series: the rounds, and each level's low and high ends in percent of
    the amount wagered; the expected return to player."""
    levels: dict[int, dict[str, Any]] = {}
    for b in sheet["return_bands"]:
        lv = levels.setdefault(
            b["confidence"], {"label": f"{b['confidence']}%", "low": [], "high": []}
        )
        lv["low"].append(b["low"] * 100)
        lv["high"].append(b["high"] * 100)
    return {
        "rounds": list(dict.fromkeys(b["rounds"] for b in sheet["return_bands"])),
        "levels": list(levels.values()),
        "expected": (1 + sheet["expected_return"]) * 100,
    }


@router.get("/parsheet.csv", response_class=CSVResponse)
def parsheet_csv(
    wager: Text = None, paytable: Text = None, decks: Text = None, meter: Text = None
) -> Response:
    """One par sheet as CSV (the ``parsheets.csv`` of ``croupier parsheet --out``)."""
    w, key, n = choose(wager, paytable, decks)
    sheet = exact_parsheet(
        get_wager(w.id), key, decks=n, meter_cents=meter_arg(meter or None, "the meter field")
    )
    name = f"parsheet-{w.id}-{key}-{n}deck.csv"
    return Response(
        parsheets_csv([sheet]),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _stake(text: str | None) -> int | None:
    """The comparison's wager size in cents (``?stake=5``, ``$5``), ``None`` when not given;
    :class:`InputError` for an amount that is not one."""
    if text is None or not text.strip():
        return None
    return money(text, "the stake field")


@router.get("/compare", response_class=HTMLResponse, responses=PAGE_ERRORS)
def compare(
    request: Request, wager: Text = None, decks: Text = None, stake: Text = None
) -> HTMLResponse:
    """Every paytable of a wager at a deck count, side by side (``?wager=&decks=&stake=``: a
    progressive's breakeven meter at the wager size ``stake`` in dollars, where its paytable
    takes it; without one, each paytable's at its own smallest size)."""
    wagers = catalogue()
    error = None
    rows: list[dict[str, Any]] = []
    stake_cents: int | None = None
    try:
        w, _, n = choose(wager, None, decks)
        stake_cents = _stake(stake)
        rows = comparison(w, n, stake_cents)
    except CroupierError as exc:
        error = _problem(exc)
        w, _, n = choose(None, None, None)
        stake_cents = None
    sizes = {r["wager_amount"] for r in rows if r["wager_amount"] is not None}
    query = {"wager": w.id, "decks": n, **({"stake": stake_cents / 100} if stake_cents else {})}
    return _render(
        request,
        "compare.html",
        422 if error else 200,
        page="compare",
        wagers=wagers,
        picked={"wager": w.id, "decks": n, "stake": stake_cents},
        rows=rows,
        error=error,
        above=[r for r in rows if (r["long_run_return"] or 0) > 1],
        above_sentence=long_run_sentence(ReseedFunding.RESERVE),  # the reading the rows use
        mixed_stakes=len(sizes) > 1,
        stake_text=format_money(stake_cents) if stake_cents else None,
        csv_query={k: f"{v:g}" if isinstance(v, float) else v for k, v in query.items()},
        vi_note=VI_NOTE,
    )


@router.get("/compare.csv", response_class=CSVResponse)
def compare_csv(wager: Text = None, decks: Text = None, stake: Text = None) -> Response:
    """The paytable comparison as CSV (``?wager=&decks=&stake=`` as the page takes them): the
    summary rows of ``croupier parsheet --summary --csv``."""
    w, _, n = choose(wager, None, decks)
    stake_cents = _stake(stake)
    rows = compare_paytables(w, n, stake_cents)
    at = f"-{stake_cents}-cents" if stake_cents else ""
    name = f"compare-{w.id}-{n}deck{at}.csv"
    return Response(
        summary_csv(rows),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


EOR_WAGER = "jackpot-party"
"""The wager the count-analysis page opens on."""


def _shoes(text: str | None) -> int:
    if text is None or not text.strip():
        return WEB_SHOES
    if not ascii_digits(text.strip()) or int(text) > MAX_SHOES:
        raise InputError(f"shoes {text!r}: give a whole number of shoes, 0 to {MAX_SHOES:,}")
    return int(text)


@router.get("/eor", response_class=HTMLResponse, responses=PAGE_ERRORS)
def eor_page(
    request: Request,
    wager: Text = None,
    paytable: Text = None,
    decks: Text = None,
    shoes: Text = None,
) -> HTMLResponse:
    """The count analysis of one wager (``GET /eor/{wager}`` as a table and a chart)."""
    wagers = catalogue()
    error = None
    view: dict[str, Any] | None = None
    doc: dict[str, Any] | None = None
    n_shoes = WEB_SHOES
    try:
        w, key, n = choose(wager or EOR_WAGER, paytable, decks)
        n_shoes = _shoes(shoes)
        doc = eor_document(w.id, key, n, n_shoes)
        view = eor_view(doc)
    except CroupierError as exc:
        error = _problem(exc)
        try:  # the pickers keep the wager asked for when it is one
            w, key, n = choose(wager or EOR_WAGER, paytable, decks)
        except CroupierError:
            w, key, n = choose(EOR_WAGER, None, None)
    query = {"paytable": key, "decks": n, "shoes": n_shoes}
    return _render(
        request,
        "eor.html",
        422 if error else 200,
        page="eor",
        wagers=wagers,
        picked={"wager": w.id, "paytable": key, "decks": n, "shoes": n_shoes},
        doc=doc,
        view=view,
        error=error,
        query=query,
        chart=json.dumps(view["chart"] if view is not None else None),
    )


@router.get("/designer", response_class=HTMLResponse, responses=PAGE_ERRORS)
def designer_page(
    request: Request,
    wager: Text = None,
    paytable: Text = None,
    decks: Text = None,
    solve_for: Annotated[str | None, Query(alias="solve", max_length=200)] = None,
    target: Text = None,
) -> HTMLResponse:
    """The paytable designer (``?wager=&paytable=&decks=``, ``pay:OUTCOME=24 to 1`` for each
    edited pay, ``solve=OUTCOME&target=5`` to solve one pay for a target house edge). The
    ``pay:`` parameters are named by the paytable's outcomes, so they are read from the query
    itself (the declared ones are listed for the document)."""
    q = request.query_params
    wagers = [w for w in catalogue() if not w["progressive"]]
    error = None
    context: dict[str, Any] = {}
    try:
        w, key, n = choose(wager, paytable, decks)
        base = base_paytable(w, key, n)
        context = _designed(w, base, n, q)
        if solve_for:
            solved = solve(w, context["table"], context["sheet"], solve_for, target or "")
            context["solved"] = solved.to_dict()
    except CroupierError as exc:
        error = _problem(exc)
        w, key, n = choose(None, None, None)
        if not context:
            context = _designed(w, base_paytable(w, key, n), n, {})
    pays = pays_from(q)
    export = {"wager": w.id, "paytable": key, "decks": n}
    export.update({PREFIX + k: v for k, v in pays.items()})
    return _render(
        request,
        "designer.html",
        422 if error else 200,
        page="designer",
        wagers=wagers,
        picked={
            "wager": w.id,
            "paytable": key,
            "decks": n,
            "solve": solve_for or "",
            "target": target or "",
        },
        error=error,
        export=export,
        **context,
    )


def _designed(w: Any, base: Any, decks: int, q: Any) -> dict[str, Any]:
    table = edited(base, pays_from(q), decks)
    sheet = exact_parsheet(w, table, decks=decks)
    combos: dict[str, int] = {}
    for r in sheet.rows:
        combos[r.outcome] = combos.get(r.outcome, 0) + (r.combinations or 0)
    return {"base": base, "table": table, "sheet": sheet, "combos": combos}


@router.get("/designer/paytable.toml", response_class=TOMLResponse)
def designer_toml(
    request: Request, wager: Text = None, paytable: Text = None, decks: Text = None
) -> Response:
    """The designed paytable as a TOML section file croupier loads (``--paytable-file``): the
    designer's ``?wager=&paytable=&decks=`` and a ``pay:OUTCOME=24 to 1`` for each edited
    pay."""
    q = request.query_params
    w, key, n = choose(wager, paytable, decks)
    base = base_paytable(w, key, n)
    table = edited(base, pays_from(q), n)
    text = toml_text(table, base, w.name + " wager")
    return Response(
        text,
        media_type="application/toml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{w.id}-{table.key}.toml"'},
    )


@router.get("/blackjack", response_class=HTMLResponse)
def blackjack_page(request: Request) -> HTMLResponse:
    """The Blackjack calculator: rules picked with a form, the house edge for both strategies
    and the effect of each rule (its script reads ``/blackjack/house-edge`` and
    ``/blackjack/effects``)."""
    return _render(request, "blackjack.html", page="blackjack")


@router.get("/pit", response_class=HTMLResponse)
def pit(request: Request) -> HTMLResponse:
    """The pit's progressive view (its script reads ``/progressives`` and ``/awards``)."""
    return _render(request, "pit.html", page="pit")


@router.get("/dealer", response_class=HTMLResponse)
def dealer(request: Request) -> HTMLResponse:
    """The dealer's screen (its script reads and posts ``/tables/{table}/steps``)."""
    return _render(request, "dealer.html", page="dealer", wagers=[w.id for w in all_wagers()])


def mount(app: FastAPI) -> None:
    """Serve the page on ``app``: its routes and ``/static`` (scripts, styles, Chart.js)."""
    app.include_router(router)
    app.include_router(hold_router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")


__all__ = ["mount", "router"]
