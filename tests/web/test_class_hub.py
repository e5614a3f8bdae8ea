"""The class hub of an app made with its own settings.

A module of its own: ``create_app`` binds Flask-SocketIO's one ``socketio`` object
(server/extensions.py) to the new app's Socket.IO server, so a live server that another
app of the same module started would no longer know its own connections.
"""

from __future__ import annotations

from server.app import create_app
from server.web import budgets
from server.web.class_socket import hub


def test_the_hub_takes_the_settings_and_the_apps_budgets(tmp_path):
    """The class's handlers take CLASS_HANDLER_SLOTS turns, and the room feeds search on the
    same slots and memory budget as every other search of the process."""
    app = create_app(
        {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance"), "CLASS_HANDLER_SLOTS": 2}
    )
    the_hub = hub(app)
    assert the_hub.gate.slots == 2
    assert the_hub.searches is budgets.searches(app) and the_hub.memory is budgets.memory(app)
