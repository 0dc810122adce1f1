"""The hold report nets a table's hold of its progressive and sets a theoretical at the meters
each wager saw (issue 31: a $50,012.95 meter award was counted against table JP-2, which then
read −$53,027.95 on $40 of wagers; Jackpot Party rows had no theoretical, Blackjack rows "no par
sheet").

By hand, jp-5 is § 633b.2 paytable P1 at 6 decks, $5: increment rates 16% (meter) + 3.75%
(reserve) = 19.75%, so each $5 wager puts $0.9875 on the progressive. A Royal Flush in diamonds
(100% of the meter) is the dealer's A♦ with one of K♦ Q♦ J♦ (either card up: 2 × 6 × 18 ways)
and the player's other two, in either order (2 × 6 × 6): 15,552 of the 312·311·310·309 ordered
deals; a Royal Flush in another suit (10% of the meter) three times as many. Per unit wagered the
meter returns ``13/10 × 15,552 / (312·311·310·309)`` of the meter ÷ the wager.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import httpx
import pytest

from croupier.analysis.blackjack_exact import Strategy, rule_set_value
from croupier.analysis.meters import meter_return
from croupier.operations.rounds import checked_submission
from croupier.paytables import MeterLevel
from croupier.wagers import get_wager
from service_support import (
    BLACKJACK_SUBMISSION,
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    Server,
    keyed,
    pp_round,
    royal_round,
    serving,
)

STAKE = 500
RATE = Fraction(16, 100) + Fraction(375, 10_000)
ROYAL_DIAMONDS = Fraction(2 * 6 * 18 * 2 * 6 * 6, 312 * 311 * 310 * 309)
SLOPE = ROYAL_DIAMONDS * (1 + 3 * Fraction(1, 10))
"""The meter's share a unit wager wins, by hand (module docstring)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("hold-progressive")) as srv:
        yield srv


def available_cents(c: httpx.Client, srv: Server) -> int:
    """jp-5's meter available now (what a share award would be taken from), in cents."""
    status = c.get("/progressives/jp-5", headers=srv.auth(PIT)).json()
    return int(status["levels"][0]["available_micros"]) // 10_000


def settle(c: httpx.Client, srv: Server, table: str, body: dict[str, Any]) -> dict[str, Any]:
    r = c.post(
        "/rounds/settle",
        params={"table": table, "progressive": "jp-5"},
        json=body,
        headers=keyed(srv.auth(DEALER)),
    )
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def rows_of(c: httpx.Client, srv: Server, table: str) -> dict[str, dict[str, Any]]:
    report = c.get("/hold-report", params={"table": table}, headers=srv.auth(PIT)).json()
    return {r["wager"]: r for r in report["rows"]}


def test_a_paid_meter_award_is_the_progressives_not_the_tables(server: Server) -> None:
    """A Royal Flush validated and paid ($50,000-odd from the meter) and a losing wager, both $5:
    the table kept both stakes less what they contributed; the meter took the contributions and
    paid the award; the two lines add up to the wager's hold."""
    table = f"JP-{uuid.uuid4().hex[:8]}"
    with server.client() as c:
        linked = c.post(
            "/progressives/jp-5/links", json={"table": table}, headers=keyed(server.auth(SHIFT))
        )
        assert linked.status_code == 201, linked.text
        royal = settle(c, server, table, royal_round("r1"))
        (award,) = royal["progressives"][0]["awards"]
        seen_first = award["amount_cents"]  # 100% of the meter after r1's contribution
        paid = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert paid.status_code == 200, paid.text
        settle(c, server, table, pp_round("r2", jp=True))
        seen_second = available_cents(c, server)
        row = rows_of(c, server, table)["jackpot-party"]

    contributions_micros = 2 * RATE * STAKE * 10_000  # 2 × $0.9875
    assert contributions_micros == 1_975_000
    contributions = round(Fraction(1_975_000, 10_000))  # $1.975 → $1.98 (half to even)
    assert contributions == 198
    line = row["progressive"]
    assert line["progressives"] == ["jp-5"]
    assert (line["contributions_micros"], line["contributions_cents"]) == (1_975_000, 198)
    assert line["awards_paid_cents"] == award["amount_cents"]
    assert line["net_cents"] == contributions - award["amount_cents"]
    # the wager's hold: $10 staked, the award paid; the table's: $10 less the contributions
    assert row["hold_cents"] == 2 * STAKE - award["amount_cents"]
    assert row["table_hold_cents"] == 2 * STAKE - contributions == 802
    assert row["table_hold"] == "$8.02"
    assert row["table_hold_cents"] + line["net_cents"] == row["hold_cents"]
    assert row["table_hold_percent"] == 80.2
    # the progressive's theoretical at the meters the two wagers saw, by hand
    expected_awards = SLOPE * (seen_first + seen_second)  # each s_i × M_i / w_i, s_i = w_i
    assert line["theoretical_cents"] == round(RATE * 2 * STAKE - expected_awards)
    # the par sheet's return at each meter, stake-weighted: the row's return at the meters
    mr = meter_return(get_wager("jackpot-party"), "P1", decks=6)
    at = [mr.at({MeterLevel.PROGRESSIVE: m}) for m in (seen_first, seen_second)]
    assert [float(a) for a in at] == [
        float(mr.fixed + SLOPE * Fraction(m, STAKE)) for m in (seen_first, seen_second)
    ]
    weighted = (STAKE * at[0] + STAKE * at[1]) / (2 * STAKE)
    assert row["return_at_meters_exact"] == f"{weighted.numerator}/{weighted.denominator}"
    assert row["theoretical_with_progressive_cents"] == round(-STAKE * (at[0] + at[1]))
    # the table's theoretical: the par sheet with the meters at zero, less the increment rate
    table_edge = -mr.at({MeterLevel.PROGRESSIVE: 0}) - RATE
    assert row["house_edge"] == float(table_edge)
    assert row["theoretical_cents"] == round(table_edge * 2 * STAKE)
    assert "not enough handle to judge: 2 of the" in row["verdict"]
    assert "note" not in row


def test_a_pending_award_is_owed_by_the_meter_and_leaves_the_table_hold_alone(
    server: Server,
) -> None:
    table = f"JP-{uuid.uuid4().hex[:8]}"
    with server.client() as c:
        c.post("/progressives/jp-5/links", json={"table": table}, headers=keyed(server.auth(SHIFT)))
        royal = settle(c, server, table, royal_round("r1"))
        (award,) = royal["progressives"][0]["awards"]
        row = rows_of(c, server, table)["jackpot-party"]
    contributions = round(RATE * STAKE)  # $0.9875 → 99 cents
    assert row["hold_cents"] == STAKE
    assert row["progressive"]["pending_cents"] == award["amount_cents"]
    assert row["progressive"]["awards_paid_cents"] == 0
    assert row["table_hold_cents"] == STAKE - contributions == 401


def test_blackjack_rows_get_the_house_edge_of_their_rules(server: Server) -> None:
    """The royal round's $10 Blackjack wager lost to the dealer's Blackjack. The test table's
    rules (6 decks, dealer stands on soft 17, double after split, split to 4, no surrender):
    the published 0.333% of 6 decks S17 with late surrender (Hoppe, basic strategy:
    tests/blackjack_rules_reference.py) plus what surrender is worth, under 0.1%."""
    table = f"JP-{uuid.uuid4().hex[:8]}"
    with server.client() as c:
        c.post("/progressives/jp-5/links", json={"table": table}, headers=keyed(server.auth(SHIFT)))
        settle(c, server, table, royal_round("r1"))
        row = rows_of(c, server, table)["blackjack"]
        for _ in range(120):  # the house edge is computed in the background, a few seconds
            if not row["note"].startswith("no theoretical: computing"):
                break
            time.sleep(0.5)
            row = rows_of(c, server, table)["blackjack"]
    _, sub = checked_submission(BLACKJACK_SUBMISSION, "the test submission")
    edge = rule_set_value(sub.play_rules, Strategy.BASIC).house_edge
    assert 0.00333 < edge < 0.00433
    assert (row["house_edge"], row["strategy"]) == (edge, "basic")
    assert row["initial_wagers_cents"] == 1000
    assert row["theoretical_cents"] == round(Fraction(edge) * 1000) == 4
    assert row["note"].startswith("no band: the theoretical is the house edge (0.4")
    assert "verdict" not in row
