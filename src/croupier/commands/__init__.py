"""Further ``croupier`` commands, one module per game or subsystem.

Each module here imports ``app`` (and the ``out``/``err`` consoles) from
:mod:`croupier.commands.common` (never from :mod:`croupier.cli`) and declares its commands with
``@app.command()``. The modules are imported only when one of their commands runs (start-up time:
``croupier --help`` lists the commands from :data:`COMMANDS` without importing any); a new command
module adds its commands to :data:`COMMANDS`, which ``tests/commands/test_cli_lazy.py`` checks against what
the modules declare.
"""

from __future__ import annotations

COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    "wagers": (
        ("analysis",),
        "List the wagers croupier settles and analyses, with their paytables and deck counts.",
    ),
    "paytables": (
        ("analysis",),
        "Show the paytables printed in the regulation (and any you add), with seeds and rates.",
    ),
    "analyze": (
        ("analysis", "strategy_blackjack"),
        (
            "Exact par sheet of one wager × paytable × deck count: every outcome's count and return; "
            "with --out DIR also written as JSON (what --json prints), CSV (exact fractions beside "
            "the decimals) and HTML."
        ),
    ),
    "simulate": (
        ("simulate",),
        "Simulate rounds from a shuffled shoe: the figures with standard errors, beside the exact.",
    ),
    "bundle": (
        ("bundle",),
        (
            "A test lab's report bundle for one wager × paytable × deck count: the exact par sheet, "
            "the simulation evidence, a manifest with every file's SHA-256, the paytable and Rules "
            "Submission digests, croupier's version and commit, and a print-ready cover page."
        ),
    ),
    "verify-parsheets": (
        ("verify_parsheets",),
        (
            "Simulate every par sheet (or those of the wagers named) until the standard error "
            "reaches the target, and print exact against simulated with the z-score of each; "
            "|z| > 4 is flagged and makes the exit status 1."
        ),
    ),
    "parsheet": (
        ("analysis", "strategy_blackjack"),
        (
            "Par sheets of every wager × paytable × allowed deck count (progressives at their seeds),"
            " or of the wagers and deck count asked for; the summary compares paytables: house edge "
            "at the seed, long-run return, breakeven meter and the wager it is on, hit frequency, "
            "standard deviation and volatility index."
        ),
    ),
    "hand": (
        ("analysis",),
        "Classify and settle one dealt hand for a wager.",
    ),
    "baccarat": (
        ("baccarat",),
        (
            "Play one dealt coup (§ 631a.9–§ 631a.12) and settle its wagers (with --bet), or show "
            "what every Baccarat wager does on it."
        ),
    ),
    "eor": (
        ("eor",),
        (
            "Effect of removal of each card and rank, the balanced count built from it, the true "
            "count where the wager turns positive and a simulated counter's gain per shoe and per "
            "hour — for one wager, or as the count-vulnerability table of every wager."
        ),
    ),
    "simulate-shoes": (
        ("baccarat",),
        (
            "Deal whole Baccarat shoes (burn, cut card) and set every Baccarat wager's observed "
            "return beside its exact one, in standard errors."
        ),
    ),
    "dealer": (
        ("blackjack",),
        "Exact probability of the dealer's final result (17–21, Blackjack, bust) by upcard.",
    ),
    "axman": (
        ("blackjack",),
        (
            "Exact AxMan figures (§ 633c.12) given the player's two cards: each hand's probability, "
            "the king-of-diamonds multiplier and the expected return."
        ),
    ),
    "blackjack-round": (
        ("blackjack",),
        (
            "Settle a dealt Blackjack round through the regulated round procedure: the players' "
            "decisions, the Blackjack wagers (Chapter 633a), AxMan (§ 633c.12) and Jackpot Party (§ "
            "633b.2, each envy bonus a line of its own) — the same record as `croupier settle`."
        ),
    ),
    "strategy": (
        ("four_card_poker", "strategy_blackjack"),
        (
            "The optimal strategy of a game: Four Card Poker's Ante/Play rule with its exact figures;"
            " Blackjack's basic-strategy chart and house edge; the Switch Hands decision chart."
        ),
    ),
    "four-card-poker": (
        ("four_card_poker",),
        (
            "Settle a dealt round of Four Card Poker (58 Pa. Code § 641a.7(d)); a progressive's meter"
            " award is valued at --meter (else the seed) and waits for a floorperson's validation."
        ),
    ),
    "check": (
        ("table",),
        (
            "Check Rules Submissions (TOML): every violation at once, each with its section; for a "
            "submission that is ok, its configuration digest (SHA-256) and its paytables'."
        ),
    ),
    "settle": (
        ("table",),
        (
            "Settle round records (JSON): every wager's outcome, pay, net and section, in settlement "
            "order. A round that breaks a rule is one error line naming the section; nothing is "
            "settled."
        ),
    ),
    "play": (
        ("table",),
        (
            "Deal and settle random rounds at a table, for a dealer in training (same seed, same "
            "rounds; each session a fresh seed unless one is given)."
        ),
    ),
    "meters": (
        (
            "meters",
            "meters_checkpoint",
            "meters_config",
            "meters_events",
            "meters_liability",
            "meters_staff",
        ),
        (
            "The progressive table game system (58 Pa. Code § 605a.7, § 605a.8): meters, "
            "linked tables, pending awards and floorperson validation, on a durable ledger."
        ),
    ),
    "serve": (
        ("serve",),
        (
            "Serve settlement, par sheets, open tables and the progressive controller over HTTP "
            "(OpenAPI at /docs and /openapi.json). The ledger is created if missing; staff log in "
            "with its staff store (`croupier meters bootstrap` makes the first: there is no default "
            "password)."
        ),
    ),
}
"""Every top-level command, in the order ``--help`` lists them → (the modules of this package to
import before it runs: the one declaring it, then those registering what it looks up in
:data:`~croupier.commands.common.GAME_STRATEGIES` / ``GAME_ANALYSES``; its help's first
paragraph, as ``--help`` shows it)."""

__all__ = ["COMMANDS"]
