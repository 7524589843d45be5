"""The long jobs of the web workshop, each run in a worker process: a deck, a kit, a playtest.

A task reads its options (already checked by the server) and writes into its job folder only:
``progress.json`` while it runs, its output files, and last ``result.json`` — either
``{"ok": true, ...}`` or ``{"ok": false, "error": "one line", "exit_code": 2}``. The deck and
the kit run the command line itself (:func:`runarch_gen.cli.run`) with the options the form
gave, so a job's report is what ``runarch-gen deck --json`` or ``runarch-gen kit --json``
prints; the playtest calls the family core (:func:`~runarch_gen.play.verdict.validate_game`)
for any registered game.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from runarch_gen.errors import EXIT_USAGE, RunArchError

__all__ = ["TASKS", "run_task"]

PROGRESS = "progress.json"
RESULT = "result.json"
OUTPUT = "out"
"""The sub-folder of a job folder that holds the files offered for download."""


def _write_json(path: Path, value: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


class _Progress:
    """Writes ``progress.json`` at most every 0.2 s (and at each new stage)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / PROGRESS
        self.label = ""
        self.total: int | None = None
        self.done = 0
        self.steps = 0
        self.last = 0.0

    def __call__(self, label: str, total: int | None, n: int) -> None:
        if label != self.label:
            self.label, self.total, self.done = label, total, 0
            self.last = 0.0
        self.done += n
        self.steps += n
        now = time.monotonic()
        if now - self.last >= 0.2 or (total is not None and self.done >= total):
            self.last = now
            _write_json(
                self.path,
                {"label": self.label, "total": self.total, "done": self.done, "steps": self.steps},
            )


@contextlib.contextmanager
def _captured() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield out, err


def _command(argv: list[str]) -> tuple[int, str, str]:
    """Run ``runarch-gen ARGV`` in this process: exit code, stdout, stderr."""
    from runarch_gen.cli import run

    with _captured() as (out, err):
        code = run(argv)
    return code, out.getvalue(), err.getvalue()


def _error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    if not lines:
        return "the command stopped without saying why"
    return lines[-1].removeprefix("runarch-gen: error: ")


def _zip_folder(folder: Path, target: Path, prefix: str) -> None:
    """A zip of every file in ``folder``, in name order with fixed times (same bytes every run)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            if path.is_file():
                info = zipfile.ZipInfo(f"{prefix}/{path.name}", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, path.read_bytes())


def deck_task(options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """``runarch-gen deck --json`` with the form's options, then the cards as one picture and
    the deck as CSV beside the JSON."""
    out = folder / OUTPUT
    out.mkdir()
    argv = ["deck", "--cards", str(options["cards"]), "--seed", str(options["seed"])]
    argv += ["-o", str(out / "deck.json"), "--json"]
    if options.get("calibrate"):
        argv += ["--calibrate", "--calibrate-games", str(options["calibrate_games"]), "-j", "1"]
    code, stdout, stderr = _command(argv)
    if code:
        return {"ok": False, "error": _error_line(stderr), "exit_code": code}
    report = json.loads(stdout)
    report["output"] = "deck.json"
    # The balance figures for people: what `runarch-gen check deck.json` prints.
    _, checked, warnings = _command(["check", str(out / "deck.json")])
    lines = [line.replace(f"{OUTPUT}/deck.json", "deck.json") for line in warnings.splitlines()]
    lines += checked.splitlines()
    from runarch_gen.runarch.boards.generate import generate_board
    from runarch_gen.runarch.decks.io import read_deck, write_deck
    from runarch_gen.runarch.kit.build import KitOptions, contact_sheet, plan_kit

    deck = read_deck(out / "deck.json")
    write_deck(deck, out / "deck.csv", "csv")
    plan = plan_kit(
        generate_board(seed=int(options["seed"])),
        deck,
        KitOptions(lang=str(options.get("lang", "en")), only=("cards",)),
    )
    (out / "cards.png").write_bytes(contact_sheet(plan, columns=10))
    return {"ok": True, "report": report, "check_lines": lines, "cards": len(deck)}


def kit_task(options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """``runarch-gen kit --json`` with the form's options; the kit folder's files, and a zip of
    them all, are offered for download."""
    build = folder / "build"
    build.mkdir()
    argv = ["kit", "--seed", str(options["seed"]), "--out", str(build), "--name", "kit", "--json"]
    argv += ["--paper", str(options["paper"]), "--lang", str(options["lang"])]
    argv += ["--bleed", repr(float(options["bleed"])), "--duplex", str(options["duplex"])]
    if options.get("duplex_offset"):
        argv += ["--duplex-offset", str(options["duplex_offset"])]
    if options.get("print_friendly"):
        argv.append("--print-friendly")
    if options.get("only"):
        argv += ["--only", ",".join(options["only"])]
    if options.get("validate"):
        argv.append("--validate")
    for part in ("board", "deck"):
        text = options.get(part)
        if text:  # the uploaded text goes into a file of a fixed name, never a given path
            name = f"{part}.{options.get(part + '_format', 'json')}"
            (folder / name).write_text(str(text), encoding="utf-8")
            argv += [f"--{part}", str(folder / name)]
    code, stdout, stderr = _command(argv)
    if code:
        return {"ok": False, "error": _error_line(stderr), "exit_code": code}
    manifest = json.loads(stdout)
    manifest["folder"] = "kit"
    kit = build / "kit"
    kit.rename(folder / OUTPUT)
    _zip_folder(folder / OUTPUT, folder / "kit.zip", f"kit-{options['seed']}")
    (folder / "kit.zip").rename(folder / OUTPUT / "kit.zip")
    return {"ok": True, "manifest": manifest}


def playtest_task(options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """Games between bots of any registered game, the report, its charts and the verdict
    (``runarch-gen GAME validate``): one set of games serves all three."""
    from runarch_gen.cli.games import game_values
    from runarch_gen.play.charts import report_charts
    from runarch_gen.play.report import PlayReport
    from runarch_gen.play.verdict import validate_game
    from runarch_gen.progress import progress

    out = folder / OUTPUT
    out.mkdir()
    registration, values = game_values(str(options["game"]), str(options["rules"]))
    played: list[PlayReport] = []
    games = int(options["games"])
    with progress(games, "games") as advance:
        verdict = validate_game(
            registration,
            values,
            bots=list(options["bots"]) or None,
            games=games,
            seed=int(options["seed"]),
            workers=1,
            on_progress=advance,
            on_report=played.append,
        )
    charts: list[str] = []
    if played and played[0].games:
        for name, data in report_charts(played[0]).items():
            (out / name).write_bytes(data)
            charts.append(name)
    report = played[0] if played else None
    return {
        "ok": True,
        "verdict": {**verdict.to_json(), "seed": int(options["seed"])},
        "verdict_lines": verdict.lines(),
        "exit_code": verdict.exit_code,
        "report": report.to_json() if report is not None else None,
        "summary": report.summary() if report is not None else "",
        "charts": sorted(charts),
    }


TASKS: dict[str, Callable[[Mapping[str, Any], Path], dict[str, Any]]] = {
    "deck": deck_task,
    "kit": kit_task,
    "playtest": playtest_task,
}


def run_task(kind: str, options: Mapping[str, Any], folder: str) -> None:
    """The worker process's entry point: run the task, report progress, write the result."""
    from runarch_gen.progress import report_to

    # Work inside the job folder with relative names, so no message shows the server's paths.
    os.chdir(folder)
    path = Path()
    sys.stdin = open(os.devnull)  # noqa: SIM115  (a worker reads nothing)
    try:
        with report_to(_Progress(path)):
            result = TASKS[kind](options, path)
    except RunArchError as exc:
        result = {"ok": False, "error": " ".join(str(exc).split()), "exit_code": exc.exit_code}
    except Exception as exc:  # reported to the page; the server keeps running
        result = {"ok": False, "error": f"internal error: {exc!r}", "exit_code": EXIT_USAGE}
    _write_json(path / RESULT, result)
