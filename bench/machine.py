"""What the benchmarks print about the machine: figures taken under load are slower."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from runarch_gen.errors import RunArchError


def load() -> str:
    """The load averages over 1, 5 and 15 minutes and the number of cores."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


MAX_COUNT = 1_000_000


def count(text: str) -> int:
    """An argparse type for how many (games, rounds): a whole number from 1 to a million."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{value} is not between 1 and {MAX_COUNT:,}")
    return value


def run(main: Callable[[], int]) -> NoReturn:
    """Exit with what ``main`` returns; a bad rules string or input file is one line on stderr
    (exit 2) and Ctrl-C one line (exit 130), not a traceback."""
    try:
        code = main()
    except RunArchError as error:
        print(f"{sys.argv[0]}: error: {error}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        print(f"{sys.argv[0]}: interrupted", file=sys.stderr)
        code = 130
    sys.exit(code)
