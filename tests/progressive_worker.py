"""A writer process for the concurrency tests: settles its table's rounds on a linked meter and
may SIGKILL itself mid-transaction.

    python progressive_worker.py URL PROGRESSIVE TABLE ROUNDS SEATS KILL_AT KILL_P

Rounds are ``TABLE-0`` … in order; each round's hands are a fixed function of (table, round), so a
restarted worker repeats exactly the same requests (idempotency keys ``TABLE/ROUND``). The worker
resumes every round from the state the ledger holds. At the ``KILL_AT``-th fault-hook call (0: none),
and then with probability ``KILL_P`` at every call, it kills itself with SIGKILL, inside an open
transaction (settlement or validation).
"""

from __future__ import annotations

import os
import random
import signal
import sys

from croupier.progressive import AwardStatus, Ledger, QualifyingHand, RoundStatus

DEALER = "dana"
FLOOR = "flo"


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

    ledger = Ledger(url, migrate=False, fault_hook=hook)
    system = ledger.system(name)
    positions = list(range(1, seats + 1))
    for i in range(rounds):
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
    ledger.close()


if __name__ == "__main__":
    main(sys.argv[1:])
