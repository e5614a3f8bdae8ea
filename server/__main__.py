"""``python -m server`` is the ``knights-tour`` command."""

import sys

from .cli import main

sys.exit(main())
