"""Vrhcáby's bots measured as the field measures them, against GNU Backgammon.

GNU Backgammon is the oracle here, through the ``gnubg-nn`` package (GPL): this script is run
by hand with that package installed beside runarch-gen (``pip install gnubg-nn``); nothing in
runarch-gen imports it, ships it or needs it.

    python bench/bench_backgammon_gnubg.py positions -n 1000 --seed 1   # gnubg self-play set
    python bench/bench_backgammon_gnubg.py moves --bots neural,neural2,td,heuristic
    python bench/bench_backgammon_gnubg.py moves --bots other.npz,other.npz:2   # new weights
    python bench/bench_backgammon_gnubg.py bearoff -n 1000
    python bench/bench_backgammon_gnubg.py games -n 1000 --bot neural2
    python bench/bench_backgammon_gnubg.py met
    python bench/bench_backgammon_gnubg.py speed
    python bench/bench_backgammon_gnubg.py cube -n 300 [--match 7 --score 2,4] [--bot neural]

- ``positions``: positions from gnubg 0-ply self-play (one in six of the rolls played, only
  those with a choice), each legal play's resulting position evaluated by gnubg at 2-ply
  (cubeless money equity), saved as JSON for the other commands;
- ``moves``: each bot's error per move in millipoints (gnubg's 2-ply equity of its best play
  less that of the bot's play, × 1000), mean with a 95 % interval, by phase, and gnubg's
  rating word;
- ``bearoff``: the same for positions where both sides bear off;
- ``games``: cubeless money games of a bot against gnubg 0-ply, seats and dice alternating,
  the win rate with its 95 % Wilson interval and points a game;
- ``met``: the computed match equity table against the Kazaross-XG2 table gnubg ships
  (Debian's ``gnubg``), every cell to 11-away and the post-Crawford row;
- ``cube``: the strong bot's double/no double and take/pass decisions against gnubg's own
  (its ``hint`` before the roll, Debian's ``gnubg`` program) on the positions of the set,
  in money play or at a match score (``--match 7 --score 2,4``: the player on roll has 2);
- ``speed``: move generation of runarch-gen and of gnubg-nn over the same 1,000 positions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

import gnubg_nn as gnubg  # type: ignore[import-untyped,import-not-found,unused-ignore]
import numpy as np

from runarch_gen.backgammon.board import START, Side, legal_plays
from runarch_gen.backgammon.ids import parse_position_id, position_id
from runarch_gen.backgammon.nets import classify

DATA = Path("output/gnubg_positions.json")
RATINGS = (
    (2.0, "supernatural"),
    (5.0, "world class"),
    (8.0, "expert"),
    (12.0, "advanced"),
    (18.0, "intermediate"),
    (26.0, "casual player"),
    (35.0, "beginner"),
    (math.inf, "awful"),
)


def rating(mp: float) -> str:
    return next(word for limit, word in RATINGS if mp < limit)


def board(mover: Side, other: Side) -> list[list[int]]:
    """gnubg's board: the player not on roll first, points 1-24 and the bar."""
    return [list(other[1:26]), list(mover[1:26])]


def gnubg_equity(mover: Side, other: Side, plies: int) -> float:
    """gnubg's cubeless money equity of the player on roll."""
    p = gnubg.probabilities(board(mover, other), plies)
    return float(2 * p[0] - 1 + p[1] + p[2] - p[3] - p[4])


def after_equity(play_mover: Side, play_other: Side, plies: int) -> float:
    """The mover's equity after his play (the opponent on roll)."""
    return -gnubg_equity(play_other, play_mover, plies)


def gnubg_play(mover: Side, other: Side, dice: tuple[int, int]) -> tuple[Side, Side] | None:
    plays = legal_plays(mover, other, *dice)
    if not plays:
        return None
    values = [after_equity(p.mover, p.other, 0) for p in plays]
    best = plays[int(np.argmax(values))]
    return best.mover, best.other


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    spread = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return mean, mean - spread, mean + spread


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def make_positions(count: int, seed: int, path: Path, only_bearoff: bool = False) -> None:
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    started = time.perf_counter()
    while len(rows) < count:
        sides = [START, START]
        turn = rng.randrange(2)
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            mover, other = sides[turn], sides[1 - turn]
            plays = legal_plays(mover, other, *dice)
            kind = int(classify(np.array([mover]), np.array([other]))[0])
            wanted = kind == 2 if only_bearoff else rng.random() < 1 / 6
            if len(plays) > 1 and wanted:
                # gnubg's own move filter: the best 8 plays at 0-ply within 0.16 go to 2-ply;
                # a bot's play outside them is evaluated at 2-ply when it is measured
                zero = [after_equity(p.mover, p.other, 0) for p in plays]
                order = sorted(range(len(plays)), key=lambda i: -zero[i])
                top = [i for i in order[:8] if zero[i] >= zero[order[0]] - 0.16]
                equities = {
                    position_id(plays[i].mover, plays[i].other): after_equity(
                        plays[i].mover, plays[i].other, 2
                    )
                    for i in top
                }
                rows.append(
                    {
                        "position": position_id(mover, other),
                        "dice": list(dice),
                        "kind": ["contact", "race", "bearoff", "over"][kind],
                        "equities": equities,
                    }
                )
                if len(rows) % 50 == 0:
                    print(f"{len(rows)} positions, {time.perf_counter() - started:.0f} s",
                          file=sys.stderr)  # fmt: skip
                if len(rows) >= count:
                    break
            chosen = gnubg_play(mover, other, dice)
            if chosen is not None:
                sides[turn], sides[1 - turn] = chosen
                if chosen[0][0] == 15:
                    break
            turn = 1 - turn
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows))
    print(f"{len(rows)} positions written to {path}")


def bot_choice(name: str):  # type: ignore[no-untyped-def]
    """A function (mover, other, dice) -> resulting position ID of the bot's play."""
    from runarch_gen.backgammon import bots
    from runarch_gen.backgammon.evaluator import equity as td_equity

    if name in ("neural", "neural2"):
        from runarch_gen.backgammon.nets import load_evaluator
        from runarch_gen.backgammon.search import rank_plays

        evaluator = load_evaluator()
        plies = 2 if name == "neural2" else 1

        def neural(mover: Side, other: Side, dice: tuple[int, int]) -> str:
            best = rank_plays(evaluator, mover, other, dice, plies=plies)[0].play
            return position_id(best.mover, best.other)

        return neural
    if name.endswith((".npz", ".npz:2")):  # other weights, at 1-ply (or 2-ply with ":2")
        from runarch_gen.backgammon.nets import Evaluator
        from runarch_gen.backgammon.search import rank_plays

        evaluator = Evaluator.load(name.removesuffix(":2"))
        plies = 2 if name.endswith(":2") else 1

        def weights(mover: Side, other: Side, dice: tuple[int, int]) -> str:
            best = rank_plays(evaluator, mover, other, dice, plies=plies)[0].play
            return position_id(best.mover, best.other)

        return weights
    if name == "gnubg0":

        def zero(mover: Side, other: Side, dice: tuple[int, int]) -> str:
            chosen = gnubg_play(mover, other, dice)
            assert chosen is not None
            return position_id(*chosen)

        return zero
    if name == "heuristic":

        def heuristic(mover: Side, other: Side, dice: tuple[int, int]) -> str:
            plays = legal_plays(mover, other, *dice)
            scores = [bots.heuristic_score(p.mover, p.other) for p in plays]
            best = plays[max(range(len(plays)), key=lambda i: (scores[i], -i))]
            return position_id(best.mover, best.other)

        return heuristic
    if name in ("td", "td2"):
        from runarch_gen.backgammon.evaluator import load_network

        net = load_network()
        deep = bots.TDDeepBot(random.Random(0))

        def td(mover: Side, other: Side, dice: tuple[int, int]) -> str:
            plays = legal_plays(mover, other, *dice)
            if name == "td2":
                first = -td_equity(net.evaluate([(p.other, p.mover) for p in plays]))
                order = sorted(range(len(plays)), key=lambda i: -first[i])[:3]
                best = max(order, key=lambda i: deep._after_replies(plays[i].other, plays[i].mover))
            else:
                best = int(np.argmax(-td_equity(net.evaluate([(p.other, p.mover) for p in plays]))))
            return position_id(plays[best].mover, plays[best].other)

        return td
    raise SystemExit(f"unknown bot {name}")


def measure_moves(names: list[str], path: Path, limit: int) -> None:
    everything = json.loads(path.read_text())
    rows = everything[:limit] if limit else everything
    changed = False
    for name in names:
        choose = bot_choice(name)
        errors: dict[str, list[float]] = {"all": []}
        worst: tuple[float, str] = (0.0, "")
        started = time.perf_counter()
        for row in rows:
            mover, other = parse_position_id(row["position"])
            dice = (row["dice"][0], row["dice"][1])
            chosen = choose(mover, other, dice)
            equities = row["equities"]
            if chosen not in equities:
                after = parse_position_id(chosen)
                equities[chosen] = -gnubg_equity(after[1], after[0], 2)
                changed = True
            error = 1000.0 * (max(equities.values()) - equities[chosen])
            errors["all"].append(error)
            errors.setdefault(row["kind"], []).append(error)
            if error > worst[0]:
                worst = (error, f"{row['position']} {dice[0]}{dice[1]}")
        elapsed = time.perf_counter() - started
        parts = []
        for kind, values in errors.items():
            mean, low, high = mean_interval(values)
            parts.append(f"{kind} {mean:.1f} ({low:.1f}-{high:.1f}, n={len(values)})")
        mean = statistics.fmean(errors["all"])
        print(
            f"{name:>10}: {'; '.join(parts)} mp/move -> {rating(mean)};"
            f" worst {worst[0]:.0f} at {worst[1]}; {elapsed:.0f} s"
        )
    if changed:  # keep the 2-ply equities found for the plays outside gnubg's filter
        path.write_text(json.dumps(everything))


def play_games(name: str, count: int, seed: int) -> None:
    choose = bot_choice(name)
    rng = random.Random(seed)
    wins = 0
    points = 0.0
    started = time.perf_counter()
    for index in range(count):
        sides = [START, START]
        bot_seat = index % 2
        turn = rng.randrange(2)
        game_rng = random.Random(rng.randrange(2**63))
        while True:
            dice = (game_rng.randint(1, 6), game_rng.randint(1, 6))
            mover, other = sides[turn], sides[1 - turn]
            if legal_plays(mover, other, *dice):
                if turn == bot_seat:
                    after = parse_position_id(choose(mover, other, dice))
                else:
                    after = gnubg_play(mover, other, dice)  # type: ignore[assignment]
                assert after is not None
                sides[turn], sides[1 - turn] = after[0], after[1]
                if after[0][0] == 15:
                    loser = after[1]
                    kind = 1 if loser[0] else (3 if loser[25] or any(loser[19:25]) else 2)
                    won = turn == bot_seat
                    wins += won
                    points += kind if won else -kind
                    break
            turn = 1 - turn
        if (index + 1) % 100 == 0:
            print(f"{index + 1} games: {wins / (index + 1):.1%}", file=sys.stderr)
    low, high = wilson(wins, count)
    print(
        f"{name} vs gnubg 0-ply, {count} cubeless money games: wins {wins / count:.1%}"
        f" (95 % {low:.1%}-{high:.1%}), {points / count:+.3f} points a game,"
        f" {time.perf_counter() - started:.0f} s"
    )


KAZAROSS_FILE = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")  # Debian's gnubg package


def compare_met() -> None:
    """Every cell to 11-away against the Kazaross-XG2 table that gnubg ships."""
    import re

    from runarch_gen.backgammon.cube import met, post_crawford_table

    text = KAZAROSS_FILE.read_text()
    pre = text[text.index("<pre-crawford-table") : text.index("</pre-crawford-table>")]
    rows = [
        [float(v) for v in re.findall(r"<me>\s*([0-9.]+)\s*</me>", row)]
        for row in re.findall(r"<row>(.*?)</row>", pre, re.S)
    ]
    post = text[text.index("<post-crawford-table") :]
    post_row = [float(v) for v in re.findall(r"<me>\s*([0-9.]+)\s*</me>", post)]
    length = 11
    table = met(length)
    worst = (0.0, 0, 0)
    over = 0
    for a in range(1, length + 1):
        for b in range(1, length + 1):
            diff = abs(table[a][b] - rows[a - 1][b - 1])
            over += diff > 0.02
            if diff > worst[0]:
                worst = (diff, a, b)
    ours_post = post_crawford_table(length)
    post_worst = max(abs(ours_post[n] - post_row[n - 1]) for n in range(1, length + 1))
    print(
        f"met to 11-away vs Kazaross-XG2 ({KAZAROSS_FILE}): largest difference"
        f" {worst[0]:.4f} at {worst[1]}-away/{worst[2]}-away; {over} of 121 cells more than"
        f" 0.02 away; 3-away/5-away {table[3][5]:.4f} (published {rows[2][4]:.4f});"
        f" post-Crawford row largest difference {post_worst:.4f}"
    )


def measure_speed(count: int) -> None:
    rng = random.Random(1)
    cases: list[tuple[Side, Side, int, int]] = []
    while len(cases) < count:
        sides = [START, START]
        turn = 0
        for _ in range(rng.randint(1, 120)):
            plays = legal_plays(sides[turn], sides[1 - turn], rng.randint(1, 6), rng.randint(1, 6))
            if plays:
                chosen = rng.choice(plays)
                if chosen.mover[0] == 15:
                    break
                sides[turn], sides[1 - turn] = chosen.mover, chosen.other
            turn = 1 - turn
        cases.append((sides[turn], sides[1 - turn], rng.randint(1, 6), rng.randint(1, 6)))
    boards = [board(m, o) for m, o, _, _ in cases]
    ours = theirs = math.inf
    # CPU time, the best of several rounds taken in turn: the machine may be shared
    for _ in range(9):
        started = time.process_time()
        for m, o, a, b in cases:
            legal_plays(m, o, a, b)
        ours = min(ours, time.process_time() - started)
        started = time.process_time()
        for brd, (_, _, a, b) in zip(boards, cases, strict=True):
            gnubg.moves(brd, a, b, 1)
        theirs = min(theirs, time.process_time() - started)
    play_count = sum(len(legal_plays(m, o, a, b)) for m, o, a, b in cases)
    print(
        f"move generation, {count} positions ({play_count / count:.1f} plays each):"
        f" runarch-gen {ours * 1e6 / count:.1f} us, gnubg-nn {theirs * 1e6 / count:.1f} us"
        f" a position (CPU time); ratio {ours / theirs:.2f}"
    )


def mat_round_trip(count: int, seed: int) -> None:
    """Records written by runarch-gen, imported and exported again by the gnubg program
    (Debian's ``gnubg``), read back: the same actions, and the same text but for gnubg's
    date line and trailing spaces."""
    import subprocess
    import tempfile

    from runarch_gen.backgammon.record import read_match, write_match
    from runarch_gen.backgammon.rules import Rules
    from runarch_gen.backgammon.tools import play_game

    same_actions = same_text = 0
    rules = [Rules(match=5), Rules(match=7), Rules(), Rules(jacoby=False)]
    with tempfile.TemporaryDirectory() as folder:
        for index in range(count):
            state = play_game(rules[index % len(rules)], ("neural", "heuristic"), seed + index)
            ours = Path(folder) / f"r{index}.mat"
            theirs = Path(folder) / f"g{index}.mat"
            ours.write_text(write_match(state))
            script = f"import mat {ours}\nexport match mat {theirs}\nquit\ny\n"
            subprocess.run(["/usr/games/gnubg", "-t", "-q"], input=script, text=True,
                           capture_output=True, timeout=300, check=False)  # fmt: skip
            back = theirs.read_text()
            again = read_match(back, str(theirs))
            # ties of the opening roll are not written: compare the games and their plays
            mine = read_match(ours.read_text(), str(ours))
            same_actions += [g.games for g in again] == [g.games for g in mine] and [
                [a for a in g.history() if a >= 1000] for g in again
            ] == [[a for a in g.history() if a >= 1000] for g in mine]
            strip = [line.rstrip() for line in back.splitlines() if "EventDate" not in line]
            while strip and not strip[0]:
                strip.pop(0)
            same_text += strip == [line.rstrip() for line in ours.read_text().splitlines()]
    print(
        f".mat round trip through gnubg, {count} records: {same_actions} replay to the same"
        f" games and plays, {same_text} come back as the same text (but gnubg's date line)"
    )


def gnubg_cube_actions(positions: list[str], match_id: str) -> list[str]:
    """gnubg's proper cube action (its ``hint`` before the roll) for each Position ID."""
    import subprocess

    script = ["set player 0 human", "set player 1 human", "new game", f"set matchid {match_id}"]
    for pid in positions:
        script += [f"set matchid {match_id}", f"set board {pid}", "hint"]
    result = subprocess.run(
        ["/usr/games/gnubg", "-t", "-q"],
        input="\n".join(script) + "\n",
        text=True,
        capture_output=True,
        timeout=3600,
        check=False,
    )
    actions: list[str] = []
    for line in result.stdout.splitlines():
        if line.startswith("Proper cube action:"):
            actions.append(line.split(":", 1)[1].strip().lower())
        elif line.startswith("You cannot double"):
            actions.append("cannot double")
    return actions


def measure_cube(
    count: int, path: Path, length: int, scores: tuple[int, int], bot: str = "neural2"
) -> None:
    """Double/no double and take/pass decisions of the strong bot against gnubg's on the
    positions of the gnubg self-play set (before the roll), money play or a match score; the
    chances as ``hint`` finds them (``--bot neural2``, its default, 2-ply; ``neural`` 1-ply;
    other weights ``FILE.npz`` at 1-ply or ``FILE.npz:2``)."""
    from runarch_gen.backgammon.cube import CubeContext, cube_decision
    from runarch_gen.backgammon.ids import MatchInfo, match_id
    from runarch_gen.backgammon.nets import Evaluator, load_evaluator
    from runarch_gen.backgammon.search import position_chances

    if bot in ("neural", "neural2"):
        evaluator, plies = load_evaluator(), 2 if bot == "neural2" else 1
    elif bot.endswith((".npz", ".npz:2")):
        evaluator, plies = Evaluator.load(bot.removesuffix(":2")), 2 if bot.endswith(":2") else 1
    else:
        raise SystemExit(f"cube: --bot neural, neural2, FILE.npz or FILE.npz:2, not {bot}")
    rows = json.loads(path.read_text())[:count]
    info = MatchInfo(on_roll=1, turn=1, length=length, scores=scores, jacoby=not length)
    mid = match_id(info)
    context = CubeContext.from_match(info)
    started = time.perf_counter()
    theirs = gnubg_cube_actions([row["position"] for row in rows], mid)
    ours: list[tuple[bool, bool]] = []
    for row in rows:
        mover, other = parse_position_id(row["position"])
        decision = cube_decision(position_chances(evaluator, mover, other, plies), context)
        ours.append((decision.double, decision.take))
    double_same = take_same = doubles_theirs = doubles_ours = 0
    take_cases = 0
    for (double, take), action in zip(ours, theirs, strict=False):
        gnubg_double = action.startswith(("double", "redouble"))
        gnubg_take = "pass" not in action
        doubles_theirs += gnubg_double
        doubles_ours += double
        double_same += double == gnubg_double
        if gnubg_double or double:
            take_cases += 1
            take_same += take == gnubg_take
    n = min(len(ours), len(theirs))
    low, high = wilson(double_same, n)
    where = f"{length}-point match at {scores[0]}-{scores[1]}" if length else "money play"
    take_rate = take_same / take_cases if take_cases else float("nan")
    print(
        f"cube vs gnubg, {n} positions ({where}, {mid}): double/no double agree"
        f" {double_same / n:.1%} (95 % {low:.1%}-{high:.1%}); doubles: ours {doubles_ours},"
        f" gnubg {doubles_theirs}; take/pass agree {take_rate:.1%} of {take_cases} where"
        f" either doubles; {time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", choices=["positions", "moves", "bearoff", "games", "met", "speed", "mat", "cube"]
    )
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="neural,neural2")
    parser.add_argument("--bot", default="neural2")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--match", type=int, default=0, help="cube: match length (0 money)")
    parser.add_argument("--score", default="0,0", help="cube: the scores, on roll first")
    args = parser.parse_args()
    gnubg.set.seed(args.seed)
    if args.what == "positions":
        make_positions(args.n, args.seed, args.data)
    elif args.what == "bearoff":
        path = args.data.with_name("gnubg_bearoff.json")
        if not path.exists():
            make_positions(args.n, args.seed, path, only_bearoff=True)
        measure_moves(args.bots.split(","), path, args.n)
    elif args.what == "moves":
        measure_moves(args.bots.split(","), args.data, args.n)
    elif args.what == "games":
        play_games(args.bot, args.n, args.seed)
    elif args.what == "met":
        compare_met()
    elif args.what == "cube":
        first, second = (int(x) for x in args.score.split(","))
        measure_cube(args.n, args.data, args.match, (second, first), args.bot)
    elif args.what == "mat":
        mat_round_trip(args.n, args.seed)
    else:
        measure_speed(args.n)


if __name__ == "__main__":
    main()
