"""The live event stream (Server-Sent Events, ``text/event-stream``): what the pit's and the
dealer's screens follow instead of polling, and what a sign shows.

* ``GET /events`` — any staff member's bearer token: the ``meters`` message, then awards
  pending, validated, paid and voided, meter changes (coalesced), suspensions and
  resumptions and, for a shift manager or an auditor, the significant events
  (:mod:`croupier.operations.live`). Each event's ``id`` is the ledger sequence; a client
  that reconnects with ``Last-Event-ID`` (or ``?after=``, for a first connection) is sent
  everything after it.
* ``GET /events/display`` — no token: the ``meters`` message and ``meter`` changes only, for
  the signs and table displays (§ 605a.7(a)(1): the meter is shown to the players anyway).

A browser's ``EventSource`` sends no ``Authorization`` header: the pages read ``/events`` with
``fetch`` and the token, as they call every other route (``static/app.js``,
``croupier.follow``); a sign's ``EventSource`` reads the display feed.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request

from croupier.errors import InputError
from croupier.operations.live import EVENT_NAMES, Feed
from croupier.progressive import StaffMember
from croupier.service.auth import check_token
from croupier.service.common import ledger_of
from croupier.service.dependencies import oauth2, signed_in
from croupier.service.streaming import MEDIA_TYPE, EventStream, stream

router = APIRouter()

Reader = Annotated[StaffMember, Depends(signed_in("following the live event stream"))]

After = Annotated[
    int | None,
    Query(
        ge=0,
        le=2**63 - 1,
        description="Send what came after this ledger sequence (as Last-Event-ID does; the "
        "header wins when both are given).",
    ),
]
LastEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        description="The id of the last event received: what came after it is sent again "
        "(an EventSource sends it when it reconnects).",
    ),
]


def _stream_doc(what: str) -> dict[int | str, dict[str, Any]]:
    names = ", ".join(f"`{n}`" for n in EVENT_NAMES)
    return {
        200: {
            "content": {
                MEDIA_TYPE: {
                    "schema": {
                        "type": "string",
                        "description": f"Server-Sent Events: {what}. Each event has an `id` "
                        f"(the ledger sequence; `end` has none), a name ({names}) and one "
                        "`data` line of JSON (docs/schemas/events-*.schema.json).",
                    }
                }
            }
        }
    }


def _after(last_event_id: str | None, after: int | None) -> int | None:
    """Where the stream resumes: ``Last-Event-ID`` (a ledger sequence), else ``after``."""
    if last_event_id is None or not last_event_id.strip():
        return after
    text = last_event_id.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        raise InputError(
            f"Last-Event-ID is a ledger sequence (a whole number this stream sent), not {text!r}"
        )
    return int(text)


@router.get(
    "/events",
    response_class=EventStream,
    status_code=200,
    responses=_stream_doc("what the reader's role may read, as it happens"),
    summary="The live event stream: awards, meters, suspensions (Server-Sent Events)",
)
async def events(
    request: Request,
    member: Reader,
    token: Annotated[str | None, Depends(oauth2)],
    after: After = None,
    last_event_id: LastEventId = None,
) -> EventStream:
    """Awards pending, validated, paid and voided, meter changes (at most one per level a
    second), suspensions and resumptions — and the significant events for a shift manager or
    an auditor — each as it is committed, its `id` the ledger sequence. The stream starts
    with `meters` (every level as of the resumption point, or now) and ends with `end` when
    the service stops or the token is revoked or expires."""
    ledger = ledger_of(request)
    feed = Feed(ledger.reader, member.role, _after(last_event_id, after))
    assert token is not None  # the member was read from it
    return EventStream(stream(feed, partial(check_token, ledger, token)))


@router.get(
    "/events/display",
    response_class=EventStream,
    status_code=200,
    responses=_stream_doc("the meters only, for signs (`meters`, then `meter`)"),
    summary="The display feed: meter values only (Server-Sent Events, no token)",
)
async def display(
    request: Request, after: After = None, last_event_id: LastEventId = None
) -> EventStream:
    """Every level's meter (`meters`), then each change (`meter`, at most one per level a
    second): what the signs above the tables show (§ 605a.7(a)(1)). Open to anyone — nothing
    but the meters the players see."""
    feed = Feed(ledger_of(request).reader, None, _after(last_event_id, after))
    return EventStream(stream(feed))


__all__ = ["router"]
