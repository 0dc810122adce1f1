"""What croupier answers when it refuses: the service's RFC 9457 problem details
(:class:`Problem`, ``application/problem+json``) and a command's error under ``--json``
(:class:`CommandError`)."""

from __future__ import annotations

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import Absent, Section, absent


class Violation(Shape):
    """One rule a Rules Submission breaks."""

    message: str
    """The violation in one line."""
    section: str | None
    """The section it cites; null when none."""


class Mismatch(Shape):
    """Where a request did not match its schema."""

    where: str
    """The place in the request (query, body, path and the key)."""
    message: str
    """What is wrong there."""


class Problem(Shape):
    """RFC 9457 problem details: the croupier error's type, its one-line detail and the section
    of 58 Pa. Code (or other rule) it cites."""

    type: str = Field(json_schema_extra={"format": "uri-reference"})
    """A URI naming the kind of problem (its last part is error_type)."""
    title: str
    """The kind of problem (the croupier.errors class)."""
    status: int
    """The HTTP status."""
    detail: str
    """The one-line error, as the command line shows it."""
    instance: str
    """The method and path refused."""
    error_type: str
    """The croupier.errors class."""
    section: str | None
    """The rule's section; null when no rule is involved."""
    violations: list[Violation] | Absent = absent()
    """A Rules Submission's violations, each with its section (SubmissionError)."""
    pointer: str | Absent = absent()
    """The JSON pointer (RFC 6901) of a body's string that is not Unicode text (a lone
    surrogate): UnicodeTextError."""
    maximum: str | Absent = absent()
    """The largest amount croupier takes, in dollars ($999,999,999.99), when an amount was over
    it: AmountLimitError."""
    errors: list[Mismatch] | Absent = absent()
    """Where a request did not match its schema."""
    retry_after: int | Absent = absent()
    """The seconds to wait before trying again, as the Retry-After header says them: a login
    locked out after too many failures (LoginLockedError, 429 on POST /token)."""


class ProblemType(Shape):
    """What a problem type means (``GET /problems/{kind}``): a problem's ``type`` resolved."""

    type: str = Field(json_schema_extra={"format": "uri-reference"})
    """The problem type, as a problem's ``type`` names it (``/problems/InputError``)."""
    title: str
    """The type's name: the croupier error class, or a kind the service makes itself."""
    status: int
    """The HTTP status a problem of this type comes with."""
    description: str
    """What the type means (the error class's documentation)."""


class CommandErrorBody(Shape):
    """The error itself."""

    type: str
    """The exception class (croupier.errors), or UsageError for a bad option."""
    message: str
    """The one-line message, the same as the error: line on stderr."""
    section: Section | None
    """The section of 58 Pa. Code whose rule was enforced, e.g. 633b.3(b); null when no rule
    is."""
    citation: str | None
    """The section's full citation, '58 Pa. Code § 633b.3(b)'; null with the section."""


class CommandError(Shape):
    """An error of any croupier command under --json (stdout; exit status 2)."""

    error: CommandErrorBody
    """What went wrong."""


__all__ = ["CommandError", "CommandErrorBody", "Mismatch", "Problem", "ProblemType", "Violation"]
