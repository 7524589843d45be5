"""The workshop as a real server (``runarch-gen serve`` in a process of its own): it stops on
one signal whatever runs, holds its memory under thousands of mixed requests, answers while
work is abandoned, and limits jobs by address.

Every request goes to 127.0.0.1 only, in loops bounded in count and time.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

EXE = str(Path(sys.executable).parent / "runarch-gen")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, tmp: Path) -> None:
        self.port = _free_port()
        self.tmp = tmp
        env = {**os.environ, "TMPDIR": str(tmp)}
        self.process = subprocess.Popen(
            [EXE, "serve", "--port", str(self.port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if self.get("/api/games")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def get(self, path: str, conn: http.client.HTTPConnection | None = None) -> tuple[int, bytes]:
        own = conn or self.connection()
        own.request("GET", path)
        response = own.getresponse()
        body = response.read()
        if conn is None:
            own.close()
        return response.status, body

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        conn = self.connection()
        origin = f"http://127.0.0.1:{self.port}"
        conn.request("POST", path, json.dumps(body), {"Origin": origin})
        response = conn.getresponse()
        answer = json.loads(response.read())
        conn.close()
        return response.status, answer

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def stop(self, signum: int) -> float:
        started = time.monotonic()
        self.process.send_signal(signum)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise AssertionError("the server did not stop within 20 s") from None
        return time.monotonic() - started


def _processes_under(folder: Path) -> list[int]:
    """Processes whose working folder lies in ``folder`` (the jobs' workers and commands)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cwd = os.readlink(entry / "cwd")
            except OSError:
                continue
            if cwd.startswith(str(folder)):
                found.append(int(entry.name))
    return found


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    yield running
    if running.process.poll() is None:
        running.stop(signal.SIGTERM)


@pytest.mark.slow
@pytest.mark.parametrize(
    "signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["INT", "TERM", "HUP"]
)
def test_one_signal_ends_the_server_and_its_jobs_within_5_s(
    server: Server, tmp_path: Path, signum: int
) -> None:
    assert server.post("/api/runarch/kit", {"seed": "5", "validate": True})[0] == 202
    assert server.post("/api/playtest", {"game": "runarch", "games": 50000})[0] == 202
    # A request in flight, and an idle keep-alive connection.
    busy = server.connection()
    busy.request("GET", "/api/runarch/boards?engine=cpsat&count=20&diagonals=true")
    idle = server.connection()
    assert server.get("/api/runarch/count", idle)[0] == 200
    deadline = time.monotonic() + 20
    while len(_processes_under(tmp_path)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(_processes_under(tmp_path)) >= 2, "the jobs did not start"
    took = server.stop(signum)
    assert took < 5, f"the server took {took:.1f} s to stop"
    err = server.process.stderr.read() if server.process.stderr else ""
    assert "Traceback" not in err, err
    # The documented stop codes, as every command ends on these signals: 130 for Ctrl-C,
    # 128 + the signal's number for the others, with the command line's one line.
    if signum == signal.SIGINT:
        assert server.process.returncode == 130
        assert err.rstrip().endswith("runarch-gen: interrupted"), err
    else:
        assert server.process.returncode == 128 + signum
        name = signal.Signals(signum).name
        assert err.rstrip().endswith(f"runarch-gen: stopped by {name}"), err
    time.sleep(0.3)
    assert _processes_under(tmp_path) == []
    assert [p.name for p in tmp_path.iterdir()] == []  # the job folder is gone
    busy.close()
    idle.close()


@pytest.mark.slow
def test_memory_stays_flat_under_thousands_of_mixed_requests(server: Server) -> None:
    conn = server.connection()
    paths = [
        "/api/runarch/count?fix=a1=5Y&fix=b1=5R",  # a conflict, asked again and again
        "/api/runarch/count?forbid=c3=0R&forbid=d4=6V",
        "/api/runarch/count?seed=%C2%B2",  # '²': 400
        "/api/runarch/board?seed=12345678901234567890",  # over the limit: 400
        "/api/runarch/board?seed=7&fix=c3=5Y",
        "/api/runarch/grid.svg?fix=a1=5Y&forbid=b2=0R",
        "/api/runarch/boards?count=3&seed=2",
        "/api/jobs/nope",  # 404
        "/nowhere/at/all",  # 404
        "/api/runarch/count?diagonals=maybe",  # 400
        "/api/games",
    ]
    statuses: dict[int, int] = {}

    def burst(n: int) -> None:
        for i in range(n):
            status, _ = server.get(paths[i % len(paths)], conn)
            statuses[status] = statuses.get(status, 0) + 1

    burst(600)  # warm: caches, tables, the thread pool
    before = server.rss_kib()
    started = time.monotonic()
    burst(3300)
    after = server.rss_kib()
    conn.close()
    assert set(statuses) == {200, 400, 404}, statuses
    grown = (after - before) / 1024
    print(f"RSS {before / 1024:.1f} → {after / 1024:.1f} MiB in {time.monotonic() - started:.1f} s")
    assert grown < 4, f"the server grew by {grown:.1f} MiB over 3,300 requests"


def test_a_cookie_does_not_make_another_client(server: Server) -> None:
    body = {"game": "runarch", "games": 50000, "seed": "1"}
    first = server.post("/api/playtest", body)
    assert first[0] == 202
    for cookie in range(3):
        conn = server.connection()
        headers = {
            "Origin": f"http://127.0.0.1:{server.port}",
            "Cookie": f"rg_client={cookie:020d}",
        }
        conn.request("POST", "/api/playtest", json.dumps(body), headers)
        response = conn.getresponse()
        assert response.status == 429, response.read()
        response.read()
        conn.close()
    assert server.post(f"/api/jobs/{first[1]['id']}/cancel", {})[0] == 200


def test_an_abandoned_explanation_is_dropped_and_others_are_answered(server: Server) -> None:
    # Conflicts among hundreds of bans: explained (or not) within 2 s; a client that leaves
    # early frees its place; plain counts keep their speed meanwhile.
    import random

    from runarch_gen.runarch.atoms import PIECES, square_name
    from runarch_gen.runarch.boards.constraints import BoardConstraints
    from runarch_gen.runarch.boards.generate import count_boards

    rng = random.Random(4)
    queries: list[str] = []
    while len(queries) < 6:
        bans = [f"{square_name(rng.randrange(25))}={rng.choice(PIECES).code}" for _ in range(400)]
        if count_boards(BoardConstraints.parse(forbids=bans)) == 0:
            queries.append("&".join(f"forbid={b}" for b in bans))
    for query in queries[:4]:  # asked, then abandoned
        conn = server.connection()
        conn.request("GET", f"/api/runarch/count?{query}")
        conn.close()
    for query in queries[4:]:
        started = time.monotonic()
        status, body = server.get(f"/api/runarch/count?{query}")
        took = time.monotonic() - started
        assert status == 400 and json.loads(body)["error"].startswith("contradictory options: ")
        assert took < 2.5, took
    started = time.monotonic()
    assert server.get("/api/runarch/count?fix=a1=5Y&fix=d1=5B")[0] == 400  # a plain conflict
    assert time.monotonic() - started < 1.0


def test_errors_of_the_server_itself_are_json(server: Server) -> None:
    conn = server.connection()
    conn.request("PUT", "/api/runarch/count")
    response = conn.getresponse()
    assert response.status == 405
    assert "not allowed" in json.loads(response.read())["error"]
    conn.request("GET", "/api/runarch/count", headers={"Host": "evil.example"})
    response = conn.getresponse()
    assert response.status == 400 and json.loads(response.read()) == {
        "error": "invalid host header"
    }
    conn.close()
