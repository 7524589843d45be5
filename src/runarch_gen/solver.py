"""CP-SAT solves that Ctrl-C and SIGTERM stop cleanly.

A CP-SAT solve runs in native code: by default it catches SIGINT itself and returns as if the
search had merely ended, so the caller cannot tell an interrupt from "no solution" (and Python
never sees the Ctrl-C). :func:`solve` runs the solve in a helper thread with the solver's own
handler off, waits in the main thread where Python's signal handlers run, and on an interrupt
(or any exception raised by a signal handler) stops the search, waits for it, and re-raises.
"""

from __future__ import annotations

import threading
from typing import Any

from runarch_gen.errors import check_stop

__all__ = ["solve"]

_POLL = 0.05


def solve(solver: Any, model: Any, callback: Any = None) -> Any:
    """``solver.solve(model[, callback])`` that an interrupt stops: the status, or the
    exception (``KeyboardInterrupt`` included) raised while waiting."""
    solver.parameters.catch_sigint_signal = False
    outcome: dict[str, Any] = {}

    finished = threading.Event()

    def work() -> None:
        try:
            args = (model,) if callback is None else (model, callback)
            outcome["status"] = solver.solve(*args)
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc
        finally:
            finished.set()

    if threading.current_thread() is not threading.main_thread():
        work()  # signals reach only the main thread; elsewhere solve directly
    else:
        threading.Thread(target=work, name="cp-sat", daemon=True).start()
        try:
            while not finished.wait(_POLL):
                check_stop()  # a stop lost before this solve began
        except BaseException:
            solver.stop_search()
            _wait_out(finished)  # the native search must end before the process may
            raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["status"]


def _wait_out(finished: threading.Event) -> None:
    while True:
        try:
            finished.wait()
        except BaseException:  # a second Ctrl-C: keep waiting, the search is stopping
            continue
        return
