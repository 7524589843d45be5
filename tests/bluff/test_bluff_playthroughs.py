"""Golden playthroughs (OpenSpiel style): whole games written as action texts with their
results, replayed text by text; a change of the engine's behaviour shows here first.

``data/playthroughs.txt`` holds blocks: ``# game GAME``, ``# result …``, ``# round N: …`` per
challenge, then one action text a line (chance included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runarch_gen.bluff.engine import BluffState
from runarch_gen.games import find_game

DATA = Path(__file__).parent / "data" / "playthroughs.txt"


def _blocks() -> list[tuple[str, list[str], list[str]]]:
    blocks: list[tuple[str, list[str], list[str]]] = []
    for line in DATA.read_text("utf-8").splitlines():
        if line.startswith("# game "):
            blocks.append((line.removeprefix("# game "), [], []))
        elif line.startswith("# "):
            blocks[-1][1].append(line.removeprefix("# "))
        elif line.strip():
            blocks[-1][2].append(line)
    return blocks


@pytest.mark.parametrize(("game", "notes", "actions"), _blocks(), ids=lambda v: str(v)[:40])
def test_a_golden_game_replays_to_its_recorded_result(
    game: str, notes: list[str], actions: list[str]
) -> None:
    state = find_game(game).new_initial_state()
    assert isinstance(state, BluffState)
    for text in actions:
        action = state.string_to_action(text)
        assert state.action_to_string(action) == text
        state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    winners = " ".join(f"p{w + 1}" for w in outcome.winners)
    dice = " ".join(map(str, state.dice))
    seen = [f"result {outcome.termination} winners {winners} dice {dice} rounds {state.round}"]
    seen += [f"round {r.round}: {r.summary()}" for r in state.results]
    assert seen == notes
