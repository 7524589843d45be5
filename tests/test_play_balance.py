"""Balance findings with their evidence, and suggest(): the first change that removes one,
backed by the games it reports. The toy game is Pig, whose first player has an edge that
shrinks as the target grows (66 % at 10 points, 53 % at 80)."""

from __future__ import annotations

from runarch_gen.play.balance import balance_findings, suggest
from runarch_gen.play.playtest import playtest
from runarch_gen.play.registry import Value
from runarch_gen.play.report import GameResult, PlayReport
from tests.toy_game import PIG


def pig(games: int, **given: str) -> PlayReport:
    values: dict[str, Value] = PIG.game_type.parse_parameters({"limit": "2000", **given})
    return playtest(PIG, values, ["hold12"], games=games, seed=1, workers=1)


def test_a_first_player_edge_is_found_with_its_evidence() -> None:
    played = pig(600, target="10")
    (finding,) = [f for f in balance_findings(played.results, played.sides) if f.kind == "seat"]
    assert finding.subject == "first" and finding.measure > 0.6
    assert finding.evidence["p_value"] < 0.01 and finding.evidence["decided"] == 600
    assert "first player has an edge" in finding.headline


def test_no_finding_where_the_game_is_fair() -> None:
    games = [
        GameResult(i, ("a", "b"), i % 2, 10, "end", False, ((i // 2) % 2,), (1.0, 0.0), (1, -1))
        for i in range(400)
    ]
    assert balance_findings(games, ("white", "black")) == []


def test_a_side_winning_nearly_always_makes_the_game_one_sided() -> None:
    games = [
        GameResult(
            i, ("p", "automa"), 0, 10, "end", False, (0,) if i % 50 else (1,), (9, 1), (1, -1)
        )
        for i in range(300)
    ]
    kinds = {f.kind: f for f in balance_findings(games, ("player", "automa"))}
    assert kinds["one-sided"].subject == "player" and kinds["one-sided"].measure == 294 / 300


def test_suggest_returns_the_first_change_that_removes_the_finding() -> None:
    played = pig(600, target="10")
    finding = next(f for f in balance_findings(played.results, played.sides) if f.kind == "seat")
    candidates = [{"target": "20"}, {"target": "40"}, {"target": "80"}, {"target": "100"}]
    proposal = suggest(finding, candidates, lambda change: pig(600, **dict(change)), played.sides)
    assert proposal.found and proposal.change in candidates[1:]
    assert proposal.after is not None and proposal.after < proposal.before
    # the proposal is true of the games it reports: simulating it again shows no seat finding
    again = pig(600, **dict(proposal.change))
    assert not [f for f in balance_findings(again.results, again.sides) if f.kind == "seat"]
    # and every candidate before it was tried and kept the edge
    chosen = candidates.index(dict(proposal.change))
    assert [c for c, _ in proposal.tried] == [f"target={c['target']}" for c in candidates[:chosen]]
    assert all(measure > 0.55 for _, measure in proposal.tried)


def test_suggest_says_so_when_nothing_tried_helps() -> None:
    played = pig(600, target="10")
    finding = next(f for f in balance_findings(played.results, played.sides) if f.kind == "seat")
    proposal = suggest(finding, [{"target": "5"}], lambda c: pig(600, **dict(c)), played.sides)
    assert not proposal.found and proposal.tried[0][0] == "target=5"
    assert "no change tried removes it" in proposal.text()
