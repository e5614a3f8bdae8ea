"""What one client may take of the server, and the server in all.

* :mod:`.budget`: CPU, as search-seconds per client address and search slots per core;
* :mod:`.memory`: kept search timelines, in bytes per address and in all;
* :mod:`.bucket`: a token bucket, for how often one client may do a thing;
* :mod:`.gate`: turns at the class's message handlers, the fairest first;
* :mod:`.connections`: connections, request time limits and open files for
  ``knights-tour serve``.

Leaves: they import nothing else of ``server/``, so every layer may use them.
"""
