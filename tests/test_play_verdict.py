"""The generic verdict: static checks, random games, simulated games, exit codes."""

from __future__ import annotations

import dataclasses

from runarch_gen.play.registry import Value
from runarch_gen.play.verdict import Check, Failure, validate_game
from tests.toy_game import PIG


def values(**given: str) -> dict[str, Value]:
    return PIG.game_type.parse_parameters(given)


def test_a_game_that_ends_is_playable() -> None:
    verdict = validate_game(PIG, values(), bots=["hold12"], games=50, seed=1, workers=1)
    assert verdict.playable and verdict.exit_code == 0 and verdict.verdict == "playable"
    assert [c.name for c in verdict.checks] == ["random games"]
    assert verdict.dynamic[0].games == 50 and verdict.dynamic[0].stalls == 0
    assert verdict.lines()[-1].startswith("verdict: PLAYABLE")


def test_games_that_cannot_reach_the_target_in_time_stall_and_fail() -> None:
    # 100 points in at most 12 actions cannot be banked: every game hits the limit.
    verdict = validate_game(
        PIG, values(target="100", limit="12"), bots=["hold12"], games=40, seed=1, workers=1
    )
    assert not verdict.playable and verdict.exit_code == 1
    assert (
        "40 of 40 simulated games (100.0%) stalled without a proven deadlock"
        in (verdict.reasons[0])
    )


def test_a_few_stalls_pass_unless_strict() -> None:
    # Pig to 30 within 80 actions: 5 of these 200 games run out of actions (2.5 %).
    loose = validate_game(
        PIG, values(target="30", limit="80"), bots=["hold12"], games=200, seed=2, workers=1
    )
    run = loose.dynamic[0]
    assert run.stalls == 5 and loose.playable
    strict = dataclasses.replace(loose, strict=True)
    assert not strict.playable and strict.exit_code == 1
    tighter = dataclasses.replace(loose, stall_tolerance=0.02)
    assert not tighter.playable


def test_the_games_own_failing_check_decides() -> None:
    def checks(_: object) -> list[Check]:
        return [Check("target", "too high", (Failure("target", "P-1", "cannot be reached"),))]

    game = dataclasses.replace(PIG, checks=checks)
    verdict = validate_game(game, values(), games=0, seed=1)
    assert not verdict.playable and verdict.reasons == ("target: target: cannot be reached [P-1]",)
    assert verdict.to_json()["checks"][0]["ok"] is False


def test_balance_findings_come_beside_the_verdict_and_suggest_a_change() -> None:
    def fewer_edges(_: object, finding: object) -> list[dict[str, str]]:
        return [{"target": "20"}, {"target": "60"}, {"target": "100"}]

    game = dataclasses.replace(PIG, suggestions=fewer_edges)
    verdict = validate_game(
        game,
        values(target="10", limit="2000"),
        bots=["hold12"],
        games=600,
        seed=1,
        workers=1,
        propose=True,
    )
    # The first player's edge, and the toy's per-seat label "s0" (always the first player) as
    # a value of its own family: the same edge seen twice, each family corrected apart.
    assert verdict.playable
    assert [(f.kind, f.subject, f.level) for f in verdict.findings] == [
        ("seat", "first", "finding"),
        ("seat", "s0", "finding"),
    ]
    first = verdict.findings[0]
    assert first.effect is not None and first.effect.low is not None and first.effect.low > 0.1
    assert first.p_value is not None and first.p_value < 1e-6 and first.confirm_games
    proposal = verdict.suggestions[0]
    assert proposal.found and proposal.after is not None and proposal.after < proposal.before
    # every candidate was played, and the one nearest 50 % proposed
    assert len(proposal.tried) == 3
    assert abs(proposal.after - 0.5) == min(abs(m - 0.5) for _, m in proposal.tried)
    text = "\n".join(verdict.lines())
    assert "findings:" in text and "suggestion: change target=" in text
    assert "design metrics" in text and "  completion " in text
    assert verdict.to_json()["suggestions"][0]["change"] == dict(proposal.change)
    metrics = verdict.to_json()["metrics"]
    assert metrics["first_player_edge"]["value"] == round(first.effect.value, 4)
