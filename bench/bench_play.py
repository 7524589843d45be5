"""The play API's speed: how long the server takes to answer a move, game by game.

    python bench/bench_play.py            # 3 games of each game, every move timed
    python bench/bench_play.py --quick    # 1 game of each

Each game is played through the API in this process (Starlette's test client: the whole
application, its guards and JSON included, without the network): a person who picks a legal
action at random against the game's default bot, the bots without delay. Figures: per game,
the time the application spent on ``POST /api/play/ID/action`` (its ``Server-Timing``: the
person's action, every bot answer and chance draw up to the person's next turn, the undo
check, the seat's view) and on ``GET /api/play/ID`` — median, 90th percentile and maximum.
Target: a move answered in under 100 ms but for the bots' own thinking.
"""

from __future__ import annotations

import argparse
import random
import statistics
import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from machine import load
from runarch_gen.web.app import create_app

GAMES = {
    "runarch": "variant=complex,set=sample",
    "bluff": "players=4",
    "malacca": "players=4",
    "backgammon": "match=3",
}
BASE = "http://127.0.0.1:8000"


def server_ms(response: Any) -> float:
    return float(response.headers["server-timing"].split("dur=")[1])


def play(client: TestClient, game: str, rules: str, seed: int) -> tuple[list[float], list[float]]:
    made = client.post("/api/play", json={"game": game, "rules": rules, "delay": "0",
                                          "seed": str(seed)})  # fmt: skip
    made.raise_for_status()
    url = made.json()["url"]
    payload = made.json()
    rng = random.Random(seed)
    moves: list[float] = []
    looks: list[float] = []
    while payload["result"] is None and len(moves) < 2000:
        if payload["legal"]:
            response = client.post(f"{url}/action", json={"action": rng.choice(payload["legal"])})
            moves.append(server_ms(response))
        else:
            response = client.get(url)
            looks.append(server_ms(response))
        response.raise_for_status()
        payload = response.json()
    looks.extend(server_ms(client.get(url)) for _ in range(20))
    client.post(f"{url}/end")
    return moves, looks


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered):6.1f} ms, p90 {p90:6.1f} ms,"
        f" max {ordered[-1]:7.1f} ms ({len(ordered)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one game of each")
    args = parser.parse_args()
    games = 1 if args.quick else 3
    print(f"load average before: {load()}")
    with TestClient(create_app(), base_url=BASE, headers={"Origin": BASE}) as client:
        for game, rules in GAMES.items():
            moves: list[float] = []
            looks: list[float] = []
            for seed in range(games):
                m, lk = play(client, game, rules, seed)
                moves += m
                looks += lk
            print(f"{game}({rules})")
            print(f"  a move (the bots' answers included): {summary(moves)}")
            print(f"  a look at the game:                  {summary(looks)}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
