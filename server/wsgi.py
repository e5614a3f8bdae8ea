"""The WSGI entry point for gunicorn and other servers: ``server.wsgi:app``.

Configured from the environment (README, docs/deploy.md).  Refuses to start on a
server database whose schema is older than this release (run ``knights-tour db
upgrade`` first); an embedded SQLite database is upgraded by ``create_app`` itself.
"""

from .app import create_app
from .db import require_current_schema

app = create_app()
with app.app_context():
    require_current_schema()
