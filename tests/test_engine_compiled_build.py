"""The optional compiled build's switch and module list (``hatch_build.py``): the plain install
stays pure Python unless the environment asks, and every module it compiles exists."""

from __future__ import annotations

from pathlib import Path

import hatch_build
import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.parametrize("value", ["", "0", "no", "false", "off", " OFF "])
def test_the_plain_install_compiles_nothing(monkeypatch, value: str) -> None:
    monkeypatch.setenv(hatch_build.SWITCH, value)
    assert not hatch_build.compile_requested()


def test_without_the_switch_nothing_is_compiled(monkeypatch) -> None:
    monkeypatch.delenv(hatch_build.SWITCH, raising=False)
    assert not hatch_build.compile_requested()


@pytest.mark.parametrize("value", ["1", "yes", "true", "on", "True"])
def test_the_switch_asks_for_the_compiled_build(monkeypatch, value: str) -> None:
    monkeypatch.setenv(hatch_build.SWITCH, value)
    assert hatch_build.compile_requested()


def test_a_switch_value_it_does_not_know_stops_the_build_saying_so(monkeypatch) -> None:
    monkeypatch.setenv(hatch_build.SWITCH, "maybe")
    with pytest.raises(SystemExit, match="RUNARCH_GEN_COMPILE='maybe'"):
        hatch_build.compile_requested()


def test_every_compiled_module_is_an_engine_or_bot_module_that_exists() -> None:
    assert len(set(hatch_build.COMPILED)) == len(hatch_build.COMPILED)
    for path in hatch_build.COMPILED:
        assert (SRC / path).is_file(), path
        assert path.startswith(("runarch_gen/runarch/engine/", "runarch_gen/runarch/bots/"))
    # The hot paths: the state, its tables, the greedy bot and its planning.
    for module in ("engine/state.py", "engine/tables.py", "bots/greedy.py", "bots/planning.py"):
        assert f"runarch_gen/runarch/{module}" in hatch_build.COMPILED


def test_a_bot_subclass_written_in_python_plays_its_own_moves() -> None:
    # The compiled build keeps the bot classes open to Python subclasses (mypyc_attr), and the
    # greedy bot's step calls the subclass's move.
    import random

    from runarch_gen.play.bot import play_out
    from runarch_gen.runarch.bots import GreedyBot
    from runarch_gen.runarch.engine import RunArchGame
    from runarch_gen.runarch.engine.actions import END
    from runarch_gen.runarch.engine.sample import sample_board, sample_deck
    from runarch_gen.runarch.rules import parse_rules

    class LastSwap(GreedyBot):
        moves = 0

        def move(self, observation, legal_actions):
            LastSwap.moves += 1
            return max(a for a in legal_actions if a != END)

    game = RunArchGame(parse_rules("simple(stall=20)"), sample_board(), sample_deck())
    state = game.new_initial_state(random.Random(3))
    play_out(state, [LastSwap(random.Random(1)), LastSwap(random.Random(2))])
    assert LastSwap.moves > 0 and state.is_terminal()
