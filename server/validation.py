"""What every message model is made of: strict fields, and refusals that carry a code.

The JSON API's bodies (server/web/bodies.py), the /watch messages (server/stream/spec.py)
and the /class messages (server/classroom/*_messages.py) are pydantic models built from
these pieces.  Types are strict (``true`` is not 1, ``5.0`` is not 5, ``"5"`` is not 5)
and fields the contract does not name are ignored.

A refusal that is more than "missing or of the wrong type" carries the protocol's error
code and the i18n key of its words: :func:`refuse` in a model validator, or a field's
:class:`Refused` annotation (its range errors, or all its errors, become that refusal).
One adapter per edge (server/web/refusals.py) turns a ``ValidationError`` into the
error the client sees; the codes also appear in the models' JSON Schema (``x-error``),
from which the tables of docs/api.md and docs/protocol.md are generated.

A new message is one model in its package, its line in that package's ``MESSAGES``
(the docs' tables list them) and ``Model.model_validate(payload)`` in its handler.
Nothing here knows HTTP or Socket.IO.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError
from pydantic_core import PydanticCustomError, core_schema

KEY = "refusal_key"  # where a refusal keeps its i18n key, in the error's context
# the pydantic error types that mean "out of range" (rather than "of the wrong type")
RANGE_ERRORS = frozenset(
    {
        "greater_than",
        "greater_than_equal",
        "less_than",
        "less_than_equal",
        "finite_number",
        "too_short",
        "too_long",
        "string_too_short",
        "string_too_long",
        "string_pattern_mismatch",
    }
)


def refuse(code: str, key: str, **params: Any) -> PydanticCustomError:
    """A refusal with the protocol's ``code``, worded by ``key`` with ``params``."""
    return PydanticCustomError(code, "{" + KEY + "}", {KEY: key, **params})


def is_refusal(error: dict) -> bool:
    """Whether a pydantic error dict is one of :func:`refuse`'s (else a type/missing one)."""
    return KEY in (error.get("ctx") or {})


@dataclass(frozen=True)
class Refused:
    """Annotation: this field's range errors (or, with ``always``, all its errors) are
    refused as ``code`` worded by ``key`` with ``params``."""

    code: str
    key: str
    params: tuple[tuple[str, Any], ...] = ()
    always: bool = False

    def __get_pydantic_core_schema__(self, source, handler):
        def validate(value, inner):
            try:
                return inner(value)
            except ValidationError as err:
                if self.always or err.errors()[0]["type"] in RANGE_ERRORS:
                    raise refuse(self.code, self.key, **dict(self.params)) from None
                raise

        return core_schema.no_info_wrap_validator_function(validate, handler(source))

    def __get_pydantic_json_schema__(self, schema, handler):
        json_schema = handler(schema)
        json_schema["x-error"] = self.code
        return json_schema


def refused(code: str, key: str, *, always: bool = False, **params: Any) -> Refused:
    return Refused(code, key, tuple(params.items()), always)


def whole(low: int, high: int, *refusal: Refused, doc: str = "") -> Any:
    """A JSON integer from ``low`` to ``high`` (a bool or a float is refused)."""
    return Annotated[int, Strict(), Field(ge=low, le=high, description=doc), *refusal]


def flag(doc: str = "") -> Any:
    return Annotated[bool, Strict(), Field(description=doc)]


Square = Annotated[
    list[Annotated[int, Strict()]],
    Field(min_length=2, max_length=2, description="[row, col]"),
]


def error_codes(codes: dict[str, str], **extra: dict[str, Any]) -> Any:
    """A ``code`` field taking one of ``codes`` (code -> meaning), each a ``const`` of the
    JSON Schema with its meaning (and ``extra[code]``, e.g. an HTTP status)."""
    one_of = [
        {"const": code, "description": meaning, **extra.get(code, {})}
        for code, meaning in codes.items()
    ]
    return Annotated[str, Field(json_schema_extra={"oneOf": one_of})]


class Message(BaseModel):
    """A client message: strict, immutable, unknown fields ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)
