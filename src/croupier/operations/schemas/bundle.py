"""A test lab's report bundle's manifest (``croupier bundle … --out DIR``: ``DIR/manifest.json``,
:mod:`croupier.operations.bundle`)."""

from __future__ import annotations

from typing import Literal

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import Cents, Citation, Section, Sha256


class Software(Shape):
    """The software that wrote the bundle."""

    croupier: str
    """croupier's version."""

    commit: str | None
    """The git commit of the checkout croupier ran from (40 hex digits); null when it was not run
    from a git checkout (an installed wheel) or git could not tell."""

    dirty: bool | None
    """Whether that checkout had uncommitted changes to tracked files (then the commit alone does
    not give the code that ran); null without a commit."""

    python: str
    """The Python version."""

    libraries: dict[str, str]
    """numpy, SciPy and numba's versions, by name (those installed)."""

    machine: str
    """The operating system and processor."""


class RulesSubmissionDigest(Shape):
    """The Rules Submission the bundle was checked against."""

    file: str
    """Its copy in the bundle (a path relative to the bundle's folder)."""

    sha256: Sha256
    """Its configuration digest, as `croupier check --digests` prints it."""

    file_sha256: Sha256
    """The SHA-256 of the file's bytes."""


class SimulationRecord(Shape):
    """The simulation the bundle holds as evidence."""

    rounds: int
    """Rounds dealt."""

    seed_entropy: str
    """The run's SeedSequence entropy, a decimal string (it may exceed 2^53)."""


class BundleFile(Shape):
    """One file of the bundle."""

    path: str
    """Its path relative to the bundle's folder ("/" separated)."""

    bytes: int
    """Its size in bytes."""

    sha256: Sha256
    """The SHA-256 of its bytes."""


class BundleManifest(Shape):
    """What produced a bundle's figures, and every file in it (SHA256SUMS lists the same digests
    and those of manifest.json and index.html)."""

    bundle: Literal[1]
    """The manifest's format version."""

    created: str
    """When the bundle was written, UTC (ISO 8601, seconds)."""

    command: str
    """The command line that wrote it."""

    software: Software
    """croupier's version, the commit and the libraries."""

    wager: str
    """The wager's id."""

    wager_name: str
    """The wager's name."""

    section: Section
    """The wager's section of 58 Pa. Code."""

    citation: Citation
    """The section as cited."""

    paytable: str
    """The paytable's id."""

    paytable_citation: str
    """Where the paytable is printed (or the user's file)."""

    paytable_sha256: Sha256
    """The paytable's configuration digest."""

    decks: int | None
    """Decks in the shoe."""

    meters_cents: dict[str, Cents]
    """A progressive's meter values the sheet is at, by level (empty without a progressive)."""

    wager_amount_cents: Cents | None
    """A progressive's wager size the meters are relative to; null without a progressive."""

    paytable_files: list[str]
    """The user's paytable files (--paytable-file) copied into the bundle (paths relative to its
    folder; their SHA-256 in files); empty for the regulation's paytables."""

    reseed_funding: Literal["reserve", "house"]
    """Who pays a reseed in the long-run return (--reseed)."""

    rules_submission: RulesSubmissionDigest | None
    """The Rules Submission given, or null."""

    simulation: SimulationRecord | None
    """The simulation, or null when none was run (--rounds 0)."""

    files: list[BundleFile]
    """Every file of the bundle but manifest.json, index.html and SHA256SUMS."""
