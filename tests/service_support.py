"""A real ``croupier serve`` process for the service tests: a free loopback port, a database
(SQLite file or an isolated PostgreSQL schema, :func:`progressive_support.new_db_url`) with the
test staff, and an httpx client.

The ledger is made here (bootstrap, staff, progressives) before the server starts; the server
then opens it, migrates its own tables, and is asked ``/health`` until it answers.
"""

from __future__ import annotations

import contextlib
import copy
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from croupier.progressive import Ledger, Role
from progressive_support import (
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    secret,
)

BLACKJACK_SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "BJ-6",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
        {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]},
        {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$1", "$5"]},
    ],
}
"""A six-deck Blackjack table with Perfect Pairs A, Jackpot Party P1 ($5) and Match the Dealer 1."""

TABLES = ("BJ-1", "BJ-2", "BJ-3", "BJ-4")


def free_port() -> int:
    """A loopback port nothing listens on (bound once, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


PROGRESSIVES = ("jp-5", "mtd-1", "mtd-5")
"""The test progressives: every progressive wager :data:`BLACKJACK_SUBMISSION` offers has one
(a table offering a progressive wager opens only linked to a progressive that takes it)."""

PLAIN_SUBMISSION: dict[str, Any] = {
    **BLACKJACK_SUBMISSION,
    "name": "BJ-6-plain",
    "wagers": [w for w in BLACKJACK_SUBMISSION["wagers"] if "amounts" not in w],
}
""":data:`BLACKJACK_SUBMISSION` without its progressive wagers: a table that needs no
progressive."""


ASH = "ash"
"""The test ledger's assistant shift manager."""


def make_ledger(url: str) -> None:
    """The test staff (with an assistant shift manager, :data:`ASH`: the role just below a
    shift manager's routes) and three progressives linked to every test table: ``jp-5``
    (§ 633b.2 paytable P1, $5), ``mtd-5`` (§ 633b.3 paytable 1, $5) and ``mtd-1`` (the same,
    $1)."""
    with Ledger(url) as ledger:
        add_staff(ledger)
        ledger.add_user(ASH, Role.ASSISTANT_SHIFT_MANAGER, secret(ASH), by=SHIFT)
        ledger.create_progressive(
            paytable_definition("633b.2", "P1", 6, 500, "jp-5"), tables=TABLES, by=SHIFT
        )
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 6, 500, "mtd-5"), tables=TABLES, by=SHIFT
        )
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 6, 100, "mtd-1"), tables=TABLES, by=SHIFT
        )


def link(c: httpx.Client, srv: Server, table: str, names: Sequence[str] = PROGRESSIVES) -> None:
    """Link ``table`` to each of ``names`` (a shift manager, ``POST /progressives/{name}/links``)."""
    for name in names:
        r = c.post(
            f"/progressives/{name}/links", json={"table": table}, headers=keyed(srv.auth(SHIFT))
        )
        assert r.status_code == 201, r.text


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` — children, theirs, … — read from ``/proc`` (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])  # after "(comm)": state, then the ppid
        children.setdefault(ppid, []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class Server:
    """``python -m croupier serve`` on a free loopback port, serving ``url``."""

    def __init__(
        self,
        url: str,
        log: Path,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        self.url = url
        self.log = log
        self.env = dict(env or {})
        self.args = tuple(args)  # more options of `croupier serve` (e.g. --workers 2)
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = ""
        self.tokens: dict[str, str] = {}

    def start(self, timeout: float = 60.0) -> Server:
        """Start the process and wait until ``/health`` answers."""
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {**os.environ, **self.env}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "croupier",
                    "serve",
                    "--port",
                    str(port),
                    "--db",
                    self.url,
                    "--log-level",
                    "warning",
                    *self.args,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)
        self.proc = None

    def kill(self) -> None:
        """SIGKILL the process and every process under it (``--workers 2``: its worker
        processes; a job's process), as a power cut would."""
        if self.proc is not None:
            under = descendants(self.proc.pid)
            self.proc.kill()
            for pid in under:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.proc.wait(15)
            self.proc = None

    def client(self, **kw: Any) -> httpx.Client:
        """A client of the server."""
        return httpx.Client(base_url=self.base, timeout=60, **kw)

    def token(self, user: str) -> str:
        """A token of test staff member ``user`` (cached)."""
        if user not in self.tokens:
            r = httpx.post(
                f"{self.base}/token", data={"username": user, "password": secret(user)}, timeout=60
            )
            assert r.status_code == 200, r.text
            self.tokens[user] = r.json()["access_token"]
        return self.tokens[user]

    def auth(self, user: str) -> dict[str, str]:
        """The Authorization header of ``user``."""
        return {"Authorization": f"Bearer {self.token(user)}"}


def keyed(headers: Mapping[str, str] | None = None, key: str | None = None) -> dict[str, str]:
    """``headers`` with an ``Idempotency-Key`` (``key``, else the one ``headers`` has, else a new
    one): every request that changes money or configuration needs one (a 400 problem without
    it)."""
    given = dict(headers or {})
    return {
        **given,
        "Idempotency-Key": key or given.get("Idempotency-Key") or f"test-{uuid.uuid4().hex}",
    }


@contextmanager
def serving(backend: str, tmp: Path, env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """A server on a fresh ledger of ``backend`` (``"sqlite"`` or ``"postgresql"``) with the
    staff of :func:`make_ledger`, its files under ``tmp``, ``env`` added to its environment;
    stopped, and a PostgreSQL schema dropped, on leaving."""
    urls = new_db_url(backend, tmp)
    url = next(urls)  # a generator: closing it drops a PostgreSQL schema
    make_ledger(url)
    srv = Server(url, tmp / "server.log", env).start()
    try:
        yield srv
    finally:
        srv.stop()
        urls.close()  # type: ignore[attr-defined]


def round_file(
    round_id: str,
    steps: list[dict[str, Any]],
    submission: dict[str, Any] | None = None,
    base_game: str | None = None,
) -> dict[str, Any]:
    """A round file with its submission inline (and its ``base_game``, when given)."""
    body: dict[str, Any] = {
        "id": round_id,
        "submission": copy.deepcopy(submission or BLACKJACK_SUBMISSION),
        "steps": steps,
    }
    if base_game is not None:
        body["base_game"] = base_game
    return body


def pp_round(round_id: str, *, jp: bool = False, cards: str = "8s 8s") -> dict[str, Any]:
    """Seat 3: $25 Blackjack, $5 Perfect Pairs (and a $5 Jackpot Party with ``jp``); the
    dealer Kd 9c (no Blackjack: the Jackpot Party wager loses). The players' play is not
    recorded: the base game is declared external (the Blackjack wager the base game's, no win)."""
    bets = [
        {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
        {"action": "bet", "seat": 3, "wager": "perfect-pairs", "amount": "$5"},
    ]
    if jp:
        bets.append({"action": "bet", "seat": 3, "wager": "jackpot-party", "amount": "$5"})
    return round_file(
        round_id,
        [
            *bets,
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"3": cards}, "dealer": "Kd 9c"},
            {"action": "settle"},
        ],
        base_game="external",
    )


def royal_round(round_id: str) -> dict[str, Any]:
    """Seat 1 holds K♦ Q♦ with a $5 Jackpot Party wager; the dealer A♦ J♦: a Royal Flush in
    diamonds, 100% of the progressive (§ 633b.2(a)(1)), pending a floorperson's validation."""
    return round_file(
        round_id,
        [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "jackpot-party", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Kd Qd"}, "dealer": "Ad Jd"},
            {"action": "settle"},
        ],
    )


def pending_award(srv: Server, c: httpx.Client, table: str = "BJ-3") -> dict[str, Any]:
    """A Royal Flush (:func:`royal_round`) fed to jp-5 at ``table``: 100% of the meter, pending
    a floorperson's validation — the award's JSON."""
    r = c.post(
        "/rounds/settle",
        params={"table": table, "progressive": "jp-5"},
        json=royal_round(f"royal-{uuid.uuid4().hex[:8]}"),
        headers=keyed(srv.auth(DEALER)),
    )
    assert r.status_code == 201, r.text
    (fed,) = r.json()["progressives"]
    (award,) = [a for a in fed["awards"] if a["status"] == "pending"]
    return dict(award)


__all__ = [
    "ASH",
    "BLACKJACK_SUBMISSION",
    "DEALER",
    "FLOOR",
    "PIT",
    "PLAIN_SUBMISSION",
    "PROGRESSIVES",
    "SHIFT",
    "TABLES",
    "Server",
    "keyed",
    "link",
    "make_ledger",
    "pending_award",
    "pp_round",
    "round_file",
    "royal_round",
]
