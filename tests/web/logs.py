"""A logging handler that keeps what the server logs, for a test to read afterwards."""

from __future__ import annotations

import logging


class Records(logging.Handler):
    """The warnings (and worse) of the loggers it is added to, kept in ``records``."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
