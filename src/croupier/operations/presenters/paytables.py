"""A paytable as JSON, as ``croupier paytables --json`` prints it and ``GET /paytables`` answers,
a wager's entry as ``croupier wagers --json`` prints it and ``GET /wagers`` answers, and a section
or wager named as the section it names."""

from __future__ import annotations

from typing import Any

from croupier.errors import UnknownPaytableError, UnknownWagerError, suggest
from croupier.paytables import Paytable, PaytableBook, paytable_digest
from croupier.units import format_money, format_percent
from croupier.wagers import Wager, all_wagers, get_wager


def wager_dict(w: Wager) -> dict[str, Any]:
    """Wager ``w``'s entry (``croupier wagers --json``, ``GET /wagers``): id, name, game, section,
    citation, the cards it reads, its deck counts and its paytables with theirs."""
    return {
        "wager": w.id,
        "name": w.name,
        "game": w.game.value,
        "section": w.section,
        "citation": w.citation,
        "reads": w.deal.describe(),
        "decks": list(w.allowed_decks) if w.allowed_decks else None,
        "paytables": [{"paytable": t.key, "decks": list(t.decks)} for t in w.paytables()],
    }


def paytable_dict(t: Paytable) -> dict[str, Any]:
    """Paytable ``t`` as JSON (``croupier paytables --json``, ``GET /paytables``): its section,
    key, title, deck counts, citation, source, SHA-256 and lines, and its progressive meters,
    multipliers and notes where it has them (money in dollars beside integer cents)."""
    d: dict[str, Any] = {
        "section": t.section,
        "paytable": t.key,
        "title": t.title,
        "decks": list(t.decks),
        "citation": t.citation,
        "source": t.source,
        "sha256": paytable_digest(t),
        "lines": [
            {
                "outcome": line.outcome,
                "label": line.label,
                "pays": str(line.pays),
                **(
                    {"envy": format_money(line.envy_cents), "envy_cents": line.envy_cents}
                    if line.envy_cents is not None
                    else {}
                ),
            }
            for line in t.lines
        ],
    }
    if t.progressive:
        p = t.progressive
        d["progressive"] = {
            "wagers": [format_money(c) for c in p.wager_cents],
            "wager_cents": list(p.wager_cents),
            "meters": [
                {
                    "level": m.level.value,
                    "seed": format_money(m.seed_cents)
                    if m.seed_cents is not None
                    else f"{m.seed_wager_multiple:,} × wager",
                    "seed_cents": m.seed_cents,
                    **(
                        {"increment_rate": format_percent(m.increment_rate)}
                        if m.increment_rate
                        else {}
                    ),
                    **(
                        {"secondary_increment_rate": format_percent(m.secondary_increment_rate)}
                        if m.secondary_increment_rate
                        else {}
                    ),
                }
                for m in p.meters
            ],
            **(
                {"total_increment_rate": format_percent(p.total_increment_rate)}
                if p.total_increment_rate
                else {}
            ),
        }
    if t.multipliers:
        d["multipliers"] = [{"condition": m.condition, "factor": m.factor} for m in t.multipliers]
    if t.notes:
        d["notes"] = t.notes
    return d


def section_of(text: str, book: PaytableBook) -> str:
    """A section ('633b.1', '§ 633B.1') or a wager id, as the section it names."""
    name = text.strip().lstrip("§").strip().lower()
    if name in book.sections():
        return name
    try:
        return get_wager(name).section
    except UnknownWagerError:
        sections = ", ".join(book.sections())
        ids = [w.id for w in all_wagers()]
        hint = suggest(name, [*book.sections(), *ids])
        raise UnknownPaytableError(
            f"no section or wager {text!r}{hint} (sections with paytables: {sections}; "
            f"wagers: {', '.join(ids)})"
        ) from None


__all__ = ["paytable_dict", "section_of"]
