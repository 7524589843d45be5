"""What the benchmarks print about the machine: figures taken under load are slower."""

from __future__ import annotations

import os


def load() -> str:
    """The load averages over 1, 5 and 15 minutes and the number of cores."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"
