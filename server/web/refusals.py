"""One adapter from a pydantic ``ValidationError`` to the refusal a client is shown.

The message models (server/validation.py and the models built on it) fail with a
``ValidationError``.  Its first error decides, in the order the model lists its fields:

- a refusal of the model's own (:func:`server.validation.refuse`, a field's
  ``Refused`` annotation) keeps its code, i18n key and parameters;
- a payload that is not an object, a field missing, of the wrong type or out of a
  range the model gives no code of its own is ``bad-request``, worded the way the edge
  has always worded it (:class:`Wording`: /watch, /class and the JSON API differ).

So the error codes and words clients see stay what docs/api.md and docs/protocol.md say.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from ..validation import KEY, is_refusal


@dataclass(frozen=True)
class Wording:
    """The i18n keys of one edge's ``bad-request`` refusals (each gets ``{field}``)."""

    missing: str
    wrong: str
    payload: str


WATCH = Wording(
    "watch.error.bad-request.missing",
    "watch.error.bad-request.type",
    "watch.error.bad-request.payload",
)
CLASS = Wording(
    "class.error.bad-request.field",
    "class.error.bad-request.field",
    "class.error.bad-request.payload",
)
API = Wording("error.bad-request", "error.bad-request", "error.bad-request.json")


@dataclass(frozen=True)
class Refusal:
    code: str
    key: str
    params: dict = field(default_factory=dict)


def refusal_of(err: ValidationError, wording: Wording) -> Refusal:
    """The refusal a client is shown for ``err``."""
    first = err.errors(include_url=False, include_input=False)[0]
    if is_refusal(first):
        params = dict(first["ctx"])
        return Refusal(first["type"], params.pop(KEY), params)
    if not first["loc"]:
        return Refusal("bad-request", wording.payload)
    name = str(first["loc"][0])
    key = wording.missing if first["type"] == "missing" else wording.wrong
    return Refusal("bad-request", key, {"field": name})
