"""Every game's kit through the web workshop (``POST /api/kit``): the form checked in full
before the job is accepted, the job's kit the bytes ``runarch-gen GAME kit`` writes, its
progress with a total, and the page offering every game."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from runarch_gen.cli import run
from runarch_gen.games import registered_games
from runarch_gen.pnp.kit import MAKE_STEPS, kit_definition
from runarch_gen.progress import report_to
from tests.web.conftest import SAME_ORIGIN, wait_for

KIT_GAMES = [r.game_type.short_name for r in registered_games() if r.kit is not None]
PIPELINE_GAMES = [
    r.game_type.short_name
    for r in registered_games()
    if r.kit is not None and kit_definition(r).make is None
]
"""The games whose kit the common pipeline makes (RunArch's kit has its own tests)."""


def post_kit(client, body: dict[str, Any] | str) -> Any:
    if isinstance(body, str):
        return client.post("/api/kit", content=body, headers=SAME_ORIGIN)
    return client.post("/api/kit", json=body, headers=SAME_ORIGIN)


def test_every_game_but_runarch_has_a_pipeline_kit() -> None:
    assert len(PIPELINE_GAMES) >= 3 and "runarch" in KIT_GAMES


@pytest.mark.parametrize("game", PIPELINE_GAMES)
def test_a_game_kit_is_the_command_lines_kit(client, game: str, tmp_path: Path) -> None:
    kinds = kit_definition(next(r for r in registered_games() if r.name == game)).kinds
    only = [kinds[0].replace("_", "-"), kinds[-1].replace("_", "-")]
    body = {"game": game, "lang": "cs", "paper": "letter", "bleed": 2, "only": only}
    response = post_kit(client, body)
    assert response.status_code == 202, response.text
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done", status
    assert {"kit.pdf", "kit.zip", "manifest.json"} <= set(status["files"])
    manifest = status["result"]["manifest"]
    assert manifest["game"] == game and status["result"]["game"] == game
    assert manifest["options"]["lang"] == "cs" and manifest["options"]["bleed_mm"] == 2.0
    assert manifest["paper"]["name"] == "letter"
    assert [c["kind"] for c in manifest["components"]] == [k.replace("-", "_") for k in only]
    base = f"/api/jobs/{status['id']}/files"
    pdf = client.get(f"{base}/kit.pdf", params={"download": "1"})
    assert pdf.headers["content-disposition"].startswith("attachment")
    assert pymupdf.open(stream=pdf.content, filetype="pdf").page_count == manifest["pages"]
    # The same options on the command line write the same bytes.
    folder = tmp_path / "kit"
    argv = [game, "kit", "-o", str(folder), "--lang", "cs", "--paper", "letter"]
    argv += ["--bleed", "2", "--only", ",".join(only)]
    assert run(argv) == 0
    assert pdf.content == (folder / "kit.pdf").read_bytes()
    names = zipfile.ZipFile(io.BytesIO(client.get(f"{base}/kit.zip").content)).namelist()
    assert f"{game}-kit-cs/kit.pdf" in names and f"{game}-kit-cs/manifest.json" in names
    for bad in ("../result.json", "progress.json", "options.json"):
        assert client.get(f"{base}/{bad}").status_code == 404


def test_a_kit_prints_the_rules_given(client) -> None:
    response = post_kit(client, {"game": "bluff", "rules": "players=3", "only": ["rules"]})
    assert response.status_code == 202, response.text
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done", status
    assert status["result"]["manifest"]["options"]["rules"] == "bluff(players=3)"


def test_an_alias_names_the_game(client) -> None:
    response = post_kit(client, {"game": "vrhcaby", "only": ["dice"]})
    assert response.status_code == 202, response.text
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done" and status["result"]["game"] == "backgammon", status


def test_runarch_through_the_same_route(client) -> None:
    response = post_kit(client, {"game": "runarch", "seed": "6", "only": ["board"]})
    assert response.status_code == 202, response.text
    status = wait_for(client, response.json()["id"])
    assert status["state"] == "done", status
    assert {"kit.pdf", "board.json", "kit.zip"} <= set(status["files"])
    assert status["result"]["manifest"]["seed"] == 6


BAD = [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": ["bluff"]}, "game"),
    ({"game": "bluff", "seed": "3"}, "unknown field 'seed'"),
    ({"game": "bluff", "board": "x"}, "unknown field 'board'"),
    ({"game": "bluff", "template": "/etc/passwd"}, "unknown field 'template'"),
    ({"game": "bluff", "rules": "players=99"}, "players is at most"),
    ({"game": "bluff", "rules": "colour=red"}, "colour"),
    ({"game": "backgammon", "rules": "bluff(players=3)"}, "'bluff' is not backgammon"),
    ({"game": "malacca", "only": ["dice"]}, "--only: unknown component 'dice'"),
    ({"game": "malacca", "only": "ships"}, "--only: expected a list"),
    ({"game": "bluff", "paper": "a3"}, "--paper 'a3'"),
    ({"game": "bluff", "lang": "de"}, "--lang 'de'"),
    ({"game": "bluff", "bleed": -1}, "--bleed -1"),
    ('{"game": "bluff", "bleed": NaN}', "--bleed nan"),
    ({"game": "bluff", "duplex": "both"}, "--duplex 'both'"),
    ({"game": "bluff", "duplex_offset": "1e308,0"}, "--duplex-offset '1e308'"),
    ({"game": "bluff", "print_friendly": "maybe"}, "--print-friendly 'maybe'"),
    ({"game": "runarch", "rules": "variant=simple"}, "takes none"),
    ({"game": "runarch", "only": ["dice"]}, "--only: unknown component 'dice'"),
    ("[1, 2]", "JSON object"),
]


@pytest.mark.parametrize(("body", "message"), BAD, ids=[str(b)[:40] for b, _ in BAD])
def test_a_bad_kit_form_is_refused_before_it_is_queued(client, jobs, body, message) -> None:
    before = len(jobs._jobs)
    response = post_kit(client, body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert message in error and "\n" not in error
    assert len(jobs._jobs) == before  # nothing queued


@pytest.mark.parametrize("game", PIPELINE_GAMES)
def test_a_game_kit_reports_progress_with_a_total(game: str, tmp_path: Path) -> None:
    seen: list[tuple[str, int | None, int]] = []
    with report_to(lambda label, total, n: seen.append((label, total, n))):
        assert run([game, "kit", "-o", str(tmp_path / "kit"), "--only", "rules"]) == 0
    assert seen and all(label == "kit" and total == MAKE_STEPS for label, total, _ in seen)
    assert sum(n for _, _, n in seen) == MAKE_STEPS


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_kit_page_offers_every_game(client, lang: str) -> None:
    html = client.get("/kit", params={"lang": lang}).text
    offered = re.findall(r'<option value="([a-z]+)" data-own="(true|false)"', html)
    assert [name for name, _ in offered] == KIT_GAMES
    assert dict(offered)["runarch"] == "true"
    assert all(own == "false" for name, own in offered if name in PIPELINE_GAMES)
    for game in KIT_GAMES:
        assert f'fieldset class="only" data-game="{game}"' in html
    if lang == "cs":
        assert ">Vrhcáby</option>" in html and "Backgammon" not in html
        assert "samolepky na kostky" in html  # Bluff's kinds, as its kit names them


def test_a_rule_that_names_a_file_is_refused(monkeypatch) -> None:
    """A game whose parameter takes a file (its command line reads the value as a file name):
    the workshop refuses the value before the job, so the job's command reads no file."""
    from types import SimpleNamespace

    import runarch_gen.games
    from runarch_gen.errors import InputError
    from runarch_gen.pnp.kit import KitDefinition
    from runarch_gen.web.app import any_kit_options

    def planned(request: Any) -> Any:
        raise AssertionError("planned")

    parameter = SimpleNamespace(name="deck", default="", from_file=lambda text: text)
    fake = SimpleNamespace(
        name="fake",
        game_type=SimpleNamespace(parameters=[parameter]),
        kit=lambda: KitDefinition("fake", ("rules",), planned),
        load=lambda values: None,
    )
    monkeypatch.setattr(runarch_gen.games, "game_values", lambda g, r: (fake, {"deck": r}))
    with pytest.raises(InputError, match="deck names a file"):
        any_kit_options({"game": "fake", "rules": "/etc/passwd"})
    with pytest.raises(AssertionError, match="planned"):  # the default: checked on, planned
        any_kit_options({"game": "fake", "rules": "", "paper": "a4"})
