"""``python -m server.config``: the table of settings for docs/deploy.md."""

import sys

from . import settings_table

sys.stdout.write(settings_table() + "\n")
