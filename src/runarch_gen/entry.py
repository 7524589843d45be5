"""The ``runarch-gen`` program's entry point: signals are handled before the command line's
modules load, so that Ctrl-C, SIGTERM or SIGHUP in the first fraction of a second of start-up
also ends with one line and the documented exit code (130, 143, 129), not a traceback."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    """Load the command line and run it with ``sys.argv``."""
    signal.signal(signal.SIGTERM, _stop_while_loading)
    signal.signal(signal.SIGHUP, _stop_while_loading)
    try:
        from runarch_gen.cli import main as cli_main
    except KeyboardInterrupt:
        _quit("interrupted", 130)
    except _Loading as stop:
        _quit(f"stopped by {signal.Signals(stop.signum).name}", 128 + stop.signum)
    cli_main()


class _Loading(BaseException):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop_while_loading(signum: int, frame: object) -> None:
    raise _Loading(signum)


def _quit(why: str, code: int) -> None:
    sys.stderr.write(f"runarch-gen: {why}\n")
    sys.exit(code)
