"""server.classroom.messages: the /class protocol's registry of messages and refusals."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from server import i18n
from server.classroom import puzzle_messages, quiz_messages, room_messages
from server.classroom.messages import ERRORS, MESSAGES, ClassError
from server.validation import Message

CLASSROOM = Path(__file__).resolve().parents[2] / "server" / "classroom"


def test_a_refusal_carries_its_code_and_its_words():
    plain = ClassError("no-puzzle")
    assert (plain.code, plain.key, plain.params, str(plain)) == (
        "no-puzzle",
        "class.error.no-puzzle",
        {},
        "no-puzzle",
    )
    worded = ClassError("full", "class.error.full.names", max=3)
    assert (worded.code, worded.key, worded.params) == (
        "full",
        "class.error.full.names",
        {"max": 3},
    )
    assert "3" in i18n.text(worded.key, "en", worded.params)


def test_every_message_model_of_the_families_is_in_the_registry():
    """A model left out of ``MESSAGES`` would be validated but missing from the protocol's
    generated tables (docs/protocol.md)."""
    registered = set(MESSAGES.values())
    for family in (room_messages, puzzle_messages, quiz_messages):
        models = {
            model
            for _name, model in inspect.getmembers(family, inspect.isclass)
            if issubclass(model, Message) and model.__module__ == family.__name__
        }
        assert models, family.__name__
        assert models <= registered, (family.__name__, models - registered)
    assert MESSAGES["heartbeat"] is MESSAGES["close"] is MESSAGES["quiz_state"]
    assert MESSAGES["quiz_reveal"] is MESSAGES["quiz_why"]


def refusals_raised() -> set[tuple[str, str]]:
    """(code, i18n key) of every refusal server/classroom writes out: ``ClassError(code,
    key?)`` and the models' ``refuse`` / ``refused`` (the key None: made on the spot)."""
    found = set()
    for path in CLASSROOM.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ("ClassError", "refuse", "refused"):
                continue
            code, key = [*node.args, None][:2]
            if not isinstance(code, ast.Constant):
                continue
            if key is None and name == "ClassError":
                found.add((code.value, f"class.error.{code.value}"))
            elif isinstance(key, ast.Constant):
                found.add((code.value, key.value))
            else:  # worded by a key made on the spot (e.g. ``full.{which}``)
                found.add((code.value, None))
    return found


def test_every_refusal_of_the_class_room_has_words_and_a_documented_code():
    raised = refusals_raised()
    assert len(raised) > 30 and ("not-solved", "class.error.not-solved") in raised
    for code, key in sorted(raised, key=str):
        assert code in ERRORS, code
        assert key is None or key in i18n.MESSAGES, key  # in both: tests/test_i18n.py
