"""The long jobs of the web workshop, each in a worker process of its own: a deck, a kit, a
playtest.

    python -m runarch_gen.web.worker KIND      # in the job's folder, which holds options.json

The worker reads its options (already checked by the server) and writes into its job folder
only: ``progress.json`` while it runs, its output files, and last ``result.json`` — either
``{"ok": true, ...}`` or ``{"ok": false, "error": "one line", "exit_code": 2}``. The deck and
the kit run the command line itself (``python -m runarch_gen deck|kit ... --json``) with the
options the form gave, so a job's report is what that command prints and its error the
command's own line; the playtest calls the family core
(:func:`~runarch_gen.play.verdict.validate_game`) for any registered game. The server ends a
job by ending the worker's process group (the worker and the command it runs).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from runarch_gen.errors import EXIT_USAGE, RunArchError

__all__ = ["TASKS", "main", "run_task"]

OPTIONS = "options.json"
PROGRESS = "progress.json"
RESULT = "result.json"
OUTPUT = "out"
"""The sub-folder of a job folder that holds the files offered for download."""


def _write_json(path: Path, value: Any) -> None:
    """Write ``value`` as JSON through a temporary file and a rename (the server may read it
    at any moment)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _command(argv: list[str]) -> tuple[int, str, str]:
    """Run ``runarch-gen ARGV`` as a child process: exit code, stdout, stderr. Its progress
    goes to ``progress.json`` (:data:`runarch_gen.progress.PROGRESS_FILE`)."""
    from runarch_gen.progress import PROGRESS_FILE

    env = {**os.environ, PROGRESS_FILE: os.path.abspath(PROGRESS), "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(
        [sys.executable, "-m", "runarch_gen", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
    ) as child:
        _children.append(child)
        try:
            stdout, stderr = child.communicate()
        finally:
            _children.remove(child)
    return child.returncode, stdout, stderr


_children: list[subprocess.Popen[str]] = []


def _stop(number: int, frame: object) -> None:
    """On SIGTERM (the server stops the job's whole process group, the running command
    included): end at once; the server sends SIGKILL to whatever is left after a grace."""
    del frame
    for child in list(_children):
        with contextlib.suppress(OSError):
            child.terminate()
    os._exit(128 + number)


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
    lines = [
        line.replace(f"{OUTPUT}/deck.json", "deck.json")
        for line in warnings.splitlines() + checked.splitlines()
    ]
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
    # Each card front as SVG too, for the page (drawn by the kit's painter, vector).
    from runarch_gen.pnp.svg import SvgSurface

    layout = plan.painter.layouts["card"]
    for index, card in enumerate(plan.deck, start=1):
        surface = SvgSurface(layout.width, layout.height, plan.painter.fonts)
        plan.painter.draw_card_front(surface, card, 0.0)
        (out / f"card-{index:03d}.svg").write_text(surface.svg(), encoding="utf-8")
    # The report as the command printed it too: a page shows its seed's digits as they are.
    text = json.dumps(report, indent=2, ensure_ascii=False)
    return {
        "ok": True,
        "report": report,
        "report_text": text,
        "check_lines": lines,
        "cards": len(deck),
    }


def _common_kit_options(options: Mapping[str, Any]) -> list[str]:
    """The options every kit takes, as the command line spells them."""
    argv = ["--paper", str(options["paper"]), "--lang", str(options["lang"])]
    argv += ["--bleed", repr(float(options["bleed"])), "--duplex", str(options["duplex"])]
    if options.get("duplex_offset"):
        argv += ["--duplex-offset", str(options["duplex_offset"])]
    if options.get("print_friendly"):
        argv.append("--print-friendly")
    if options.get("only"):
        argv += ["--only", ",".join(options["only"])]
    return argv


def _offer_kit(folder: Path, kit: Path, manifest: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The kit folder's files as the job's output, with a zip of them all."""
    manifest["folder"] = "kit"
    kit.rename(folder / OUTPUT)
    _zip_folder(folder / OUTPUT, folder / "kit.zip", prefix)
    (folder / "kit.zip").rename(folder / OUTPUT / "kit.zip")
    return {"ok": True, "game": manifest.get("game"), "manifest": manifest}


def game_kit_task(options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """``runarch-gen GAME kit --json`` with the form's options (the game string the server
    made of the rules it read): the kit of any registered game but RunArch."""
    build = folder / "build"
    build.mkdir()
    game = str(options["game"])
    argv = [game, "kit", "-o", str(build / "kit"), "--json"]
    argv += ["--rules", str(options.get("rules") or game), *_common_kit_options(options)]
    code, stdout, stderr = _command(argv)
    if code:
        return {"ok": False, "error": _error_line(stderr), "exit_code": code}
    manifest = json.loads(stdout)
    return _offer_kit(folder, build / "kit", manifest, f"{game}-kit-{options['lang']}")


def kit_task(options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """``runarch-gen kit --json`` with the form's options (or, for another game,
    :func:`game_kit_task`); the kit folder's files, and a zip of them all, are offered for
    download."""
    if options.get("game", "runarch") != "runarch":
        return game_kit_task(options, folder)
    build = folder / "build"
    build.mkdir()
    argv = ["kit", "--seed", str(options["seed"]), "--out", str(build), "--name", "kit", "--json"]
    argv += _common_kit_options(options)
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
    return _offer_kit(folder, build / "kit", manifest, f"kit-{options['seed']}")


def playtest_task(options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """Games between bots of any registered game, the report, its charts and the verdict
    (``runarch-gen GAME validate``): one set of games serves all three."""
    from dataclasses import replace

    from runarch_gen.games import game_values
    from runarch_gen.play.charts import report_charts
    from runarch_gen.play.report import PlayReport
    from runarch_gen.play.verdict import validate_game
    from runarch_gen.progress import progress
    from runarch_gen.web.i18n import game_title

    out = folder / OUTPUT
    out.mkdir()
    registration, values = game_values(str(options["game"]), str(options["rules"]))
    lang = str(options.get("lang", "en"))
    kind = registration.game_type
    title = game_title(kind.short_name, kind.long_name, lang) if lang != "en" else None
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
        for name, data in report_charts(played[0], lang=lang, title=title).items():
            (out / name).write_bytes(data)
            charts.append(name)
    report = played[0] if played else None
    if lang != "en" and report is not None and verdict.dynamic:  # in the page's language
        from runarch_gen.play.design import design_of
        from runarch_gen.play.verdict import lineup_text

        lines = tuple(report.summary(lang, title).splitlines()[1:5])
        run = verdict.dynamic[0]
        lineup = lineup_text(design_of(kind.short_name), run.bots, bool(options["bots"]), lang)
        verdict = replace(verdict, dynamic=(replace(run, summary=lines),), lineup=lineup)
    return {
        "ok": True,
        "lang": lang,
        "verdict": {**verdict.to_json(), "seed": int(options["seed"])},
        "verdict_lines": verdict.lines(lang, title),
        "exit_code": verdict.exit_code,
        "report": report.to_json() if report is not None else None,
        "summary": report.summary(lang, title) if report is not None else "",
        "charts": sorted(charts),
    }


TASKS: dict[str, Callable[[Mapping[str, Any], Path], dict[str, Any]]] = {
    "deck": deck_task,
    "kit": kit_task,
    "playtest": playtest_task,
}


def run_task(kind: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Run the task in the current folder and return its result (also on failure)."""
    from runarch_gen.progress import ProgressFile, report_to

    try:
        with report_to(ProgressFile(PROGRESS)):
            return TASKS[kind](options, Path())
    except RunArchError as exc:
        return {"ok": False, "error": " ".join(str(exc).split()), "exit_code": exc.exit_code}
    except Exception as exc:  # reported to the page; the server keeps running
        return {"ok": False, "error": f"internal error: {exc!r}", "exit_code": EXIT_USAGE}


def main() -> None:
    """``python -m runarch_gen.web.worker KIND``, in the job's folder."""
    import signal

    signal.signal(signal.SIGTERM, _stop)
    kind = sys.argv[1]
    options = json.loads(Path(OPTIONS).read_text("utf-8"))
    _write_json(Path(RESULT), run_task(kind, options))


if __name__ == "__main__":
    main()
