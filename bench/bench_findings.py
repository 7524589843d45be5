"""How often a game's validation raises each kind of finding over many seeds — and how often it
would without the correction for the number of tests.

    python bench/bench_findings.py                                   # Malacca's characters
    python bench/bench_findings.py --game bluff --rules players=2 --bots bayes,random
    python bench/bench_findings.py --seeds 20 --games 200 --json
    python bench/bench_findings.py --seeds 10 --skill          # with the skill trace's games

For each seed 1…N the game is validated as ``runarch-gen GAME validate --rules R --bots B
-n G --seed S`` does (the skill trace's games only with ``--skill``), and the findings are
counted by kind;
beside them, the seeds in which some test of a family had p < 0.01 and an effect past the
margin *before* Holm's correction (what an uncorrected report would have raised).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from machine import load
from runarch_gen.games import game_values
from runarch_gen.play.balance import SIGNIFICANCE, bot_tests, seat_tests, value_tests
from runarch_gen.play.design import design_of
from runarch_gen.play.verdict import validate_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="malacca")
    parser.add_argument("--rules", default="players=5,characters=random,equipment=on")
    parser.add_argument("--bots", default="")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skill", action="store_true", help="play the skill trace's games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    registration, values = game_values(args.game, args.rules)
    design = design_of(args.game)
    bots = [b for b in args.bots.split(",") if b] or None
    findings: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    uncorrected: Counter[str] = Counter()
    per_seed = []
    for seed in range(1, args.seeds + 1):
        captured: list[Any] = []
        verdict = validate_game(
            registration,
            values,
            bots=bots,
            games=args.games,
            seed=seed,
            workers=args.workers,
            skill=args.skill,
            on_report=captured.append,
        )
        kinds = sorted({f.kind for f in verdict.findings if f.is_finding})
        findings.update(kinds)
        notes.update(sorted({f.kind for f in verdict.findings if not f.is_finding}))
        played = captured[0]
        families = {
            "seat": seat_tests(played.results, played.sides, played.exclude),
            "bot": bot_tests(played.results, played.sides, played.exclude),
        }
        for key in design.values or ():
            families[key] = value_tests(played.results, played.sides, key, played.exclude)
        raw = sorted(
            name
            for name, tests in families.items()
            if any(t.p_value < SIGNIFICANCE and abs(t.effect.value) >= 0.05 for t in tests)
        )
        uncorrected.update(raw)
        per_seed.append({"seed": seed, "findings": kinds, "uncorrected": raw})
    out = {
        "load_average": load(),
        "game": str(registration.load(values)),
        "bots": bots or list(verdict.dynamic[0].bots),
        "games": args.games,
        "seeds": args.seeds,
        "seeds_with_finding": dict(findings),
        "seeds_with_note": dict(notes),
        "seeds_with_uncorrected": dict(uncorrected),
        "per_seed": per_seed,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['game']}, bots {', '.join(out['bots'])}, {args.games} games, seeds 1-{args.seeds}")
    kinds = sorted(set(findings) | set(notes) | set(uncorrected))
    for kind in kinds:
        print(
            f"  {kind:<12} findings in {findings[kind]:>2} seeds, notes in {notes[kind]:>2};"
            f" uncorrected p < {SIGNIFICANCE} past the margin in {uncorrected[kind]:>2}"
        )
    print(f"load average {load()}")


if __name__ == "__main__":
    main()
