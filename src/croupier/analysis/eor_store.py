"""Exact outcome counts of every shoe less one card, for the effects of removal: counted, and
shipped for the built-in wagers.

:func:`card_counts` gives, for each of the 52 cards, the exact count of each outcome of a wager
(then of no winning combination) over the full ``decks``-deck shoe less that one card:

* stored in ``analysis/data/eor-counts.json`` for every built-in wager × deck count its
  paytables allow (Baccarat aside: its 52 counts take a second), each under the fingerprint of
  the wager's code (:func:`croupier.analysis.precomputed.fingerprint`) and used only while the
  code is unchanged — AxMan's 52 exact dealer-hand counts take about 20 s, the Six Card Bonus's
  walk of every seven-card deal half a minute, the Bad Beat Bonus's showdown counts of the deck
  less each card (one pass for the 52,
  :func:`croupier.games.four_card_poker_exact.showdown_removals`) about four minutes;
* else, for a wager read from a single deck, from :func:`one_deck_counts`: every deal of the
  cards it reads classified once and tallied by the cards it holds (the deals of the deck less a
  card are those without it), checked against the wager's own full-deck count;
* else the wager's own exact count (:func:`croupier.analysis.exact.exact_counts`) of each of the
  52 shoes.

Regenerate after changing a wager's code (tests/analysis/test_eor_store.py fails on a stale entry)::

    python -m croupier.analysis.eor_store           # about five minutes on one core
    python -m croupier.analysis.eor_store --check   # recount and compare, change nothing
"""

from __future__ import annotations

import json
import os
import sys
import time
from functools import cache
from itertools import permutations
from math import comb
from pathlib import Path

import numpy as np

from croupier.analysis.exact import exact_counts
from croupier.analysis.precomputed import (
    RECOUNT_VARIABLE,
    class_default,
    class_name,
    data_path,
    fingerprint,
    offerings,
    shipped,
)
from croupier.cards import DECK, Shoe, decks_phrase
from croupier.errors import CroupierError, InputError
from croupier.wagers.base import Game, Wager

DATA = "eor-counts.json"
FORMAT = 1
CardCounts = tuple[tuple[int, ...], ...]
"""52 tuples of outcome counts, by :attr:`~croupier.cards.Card.index` of the card removed."""

EOR_BUDGET_SECONDS = 120.0
"""The longest :func:`card_counts` counts by default: a wager whose first of the 52 counts shows
the 52 would take longer is refused."""

ONE_DECK_CHUNK = 400_000
"""Hands classified at a time by :func:`one_deck_counts` (memory bound)."""

ONE_DECK_LIMIT = 150_000_000
"""The most deals :func:`one_deck_counts` classifies (C(52, 6) × 6 = 122,156,080 for the Six
Card Bonus); beyond it the 52 exact counts are made instead."""


def _arrangements(wager: Wager) -> list[tuple[int, ...]]:
    """The deals one set of k cards makes under the counting convention: every order of the k
    cards, up to the order within each unordered group (as column permutations)."""
    spans = []
    start = 0
    for g in wager.deal.groups:
        spans.append((start, start + g.size, g.ordered))
        start += g.size
    out = []
    for perm in permutations(range(wager.deal.size)):
        if all(ordered or list(perm[a:b]) == sorted(perm[a:b]) for a, b, ordered in spans):
            out.append(perm)
    return out


def one_deck_counts(wager: Wager) -> CardCounts | None:
    """Exact counts of a wager read from a single deck less each card: the full deck's count of
    each outcome less the deals holding the card. One pass over every set of the k cards the wager reads, each
    classified in every arrangement the counting convention counts (one for a single unordered
    group; six for the Six Card Bonus's five cards and bonus card), with the wager's vectorised
    classifier; ``None`` beyond :data:`ONE_DECK_LIMIT` deals.

    The full-deck counts are checked against the wager's own exact count
    (:func:`~croupier.analysis.exact.exact_counts`); a difference raises
    :class:`~croupier.errors.CroupierError`.
    """
    from croupier.poker.four_card import combinations_array

    k = wager.deal.size
    if not 1 <= k <= 7:
        return None
    arrangements = _arrangements(wager)
    if comb(52, k) * len(arrangements) > ONE_DECK_LIMIT:
        return None
    outcomes = len(wager.outcomes) + 1
    full = np.zeros(outcomes, dtype=np.int64)
    holding = np.zeros(outcomes * 52, dtype=np.int64)
    lower = combinations_array(51, k - 1)  # colex: the (k−1)-subsets of range(t) come first
    for top in range(k - 1, 52):
        rows = lower[: comb(top, k - 1)]
        for start in range(0, max(1, rows.shape[0]), ONE_DECK_CHUNK):
            part = rows[start : start + ONE_DECK_CHUNK]
            hands = np.empty((part.shape[0], k), dtype=np.int64)
            hands[:, : k - 1] = part
            hands[:, k - 1] = top
            for perm in arrangements:
                got = np.asarray(wager.classify_indices(hands[:, perm]), dtype=np.int64)
                full += np.bincount(got, minlength=outcomes)
                for j in range(k):
                    holding += np.bincount(got * 52 + hands[:, j], minlength=outcomes * 52)
    counts = tuple(int(x) for x in full)
    own = exact_counts(wager, Shoe.standard(1)).counts
    if counts != own:
        raise CroupierError(
            f"the {wager.name} wager's vectorised classifier counts {counts} over one deck, its "
            f"exact count {own}"
        )
    per_card = holding.reshape(outcomes, 52)
    return tuple(tuple(counts[o] - int(per_card[o, c]) for o in range(outcomes)) for c in range(52))


def plain_counts(wager: Wager, decks: int, budget_seconds: float | None) -> CardCounts:
    """The wager's own exact count of the full shoe less each card (see
    :func:`card_counts` for what it raises)."""
    full = Shoe.standard(decks)
    out: list[tuple[int, ...]] = []
    started = time.perf_counter()
    for card in DECK:
        try:
            out.append(exact_counts(wager, full.remove([card])).counts)
        except InputError as exc:
            raise InputError(
                f"croupier cannot compute the effect of removal of the {wager.name} wager: {exc}"
            ) from exc
        if len(out) == 1:
            took = time.perf_counter() - started
            if budget_seconds is not None and took * 52 > budget_seconds:
                raise InputError(
                    f"the effect of removal of the {wager.name} wager needs 52 exact counts of a "
                    f"{decks}-deck shoe less one card, about {took:.1f} s each here (about "
                    f"{took * 52 / 60:.0f} min in all, more than the {budget_seconds:.0f} s "
                    "croupier allows): not computed"
                )
    return tuple(out)


def counted(wager: Wager, decks: int, budget_seconds: float | None) -> tuple[CardCounts, str]:
    """The 52 counts made now, and how."""
    fast = one_deck_counts(wager) if decks == 1 else None
    if fast is not None:
        return fast, (
            f"every deal of the {wager.deal.size} cards read from one deck classified once and "
            "tallied by the cards it holds (the deals of the deck less a card are those without it)"
        )
    return plain_counts(wager, decks, budget_seconds), (
        f"the exact count of the {decks}-deck shoe less each of the 52 cards"
    )


def card_counts(
    wager: Wager, decks: int, budget_seconds: float | None = EOR_BUDGET_SECONDS
) -> tuple[CardCounts, str]:
    """The exact outcome counts of the ``decks``-deck shoe less each card (see the module
    docstring), and how they were made. Raises :class:`~croupier.errors.InputError` when the
    wager's exact analysis does not take a partly dealt shoe, or when the 52 counts would take
    longer than ``budget_seconds`` (``None``: no limit)."""
    entry = _lookup(wager, decks)
    if entry is not None:
        return entry, (
            f"the exact count of the {decks}-deck shoe less each of the 52 cards (stored in "
            f"analysis/data/{DATA})"
        )
    return (
        _cached(type(wager), decks, budget_seconds)
        if class_default(wager)
        else counted(wager, decks, budget_seconds)
    )


@cache
def _cached(
    wager_type: type[Wager], decks: int, budget_seconds: float | None
) -> tuple[CardCounts, str]:
    return counted(wager_type(), decks, budget_seconds)


# -- the stored counts ---------------------------------------------------------------------------


def _data_path() -> Path:
    return data_path(DATA)


@cache
def stored() -> dict[tuple[str, int], tuple[str, CardCounts]]:
    """The shipped counts by (wager class, decks): (fingerprint, counts)."""
    doc = shipped(_data_path(), FORMAT)
    if doc is None:
        return {}
    return {
        (e["class"], e["decks"]): (e["fingerprint"], tuple(tuple(c) for c in e["counts"]))
        for e in doc["entries"]
    }


def _lookup(wager: Wager, decks: int) -> CardCounts | None:
    if os.environ.get(RECOUNT_VARIABLE) or not class_default(wager):
        return None
    entry = stored().get((class_name(type(wager)), decks))
    if entry is None or entry[0] != fingerprint(type(wager)):
        return None
    return entry[1]


def stored_offerings() -> list[tuple[Wager, int]]:
    """The built-in wagers × deck counts whose counts are shipped (every one whose exact
    analysis takes a partly dealt shoe; Baccarat, quick to count, aside)."""
    return [(w, d) for w, d in offerings() if w.game is not Game.BACCARAT]


def regenerate(check: bool = False, skip: frozenset[str] = frozenset()) -> list[str]:
    """Recount every stored offering; write the file (``check``: compare only). Returns the
    differences from the file as it was (``check``) or the entries written. ``skip`` (with
    ``check`` only): wager ids not recounted."""
    if skip and not check:
        raise InputError("--skip leaves entries out of the file: only with --check")
    entries = []
    lines = []
    old = stored()
    for w, decks in stored_offerings():
        if w.id in skip:
            lines.append(f"{w.id} {decks_phrase(decks)}: not recounted (--skip)")
            continue
        started = time.perf_counter()
        try:
            counts, _ = counted(type(w)(), decks, None)
        except InputError as exc:
            lines.append(f"{w.id} {decks_phrase(decks)}: not stored ({exc})")
            continue
        key = (class_name(type(w)), decks)
        print(
            f"{w.id} {decks_phrase(decks)}: {time.perf_counter() - started:.1f} s", file=sys.stderr
        )
        fp = fingerprint(type(w))
        entries.append(
            {"wager": w.id, "class": key[0], "decks": decks, "fingerprint": fp, "counts": counts}
        )
        if check and old.get(key) != (fp, counts):
            lines.append(f"{w.id} {decks_phrase(decks)}: differs from the stored counts")
    if not check:
        doc = {"format": FORMAT, "entries": entries}
        _data_path().write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
        stored.cache_clear()
        lines.append(f"{len(entries)} entries written to {_data_path()}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m croupier.analysis.eor_store [--check [--skip WAGER]...]``."""
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    skip = frozenset(args[i + 1] for i, a in enumerate(args[:-1]) if a == "--skip")
    lines = regenerate(check=check, skip=skip)
    for line in lines:
        print(line)
    return 1 if check and any("differs" in x for x in lines) else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
