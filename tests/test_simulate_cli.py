"""``runarch-gen simulate`` and ``deck --calibrate`` from the command line."""

from __future__ import annotations

import json

import pytest

from runarch_gen.cli import run
from runarch_gen.play.simulate import GameRun
from runarch_gen.runarch.boards.io import format_board
from runarch_gen.runarch.decks.io import read_deck, write_deck
from runarch_gen.runarch.engine.sample import sample_board, sample_deck


@pytest.fixture
def files(tmp_path) -> tuple[str, str]:
    board = tmp_path / "board.txt"
    board.write_text(format_board(sample_board(), "text"), encoding="utf-8")
    deck = tmp_path / "deck.json"
    write_deck(sample_deck(), deck)
    return str(board), str(deck)


def test_simulate_prints_a_json_report(files, capsys) -> None:
    board, deck = files
    code = run(
        [
            "simulate",
            "-n",
            "6",
            "--seed",
            "2",
            "--bots",
            "greedy,random",
            "--board",
            board,
            "--deck",
            deck,
            "--json",
            "-j",
            "1",
        ]
    )
    assert code == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert report["games"] == 6 and report["bots"] == ["greedy", "random"]
    assert report["board"].endswith("board.txt") and report["deck"].endswith("deck.json")
    assert "games/s" in out.err


def test_simulate_text_table_and_plots(files, tmp_path, capsys) -> None:
    board, deck = files
    plots = tmp_path / "charts"
    code = run(
        [
            "simulate",
            "-n",
            "4",
            "--seed",
            "1",
            "--variant",
            "simple",
            "--board",
            board,
            "--deck",
            deck,
            "--plots",
            str(plots),
        ]
    )
    assert code == 0
    assert "simple: 4 of 4 games" in capsys.readouterr().out
    assert {p.name for p in plots.iterdir()} >= {"scores.png", "first-player.png"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "clever"], "unknown bot 'clever'"),
        (["--variant", "chess"], "unknown variant 'chess'"),
        (["--variant", "complex(deal=7)"], "option deal"),
        (["--games", "0"], "'--games'"),
        (["--workers", "0"], "'--workers' / '-j': 0 is not in the range x>=1"),
        (["--deck", "missing.json"], "missing.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, capsys) -> None:
    assert run(["simulate", "--seed", "1", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_interrupted_simulation_prints_what_finished_and_exits_130(files, monkeypatch, capsys):
    board, deck = files
    from runarch_gen.play import simulate as runner
    from runarch_gen.runarch.analysis import simulation

    real = runner.run_games

    def interrupted(*args, **kwargs) -> GameRun:  # type: ignore[type-arg]
        done = real(*args, **{**kwargs, "games": 3})
        return GameRun(done.results, done.indices, 10, True)

    monkeypatch.setattr(simulation, "run_games", interrupted)
    code = run(["simulate", "-n", "10", "--seed", "1", "--board", board, "--deck", deck])
    out = capsys.readouterr()
    assert code == 130
    assert "3 of 10 games (interrupted)" in out.out
    assert "interrupted after 3 of 10 games" in out.err


def test_deck_calibrate_records_how_in_the_deck(tmp_path, capsys) -> None:
    target = tmp_path / "deck.json"
    code = run(
        [
            "deck",
            "--cards",
            "30",
            "--seed",
            "3",
            "--calibrate",
            "--calibrate-games",
            "12",
            "-j",
            "1",
            "-o",
            str(target),
        ]
    )
    assert code == 0
    deck = read_deck(target)
    assert deck.calibration is not None
    assert (deck.calibration.variant, deck.calibration.games, deck.calibration.seed) == (
        "complex",
        12,
        3,
    )
    assert deck.calibration.bots == ("greedy",) and "reward" in capsys.readouterr().err


def test_deck_calibrate_bad_options_exit_2(tmp_path, capsys) -> None:
    target = tmp_path / "deck.json"
    assert run(["deck", "--calibrate", "--calibrate-games", "0", "-o", str(target)]) == 2
    assert run(["deck", "--calibrate", "--calibrate-variant", "nope", "-o", str(target)]) == 2
    capsys.readouterr()
    assert run(["deck", "--calibrate", "--workers", "0", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'--workers' / '-j': 0 is not in the range" in err
    assert not target.exists()
