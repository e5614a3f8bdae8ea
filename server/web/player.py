"""The anonymous player: a cookie-bound id, no sign-up (progress on the path of levels).

``current_player(create=False)`` reads the ``kt_player`` cookie and answers the id when
the server knows it; with ``create=True`` a request without a known player gets a new one
and the response sets the cookie (HttpOnly, SameSite=Lax, a year).  The id is an
unguessable token, the only key to the player's progress; an id the database does not
know (forged, or from a database since wiped) is not taken over but replaced.
"""

from __future__ import annotations

from flask import after_this_request, g, request

from ..levels import progress

COOKIE = "kt_player"
COOKIE_AGE = 365 * 24 * 3600


def current_player(create: bool = False) -> str | None:
    """This request's player id, made (and its cookie set) when ``create`` and none."""
    known = g.get("player_id")
    if known:
        return known
    candidate = request.cookies.get(COOKIE)
    if progress.known_player(candidate):
        g.player_id = candidate
        return candidate
    if not create:
        return None
    player_id = progress.new_player()
    g.player_id = player_id

    @after_this_request
    def remember(response):
        response.set_cookie(
            COOKIE,
            player_id,
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
        return response

    return player_id
