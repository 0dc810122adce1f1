"""Configuration digests of paytables: a SHA-256 of a paytable's canonical data.

A progressive's approved configuration is its paytable and the Rules Submission it is offered
under (58 Pa. Code § 601a.2); a running configuration that differs from the approved one must be
detected (NY 9 NYCRR 5321.18, NJ N.J.A.C. 13:69E-1.39C, GLI-13's configuration checks). The
digest here is of the paytable's *data*, not of its file's bytes: comments, whitespace, key order
in the TOML, and the file it came from do not change it; any pay, line, deck count, wager size,
seed, increment rate, envy bonus or multiplier does.

The canonical form (:func:`canonical_paytable`) is a JSON object, serialised with sorted keys, no
insignificant whitespace and UTF-8 (:func:`canonical_json`); fractions are ``"p/q"`` strings in
lowest terms, money integer cents. It is versioned (``"format"``): a change of the canonical form
changes every digest and the version.

>>> from croupier.paytables import builtin_paytables
>>> t = builtin_paytables().get("633b.1", "A", decks=8)
>>> len(paytable_digest(t)), paytable_digest(t) == paytable_digest(t)
(64, True)
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

from croupier.paytables.model import Meter, Paytable
from croupier.paytables.pays import MeterShare, NotAvailable, OddsFor, OddsTo, Pay, Push

PAYTABLE_FORMAT = "croupier-paytable/1"
"""The version of :func:`canonical_paytable`'s form."""


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else f"{x.numerator}/{x.denominator}"


def canonical_pay(pays: Pay) -> dict[str, Any]:
    """One pay as data: ``{"to": [25, 1]}``, ``{"for": [10, 1]}``, ``{"share": "1/10",
    "level": "Progressive"}``, ``{"na": true}`` or ``{"push": true}``."""
    if isinstance(pays, OddsTo):
        return {"to": [pays.win, pays.stake]}
    if isinstance(pays, OddsFor):
        return {"for": [pays.total, pays.stake]}
    if isinstance(pays, MeterShare):
        return {"share": _frac(pays.share), "level": pays.level.value}
    if isinstance(pays, NotAvailable):
        return {"na": True}
    assert isinstance(pays, Push)
    return {"push": True}


def _meter(m: Meter) -> dict[str, Any]:
    return {
        "level": m.level.value,
        "seed_cents": m.seed_cents,
        "seed_wager_multiple": m.seed_wager_multiple,
        "increment_rate": _frac(m.increment_rate),
        "secondary_increment_rate": _frac(m.secondary_increment_rate),
    }


def canonical_paytable(table: Paytable) -> dict[str, Any]:
    """The paytable's data that decides play and pay, as a JSON-ready dict.

    Held: section, printed id and option, deck counts (sorted), every line in printed order
    (outcome key, label as posted, pay, envy bonus in cents, the wager it serves, whether it is
    optional), the progressive (wager sizes in cents, sorted; each meter's seed and rates; the
    total increment rate) and the multipliers. Not held: the title, citation, notes and source
    file (where the table comes from, not what it pays).
    """
    prog = table.progressive
    return {
        "format": PAYTABLE_FORMAT,
        "section": table.section,
        "id": table.id,
        "option": table.option,
        "decks": sorted(table.decks),
        "lines": [
            {
                "outcome": line.outcome,
                "label": line.label,
                "pays": canonical_pay(line.pays),
                "envy_cents": line.envy_cents,
                "wager": line.wager,
                "optional": line.optional,
            }
            for line in table.lines
        ],
        "progressive": None
        if prog is None
        else {
            "wager_cents": sorted(prog.wager_cents),
            "meters": [_meter(m) for m in prog.meters],
            "total_increment_rate": _frac(prog.total_increment_rate),
        },
        "multipliers": [
            {"condition": m.condition, "label": m.label, "factor": m.factor}
            for m in table.multipliers
        ],
    }


def canonical_json(data: Any) -> bytes:
    """The one serialisation digests are taken of: JSON, keys sorted, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256_of(data: Any) -> str:
    """SHA-256 (64 lowercase hex digits) of :func:`canonical_json` of ``data``."""
    return hashlib.sha256(canonical_json(data)).hexdigest()


def paytable_digest(table: Paytable) -> str:
    """SHA-256 (hex) of :func:`canonical_paytable`: equal for equal data, whatever file or
    formatting it was read from; different for any change of what the paytable pays."""
    return sha256_of(canonical_paytable(table))


__all__ = [
    "PAYTABLE_FORMAT",
    "canonical_json",
    "canonical_pay",
    "canonical_paytable",
    "paytable_digest",
    "sha256_of",
]
