"""What the page shows, computed on the server from croupier's exact figures.

* :func:`catalogue` — every wager with its paytables and the deck counts each is offered with
  (the explorer's and comparison's pickers).
* :func:`choose` — the wager, paytable and deck count a page's query asks for, with defaults.
* :func:`eor_view` — the count-vulnerability table of one wager × paytable × deck count, shaped
  for the page from the JSON of ``GET /eor/{wager}`` (``croupier eor WAGER --json``).
* :func:`comparison` — the rows of the paytable comparison: one per paytable of a wager offered
  at a deck count, the summary rows of ``croupier parsheet --summary`` (house edge at the seed,
  long-run return, breakeven meter and the wager it is on, hit frequency, standard deviation,
  volatility index), a progressive's at a wager size chosen (:func:`stakes`).

Figures stay exact (``Fraction``) until shown: each row keeps the float for sorting beside the
text it shows.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from croupier.analysis.summary import compare_paytables
from croupier.errors import InputError, PaytableError, UnknownPaytableError
from croupier.units import ascii_digits, format_money
from croupier.wagers import Wager, all_wagers, get_wager

DEFAULT_WAGER = "perfect-pairs"


def _decks_by_key(w: Wager) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for t in w.paytables():
        out.setdefault(t.key, [])
        out[t.key] = sorted({*out[t.key], *t.decks})
    return out


@cache
def catalogue() -> list[dict[str, Any]]:
    """``[{"wager", "name", "section", "progressive", "paytables": [{"paytable", "decks"}],
    "decks": [...]}]``: every wager with a paytable (a game's whole-game figures, e.g.
    § 633b.4, are not a par sheet of outcomes and are left out)."""
    rows = []
    for w in all_wagers():
        by_key = _decks_by_key(w)
        if not by_key:
            continue
        rows.append(
            {
                "wager": w.id,
                "name": w.name,
                "section": w.citation,
                "progressive": any(t.progressive is not None for t in w.paytables()),
                "stakes": [{"cents": c, "text": format_money(c)} for c in stakes(w)],
                "paytables": [{"paytable": k, "decks": d} for k, d in by_key.items()],
                "decks": sorted({d for ds in by_key.values() for d in ds}),
            }
        )
    return rows


def _decks(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    if not ascii_digits(text.strip()) or not 1 <= int(text) <= 8:
        raise InputError(f"decks {text!r}: give a whole number of decks, 1 to 8")
    return int(text)


def choose(wager: str | None, paytable: str | None, decks: str | None) -> tuple[Wager, str, int]:
    """The wager, paytable id and deck count asked for (:class:`InputError`,
    :class:`PaytableError` or :class:`UnknownWagerError` for one that is not offered); without
    a paytable, the wager's first; without a deck count, the paytable's largest shoe."""
    w = get_wager((wager or DEFAULT_WAGER).strip().lower())
    by_key = _decks_by_key(w)
    if not by_key:
        raise PaytableError(f"the {w.name} wager has no paytable of its own to analyse")
    n = _decks(decks)
    if paytable is None or not paytable.strip():
        key = next((k for k, d in by_key.items() if n is None or n in d), next(iter(by_key)))
    else:
        key = next((k for k in by_key if k.upper() == paytable.strip().upper()), "")
        if not key:  # the CLI's line, "§ 633b.1 has no paytable 'Z' (its paytables: A, B)",
            try:  # as a PaytableError: a choice of the page's form, answered 422, not 404
                w.book.get(w.section, paytable)
            except UnknownPaytableError as exc:
                raise PaytableError(str(exc)) from None
            raise PaytableError(  # of the section, but not of this wager
                f"paytable {paytable.strip()} of § {w.section} is not for the {w.name} wager "
                f"(its paytables: {', '.join(by_key)})"
            )
    return w, key, n if n is not None else max(by_key[key])


def comparison(w: Wager, decks: int, stake_cents: int | None = None) -> list[dict[str, Any]]:
    """One row per paytable of ``w`` offered with ``decks`` decks: the summary row of ``croupier
    parsheet --summary`` (:func:`croupier.analysis.summary.compare_paytables`, the keys of
    :class:`~croupier.operations.schemas.analysis.ParSheetSummaryRow`), a progressive's
    breakeven at the wager size ``stake_cents`` when its paytable takes it (``None``: each at its
    own smallest size). :class:`InputError` when no paytable is offered at that deck count."""
    return [r.to_dict() for r in compare_paytables(w, decks, stake_cents)]


def stakes(w: Wager) -> list[int]:
    """The progressive wager sizes (cents) any paytable of ``w`` takes, smallest first; empty
    for a fixed-pay wager."""
    return sorted({c for t in w.paytables() if t.progressive for c in t.progressive.wager_cents})


SUITS = (("c", "♣"), ("d", "♦"), ("h", "♥"), ("s", "♠"))


def _tag_text(tag: int | None) -> str:
    if tag is None:
        return ""
    return f"{tag:+d}" if tag else "0"


def eor_view(doc: dict[str, Any], unit_cents: int = 2500) -> dict[str, Any]:
    """What the count-analysis page shows from ``doc`` (the JSON of ``GET /eor/{wager}``):
    ``rows`` one a rank (``rank``, ``effect`` and ``without`` per unit wagered, ``by_suit`` the
    four suits' effects when they differ, ``tag`` the count's tag as text — one per suit for a
    suit-aware count), ``suits`` the suit symbols heading those columns, ``count`` (or ``None``),
    ``counter`` / ``perfect`` (the simulated counter, the perfect-information bound, or
    ``None``), ``vulnerability`` (the table's row), ``per_hour_money`` (the hourly gain at
    ``unit_cents`` a bet, as money; ``unit``) and ``chart`` (ranks, effects in % of the
    wager, tags)."""
    by_card = {c["card"]: c for c in doc["card_effects"]}
    count = doc["count"]
    rows = []
    for e in doc["effects"]:
        cards = [by_card.get(f"{e['rank']}{s}") for s, _ in SUITS]
        known = [c for c in cards if c is not None]
        if count is not None and count["suit_aware"]:
            tag = " ".join(_tag_text(c["tag"]) for c in known)
        else:
            tag = _tag_text(e["tag"])
        rows.append(
            {
                "rank": e["rank"],
                "effect": e["effect"],
                "effect_exact": e["effect_exact"],
                "without": e["expected_return_without"],
                "by_suit": [c["effect"] for c in known] if doc["suits_matter"] else [],
                "tag": tag,
            }
        )
    vul = doc["vulnerability"]
    cents = vul["win_per_hour_cents"]
    tags = [e["tag"] if e["tag"] is not None else 0 for e in doc["effects"]]
    return {
        "rows": rows,
        "suits": [sym for _, sym in SUITS] if doc["suits_matter"] else [],
        "count": count,
        "counter": doc["counter"],
        "perfect": vul.get("perfect_play"),
        "vulnerability": vul,
        "per_hour_money": None if cents is None else format_money(cents),
        "unit": format_money(unit_cents),
        "chart": {
            "ranks": [e["rank"] for e in doc["effects"]],
            "effects": [e["effect"] * 100 for e in doc["effects"]],
            "tags": tags if count is not None and not count["suit_aware"] else None,
        },
    }


__all__ = ["catalogue", "choose", "comparison", "eor_view"]
