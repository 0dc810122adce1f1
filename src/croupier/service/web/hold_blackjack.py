"""The hold report's Blackjack rows: a theoretical from the house edge of the table's rules.

The Blackjack wager is settled by the play of the hands, so it has no par sheet of its own; its
theoretical hold is the house edge of the table's rule set (§§ 633a.7–633a.11: decks, soft 17,
doubling, splitting, surrender, the Blackjack pay) under **total-dependent basic strategy** — the
strategy a table's par figure assumes of an ordinary player (a composition-dependent player
does about 0.03 % better) — valued exactly by
:func:`croupier.analysis.blackjack_exact.rule_set_value` (every round from a full shoe), times
the **initial wagers**: the edge is per unit of the initial Blackjack wager, doubles and splits
adding to what is risked but not to the unit (so the handle, which counts them, is not the base).

The exact engine takes seconds for a rule set it has not valued (about 6 s on one core); a
request waits for it up to :data:`WAIT_SECONDS` (1 s), then the row says plainly "no theoretical:
computing…" while it finishes in the background (one rule set at a time, cached for the
process's life). No band is drawn: the variance of a Blackjack round under these rules is not
computed here. A Blackjack variant (Blackjack Premium, Blackjack Switch, § 633b.4) or another
base game gets no theoretical, said so.

The exact engine (numpy, numba's compiled kernels: about half a second of CPU to import) is
imported by the first Blackjack row that needs a house edge, not when the service starts.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from croupier.games.blackjack_rules import PlayRules
from croupier.units import format_money
from croupier.wagers.at_table import TableGame

if TYPE_CHECKING:
    from croupier.analysis.blackjack_exact import Strategy

WAIT_SECONDS = 1.0
"""How long a request waits for a rule set's house edge not yet valued before saying it is
being computed: short, so the pit's page is never held up by it (it reads the report again)."""

_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="blackjack-edge")
_lock = threading.Lock()
_jobs: dict[PlayRules, Future[float]] = {}

__all__ = ["WAIT_SECONDS", "blackjack_edge", "blackjack_fields", "blackjack_note", "strategy"]


def strategy() -> Strategy:
    """The strategy the Blackjack theoretical assumes: basic (its engine imported here)."""
    from croupier.analysis.blackjack_exact import Strategy

    return Strategy.BASIC


def _value(rules: PlayRules) -> float:
    from croupier.analysis.blackjack_exact import rule_set_value

    return rule_set_value(rules, strategy()).house_edge


def blackjack_edge(rules: PlayRules, wait: float | None = WAIT_SECONDS) -> float | None:
    """The house edge of ``rules`` under :func:`strategy` (a fraction of the initial wager),
    waiting up to ``wait`` seconds (``None``: until done) for one not yet valued; ``None`` if it
    is still being computed (in the background: a later call finds it)."""
    with _lock:
        job = _jobs.get(rules)
        if job is None:
            job = _jobs[rules] = _pool.submit(_value, rules)
    try:
        return job.result(timeout=wait)
    except TimeoutError:
        return None


def blackjack_note(sub: Any, bet: str) -> str | PlayRules:
    """The play rules of submission ``sub`` when its ``bet`` is the Blackjack wager of plain
    Blackjack, else why no theoretical applies."""
    if sub.game is not TableGame.BLACKJACK or bet != "blackjack":
        return f"no theoretical: {bet} is settled by the base game, which has no par sheet here"
    if sub.variant is not None:
        return (
            f"no theoretical: the house edge of {sub.variant.value} is not computed here "
            "(plain Blackjack's rules only)"
        )
    rules: PlayRules = sub.play_rules
    return rules


def blackjack_fields(rules: PlayRules, initial_cents: int, wait: float | None) -> dict[str, Any]:
    """A Blackjack row's theoretical (``house_edge`` × the initial wagers ``initial_cents``),
    or a ``note`` saying it is still being computed."""
    edge = blackjack_edge(rules, wait)
    if edge is None:
        return {
            "note": "no theoretical: computing the house edge of these rules (a few seconds; "
            "read the report again)"
        }
    theoretical = round(Fraction(edge) * initial_cents)
    name = strategy().value
    return {
        "house_edge": edge,
        "strategy": name,
        "initial_wagers_cents": initial_cents,
        "initial_wagers": format_money(initial_cents),
        "theoretical_cents": theoretical,
        "theoretical": format_money(theoretical),
        "note": f"no band: the theoretical is the house edge ({edge:.4%}, {name} "
        f"strategy) × the initial wagers ({format_money(initial_cents)}); the variance of a "
        "Blackjack round under these rules is not computed here",
    }
