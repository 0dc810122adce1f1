"""The hold report: for each table and wager, the actual hold of the stored rounds against the
theoretical hold from the par sheet, with a band that widens with the volume played.

For a table's lines of one wager with stakes ``s_i`` (cents), the handle is ``H = Σ s_i``, the
actual hold ``−Σ win_i``, the theoretical hold ``edge × H`` (the exact house edge of the
paytable and deck count the table's Rules Submission offers) and its standard deviation
``σ × √(Σ s_i²)`` (``σ`` the par sheet's standard deviation per unit wagered: each line is an
independent wager). The band is the theoretical ± ``BAND_SD`` standard deviations; a hold
outside it is flagged (a table settling too much or too little, or rounds altered).

The ± 3 SD band reads the hold as normal, which it is not for few wagers of a long shot: two $5
Perfect Pairs wagers, one a Perfect Pair (25 to 1), fall outside it though a Perfect Pair comes
once in 62 deals — an honest table would be flagged 3.4% of the time, not 0.27%. The band is
trusted from the number of wagers Cochran's rule asks of the wager's own distribution
(:func:`lines_needed`: more than 25 × its skewness², the skewness exact from the par sheet's
probabilities and pays; docs/interpretations.md); with fewer only a hold outside a band that
holds at any count is flagged: ± :data:`CHEBYSHEV_SD` standard deviations, Chebyshev's
inequality at the same 0.27% (:func:`judge`).

**No verdict until the handle supports one.** A band that is honest is not yet a band that says
anything. For a near even-money wager (Baccarat's Banker: skewness about 0.04) Cochran's rule is
met by one wager, yet the ± 3 SD band around the theoretical hold of a few wagers is many times
wider than that hold and holds every result a table could have — among them a hold of zero. A
row "within the band" then could not tell a table holding its edge from one holding nothing (a
table paying the edge away, every wager settled as if fair). So the report says "within the
band" only once the band excludes a hold of zero: theoretical − 3 SD > 0, i.e. ``edge × H > 3 σ
√(Σ s_i²)``; for equal stakes more than ``(3σ / edge)² = 9 × variance / edge²`` wagers
(:func:`lines_to_exclude_zero`; 36,503 for Perfect Pairs A at 6 decks, 69,161 for the Banker at
8). At that count a table whose true hold is zero falls below the band about half the time; at
four times it, 99.87% of the time (Φ(3)). Zero is the plainest "holds nothing" a pit manager
must be able to rule out, and the rule asks no figure the par sheet does not give. Before both
counts are reached a row says "not enough handle to judge: N of the M wagers needed" (``M`` the
larger count; for unequal stakes ``N`` counted as wagers of equal stakes, ``H² / Σs²`` for this
rule) — and a hold outside the band in force is still flagged at any count (± 3 SD once
Cochran's count is reached, else ± 19.2 SD): a real anomaly is still an anomaly. A paytable
without a house edge (``edge ≤ 0``) has no zero to exclude; it is judged by Cochran's count
alone.

The paytable comes from the Rules Submission the rounds were settled under (same digest), as the
service holds it: an open table's (``POST /tables``), or a round file's (``POST /rounds/settle``,
kept by digest in ``service_submissions``); rounds whose submission the service does not hold
(stored before it kept them) get their actual hold only. Lines settled outside croupier (the base
game declared external) are left out.

**Progressives** (:mod:`croupier.service.web.hold_progressive`): a progressive wager's row is
judged on the table's hold **net of the progressive** — contributions go to the meter, awards
are paid from it — against the par sheet with the meters at zero less the increment rate; a
separate progressive line gives the contributions, the awards paid from the meter and its
theoretical at the meters each wager saw (the ledger's meter at its round). **Blackjack**
(:mod:`croupier.service.web.hold_blackjack`): the house edge of the table's rules × the initial
wagers, without a band.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends
from sqlalchemy.engine import Connection, Engine

from croupier.analysis.parsheet import exact_parsheet
from croupier.errors import CroupierError
from croupier.games.blackjack_rules import PlayRules
from croupier.operations.rounds import checked_submission
from croupier.operations.schemas.reports import HoldReport
from croupier.progressive import StaffMember
from croupier.service import store
from croupier.service.dependencies import EngineDep, LedgerDep, report_reader
from croupier.service.paid import Book, book_of, line_results
from croupier.service.routes.rounds import Filters, round_filters, round_query
from croupier.service.web.hold_blackjack import WAIT_SECONDS, blackjack_fields, blackjack_note
from croupier.service.web.hold_progressive import (
    Progressives,
    ProgressiveTally,
    TablePar,
    progressive_fields,
    progressives_of,
    table_par,
)
from croupier.units import format_money
from croupier.wagers import get_wager
from croupier.wagers.base import ProgressiveStake

BAND_SD = 3
"""The band's half-width in standard deviations of the theoretical hold."""

FALSE_FLAG = Fraction(27, 10_000)
"""How often an honest table may be flagged: 0.27%, what ± 3 SD leaves outside a normal hold
(2 × (1 − Φ(3)) = 0.26998%)."""

CHEBYSHEV_SD = math.sqrt(1 / FALSE_FLAG)
"""The band's half-width, in standard deviations, that holds at any count of wagers: by
Chebyshev's inequality P(|hold − theoretical| ≥ k·SD) ≤ 1/k², so k = 1/√0.0027 ≈ 19.245 leaves
out at most 0.27% of an honest table's holds, whatever the wager's distribution."""

COCHRAN = 25
"""Cochran's rule (W. G. Cochran, *Sampling Techniques*, 3rd ed., 1977, § 2.15; derived from
the Edgeworth expansion by Sugden, Smith & Jones, JRSS B 62 (2000) 787–793): the normal
approximation to a sum of ``n`` independent draws is adequate when ``n > 25 G1²``, ``G1`` the
skewness of one draw."""

router = APIRouter()
Reports = Annotated[StaffMember, Depends(report_reader("reading the hold report"))]


@dataclass
class _Tally:
    rounds: set[str] = field(default_factory=set)
    lines: int = 0
    handle: int = 0
    squares: int = 0
    cubes: int = 0
    win: int = 0
    pending: int = 0
    voided: int = 0
    progressive: ProgressiveTally = field(default_factory=ProgressiveTally)
    initial: int = 0
    """The initial wagers of the seats' lines (cents): a Blackjack row's base."""


@dataclass(frozen=True)
class Par:
    """One unit wagered on a paytable, exactly: the house edge and the second and third central
    moments of the player's result (its variance and skewness² = third² / variance³)."""

    edge: Fraction
    variance: Fraction
    third: Fraction

    @classmethod
    def of(cls, outcomes: Iterable[tuple[Fraction, Fraction]]) -> Par:
        """From each outcome's (net pay per unit, probability)."""
        rows = list(outcomes)
        mean = sum((p * net for net, p in rows), Fraction(0))
        variance = sum((p * (net - mean) ** 2 for net, p in rows), Fraction(0))
        third = sum((p * (net - mean) ** 3 for net, p in rows), Fraction(0))
        return cls(-mean, variance, third)


def lines_needed(par: Par) -> int:
    """The fewest wagers of equal stakes for which Cochran's rule trusts the normal band: the
    least ``n`` with ``n > 25 × skewness²`` (:data:`COCHRAN`), exact. One long-shot outcome of
    probability ``p`` that dominates the variance has skewness² ≈ 1/p: about 25 expected hits."""
    if par.variance == 0:
        return 1
    return math.floor(COCHRAN * par.third**2 / par.variance**3) + 1


def lines_to_exclude_zero(par: Par) -> int | None:
    """The fewest wagers of equal stakes whose ± :data:`BAND_SD` SD band excludes a hold of zero:
    the least ``n`` with ``edge × n > 3 σ √n``, i.e. ``n × edge² > 9 × variance``, exact;
    ``None`` for a paytable without a house edge (``edge ≤ 0``: no count of wagers makes a
    hold of zero unlikely)."""
    if par.edge <= 0:
        return None
    return math.floor(BAND_SD**2 * par.variance / par.edge**2) + 1


@dataclass(frozen=True)
class Judgement:
    """A table's hold against its band: ``rule`` ``"normal"`` (± :data:`BAND_SD` SD, the wagers
    enough for it by Cochran's rule) or ``"chebyshev"`` (± :data:`CHEBYSHEV_SD` SD, too few),
    the band in cents, whether the hold is outside it; ``needed_normal`` the wagers of equal
    stakes the normal band needs (:func:`lines_needed`) and ``effective`` how many the wagers
    count as for it (``(Σs²)³ / (Σs³)²``); ``needed_zero`` the wagers of equal stakes whose band
    excludes a hold of zero (:func:`lines_to_exclude_zero`, ``None`` without a house edge),
    ``effective_zero`` how many the wagers count as for that (``(Σs)² / Σs²``) and
    ``excludes_zero`` whether the ± 3 SD band excludes zero now (exact). Both counts are the
    wagers themselves when the stakes are equal."""

    rule: str
    sd: float
    theoretical: Fraction
    spread: float
    low: float
    high: float
    flagged: bool
    needed_normal: int
    effective: Fraction
    needed_zero: int | None
    effective_zero: Fraction
    excludes_zero: bool

    @property
    def judged(self) -> bool:
        """Whether the report gives a verdict: wagers enough for the ± 3 SD band, and a band that
        excludes a hold of zero (for a paytable with a house edge)."""
        return self.rule == "normal" and (self.excludes_zero or self.needed_zero is None)

    @property
    def needed(self) -> int:
        """The wagers of equal stakes a verdict needs: the larger of the two counts."""
        return max(self.needed_normal, self.needed_zero or 0)

    def shortfall(self) -> tuple[Fraction, int]:
        """Where an unjudged row stands: (the wagers counted, as of equal stakes; the wagers
        needed) by the rule furthest from met — for equal stakes the larger count."""
        short: list[tuple[Fraction, int]] = []
        if self.rule != "normal":
            short.append((self.effective, self.needed_normal))
        if self.needed_zero is not None and not self.excludes_zero:
            short.append((self.effective_zero, self.needed_zero))
        if not short:
            return self.effective, self.needed
        return min(short, key=lambda c: (c[0] / c[1], -c[1]))


def judge(par: Par, *, handle: int, squares: int, cubes: int, hold: int) -> Judgement:
    """The hold ``hold`` (cents) of wagers with stakes ``s_i`` (``handle`` = Σ s_i, ``squares``
    = Σ s_i², ``cubes`` = Σ s_i³) against the theoretical ``edge × handle``. The sum's skewness
    is ``skewness × Σs³ / (Σs²)^{3/2}``; Cochran's rule (:data:`COCHRAN`) trusts the ± 3 SD
    band when it is below 1/5 — for equal stakes, more than :func:`lines_needed` wagers. With
    fewer, only a hold outside ± :data:`CHEBYSHEV_SD` SD is flagged (decided exactly:
    ``(hold − theoretical)² > variance × Σs² / 0.0027``). The band excludes a hold of zero when
    ``edge² × handle² > 9 × variance × Σs²`` (edge > 0; exact): the verdict's second condition
    (:attr:`Judgement.judged`)."""
    theoretical = par.edge * handle
    variance = par.variance * squares
    spread = math.sqrt(variance)
    effective = Fraction(squares**3, cubes**2) if cubes else Fraction(0)
    zero = par.edge > 0 and par.edge**2 * handle**2 > BAND_SD**2 * par.variance * squares
    counts = (
        lines_needed(par),
        effective,
        lines_to_exclude_zero(par),
        Fraction(handle**2, squares) if squares else Fraction(0),
        zero,
    )
    if squares**3 * par.variance**3 > COCHRAN * par.third**2 * cubes**2:
        low, high = float(theoretical) - BAND_SD * spread, float(theoretical) + BAND_SD * spread
        flagged = not low <= hold <= high
        return Judgement("normal", BAND_SD, theoretical, spread, low, high, flagged, *counts)
    half = CHEBYSHEV_SD * spread
    flagged = (hold - theoretical) ** 2 > variance / FALSE_FLAG
    low, high = float(theoretical) - half, float(theoretical) + half
    return Judgement("chebyshev", CHEBYSHEV_SD, theoretical, spread, low, high, flagged, *counts)


def verdict(j: Judgement, lines: int) -> str:
    """The row's status as the pit reads it: "within the band" or "outside the band" once the
    handle supports a verdict; before, "not enough handle to judge: N of the M wagers needed",
    or — a hold outside the band in force — "outside the band" all the same."""
    if j.judged:
        return "outside the band" if j.flagged else "within the band"
    effective, needed = j.shortfall()
    counted = f"{lines:,}"
    if effective != lines:
        counted += f" (as {float(effective):,.1f} of equal stakes)"
    progress = f"{counted} of the {needed:,} wagers needed"
    if not j.flagged:
        return f"not enough handle to judge: {progress}"
    if j.rule == "normal":
        return f"outside the band: beyond ± {BAND_SD} SD (not enough handle to judge within it: {progress})"
    return (
        f"outside the band: beyond ± {j.sd:.1f} SD, which holds at any count (not enough handle "
        f"to judge within ± {BAND_SD} SD: {progress})"
    )


@cache
def _figures(wager: str, paytable_key: str, section: str, decks: int) -> Par:
    w = get_wager(wager)
    sheet = exact_parsheet(w, w.paytable(paytable_key, decks), decks=decks)
    return Par.of((row.net, row.probability) for row in sheet.rows)


def _par(sub: Any, bet: str, t: _Tally, progs: Progressives) -> Any:
    """What a row is judged by: ``(paytable, decks, Par)`` (with a :class:`TablePar` for a
    progressive), a Blackjack wager's play rules, or why there is none."""
    if sub is None:  # a round stored before the service kept round files' submissions
        return "the Rules Submission the round was settled under is not held by the service"
    offered = sub.offered(bet)
    if offered is None or offered.paytable is None:
        return blackjack_note(sub, bet)
    pt = offered.paytable
    try:
        if pt.progressive is not None:
            stakes = {progs.stakes[n] for n in t.progressive.names if n in progs.stakes}
            stake = stakes.pop() if len(stakes) == 1 else ProgressiveStake.COLLECTED
            tp = table_par(bet, pt.key, sub.decks, stake)
            return (pt, sub.decks, Par(tp.edge, tp.variance, tp.third), tp)
        return (pt, sub.decks, _figures(bet, pt.key, pt.section, sub.decks), None)
    except CroupierError as exc:
        return f"no par sheet: {exc}"


def hold_report(
    engine: Engine,
    book: Book | None = None,
    *,
    table: str | None = None,
    since: str | None = None,
    until: str | None = None,
    wager: str | None = None,
    progressives: Progressives | None = None,
    wait: float | None = WAIT_SECONDS,
) -> dict[str, Any]:
    """``{"band_sd", "filters", "rows": [...]}`` over the stored rounds of ``table`` settled in
    ``[since, until)`` (ISO 8601), with ``wager`` only that wager's rows — each filter only when
    given, as ``GET /rounds/summary`` takes them; a round voided at an open table (every wager
    returned) is left out. Per table and wager, ``rounds``, ``lines``,
    ``handle_cents``, ``hold_cents`` (actual: what the table kept, a progressive's award counted
    as the ledger ``book`` has it — paid, or nothing for a voided one), ``pending_cents`` (awards
    awaiting validation: owed, not yet paid, not in the hold), ``voided_cents``, ``hold_ratio``
    (hold ÷ handle) and ``hold_percent`` (the same in percent), and where the par sheet is known
    ``paytable``, ``decks``, ``house_edge``, ``theoretical_cents``, ``sd_cents``, ``low_cents``,
    ``high_cents`` (the band in force), ``band_rule`` (``normal``: ± 3 SD; ``chebyshev``: too few
    wagers for it, ± ``band_sd`` SD), ``judged`` (a verdict is given: wagers enough for the ± 3 SD
    band, and a band that excludes a hold of zero), ``lines_needed`` (how many of equal stakes a
    verdict needs: the larger of ``lines_needed_normal``, Cochran's count, and
    ``lines_needed_zero``, the band's excluding zero — absent without a house edge),
    ``effective_lines`` and ``effective_lines_zero`` (how many of equal stakes the wagers count
    as for each), ``excludes_zero``, ``flagged`` (outside the band in force) and ``verdict`` (the
    status in words: "not enough handle to judge: 2 of the 36,503 wagers needed"); else ``note``
    says why not (:func:`judge`). A progressive wager's row is judged on ``table_hold_cents``
    (net of the progressive, ``progressives``: the ledger's rounds) with its ``progressive``
    line; a Blackjack row's theoretical waits up to ``wait`` seconds for its house edge
    (:mod:`~croupier.service.web.hold_blackjack`)."""
    book = book or Book({}, {})
    progs = progressives or Progressives()
    with engine.connect() as conn:
        submissions, posted = _submissions(conn)
        tallies = _tallies(conn, book, progs, (table, since, until, wager))
    rows = []
    for (table_id, bet, digest), t in sorted(tallies.items()):
        sub = submissions.get((table_id, digest)) or posted.get(digest)
        rows.append(_row(table_id, bet, t, _par(sub, bet, t, progs), wait))
    filters = {"table": table, "since": since, "until": until, "wager": wager}
    return {
        "band_sd": BAND_SD,
        "chebyshev_sd": round(CHEBYSHEV_SD, 3),
        "false_flag_rate": float(FALSE_FLAG),
        "filters": filters,
        "rows": rows,
    }


def _submissions(conn: Connection) -> tuple[dict[tuple[str, str], Any], dict[str, Any]]:
    """The checked submissions of the open tables, by (table, digest), and those the round files
    were posted with, by digest; one that no longer checks is left out."""
    submissions: dict[tuple[str, str], Any] = {}
    for opened in conn.execute(sa.select(store.tables)).all():
        try:
            _, sub = checked_submission(json.loads(opened.submission), f"table {opened.table_id}")
        except (CroupierError, ValueError):
            continue
        submissions[(opened.table_id, opened.submission_digest)] = sub
    posted: dict[str, Any] = {}  # the round files' submissions, by digest
    for kept in conn.execute(sa.select(store.submissions)).all():
        try:
            _, sub = checked_submission(json.loads(kept.submission), "a kept submission")
        except (CroupierError, ValueError):
            continue
        posted[kept.submission_digest] = sub
    return submissions, posted


def _tallies(
    conn: Connection,
    book: Book,
    progs: Progressives,
    filters: tuple[str | None, str | None, str | None, str | None],
) -> dict[tuple[str, str, str], _Tally]:
    """The stored rounds' settled lines (the filters of :func:`hold_report`: table, since,
    until, wager) tallied by (table, wager, submission digest); a voided round and the lines
    the base game settles outside croupier left out. A progressive wager's lines count the
    meters their round saw, and each fed round its contribution and meter awards once."""
    table, since, until, wager = filters
    tallies: dict[tuple[str, str, str], _Tally] = {}
    r = store.rounds
    columns = (r.c.table_id, r.c.round_id, r.c.submission_digest, r.c.document)
    q = round_query(table, since, until, wager, columns).order_by(r.c.id)
    only = wager.strip().lower() if wager else None
    for table_id, round_id, digest, text in conn.execute(q):
        doc = json.loads(text)
        if doc.get("voided"):  # every wager returned: none was in action
            continue
        seats: set[tuple[Any, str]] = set()
        for result in line_results(doc, book):
            line = result.line
            if line.get("settled_by_base_game") or line.get("win_cents") is None:
                continue
            if only is not None and line["bet"] != only:
                continue
            tally = tallies.setdefault((table_id, line["bet"], digest), _Tally())
            tally.rounds.add(round_id)
            tally.lines += 1
            tally.handle += int(line["stake_cents"])
            tally.squares += int(line["stake_cents"]) ** 2
            tally.cubes += int(line["stake_cents"]) ** 3
            tally.win += result.win_cents
            tally.pending += result.pending_cents
            tally.voided += result.voided_cents
            if line["bet"] in progs.wagers.values():
                tally.progressive.line(progs, doc, line)
            if (line.get("seat"), line["bet"]) not in seats:
                seats.add((line.get("seat"), line["bet"]))
                tally.initial += _initial(doc, line.get("seat"), line["bet"])
        for fed in doc.get("progressives") or ():
            key = (table_id, progs.wagers.get(str(fed.get("progressive")), ""), digest)
            if key in tallies:
                tallies[key].progressive.round(progs, fed, book.awards)
    return tallies


def _initial(doc: dict[str, Any], seat: Any, bet: str) -> int:
    """What ``seat`` placed on ``bet`` in round ``doc`` (its bet events, cents)."""
    return sum(
        int(e.get("amount_cents") or 0)
        for e in doc.get("events") or ()
        if e.get("action") == "bet" and e.get("seat") == seat and e.get("wager") == bet
    )


def _row(table_id: str, bet: str, t: _Tally, par: Any, wait: float | None) -> dict[str, Any]:
    """One row of :func:`hold_report`: a table's wager, its actual hold and, with its par sheet
    (``par``: :func:`_par`'s), the band it is judged by; else a ``note`` saying why not."""
    row: dict[str, Any] = {
        "table": table_id,
        "wager": bet,
        "rounds": len(t.rounds),
        "lines": t.lines,
        "handle_cents": t.handle,
        "handle": format_money(t.handle),
        "hold_cents": -t.win,
        "hold": format_money(-t.win),
        "pending_cents": t.pending,
        "pending": format_money(t.pending),
        "voided_cents": t.voided,
        "hold_ratio": -t.win / t.handle if t.handle else None,
        "hold_percent": round(-100 * t.win / t.handle, 4) if t.handle else None,
        "table_hold_cents": -t.win,
        "table_hold": format_money(-t.win),
    }
    if isinstance(par, str):
        row["note"] = par
        return row
    if isinstance(par, PlayRules):
        row.update(blackjack_fields(par, t.initial, wait))
        return row
    pt, decks, figures, progressive = par
    held = -t.win
    if isinstance(progressive, TablePar):
        held, fields = progressive_fields(progressive, t.progressive, t.handle, -t.win, t.pending)
        row.update(fields, table_hold_cents=held, table_hold=format_money(held))
        row["table_hold_percent"] = round(100 * held / t.handle, 4) if t.handle else None
    j = judge(figures, handle=t.handle, squares=t.squares, cubes=t.cubes, hold=held)
    row.update(
        paytable=pt.key,
        section=pt.section,
        decks=decks,
        house_edge=float(figures.edge),
        theoretical_cents=round(j.theoretical),
        theoretical=format_money(round(j.theoretical)),
        sd_cents=round(j.spread),
        low_cents=math.floor(j.low),
        high_cents=math.ceil(j.high),
        band=f"{format_money(math.floor(j.low))} to {format_money(math.ceil(j.high))}",
        band_rule=j.rule,
        band_sd=round(j.sd, 3),
        judged=j.judged,
        lines_needed=j.needed,
        lines_needed_normal=j.needed_normal,
        effective_lines=round(float(j.effective), 2),
        effective_lines_zero=round(float(j.effective_zero), 2),
        excludes_zero=j.excludes_zero,
        flagged=j.flagged,
        verdict=verdict(j, t.lines),
    )
    if j.needed_zero is not None:  # a paytable with a house edge
        row["lines_needed_zero"] = j.needed_zero
    return row


@router.get(
    "/hold-report",
    response_model=HoldReport,
    response_model_exclude_unset=True,
    summary="Actual against theoretical hold per table and wager",
)
def hold(
    engine: EngineDep,
    ledger: LedgerDep,
    _member: Reports,
    filters: Annotated[Filters, Depends(round_filters)],
) -> dict[str, Any]:
    """The hold report as JSON (a pit manager or above, accounting or an auditor) over the rounds
    the filters match — ``?table=``, ``?since=``, ``?until=`` (ISO 8601, settled in
    ``[since, until)``), ``?wager=`` — as ``GET /rounds/summary`` takes them: per table and
    wager the handle (amount wagered), the actual hold (what the table kept) against the
    theoretical; progressive awards counted as the ledger has them (a voided award paid
    nothing; a pending one is owed, shown apart as ``pending_cents``). A row gets a verdict
    against ± 3 SD once its handle supports one (``lines_needed``): wagers enough for the normal
    band (Cochran's rule) and a band that excludes a hold of zero; before, it says "not enough
    handle to judge" and is flagged only outside the band in force (± 3 SD once Cochran's count
    is met, else ± 19.2 SD, Chebyshev)."""
    return hold_report(engine, book_of(ledger), progressives=progressives_of(ledger), **filters)


__all__ = [
    "BAND_SD",
    "CHEBYSHEV_SD",
    "COCHRAN",
    "FALSE_FLAG",
    "Judgement",
    "Par",
    "hold_report",
    "judge",
    "lines_needed",
    "lines_to_exclude_zero",
    "router",
    "verdict",
]
