"""Each operation's own error examples for the OpenAPI document (:mod:`croupier.service.openapi`):
what that route answers when its lookup finds nothing (404), when what it asks conflicts with
what is recorded (409), when its input is refused (422) and, where the ledger checks the role
from its own log, when the member's role is below the rule's (403). Each detail is the one the
service gives for the request the summary describes (taken from the service's answers).

The examples every route of a kind shares are made from the route itself in
:mod:`croupier.service.openapi`: the 400 of a request without its ``Idempotency-Key``, the 401
of a request without a token (the route's own words), the 403 of a role below the route's, the
409 of a key used for another request, the 413 of a body too large, and the 422 of a query
parameter the route does not declare, for a route with nothing else to refuse.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

_NONE: MappingProxyType[str, str] = MappingProxyType({})


class Example(NamedTuple):
    """One problem a route answers: a summary of the request, its type, detail and section;
    ``names`` the path's values where they are not the document's usual ones (the name that
    was not found)."""

    summary: str
    kind: str
    detail: str
    section: str | None = None
    names: MappingProxyType[str, str] = _NONE


_NO_PROGRESSIVE = Example(
    "No progressive by that name",
    "LedgerLookupError",
    "no progressive named 'mtd-9' (progressives: jp-5, mtd-5)",
    names=MappingProxyType({"name": "mtd-9"}),
)
_NO_TABLE = Example(
    "No open table by that name",
    "LedgerLookupError",
    "no open table 'BJ-9': open it with POST /tables",
    names=MappingProxyType({"table": "BJ-9"}),
)
_NO_MEMBER = Example(
    "No staff member by that name",
    "LedgerLookupError",
    "no staff member named 'fred': a shift manager adds them",
    names=MappingProxyType({"name": "fred"}),
)
_NO_WAGER = Example(
    "No wager by that id",
    "UnknownWagerError",
    "no wager 'perfect-pears'; did you mean 'perfect-pairs'? (known wagers: aces-up, axman, …)",
    names=MappingProxyType({"wager": "perfect-pears"}),
)

_NOT_LINKED = Example(
    "?progressive= names no progressive",
    "LinkError",
    "table BJ-1 is not linked to progressive 'nope': no progressive named 'nope' (progressives: "
    "jp-5, mtd-5) (58 Pa. Code § 605a.8)",
    "605a.8",
)
_MTD_DECKS = Example(
    "A deck count the section forbids",
    "RulesError",
    "the Match the Dealer Progressive wager is played with 6 or 8 decks, not 2 "
    "(58 Pa. Code § 633b.3(b))",
    "633b.3(b)",
)

OWN: dict[tuple[str, str], dict[str, Example | tuple[Example, ...]]] = {
    ("post", "/token"): {
        "401": Example(
            "A wrong name or credential (which, is not said)",
            "AuthenticationError",
            "'dana' and that credential are not a staff member of the ledger",
        ),
        "422": Example(
            "The form without its password",
            "InputError",
            "not a valid request: body.password: Field required",
        ),
    },
    ("get", "/problems/{kind}"): {
        "404": Example(
            "No problem type by that name",
            "NotFound",
            "no problem type 'x': the type of a problem the service answers is its error_type",
        ),
    },
    ("get", "/paytables"): {
        "404": Example(
            "No paytable by that id in the section",
            "UnknownPaytableError",
            "no paytable 'Z' in § 633b.1",
        ),
    },
    ("get", "/parsheets/{wager}"): {
        "404": _NO_WAGER,
        "422": Example(
            "A deck count no shoe has",
            "InputError",
            "not a valid request: query.decks: Input should be less than or equal to 8",
        ),
    },
    ("post", "/rounds/settle"): {
        "409": Example(
            "The round id is stored with other content",
            "RoundConflictError",
            "round 'r1' of table BJ-1 is stored already with other content (seats, wagers, "
            "amounts or cards): nothing changed; give the round its own id",
        ),
        "422": (
            Example(
                "A step breaks the round procedure",
                "LockoutError",
                'step 4 (bet): seat 4: the blackjack wager comes after "No more bets" '
                "(58 Pa. Code § 633b.1(d))",
                "633b.1(d)",
            ),
            _NOT_LINKED,
        ),
    },
    ("get", "/rounds"): {
        "422": Example(
            "?since= is not a time",
            "InputError",
            "since 'yesterday' is not an ISO 8601 date or time (2026-12-01, 2026-12-01T06:00, "
            "2026-12-01T14:00:00Z)",
        ),
    },
    ("get", "/rounds/summary"): {
        "422": Example(
            "?until= is not a time",
            "InputError",
            "until 'soon' is not an ISO 8601 date or time (2026-12-01, 2026-12-01T06:00, "
            "2026-12-01T14:00:00Z)",
        ),
    },
    ("get", "/rounds/{table}/{round_id}"): {
        "404": Example(
            "No such round is stored",
            "LedgerLookupError",
            "no round 'round-1' of table BJ-1 is stored",
        ),
    },
    ("post", "/tables"): {
        "409": Example(
            "The table is open already",
            "RoundStateError",
            "table 'BJ-1' is open already: read it with GET /tables/BJ-1, or close it "
            "(DELETE /tables/BJ-1) while its round has no bets",
        ),
        "422": (
            Example(
                "The Rules Submission breaks rules of the regulation",
                "SubmissionError",
                "table BJ-1: paytable P1 of the Jackpot Party Progressive wager is printed for 6 "
                "decks, not 2 (58 Pa. Code § 633b.2(b)); the Match the Dealer Progressive wager "
                "is played with 6 or 8 decks, not 2 (58 Pa. Code § 633b.3(b))",
                "633b.2(b)",
            ),
            Example(
                "progressives names no progressive",
                "LinkError",
                "table BJ-1 is not linked to progressive 'nope': no progressive named 'nope' "
                "(progressives: jp-5, mtd-5) (58 Pa. Code § 605a.8)",
                "605a.8",
            ),
        ),
    },
    ("get", "/tables/{table}"): {"404": _NO_TABLE},
    ("delete", "/tables/{table}"): {
        "404": _NO_TABLE,
        "409": Example(
            "The round has bets",
            "RoundStateError",
            "table BJ-1's round round-2 has 1 bet(s) (betting open): settle it with POST "
            "/tables/BJ-1/steps before closing the table; nothing changed",
        ),
    },
    ("post", "/tables/{table}/steps"): {
        "404": _NO_TABLE,
        "409": Example(
            "Another step was taken first",
            "RoundStateError",
            "another step was posted to table BJ-1 at the same time and was taken first: this "
            "one changed nothing; read the table (GET /tables/BJ-1) and post it again if it is "
            "still wanted",
        ),
        "422": Example(
            "Settle while a hand is unplayed",
            "ProcedureError",
            "step 4 (settle): seat 3's hand is not finished: hit, stand, double, split or "
            "surrender (the wagers are settled once every hand is played) "
            "(58 Pa. Code § 633a.7)",
            "633a.7",
        ),
    },
    ("get", "/progressives/{name}"): {"404": _NO_PROGRESSIVE},
    ("get", "/progressives/{name}/history"): {
        "404": _NO_PROGRESSIVE,
        "422": Example(
            "?limit= of none",
            "InputError",
            "not a valid request: query.limit: Input should be greater than or equal to 1",
        ),
    },
    ("get", "/significant-events"): {
        "404": _NO_PROGRESSIVE,
        "422": Example(
            "?code= names no code",
            "InputError",
            "not a valid request: query.code: Input should be 'startup-self-check', "
            "'verification-failure', 'configuration-mismatch', 'crash-recovery' or 'shutdown'",
        ),
    },
    ("get", "/awards"): {
        "404": _NO_PROGRESSIVE,
        "422": Example(
            "?status= is no award status",
            "InputError",
            "not a valid request: query.status: Input should be 'pending', 'paid' or 'voided'",
        ),
    },
    ("get", "/verify"): {"404": _NO_PROGRESSIVE},
    ("get", "/reconciliation"): {
        "404": _NO_PROGRESSIVE,
        "422": Example(
            "?from= is not a time",
            "InputError",
            "the from parameter 'monday' is not an ISO 8601 date or time (2026-12-01, "
            "2026-12-01T06:00, 2026-12-01T14:00:00Z)",
        ),
    },
    ("get", "/awards/{award_id}/slip"): {
        "404": Example("No award by that id", "LedgerLookupError", "no award 3"),
    },
    ("get", "/liability"): {"404": _NO_PROGRESSIVE},
    ("get", "/contributions"): {"404": _NO_PROGRESSIVE},
    ("post", "/awards/{award_id}/validate"): {
        "403": Example(
            "A dealer validating (whether the award exists or not)",
            "AuthorizationError",
            "dana is a dealer; validating a progressive payout needs a floorperson or above "
            "(58 Pa. Code § 633b.2(h)(3); 58 Pa. Code § 633b.3(h)(3))",
            "633b.2(h)(3)",
        ),
        "404": Example("No award by that id", "LedgerLookupError", "no award 3"),
        "409": Example("The award is paid already", "RoundStateError", "award 3 is paid already"),
        "422": Example(
            "An id larger than the database stores",
            "InputError",
            "not a valid request: path.award_id: Input should be less than or equal to "
            "9223372036854775807",
        ),
    },
    ("post", "/awards/{award_id}/void"): {
        "403": Example(
            "A dealer voiding (whether the award exists or not)",
            "AuthorizationError",
            "dana is a dealer; voiding a progressive payout (a hand found not to be a winning "
            "one) needs a floorperson or above (58 Pa. Code § 633b.2(h)(1); 58 Pa. Code "
            "§ 633b.3(h)(1))",
            "633b.2(h)(1)",
        ),
        "404": Example("No award by that id", "LedgerLookupError", "no award 3"),
        "409": Example(
            "The award is voided already", "RoundStateError", "award 3 is voided already"
        ),
        "422": Example("A blank reason", "InputError", "voiding an award needs a reason"),
    },
    ("post", "/progressives"): {
        "403": Example(
            "A pit manager creating",
            "AuthorizationError",
            "pat is a pit-manager; creating a progressive needs a shift-manager or above "
            "(58 Pa. Code § 605a.7)",
            "605a.7",
        ),
        "409": Example(
            "The name is taken", "LedgerError", "a progressive named 'mtd-5' exists already"
        ),
        "422": (
            Example(
                "A paytable its section does not print",
                "RulesError",
                "the Match the Dealer Progressive wager: § 633b.3 has no paytable '99' (its "
                "paytables: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) (58 Pa. Code § 633b.3)",
                "633b.3",
            ),
            _MTD_DECKS,
            Example(
                "A hit policy without on-award resets",
                "InputError",
                "progressive 'fcp-1': the first-takes-meter hit policy reseeds the link at the "
                "hit, so other tables play on: its reset timing is on-award",
            ),
            Example(
                "A deck count no shoe has",
                "InputError",
                "not a valid request: body.decks: Input should be less than or equal to 8",
            ),
        ),
    },
    ("post", "/progressives/{name}/links"): {
        "403": Example(
            "A pit manager linking",
            "AuthorizationError",
            "pat is a pit-manager; linking a table needs a shift-manager or above "
            "(58 Pa. Code § 605a.8)",
            "605a.8",
        ),
        "404": _NO_PROGRESSIVE,
        "422": Example(
            "The table is linked already",
            "LinkError",
            "table BJ-2 is linked to 'mtd-5' already (58 Pa. Code § 605a.8)",
            "605a.8",
        ),
    },
    ("post", "/progressives/{name}/adjust"): {
        "403": Example(
            "A floorperson adjusting",
            "AuthorizationError",
            "flo is a floorperson; adjusting a meter needs a pit-manager or above "
            "(58 Pa. Code § 605a.7(a)(6))",
            "605a.7(a)(6)",
        ),
        "404": _NO_PROGRESSIVE,
        "409": (
            Example(
                "The meter would go to $0 or below",
                "LedgerError",
                "the adjustment would leave the Progressive meter at -$1,000, not above $0 "
                "(58 Pa. Code § 605a.7(a)(6))",
                "605a.7(a)(6)",
            ),
            Example(
                "The meter would go below what it holds",
                "LedgerError",
                "the adjustment would leave the Progressive meter at $400, below the $500 it "
                "holds for pending awards (58 Pa. Code § 605a.7(a)(6))",
                "605a.7(a)(6)",
            ),
            Example(
                "The reserve would go below $0",
                "LedgerError",
                "the adjustment would leave the Progressive reserve at -$50, below $0 "
                "(58 Pa. Code § 605a.7(a)(6))",
                "605a.7(a)(6)",
            ),
        ),
        "422": Example(
            "No level by that name",
            "InputError",
            "progressive 'mtd-5' has no level 'Mega' (its levels: Progressive)",
        ),
    },
    ("post", "/staff"): {
        "409": Example(
            "The name is taken, or reads as one taken",
            "ConfusableNameError",
            "a staff member named 'Zoë': looks like the existing 'zoe' (names are compared as they "
            "read: case, dashes, spaces, accents composed or not and look-alike letters folded, "
            "Unicode TR39); choose another name",
        ),
        "422": Example(
            "A credential too short",
            "InputError",
            "a staff credential (password or PIN) needs at least 4 characters",
        ),
    },
    ("delete", "/staff/{name}"): {
        "404": _NO_MEMBER,
        "409": Example(
            "The last shift manager",
            "LedgerError",
            "removing 'sam' would leave the ledger without a shift manager ('sam' is the only "
            "one, and a shift manager manages staff): add or promote another first",
        ),
    },
    ("post", "/staff/{name}/role"): {
        "404": _NO_MEMBER,
        "409": Example("The role the member has", "LedgerError", "'flo' is a floorperson already"),
    },
    ("post", "/staff/{name}/credential"): {"404": _NO_MEMBER},
    ("post", "/tables/{table}/void"): {
        "404": _NO_TABLE,
        "409": Example(
            "Nothing to void",
            "RoundStateError",
            "table BJ-1's round round-3 has no bet and no card: there is nothing to void (close "
            "the table with DELETE /tables/BJ-1, or post its bets); nothing changed",
        ),
    },
    ("post", "/progressives/{name}/suspend"): {
        "403": Example(
            "A dealer suspending",
            "AuthorizationError",
            "dana is a dealer; suspending a progressive needs a pit-manager or above "
            "(58 Pa. Code § 605a.7)",
            "605a.7",
        ),
        "404": _NO_PROGRESSIVE,
        "409": Example(
            "Suspended already", "RoundStateError", "progressive 'mtd-5' is suspended already"
        ),
        "422": Example("A blank reason", "InputError", "suspending a progressive needs a reason"),
    },
    ("post", "/progressives/{name}/resume"): {
        "403": Example(
            "A dealer resuming",
            "AuthorizationError",
            "dana is a dealer; resuming a progressive needs a pit-manager or above "
            "(58 Pa. Code § 605a.7)",
            "605a.7",
        ),
        "404": _NO_PROGRESSIVE,
        "409": Example(
            "In play already", "RoundStateError", "progressive 'mtd-5' is in play already"
        ),
    },
    ("post", "/progressives/{name}/reconfigure"): {
        "403": Example(
            "A pit manager reconfiguring",
            "AuthorizationError",
            "pat is a pit-manager; reconfiguring a progressive needs a shift-manager or above "
            "(58 Pa. Code § 605a.7)",
            "605a.7",
        ),
        "404": _NO_PROGRESSIVE,
        "409": Example(
            "The same values again", "LedgerError", "the reconfiguration changes nothing"
        ),
        "422": Example(
            "A rate of 100% or more",
            "InputError",
            "rate of Progressive '150%' must be from 0% up to (not including) 100%",
        ),
    },
    ("post", "/simulations"): {
        "422": (
            Example(
                "An amount that is not dollars",
                "InputError",
                "the amount field must be an amount in dollars (at most $999,999,999.99, at most "
                "two decimals), e.g. 12345.67, not '1e400'",
            ),
            Example(
                "No wager by that id",
                "InputError",
                "no wager 'perfect-pears'; did you mean 'perfect-pairs'? (known wagers: aces-up, "
                "axman, …)",
            ),
            _MTD_DECKS,
        ),
        "503": (
            Example(
                "As many jobs waiting as the server takes",
                "TooManyJobs",
                "8 simulation jobs wait already for the 1 job process(es) of this server: start "
                "this one once one has finished",
            ),
            Example("The server is stopping", "ServiceUnavailable", "the service is stopping"),
        ),
    },
    ("get", "/simulations/{job}"): {
        "404": Example("No job by that id", "LedgerLookupError", "no simulation job '0f6c2a'"),
    },
    ("get", "/eor/{wager}"): {
        "404": _NO_WAGER,
        "422": Example(
            "?unit= is not dollars",
            "InputError",
            "the unit parameter must be an amount in dollars (at most $999,999,999.99, at most "
            "two decimals), e.g. 12345.67, not 'abc'",
        ),
    },
    ("get", "/blackjack/house-edge"): {
        "422": Example(
            "Re-split aces with two hands at most",
            "RulesError",
            "re-splitting aces needs split hands of 3 or more, not 2 (58 Pa. Code § 633a.11)",
            "633a.11",
        ),
    },
    ("get", "/blackjack/effects"): {
        "422": Example(
            "?only= names no variation of the rules",
            "InputError",
            "no variation 'x' of these rules (variations: decks-2, decks-4, decks-6, decks-8, "
            "double-10-11, double-9-11, h17, hit-split-aces, no-das, no-peek, pays-1:1, "
            "pays-6:5, split-3, split-4, surrender)",
        ),
    },
    ("get", "/parsheet.csv"): {
        "404": _NO_WAGER,
        "422": Example(
            "?paytable= is not one of the wager's",
            "PaytableError",
            "§ 633b.1 has no paytable 'Z' (its paytables: A, B)",
        ),
    },
    ("get", "/compare.csv"): {
        "404": _NO_WAGER,
        "422": Example(
            "?stake= is not an amount",
            "InputError",
            "the stake field must be an amount in dollars (at most $999,999,999.99, at most two "
            "decimals), e.g. 12345.67, not 'abc'",
        ),
    },
    ("get", "/designer/paytable.toml"): {
        "404": _NO_WAGER,
        "422": Example(
            "A pay: parameter names no line of the paytable",
            "PaytableError",
            "paytable A has no line 'Foo'",
        ),
    },
}
"""The examples of each operation (method, path) that are its own, by status (one, or several:
each refusal a route makes in words of its own). A name a request's body (or a change's query)
gives that names nothing is a 422, not a 404: a 404 is for a path that names nothing."""

__all__ = ["OWN", "Example"]
