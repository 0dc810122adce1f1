"""Money is written one way everywhere (issue 31: the pit's history wrote "$5000.18" where every
other view wrote "$5,000.18"): the server formats each amount with
:func:`croupier.units.format_money` and the page's scripts print that text, never formatting
dollars of their own."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from croupier.progressive.meters import Delta, StoredEvent
from croupier.progressive.model import EventKind
from croupier.progressive.records import LedgerEvent
from croupier.progressive.views import event_dict
from repo_paths import ROOT

STATIC = ROOT / "src" / "croupier" / "service" / "web" / "static"


def test_no_page_script_formats_dollars_itself() -> None:
    # a dollar sign glued to a number, cents to two places, a currency style: money formatted in
    # the browser (a count's thousands separators, toLocaleString of rounds, are not money)
    own = re.compile(r"\$\$\{|toFixed\(2\)|currency|[\"'`]\$[\"'`]\s*\+")
    found = [
        f"{path.name}:{n}"
        for path in sorted(STATIC.glob("*.js"))
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if own.search(line)
    ]
    assert found == []


def test_a_history_event_carries_its_amount_as_every_view_writes_it() -> None:
    ev = StoredEvent(1, EventKind.PAYMENT, None, Delta(), award_id=1, amount_cents=500_018)
    shown = event_dict(LedgerEvent("mtd-5", ev, datetime(2026, 12, 1, tzinfo=UTC)))
    assert (shown["amount_cents"], shown["amount"]) == (500_018, "$5,000.18")
    none = StoredEvent(2, EventKind.LOCKOUT, None, Delta())
    assert (
        event_dict(LedgerEvent("mtd-5", none, datetime(2026, 12, 1, tzinfo=UTC)))["amount"] is None
    )
