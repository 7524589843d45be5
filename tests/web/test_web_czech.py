"""A Czech page in Czech: the playtest job of every game, asked for in Czech, words its verdict,
its report and its charts in Czech and names the game by its Czech title; in English the job
says exactly what the command line says.

The phrases below are written out here, apart from the code that words the reports: each is
English the reports printed before they had a Czech path."""

from __future__ import annotations

import re
from typing import Any

import pytest

from runarch_gen.games import registered_games
from runarch_gen.play.charts import report_charts
from runarch_gen.play.playtest import playtest
from runarch_gen.web.i18n import game_title
from tests.web.conftest import SAME_ORIGIN, wait_for

GAMES = [r.game_type.short_name for r in registered_games()]

ENGLISH = [
    "static checks",
    "dynamic check",
    "bots ",
    "seed ",
    "line-up",
    "the ladder",
    "as asked",
    " games, ",
    " stalled",
    "proven deadlock",
    "design metrics",
    "intervals;",
    "skill trace",
    "findings:",
    "notes (",
    "effect ",
    "after Holm",
    "confirm with",
    "suffice to confirm",
    "suggestion:",
    "proof:",
    "verdict:",
    "PLAYABLE",
    "can be played",
    "balance finding",
    "ended by the rules",
    "endings:",
    "final score",
    "mean ± sd",
    "median",
    "margin",
    "rate (95 % interval)",
    " won,",
    " shared",
    " lost of ",
    "seat ",
    " against ",
    "sign test",
    "first player",
    "per game",
    "value (95 % interval)",
    " points",
    "completion",
    "decisiveness",
    "branching_factor",
    "Final scores",
    "Game length",
    "First-player advantage",
    "Win rates",
    "How games ended",
    "share of games",
    "win rate",
    "player won",
    "no win",
]


def _english_in(text: str) -> list[str]:
    return [phrase for phrase in ENGLISH if phrase in text]


def _playtest(client, game: str, lang: str) -> dict[str, Any]:
    body = {"game": game, "games": 24, "seed": "7", "lang": lang}
    response = client.post("/api/playtest", json=body, headers=SAME_ORIGIN)
    assert response.status_code == 202, response.text
    status = wait_for(client, response.json()["id"], timeout=300)
    assert status["state"] == "done", status
    result: dict[str, Any] = status["result"]
    return result


def _game_texts(result: dict[str, Any]) -> list[str]:
    """What the game itself wrote, from the job's JSON: its checks, its findings' headlines,
    the bots' line-up and skill trace, its statistics', endings', seats' and bots' names."""
    verdict, report = result["verdict"], result["report"] or {}
    texts: list[str] = []
    if "; " in verdict["lineup"]:  # the game's note on its line-up
        texts.append(verdict["lineup"].split("; ", 1)[1])
    for check in verdict["checks"]:
        texts += [check["check"], check["summary"]]
        for failure in check["failures"]:
            texts += [failure["component"], failure["message"], failure["proof"], failure["rule"]]
    for finding in verdict["balance"]:
        texts += [finding["headline"], finding["kind"]]
    if verdict.get("skill"):
        texts.append(verdict["skill"]["describe"])
    statistics = report.get("statistics", {})
    texts += list(statistics.get("numbers", {}))
    for name, counts in statistics.get("texts", {}).items():
        texts += [name, *counts]
    texts += list(report.get("endings", {}))
    texts += list(report.get("scores", {}).get("by_seat", {}))
    texts += list(report.get("scores", {}).get("by_bot", {}))
    for rows in report.get("wins", {}).get("by_value", {}).values():
        texts += list(rows)
    return sorted({t for t in texts if t}, key=len, reverse=True)  # longest first


@pytest.mark.parametrize("game", GAMES)
def test_a_czech_playtest_is_worded_in_czech(client, game: str) -> None:
    result = _playtest(client, game, "cs")
    registration = next(r for r in registered_games() if r.game_type.short_name == game)
    title = game_title(game, registration.game_type.long_name, "cs")
    verdict = "\n".join(result["verdict_lines"])
    summary = result["summary"]
    frame = verdict + "\n" + summary
    for text in _game_texts(result):
        frame = frame.replace(text, "")
    found = _english_in(frame)
    assert found == [], (found, frame)
    assert result["verdict_lines"][0] == "statické kontroly:"
    last = [line for line in result["verdict_lines"] if line.startswith("verdikt: ")]
    assert last and last[0].startswith(("verdikt: HRATELNÉ — ", "verdikt: NEHRATELNÉ"))
    assert f"  {title}: 24 her, uvízlé: " in verdict  # the run, under the game's Czech title
    assert summary.startswith(f"{title}: 24 z 24 her, boti ")
    if result["verdict"]["lineup"]:
        assert "sestava: " in verdict and "žebříček: " in verdict
    for word in ("skončeno podle pravidel", "konečné skóre", "medián", "první hráč", "výhry"):
        assert word in summary
    assert "ukazatele návrhu" in verdict and "ukazatele návrhu" in summary


def test_vrhcaby_is_vrhcaby_on_a_czech_page(client) -> None:
    result = _playtest(client, "backgammon", "cs")
    text = "\n".join(result["verdict_lines"]) + "\n" + result["summary"]
    assert "Backgammon" not in text
    assert not re.search(r"^\s*backgammon:", text, re.MULTILINE)  # the game, not its ending
    assert "Vrhcáby se dá hrát" in text or "NEHRATELNÉ" in text


@pytest.mark.parametrize("game", GAMES)
def test_czech_charts_have_czech_titles_and_labels(game: str) -> None:
    registration = next(r for r in registered_games() if r.game_type.short_name == game)
    values = registration.game_type.parse_parameters({}, "test")
    bots = [sorted(registration.bots)[0]]
    played = playtest(registration, values, bots, games=6, seed=3, workers=1)
    title = game_title(game, registration.game_type.long_name, "cs")
    for name, svg in report_charts(played, "svg", lang="cs", title=title).items():
        text = " ".join(re.findall(r">([^<>]+)</text>", svg.decode("utf-8")))
        assert f"{title}, 6 her" in text, (name, text)
        assert _english_in(text) == [], (name, _english_in(text))
        assert not re.search(r"\bgames\b", text), (name, text)  # the counts' axis too
    english = report_charts(played, "svg")
    assert b"Final scores" in english["scores.svg"] and b"How games ended" in english["endings.svg"]


def test_an_english_playtest_says_what_the_command_line_says(client) -> None:
    result = _playtest(client, "bluff", "en")
    assert result["verdict_lines"][0] == "static checks:"
    assert result["summary"].startswith("bluff: 24 of 24 games, bots ")
    assert any(line.startswith("verdict: ") for line in result["verdict_lines"])


def test_a_playtest_in_another_language_is_refused(client) -> None:
    body = {"game": "bluff", "lang": "de"}
    response = client.post("/api/playtest", json=body, headers=SAME_ORIGIN)
    assert response.status_code == 400 and "--lang 'de'" in response.json()["error"]


@pytest.mark.parametrize("page", ["boards", "decks", "kit", "playtest", "play"])
def test_a_czech_page_shows_no_english_word_of_the_workshop(client, page: str) -> None:
    from runarch_gen.web.i18n import STRINGS

    html = client.get(f"/{page}", params={"lang": "cs"}).text
    html = re.sub(r"<script.*?</script>", "", html, flags=re.DOTALL)  # the words for the script
    shown = "\n".join(t.strip() for t in re.findall(r">([^<]+)<", html) if t.strip())
    english = {
        text
        for key, text in STRINGS["en"].items()
        if len(text) > 4 and text != STRINGS["cs"][key] and not text.startswith("e.g.")
    }
    found = sorted(
        t for t in english if re.search(rf"(^|\s){re.escape(t)}($|[\s:.,])", shown, re.M)
    )
    assert found == [], found
    assert "Backgammon" not in shown
