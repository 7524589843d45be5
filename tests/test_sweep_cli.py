"""runarch-gen sweep: from a file or from options, tables, CSV, charts, a saved sweep."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from runarch_gen.cli import run


def test_a_sweep_from_options_saves_a_file_that_runs_the_same(tmp_path: Path, capsys) -> None:
    saved = tmp_path / "s.toml"
    args = ["sweep", "--game", "runarch", "--set", "variant=simple", "--set", "set=sample"]
    args += ["--grid", "target=40,80", "-n", "12", "--seed", "3", "-j", "1", "--json"]
    assert run([*args, "--save", str(saved)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert [p["point"]["target"] for p in first["points"]] == ["40", "80"]
    assert first["varying"] == ["target"]
    assert run(["sweep", str(saved), "-j", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first


def test_csv_and_charts_are_written(tmp_path: Path, capsys) -> None:
    table, plots = tmp_path / "t.csv", tmp_path / "plots"
    args = ["sweep", "--game", "runarch", "--set", "set=sample", "--set", "variant=simple"]
    args += ["--grid", "target=30,60", "--grid", "minimum=5,7", "-n", "6", "--seed", "1"]
    assert run([*args, "--csv", str(table), "--plots", str(plots), "-j", "1"]) == 0
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 4 and {r["minimum"] for r in rows} == {"5", "7"}
    assert (plots / "stall_rate.png").read_bytes()[:4] == b"\x89PNG"
    assert b"<svg" in (plots / "first_player_rate.svg").read_bytes()
    assert "sweep of runarch: 4 points" in capsys.readouterr().out


def test_bad_sweeps_are_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "runarch"\n[grid]\ndeal = [4, 9]\n')
    assert run(["sweep", str(bad), "-n", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal=9" in err
    assert run(["sweep", "--game", "nosuchgame", "--grid", "x=1,2"]) == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err
