"""``runarch-gen serve``: the workshop in a browser (:mod:`runarch_gen.web`)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from runarch_gen.cli._app import app, note
from runarch_gen.errors import InputError


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on. The default answers this computer only; 0.0.0.0"
            " answers every network this computer is on.",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8000,
    open_: Annotated[
        bool, typer.Option("--open", help="Open the boards page in the web browser.")
    ] = False,
) -> None:
    """Serve the workshop: boards, decks, kits and playtests in a web browser, in English and
    Czech, with a JSON API under /api/ (see docs/web.md).

    Jobs (decks, kits, playtests) run in worker processes; their files are deleted after an
    hour and when the server stops (Ctrl-C).

    One Ctrl-C, SIGTERM or SIGHUP stops the server within 5 s, its jobs' processes included,
    and deletes their files. Exit codes: 2 bad --host; 130 stopped by Ctrl-C; 143 by SIGTERM;
    129 by SIGHUP.
    """
    import uvicorn

    from runarch_gen.web.app import create_app

    if not host or any(c.isspace() for c in host):
        raise InputError(f"--host {host!r}: expected an address such as 127.0.0.1")
    if host in ("0.0.0.0", "::"):
        note(
            f"runarch-gen: warning: --host {host} serves the workshop to every network this"
            " computer is on, without passwords; anyone who can reach it can use it"
        )
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/boards"
    note(f"runarch-gen: serving {url} (Ctrl-C stops)")
    if open_:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    workshop = create_app(host, port)
    config = uvicorn.Config(
        workshop,
        host=host,
        port=port,
        log_level="warning",
        server_header=False,
        # The application answers 503 itself (as JSON) beyond its limit of requests at once.
        limit_concurrency=None,
        # Open connections get 2 s to finish; the jobs' processes then 1.5 s (see web.jobs):
        # one Ctrl-C or SIGTERM ends the server within 5 s.
        timeout_graceful_shutdown=2,
    )

    class Server(uvicorn.Server):
        """uvicorn's server, which also tells the work in progress to end as soon as a stop
        is asked for, before the open connections are waited for, and stops on SIGHUP as on
        SIGTERM. Once it has shut down, the first signal that stopped it is raised again to
        the command line's own handlers: the command ends as every command ends on that
        signal (its one line, exit code 130 or 128 + the signal's number)."""

        def __init__(self, config: uvicorn.Config) -> None:
            super().__init__(config)
            self.stops: list[int] = []

        def handle_exit(self, sig: int, frame: Any) -> None:
            workshop.state.stopping.set()
            self.stops.append(sig)
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield  # signals reach the main thread only
                return
            names = ("SIGINT", "SIGTERM", "SIGHUP")
            signums = [getattr(signal, n) for n in names if hasattr(signal, n)]
            before = {signum: signal.signal(signum, self.handle_exit) for signum in signums}
            try:
                yield
            finally:
                for signum, handler in before.items():
                    signal.signal(signum, handler)
            if self.stops:
                signal.raise_signal(self.stops[0])

    Server(config).run()
