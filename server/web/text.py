"""Text that is not Unicode: lone surrogates, wherever a string enters.

JSON may escape any UTF-16 code unit (``"\\ud800"``), so a JSON body or a Socket.IO
payload can hold a *lone surrogate*: half of a surrogate pair, which is not a
character.  Python keeps it in a ``str``, and it fails much later, wherever the text is
encoded: hashing a token, binding a database parameter, logging.  The edges refuse it
instead, once for every field (server/web/api.py for HTTP bodies, server/web/sockets.py
for socket events).  A well-formed pair (``"\\ud83d\\ude00"``) is decoded into its one
character and is not affected.

URLs, query strings, cookies and headers cannot carry one: werkzeug decodes their bytes
as UTF-8 and replaces what is not (U+FFFD), and a WSGI header is latin-1.
"""

from __future__ import annotations

import re

SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value) -> bool:
    """Whether any string in ``value`` (a decoded JSON value: keys included) holds one."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return False
