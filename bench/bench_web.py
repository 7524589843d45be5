"""The web workshop's speed, at a real server (``runarch-gen serve`` in its own process).

    python bench/bench_web.py            # 300 boards, 300 counts, 3 rounds of 50 concurrent boards
    python bench/bench_web.py --quick    # fewer requests

Figures: the time the application spent on a request (its ``Server-Timing`` header) and the
round trip seen by a client on the same machine (loopback, HTTP/1.1, one connection per
thread). Targets: a board request < 50 ms and every count < 100 ms at the server, bans
included; a conflict answered (explained, or said without its reason) within 2 s; 50
concurrent board requests all answered, the slowest < 1 s, while a kit builds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from machine import load

SQUARES = [f"{c}{r}" for r in range(1, 6) for c in "abcde"]
CODES = [f"{s}{c}" for c in "RBGYV" for s in "03456"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def timed(client: httpx.Client, url: str, params: object = None) -> tuple[float, float, int]:
    """(server ms, round-trip ms, status)."""
    start = time.perf_counter()
    response = client.get(url, params=params)  # type: ignore[arg-type]
    trip = 1000 * (time.perf_counter() - start)
    server = float(response.headers.get("server-timing", "app;dur=nan").split("dur=")[1])
    return server, trip, response.status_code


def summary(name: str, rows: list[tuple[float, float, int]]) -> str:
    """One line per status: a 400 for contradictory options carries the conflict's reason."""
    lines = []
    for status in sorted({r[2] for r in rows}):
        some = [r for r in rows if r[2] == status]
        label = name if status == 200 else f"{name[:30]} → {status}"
        lines.append(_summary(label, some))
    return "\n".join(lines)


def _summary(name: str, rows: list[tuple[float, float, int]]) -> str:
    server = sorted(r[0] for r in rows)
    trip = sorted(r[1] for r in rows)
    p95 = int(0.95 * (len(rows) - 1))
    return (
        f"{name:<44} n={len(rows):<4} server median {statistics.median(server):6.2f} ms"
        f"  p95 {server[p95]:6.2f}  max {server[-1]:7.2f} | round trip median"
        f" {statistics.median(trip):6.2f}  max {trip[-1]:7.2f} ms"
    )


async def concurrent_boards(
    base: str, n: int, first_seed: int
) -> tuple[list[tuple[float, float, int]], float]:
    """``n`` board requests sent at once, each on its own connection (opened beforehand)."""
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        await asyncio.gather(*(client.get("/api/games") for _ in range(n)))  # open connections

        async def one(seed: int) -> tuple[float, float, int]:
            start = time.perf_counter()
            response = await client.get("/api/runarch/board", params={"seed": str(seed)})
            trip = 1000 * (time.perf_counter() - start)
            server = float(response.headers["server-timing"].split("dur=")[1])
            return server, trip, response.status_code

        started = time.perf_counter()
        rows = await asyncio.gather(*(one(first_seed + i) for i in range(n)))
        return list(rows), 1000 * (time.perf_counter() - started)


def random_pins(rng: random.Random, pins: int, bans: int) -> dict[str, list[str]]:
    squares = rng.sample(SQUARES, pins + bans)
    codes = rng.sample(CODES, pins)
    return {
        "fix": [f"{s}={c}" for s, c in zip(squares[:pins], codes, strict=True)],
        "forbid": [f"{s}={rng.choice(CODES)}" for s in squares[pins:]],
    }


def many_bans(rng: random.Random, n: int) -> list[str]:
    return [f"{rng.choice(SQUARES)}={rng.choice(CODES)}" for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n = 60 if args.quick else 300
    print(f"load: {load()}")
    port = free_port()
    exe = Path(sys.executable).parent / "runarch-gen"
    server = subprocess.Popen([str(exe), "serve", "--port", str(port)], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            for _ in range(200):
                try:
                    client.get("/api/games")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            rng = random.Random(1)
            print(summary("first board (cold process)", [timed(client, "/api/runarch/board")]))
            rows = [timed(client, "/api/runarch/board", {"seed": str(i)}) for i in range(n)]
            print(summary("board, no pins, new seed each", rows))
            rows = [
                timed(client, "/api/runarch/board", {"seed": str(i), **random_pins(rng, 2, 2)})
                for i in range(n)
            ]
            print(summary("board, 2 pins + 2 bans, new each time", rows))
            rows = [
                timed(client, "/api/runarch/board", {"seed": str(i), "format": "json"})
                for i in range(n)
            ]
            print(summary("board --format json", rows))
            rows = [timed(client, "/api/runarch/count", random_pins(rng, 1, 0)) for _ in range(n)]
            print(summary("count, 1 random pin (new constraints)", rows))
            rows = [
                timed(client, "/api/runarch/count", {"diagonals": "true", **random_pins(rng, 3, 3)})
                for _ in range(n)
            ]
            print(summary("count, B-2 + 3 pins + 3 bans (some conflict)", rows))
            rows = [
                timed(client, "/api/runarch/count", {"forbid": many_bans(rng, 300)})
                for _ in range(n // 3)
            ]
            print(summary("count, 300 random bans", rows))
            conflicts: list[tuple[float, float, int]] = []
            while len(conflicts) < (5 if args.quick else 20):
                bans = many_bans(rng, rng.choice([300, 400, 625]))
                row = timed(client, "/api/runarch/count", {"forbid": bans})
                if row[2] == 400:
                    conflicts.append(row)
            print(summary("conflict among 300–625 bans", conflicts))
            rows = [
                timed(client, "/api/runarch/grid.svg", random_pins(rng, 3, 3))
                for _ in range(n // 3)
            ]
            print(summary("grid.svg with 3 pins + 3 bans", rows))

            # A kit with --validate simulates games in each variant: it builds for a while.
            kit = client.post(
                "/api/runarch/kit", json={"seed": "5", "validate": True}, headers={"Origin": base}
            )
            job = kit.json()["id"]
            while "progress" not in client.get(f"/api/jobs/{job}").json():
                time.sleep(0.1)  # the kit command is running
            for round_ in range(1, 4):
                rows, wall = asyncio.run(concurrent_boards(base, 50, 10_000 * round_))
                state = client.get(f"/api/jobs/{job}").json()["state"]
                print(summary(f"50 concurrent boards, kit {state}, round {round_}", rows))
                print(f"{'':<44} all {len(rows)} answered; the last after {wall:.0f} ms")
            client.post(f"/api/jobs/{job}/cancel", headers={"Origin": base})
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
