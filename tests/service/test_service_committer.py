"""The service's group commit (:mod:`croupier.service.committer`) on SQLite and PostgreSQL:
requests writing at once share transactions, each is answered only after its rows are
committed, and one whose unique key is taken writes nothing while the others are committed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.progressive.store import make_engine
from croupier.service import idempotency, store
from croupier.service.committer import Committer, Rows
from progressive_support import BACKENDS, new_db_url

INSERT_KEY = sa.insert(store.idempotency)


@pytest.fixture(params=BACKENDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sa.Engine]:
    urls = new_db_url(request.param, tmp_path)
    url = next(urls)
    eng = make_engine(url)
    store.upgrade(eng)
    try:
        yield eng
    finally:
        eng.dispose()
        urls.close()  # type: ignore[attr-defined]


def key_row(key: str) -> Rows:
    return [(INSERT_KEY, idempotency.row(key, "POST /x", "d" * 64, 201, "{}", "dana"))]


def keys(engine: sa.Engine) -> list[str]:
    t = store.idempotency
    with engine.connect() as conn:
        return sorted(conn.execute(sa.select(t.c.key)).scalars())


def test_requests_at_once_are_each_committed_once(engine: sa.Engine) -> None:
    commits = []
    committer = Committer(engine, lambda: commits.append(datetime.now(UTC)))
    answers: dict[str, bool] = {}
    start = threading.Barrier(12)

    def one(k: str) -> None:
        start.wait()
        answers[k] = committer.write(key_row(k))

    threads = [threading.Thread(target=one, args=(f"k{i:02d}",)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == {f"k{i:02d}": True for i in range(12)}
    assert keys(engine) == [f"k{i:02d}" for i in range(12)]
    assert 1 <= len(commits) <= 12  # some shared a commit, or none did: never more commits


def test_a_key_taken_writes_nothing_of_its_request_and_the_rest_are_kept(
    engine: sa.Engine,
) -> None:
    committer = Committer(engine)
    assert committer.write(key_row("taken")) is True
    results: dict[str, bool] = {}
    gate = threading.Lock()
    gate.acquire()
    calls: list[Any] = []

    def hold() -> None:  # the first batch waits so the others queue behind it
        if not calls:
            calls.append(1)
            gate.acquire()

    committer.before_commit = hold
    threads = [
        threading.Thread(target=lambda k=k: results.__setitem__(k, committer.write(key_row(k))))
        for k in ("a", "taken", "b", "c")
    ]
    threads[0].start()
    while not calls:
        time.sleep(0.001)
    for t in threads[1:]:
        t.start()
    while committer.waiting < 3:  # the three others wait for the batch in flight
        time.sleep(0.001)
    gate.release()
    for t in threads:
        t.join()
    # "taken" was in the batch of three: it rolled back whole, then each went alone
    assert results == {"a": True, "taken": False, "b": True, "c": True}
    assert keys(engine) == ["a", "b", "c", "taken"]
