"""A writer process for the concurrency tests: settles its table's rounds on a linked meter and
may SIGKILL itself mid-transaction.

    python progressive_worker.py URL PROGRESSIVE TABLE ROUNDS SEATS KILL_AT KILL_P [CONTROLS]

Rounds are ``TABLE-0`` … in order; each round's hands are a fixed function of (table, round), so a
restarted worker repeats exactly the same requests (idempotency keys ``TABLE/ROUND``). The worker
resumes every round from the state the ledger holds. At the ``KILL_AT``-th fault-hook call (0: none),
and then with probability ``KILL_P`` at every call, it kills itself with SIGKILL, inside an open
transaction (settlement, validation, reset — or, with ``CONTROLS`` 1, a suspension, a
reconfiguration, a resumption or a significant event).

With ``CONTROLS`` 1 the worker opens the ledger as a controller does (:meth:`Ledger.open`: a
session, the start-up self-check, a crashed session's recovery, the shutdown — significant
events), and table ``T1`` suspends the link after its round :data:`CONTROL_ROUND`, reconfigures
its limit (a recorded reconfiguration that leaves the arithmetic alone: no meter comes near it)
and resumes it, resuming from whichever of those steps the ledger shows done. A table refused
while the link is suspended waits and tries again.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time

from croupier.errors import LinkError
from croupier.progressive import (
    AwardStatus,
    Ledger,
    ProgressiveSystem,
    QualifyingHand,
    RoundStatus,
)

DEALER = "dana"
FLOOR = "flo"
PIT = "pat"
SHIFT = "sam"
CONTROL_ROUND = 3
NEW_LIMIT_CENTS = 100_000_000  # $1,000,000: far above any meter the run reaches


def hands_for(table: str, i: int, seats: int) -> list[QualifyingHand]:
    """The qualifying hands of round ``i`` at ``table`` (Match the Dealer outcomes)."""
    rng = random.Random(f"{table}:{i}")
    out = []
    for p in range(1, seats + 1):
        roll = rng.random()
        if roll < 0.04:
            out.append(QualifyingHand(p, "two-suited-match-aces-of-spades"))
        elif roll < 0.14:
            out.append(QualifyingHand(p, "two-suited-match"))
        elif roll < 0.30:
            out.append(QualifyingHand(p, rng.choice(["suited-match", "non-suited-match"])))
    return out


def main(argv: list[str]) -> None:
    url, name, table = argv[0], argv[1], argv[2]
    rounds, seats, kill_at = int(argv[3]), int(argv[4]), int(argv[5])
    kill_p = float(argv[6])
    dice = random.Random(os.urandom(8))
    calls = 0

    def hook(stage: str) -> None:
        nonlocal calls
        calls += 1
        if calls == kill_at or dice.random() < kill_p:
            os.kill(os.getpid(), signal.SIGKILL)

    controls = len(argv) > 7 and argv[7] == "1"
    if controls:
        ledger = Ledger.open(url, migrate=False, fault_hook=hook, table=table)
    else:
        ledger = Ledger(url, migrate=False, fault_hook=hook)
    system = ledger.system(name)
    positions = list(range(1, seats + 1))
    for i in range(rounds):
        if controls and table == "T1" and i == CONTROL_ROUND + 1:
            reconfigure(ledger, name)
        while True:
            try:
                play_round(system, ledger, name, table, i, seats, positions)
                break
            except LinkError:  # the link is suspended for a reconfiguration: wait
                time.sleep(0.01)
    ledger.close()


def reconfigure(ledger: Ledger, name: str) -> None:
    """Suspend, reconfigure the limit and resume, each step only if the ledger does not show it
    done (a restarted worker goes on where it was killed)."""
    defn = ledger.definition(name)
    done = defn.levels[0].limit_cents == NEW_LIMIT_CENTS
    if not done and not ledger.is_suspended(name):
        ledger.suspend(name, by=PIT, reason="limit raised (test)")
    if not done:
        level = defn.levels[0].level
        ledger.reconfigure(name, by=SHIFT, approval="TEST-1", limits_cents={level: NEW_LIMIT_CENTS})
    if ledger.is_suspended(name):
        ledger.resume(name, by=PIT)


def play_round(
    system: ProgressiveSystem,
    ledger: Ledger,
    name: str,
    table: str,
    i: int,
    seats: int,
    positions: list[int],
) -> None:
    """Round ``i`` of ``table``, from the state the ledger holds, and its table's validations."""
    rid = f"{table}-{i}"
    r = system.find_round(rid)
    status = r.status if r is not None else None
    if status is None:
        system.accept_wagers(rid, table, positions, by=DEALER)
        status = RoundStatus.OPEN
    if status is RoundStatus.OPEN:
        system.lock_out(rid, by=DEALER)
        status = RoundStatus.LOCKED
    if status is RoundStatus.LOCKED:
        status = system.verify_chips(rid, seats, by=DEALER)
    if status is RoundStatus.VERIFIED:
        system.settle_round(
            rid, hands_for(table, i, seats), idempotency_key=f"{table}/{rid}", by=DEALER
        )
    for a in ledger.awards(name, AwardStatus.PENDING):
        if a.table_id == table:
            ledger.validate(a.id, by=FLOOR)


if __name__ == "__main__":
    main(sys.argv[1:])
