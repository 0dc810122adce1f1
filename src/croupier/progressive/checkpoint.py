"""Checkpoints: the ledger's chain head, signed with its key, to be kept off the box.

The chain (:mod:`croupier.progressive.store`) shows any event changed, inserted or removed, and
the copy of its head beside the key shows the newest events removed with the head — unless that
copy is restored from the same backup as the database. A **checkpoint** closes that gap the way
Certificate Transparency's *signed tree head* does (RFC 6962 § 3.5; RFC 9162 § 4.10): the log
signs its size and head (here: the sequence number of the last event and its mac) with the time,
an auditor keeps the signed head *elsewhere*, and a log that later does not hold that head —
shorter than it (rolled back past it) or with another event at that place (forked) — is caught
by anyone holding the checkpoint (RFC 9162 § 8.2: a log that presents views its signed heads do
not agree with has misbehaved).

A checkpoint is one JSON object (:data:`FORMAT`)::

    {"format": "croupier-checkpoint/1", "ledger": "<32 hex>", "key_id": "<16 hex>",
     "seq": 412, "head_mac": "<64 hex>", "time": "2026-12-06T21:30:00.123456Z",
     "reason": "taken", "meters": {"mtd-5": {"Progressive": {"meter_micros": …, …}}},
     "mac": "<64 hex>"}

* ``ledger`` — the ledger's identity: SHA-256 of the mac of its first event (which its key and
  bootstrap made; a ledger has one and keeps it), like a CT log's ID (RFC 9162 § 4.4).
* ``key_id`` — which key signed: HMAC-SHA256 of a fixed label under the ledger key, 16 hex digits
  (nothing of the key is learnt from it).
* ``seq``, ``head_mac`` — the chain head; ``time`` (UTC) when the checkpoint was made;
  ``reason`` — ``taken`` (``croupier meters checkpoint``, ``GET /checkpoint``) or the kind of
  event an automatic one followed (:data:`~croupier.progressive.core.ANCHOR_KINDS`).
* ``meters`` — each progressive's levels as stored at that head (micro-dollars; ``*_cents``,
  ``hits``): what the auditor can compare with the reports of that time.
* ``mac`` — HMAC-SHA256, under a key derived from the ledger key (its own label: a checkpoint's
  mac is never an event's), of the canonical JSON (:func:`~croupier.progressive.store.dumps`) of
  every other field. The ledger key is symmetric: whoever can check a checkpoint could make one,
  as for the chain itself; the checkpoint's worth is that it is kept where the database and the
  key's host cannot reach it.

Automatic checkpoints (:func:`~croupier.progressive.significant.write_automatic`): with
``$CROUPIER_CHECKPOINT_DIR`` set (a second location — another disk, a mount of another host), a
checkpoint is written there after every commit that appended a significant event, an award, an
award's payment or a manual adjustment, atomically (written and fsynced under a temporary name,
linked to its name, the directory fsynced), as ``<ledger>/<seq>-<16 hex of the head mac>.json``
(:func:`write_to`): write-once — an existing file is never replaced (:func:`write_new`), so a
ledger rolled back with its head file cannot overwrite the genuine checkpoints, and a fork
writes its own file beside the genuine one at the same sequence number. Before each write the
checkpoints already there that record the same event, and the newest, are checked against the
log (:func:`conflicts`): one the log no longer holds is evidence of a rollback or a fork,
recorded as a ``checkpoint-conflict`` significant event and told on stderr. It never fails
the operation it follows, which has committed: a location that cannot be written is recorded as
a ``checkpoint-failure`` significant event (once, until a checkpoint is written again, which is
recorded as ``checkpoint-resumed``: a fault and its clearing, 25 CFR 547.10; NJ 13:69E-1.39C's
security events).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

import croupier.progressive.schema as t
from croupier.errors import CheckpointError, InputFileError, LedgerError
from croupier.progressive.records import level_columns, level_from_row
from croupier.progressive.store import dumps, fsync_dir

FORMAT = "croupier-checkpoint/1"
ENV_CHECKPOINT_DIR = "CROUPIER_CHECKPOINT_DIR"
"""The second location automatic checkpoints are written to (unset: none are)."""
SECURITY_REASON = "security"
"""The ``reason`` of an automatic checkpoint that followed only security events (failed logins,
lockouts): coalesced when written, and the only ones :func:`prunable` lets go."""
TAKEN = "taken"
"""The ``reason`` of a checkpoint asked for (``croupier meters checkpoint``, ``GET /checkpoint``)."""

_SIGNING = b"croupier checkpoint v1"
_KEY_ID = b"croupier ledger key id v1"
_LEDGER_ID = b"croupier ledger id v1\n"
FIELDS = ("format", "ledger", "key_id", "seq", "head_mac", "time", "reason", "meters", "mac")
"""Every field of a checkpoint, none more."""


def key_id(key: bytes) -> str:
    """Which ledger key signed: 16 hex digits of HMAC-SHA256 of a fixed label under ``key``."""
    return hmac.new(key, _KEY_ID, hashlib.sha256).hexdigest()[:16]


def ledger_id(first_mac: str) -> str:
    """The ledger's identity from the mac of its first event: 32 hex digits of SHA-256."""
    return hashlib.sha256(_LEDGER_ID + first_mac.encode("ascii")).hexdigest()[:32]


def sign(key: bytes, body: Mapping[str, Any]) -> str:
    """The ``mac`` of a checkpoint's other fields ``body`` (see the module docstring)."""
    signing = hmac.new(key, _SIGNING, hashlib.sha256).digest()
    fields = {k: v for k, v in body.items() if k != "mac"}
    return hmac.new(signing, dumps(fields).encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class HeadState:
    """What a checkpoint records of a ledger, read in one snapshot: the mac of its first event,
    its head (seq, mac) and every progressive's levels (name → level → field → value)."""

    first_mac: str
    seq: int
    head_mac: str
    meters: dict[str, dict[str, dict[str, int]]]


_FIRST = sa.select(t.ledger_events.c.mac).where(t.ledger_events.c.seq == 1)
_HEAD = sa.select(t.ledger_chain.c.head_seq, t.ledger_chain.c.head_mac).where(
    t.ledger_chain.c.id == 1
)
_LEVELS = (
    sa.select(t.progressives.c.name, t.meter_levels)
    .join(t.meter_levels, t.meter_levels.c.progressive_id == t.progressives.c.id)
    .order_by(t.progressives.c.id, t.meter_levels.c.ordinal)
)


def read_state(conn: Connection) -> HeadState:
    """The ledger's :class:`HeadState` on ``conn`` (one snapshot when ``conn`` is in a read
    transaction); :class:`~croupier.errors.LedgerError` for a ledger with no event yet."""
    first = conn.execute(_FIRST).scalar()
    head = conn.execute(_HEAD).first()
    if first is None or head is None or int(head.head_seq) == 0:
        raise LedgerError("the ledger holds no event yet: there is no head to checkpoint")
    meters: dict[str, dict[str, dict[str, int]]] = {}
    for r in conn.execute(_LEVELS):
        s = level_from_row(r)
        meters.setdefault(r.name, {})[s.level.value] = level_columns(s)
    return HeadState(str(first), int(head.head_seq), str(head.head_mac), meters)


def document(
    key: bytes, state: HeadState, reason: str = TAKEN, at: datetime | None = None
) -> dict[str, Any]:
    """The signed checkpoint of ``state`` (see the module docstring), made at ``at`` (now)."""
    when = (at or datetime.now(UTC)).astimezone(UTC)
    body: dict[str, Any] = {
        "format": FORMAT,
        "ledger": ledger_id(state.first_mac),
        "key_id": key_id(key),
        "seq": state.seq,
        "head_mac": state.head_mac,
        "time": when.isoformat(timespec="microseconds").replace("+00:00", "Z"),
        "reason": reason,
        "meters": state.meters,
    }
    return {**body, "mac": sign(key, body)}


def to_text(doc: Mapping[str, Any]) -> str:
    """A checkpoint as the file holds it: indented JSON, one trailing newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint read from ``source`` (a file name, for messages) whose shape is right; its
    signature and its ledger are checked against a ledger by :func:`check`."""

    source: str
    doc: Mapping[str, Any]

    @property
    def seq(self) -> int:
        """The sequence number of the head it records."""
        return int(self.doc["seq"])


def _shape_error(doc: Any) -> str | None:
    if not isinstance(doc, dict):
        return "is not a JSON object"
    if doc.get("format") != FORMAT:
        return f"is not a croupier checkpoint (its format is not {FORMAT!r})"
    fields = set(doc)
    if fields != set(FIELDS):
        extra, missing = sorted(fields - set(FIELDS)), sorted(set(FIELDS) - fields)
        return f"has the wrong fields (missing {missing}, unknown {extra})"
    seq = doc["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return "has no valid seq (a whole number from 1)"
    texts = ("ledger", "key_id", "head_mac", "time", "reason", "mac")
    if not all(isinstance(doc[k], str) for k in texts) or not isinstance(doc["meters"], dict):
        return "has a field of the wrong type"
    return None


def parse(text: str, source: str) -> Checkpoint:
    """The checkpoint in ``text`` read from ``source``; :class:`~croupier.errors.InputFileError`
    naming ``source`` when it is not JSON or not a checkpoint's shape (its signature is
    :func:`check`'s)."""
    from croupier.inputs import parse_json

    doc = parse_json(text, source)
    trouble = _shape_error(doc)
    if trouble is not None:
        raise InputFileError(source, f"not a usable checkpoint: it {trouble}")
    return Checkpoint(source, doc)


def read(paths: Iterable[Path]) -> list[Checkpoint]:
    """The checkpoints in ``paths``: each a checkpoint file, or a directory whose ``*.json``
    files (and those of its subdirectories: an automatic location's ``<ledger>/``) are read."""
    from croupier.inputs import read_text

    found: list[Checkpoint] = []
    for p in paths:
        files = sorted(p.rglob("*.json")) if p.is_dir() else [p]
        if p.is_dir() and not files:
            raise InputFileError(str(p), "a checkpoint directory holding no checkpoint (*.json)")
        found.extend(parse(read_text(f), str(f)) for f in files)
    return found


def problems(
    checkpoints: Sequence[Checkpoint], key: bytes, macs: Sequence[str], first: str | None
) -> list[str]:
    """What is wrong with each of ``checkpoints`` against the ledger (see :func:`check`), one
    line per failing checkpoint, in order; empty when every one is held."""
    mine_key, mine = key_id(key), ledger_id(first) if first is not None else None
    found: list[str] = []
    signed: dict[int, Checkpoint] = {}
    for cp in checkpoints:
        d, name = cp.doc, cp.source
        if not hmac.compare_digest(_b(d["mac"]), _b(sign(key, d))):
            if d["key_id"] != mine_key:
                found.append(
                    f"checkpoint {name} was signed with another ledger key (key id "
                    f"{d['key_id']}, this ledger's is {mine_key}): it belongs to another ledger"
                )
            else:
                found.append(
                    f"checkpoint {name} does not match its signature under the ledger key: a "
                    "field of it was changed after it was made"
                )
            continue
        if d["ledger"] != mine:
            found.append(
                f"checkpoint {name} belongs to another ledger ({d['ledger']}; this one is "
                f"{mine}): the key file is shared, or this database is not the one it was made of"
            )
            continue
        seq, twin = cp.seq, signed.get(cp.seq)
        if twin is not None and twin.doc["head_mac"] != d["head_mac"]:
            found.append(
                f"checkpoints {twin.source} and {name} both record event {seq}, with other macs "
                f"({str(twin.doc['head_mac'])[:16]}… and {str(d['head_mac'])[:16]}…): two logs "
                "were signed with this ledger's key — it was forked (rolled back, then written "
                "anew)"
            )
        signed.setdefault(seq, cp)
        if seq > len(macs):
            found.append(
                f"checkpoint {name} (made {d['time']}) records event {seq}, but the log ends at "
                f"{len(macs)}: the ledger was rolled back past it (restored from an earlier "
                "copy, its head file with it)"
            )
        elif not hmac.compare_digest(_b(macs[seq - 1]), _b(d["head_mac"])):
            found.append(
                f"checkpoint {name} (made {d['time']}) records event {seq} with another mac than "
                "the log's: the log was forked (rolled back, then written anew) since"
            )
    return found


SHOWN = 20
"""At most this many failing checkpoints are named in one error (then a count of the rest)."""


def check(
    checkpoints: Sequence[Checkpoint], key: bytes, macs: Sequence[str], first: str | None
) -> None:
    """Each of ``checkpoints`` signed with ``key``, of this ledger (whose first event's mac is
    ``first``), held by its log (``macs``: the mac of event n at ``macs[n - 1]``), and no two
    recording one event with different macs; :class:`~croupier.errors.CheckpointError` naming
    every one that is not (one line each, at most :data:`SHOWN`, then how many more)."""
    found = problems(checkpoints, key, macs, first)
    if not found:
        return
    if len(found) == 1:
        raise CheckpointError(found[0])
    more = f"\n  … and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    lines = "\n".join(f"  {f}" for f in found[:SHOWN])
    raise CheckpointError(
        f"{len(found)} of the {len(checkpoints)} checkpoints are not held by the log:\n"
        f"{lines}{more}"
    )


def _b(text: object) -> bytes:
    return str(text).encode("utf-8", "surrogatepass")


# -- automatic checkpoints -----------------------------------------------------------------
def file_name(seq: int, head_mac: str) -> str:
    """An automatic checkpoint's file name: ``<seq, 12 digits>-<16 hex of its head mac>.json``
    — two logs with one key that differ at ``seq`` (a fork) write two files, never one over the
    other."""
    return f"{seq:012d}-{head_mac[:16]}.json"


_EVENT_MAC = sa.select(t.ledger_events.c.mac).where(t.ledger_events.c.seq == sa.bindparam("b_seq"))


def _seq_of(name: str) -> int | None:
    head = name[:12]
    return int(head) if len(name) >= 17 and head.isdigit() else None


def conflicts(reader: Engine, key: bytes, folder: Path, seq: int) -> list[str]:
    """What the automatic checkpoints already in ``folder`` (one ledger's) show against the log
    read on ``reader`` now: each, among those recording event ``seq`` and the newest one, that
    is signed with ``key`` but whose head the log does not hold — rolled back past it (the log
    is shorter) or forked (another mac at its place). One line each; empty when none."""
    if not folder.is_dir():
        return []
    named = [(n, _seq_of(n.name)) for n in folder.glob("*.json")]
    numbered = [(n, s) for n, s in named if s is not None]
    if not numbered:
        return []
    newest = max(s for _, s in numbered)
    found: list[str] = []
    with reader.connect() as conn:
        for f, s in sorted(numbered):
            if s not in (seq, newest):
                continue
            try:
                doc = json.loads(f.read_text(encoding="utf-8"))
                if _shape_error(doc) is not None or not hmac.compare_digest(
                    _b(doc["mac"]), _b(sign(key, doc))
                ):
                    continue  # not this key's: no evidence (verify names it)
            except (OSError, ValueError):
                continue
            mac = conn.execute(_EVENT_MAC, {"b_seq": int(doc["seq"])}).scalar()
            if mac is None:
                found.append(
                    f"automatic checkpoint {f} records event {doc['seq']}, which the log no "
                    "longer holds: the ledger was rolled back past it"
                )
            elif not hmac.compare_digest(_b(mac), _b(doc["head_mac"])):
                found.append(
                    f"automatic checkpoint {f} records event {doc['seq']} with mac "
                    f"{str(doc['head_mac'])[:16]}…, the log's is {str(mac)[:16]}…: the log was "
                    "forked (rolled back, then written anew)"
                )
    return found


@dataclass(frozen=True)
class Written:
    """An automatic checkpoint written (:func:`write_to`): its ``path`` (``None`` when a file of
    the same head was there already) and the ``conflicts`` found beside it."""

    path: Path | None
    conflicts: list[str]


def write_to(reader: Engine, key: bytes, where: Path, reason: str) -> Written:
    """Write a checkpoint of the ledger read on ``reader`` (one snapshot) under
    ``where/<ledger>/``:func:`file_name`, never over an existing file (:func:`write_new`), and
    check the checkpoints there against the log (:func:`conflicts`); ``OSError`` when the
    location cannot be written."""
    with reader.connect() as conn:
        doc = document(key, read_state(conn), reason)
    folder = where / str(doc["ledger"])
    found = conflicts(reader, key, folder, int(doc["seq"]))
    path = folder / file_name(int(doc["seq"]), str(doc["head_mac"]))
    made = write_new(path, to_text(doc))
    return Written(path if made else None, found)


def prunable(checkpoints: Sequence[Checkpoint], keep: int) -> list[Checkpoint]:
    """The retention rule of an automatic location: of ``checkpoints`` (one ledger's), those that
    may be removed — a :data:`SECURITY_REASON` one older than the newest ``keep``; every
    checkpoint at a money or configuration event (an award, a payment, an adjustment, any other
    significant event) is kept for good."""
    ordered = sorted(checkpoints, key=lambda c: (c.seq, c.source))
    old = ordered[: max(0, len(ordered) - keep)]
    return [c for c in old if c.doc["reason"] == SECURITY_REASON]


def automatic_folder(where: Path, first_mac: str) -> Path:
    """Where the automatic checkpoints of the ledger whose first event's mac is ``first_mac``
    are kept under the location ``where``."""
    return where / ledger_id(first_mac)


def checkpoint_dir() -> Path | None:
    """``$CROUPIER_CHECKPOINT_DIR`` as a path (``None``: unset or empty)."""
    text = os.environ.get(ENV_CHECKPOINT_DIR, "").strip()
    return Path(text).expanduser() if text else None


def _temporary(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    return tmp


def write_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it written and fsynced,
    renamed over ``path``, the directory fsynced (``OSError`` if any step fails). A ``path``
    that exists and is not a regular file — a device such as ``/dev/null``, a link, a pipe, a
    folder — is refused (``OSError`` saying why), never replaced: a rename
    over it would put a file where the system's device was."""
    if os.path.lexists(path) and not (path.is_file() and not path.is_symlink()):
        raise OSError(
            errno.EEXIST,
            "it is not a regular file (a checkpoint is written only to a new or regular file; "
            "without --out it is printed)",
        )
    tmp: Path | None = None
    try:
        tmp = _temporary(path, text)
        os.replace(tmp, path)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()
    fsync_dir(path.parent)


def write_new(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` once: a temporary file beside it written and fsynced, then
    hard-linked to ``path`` — which fails, atomically, when ``path`` exists: it is never
    replaced — and the directory fsynced. ``False`` when ``path`` was there (left as it was);
    ``OSError`` if a step fails."""
    tmp: Path | None = None
    try:
        tmp = _temporary(path, text)
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()
    fsync_dir(path.parent)
    return True


__all__ = [
    "ENV_CHECKPOINT_DIR",
    "FIELDS",
    "FORMAT",
    "SECURITY_REASON",
    "SHOWN",
    "TAKEN",
    "Checkpoint",
    "HeadState",
    "Written",
    "automatic_folder",
    "check",
    "checkpoint_dir",
    "conflicts",
    "document",
    "file_name",
    "key_id",
    "ledger_id",
    "parse",
    "problems",
    "prunable",
    "read",
    "read_state",
    "sign",
    "to_text",
    "write_file",
    "write_new",
    "write_to",
]
