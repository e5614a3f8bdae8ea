"""The WSGI entry point for gunicorn and other servers: ``server.wsgi:app``.

Configured from the environment (README, docs/deploy.md).  Refuses to start on a
server database whose schema is older than this release (run ``knights-tour db
upgrade`` first); an embedded SQLite database is upgraded by ``create_app`` itself.
Raises the worker's open-files limit to the hard limit first and says so on stderr
(gunicorn's log): every connection holds a descriptor.
"""

import sys

from .app import create_app
from .db import require_current_schema
from .limits.connections import fd_line, raise_fd_limit

files = raise_fd_limit()
if files is not None:
    print(f"knights-tour: {fd_line(files)}", file=sys.stderr, flush=True)
app = create_app()
with app.app_context():
    require_current_schema()
