"""server.classroom.room_messages: ``join``, ``sync``, the teacher's ``settings``,
``control`` and ``lesson``, and the messages that carry nothing."""

from __future__ import annotations

from server.classroom.room_messages import (
    CODE_MAX,
    MAX_INDEX,
    EmptyMessage,
    JoinMessage,
    LessonMessage,
    SettingsMessage,
    SyncMessage,
)
from tests.classroom.helpers import SETTINGS, refused


def test_a_join_names_a_room_and_maybe_its_token():
    assert JoinMessage.model_validate({"code": "abc-234"}).token is None
    for bad in (None, 123, ["ABC234"]):  # not a code at all: a bad request naming the field
        assert refused(JoinMessage.model_validate, {"code": bad}) == "bad-request"
    assert refused(JoinMessage.model_validate, {}) == "bad-request"
    # too long to be one: no room has it (the code is never echoed back whole)
    assert refused(JoinMessage.model_validate, {"code": "x" * (CODE_MAX + 1)}) == "unknown-room"
    for wrong in ("", "a" * 500):  # no token's length
        assert (
            refused(JoinMessage.model_validate, {"code": "ABC234", "token": wrong}) == "bad-token"
        )
    for wrong in (5, True):  # not text: a bad request naming the field
        assert (
            refused(JoinMessage.model_validate, {"code": "ABC234", "token": wrong}) == "bad-request"
        )


def test_a_sync_asks_for_an_index_of_a_generation():
    assert SyncMessage.model_validate({"gen": 2, "index": 700}).index == 700
    for bad in (
        {"gen": 2},
        {"gen": 2, "index": -1},
        {"gen": 2, "index": MAX_INDEX + 1},
        {"gen": 2, "index": 1.5},
        {"gen": "2", "index": 1},
        {"index": 1},
        [],
    ):
        assert refused(SyncMessage.model_validate, bad) == "bad-request", bad


def test_settings_are_checked_like_a_watch_start_and_stored_without_extras():
    message = SettingsMessage.model_validate({**SETTINGS, "seq": 1, "holes": [12, 6]})
    assert message.settings() == {**SETTINGS, "holes": [6, 12]}
    assert SettingsMessage.model_validate({**SETTINGS, "seq": 1, "holes": []}).settings() == (
        SETTINGS
    )  # no holes: none stored
    assert refused(SettingsMessage.model_validate, {**SETTINGS, "seq": 1, "rows": 99}) == (
        "bad-board"
    )
    assert refused(SettingsMessage.model_validate, {**SETTINGS, "seq": 1, "start": [9, 9]}) == (
        "bad-board"
    )
    no_tour = {**SETTINGS, "seq": 1, "algorithm": "construct", "rows": 4, "cols": 4}
    assert refused(SettingsMessage.model_validate, no_tour) == "bad-board"
    assert refused(SettingsMessage.model_validate, {**SETTINGS, "seq": 1, "rows": "5"}) == (
        "bad-request"
    )
    assert refused(SettingsMessage.model_validate, {**SETTINGS, "seq": 1, "holes": [0]}) == (
        "bad-holes"
    )
    assert refused(SettingsMessage.model_validate, SETTINGS) == "bad-request"  # no seq


def test_a_lesson_step_is_a_step_of_a_known_chapter():
    assert LessonMessage.model_validate({"seq": 1, "chapter": "dfs", "step": 3}).step == 3
    for bad, code in (
        ({"chapter": "nope"}, "unknown-chapter"),
        ({"chapter": "x" * 40}, "unknown-chapter"),
        ({"chapter": 5}, "bad-request"),  # not text: a bad request naming the field
        ({"step": 4}, "bad-step"),  # dfs has four steps, from 0
        ({"step": -1}, "bad-step"),
        ({"step": "1"}, "bad-request"),
        ({"seq": 0}, "bad-request"),
    ):
        payload = {"seq": 1, "chapter": "dfs", "step": 0, **bad}
        assert refused(LessonMessage.model_validate, payload) == code, bad


def test_an_empty_message_ignores_what_it_is_sent_but_must_be_an_object():
    assert EmptyMessage.model_validate({}) == EmptyMessage.model_validate({"junk": 1})
    assert refused(EmptyMessage.model_validate, []) == "bad-request"
