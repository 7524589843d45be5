"""The play page in a real browser (Debian's Chromium through chromedriver): a whole game of
each game played by clicking what the page offers — squares and cards, the bidding scale,
action cards and stakes, checkers and points — against the bots; a game survives a reload;
a restarted server's game is said to have ended; the page at a phone's width in both
languages without script errors. Skipped, saying why, where Chromium cannot start."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from runarch_gen.play import registry
from runarch_gen.web.app import create_app
from runarch_gen.web.jobs import JobManager
from runarch_gen.web.play.store import PlayStore
from tests.toy_game import PIG
from tests.web.test_web_browser import browser, wait

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["browser"]  # the fixture, imported


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    registry.registered_games()  # every installed game loaded before the registry is saved
    saved = (dict(registry._REGISTRY), dict(registry._ALIASES))
    registry._add(PIG)  # a plug-in game: played with the generic view
    app = create_app("127.0.0.1", port, jobs=JobManager(root=tmp_path_factory.mktemp("jobs")))
    instance = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        if time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    instance.should_exit = True
    thread.join(10)
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved[0])
    registry._ALIASES.clear()
    registry._ALIASES.update(saved[1])


def start(driver: Any, url: str, game: str, rules: str, lang: str = "en") -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(f"{url}/play?lang={lang}")
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=game]")).select_by_value(game)
    field = driver.find_element(By.CSS_SELECTOR, "input[name=rules]")
    field.clear()
    field.send_keys(rules)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".seat-rows select")
         and not d.find_element(By.ID, "play-start").get_attribute("disabled")
         and d.execute_script(
             "return document.querySelector('.seat-rows').dataset.for === arguments[0]", rules
         ))  # fmt: skip
    delay = driver.find_element(By.CSS_SELECTOR, "input[name=delay]")
    delay.clear()
    delay.send_keys("0.05")
    driver.find_element(By.ID, "play-start").click()
    wait(driver, lambda d: d.find_element(By.ID, "play-game").get_attribute("data-version"))


def clickable(driver: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def one_click(driver: Any, kind: str, rng: random.Random) -> bool:
    """Click one thing the page offers for ``kind``; whether there was anything."""
    controls = "#play-controls "
    if kind == "runarch":
        for css in (controls + ".ra-options button[data-action]", controls + "button.ra-line"):
            found = clickable(driver, css)
            if found:
                found[0].click()
                return True
        movable = clickable(driver, "#play-board .sq.movable")
        if movable:
            rng.choice(movable).click()
            partners = wait(driver, lambda d: clickable(d, "#play-board .sq.partner"))
            rng.choice(partners).click()
            return True
        end = clickable(driver, controls + "button[data-action=end]")
        if end:
            end[0].click()
            return True
        return False
    if kind == "malacca":
        cards = clickable(driver, controls + "button[data-card]")
        if cards:
            rng.choice(cards).click()
            lay = wait(driver, lambda d: [b for b in clickable(d, "button.ml-lay")
                                          if b.is_enabled()])  # fmt: skip
            lay[0].click()
            return True
    if kind == "backgammon":
        buttons = clickable(driver, controls + "button[data-action]")
        if buttons:
            buttons[0].click()
            return True
        sources = clickable(driver, "#play-board .point.from")
        if sources:
            rng.choice(sources).click()
            targets = wait(driver, lambda d: clickable(d, "#play-board .point.to"))
            rng.choice(targets).click()
            return True
        return False
    buttons = clickable(driver, controls + "button[data-action]")
    if kind == "bluff":  # modest bids, a doubt now and then: games of a few rounds
        doubt = [b for b in buttons if b.get_attribute("data-action") == "doubt"]
        if doubt and rng.random() < 0.4:
            doubt[0].click()
            return True
        buttons = [b for b in buttons if b.get_attribute("data-action") != "doubt"][:3] or doubt
    if buttons:
        rng.choice(buttons).click()
        return True
    return False


OFFERS = {
    "runarch": "#play-controls .ra-options button[data-action], #play-controls button.ra-line,"
    " #play-board .sq.movable, #play-controls button[data-action=end]",
    "malacca": "#play-controls button[data-card]",
    "backgammon": "#play-controls button[data-action], #play-board .point.from",
}
"""What :func:`one_click` clicks first, per page (the others: any action button)."""


def offered(driver: Any, kind: str) -> bool:
    """Whether the page offers the person something :func:`one_click` would click."""
    return bool(clickable(driver, OFFERS.get(kind, "#play-controls button[data-action]")))


def play_to_the_end(driver: Any, kind: str, seed: int, limit: int = 3000) -> dict[str, Any]:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    rng = random.Random(seed)
    clicks = 0
    for _ in range(limit):
        game = driver.find_element(By.ID, "play-game")
        if game.get_attribute("data-over") == "true":
            break
        version = game.get_attribute("data-version")
        try:
            clicked = one_click(driver, kind, rng)
        except StaleElementReferenceException:  # the page was redrawn under the click
            continue
        clicks += clicked
        if not clicked:  # a bot is thinking, or the page is still drawing: wait for a change
            wait(driver, lambda d, v=version: d.find_element(By.ID, "play-game")
                 .get_attribute("data-version") != v or offered(d, kind))  # fmt: skip
    else:
        raise AssertionError(f"{kind}: not over after {limit} steps")
    result = driver.find_element(By.CSS_SELECTOR, "#play-result .result-line").text
    wait(driver, lambda d: clickable(d, "#play-result a[data-file]") or
         "no record" in d.find_element(By.CSS_SELECTOR, "#play-result .record").text)  # fmt: skip
    files = [a.get_attribute("data-file") for a in clickable(driver, "#play-result a[data-file]")]
    return {"clicks": clicks, "result": result, "files": files}


GAMES = [
    ("runarch", "variant=simple,set=sample,target=25", ["runarch-record.txt", "deck.json"]),
    ("bluff", "players=2,dice=3", ["bluff-record.txt"]),
    ("malacca", "players=3,rounds=3", ["malacca-record.txt"]),
    ("backgammon", "variant=hypergammon,match=1", ["backgammon-record.mat"]),
    ("pig", "target=10", ["pig-record.txt"]),
]


@pytest.mark.parametrize(("game", "rules", "files"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_played_by_clicking(served, browser, game, rules, files) -> None:
    driver, _ = browser
    url, _ = served
    driver.get_log("browser")
    start(driver, url, game, rules)
    played = play_to_the_end(driver, "generic" if game == "pig" else game, seed=len(game))
    assert played["clicks"] > 0
    assert "won by" in played["result"] or "No winner" in played["result"]
    assert played["files"] == files
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_a_game_survives_a_reload_and_a_restart_is_said(served, browser) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = browser
    url, app = served
    start(driver, url, "bluff", "players=2,first=1")
    wait(driver, lambda d: clickable(d, "#play-controls button.bid"))
    before = driver.find_element(By.ID, "play-board").text
    address = driver.current_url
    assert "id=" in address
    driver.refresh()
    wait(driver, lambda d: clickable(d, "#play-controls button.bid"))
    assert driver.current_url == address
    assert driver.find_element(By.ID, "play-board").text == before  # the same dice, the same game
    app.state.play_store = PlayStore()  # what a restarted server has: none of the old games
    driver.refresh()
    gone = wait(driver, lambda d: clickable(d, "#play-gone"))[0]
    assert gone.get_attribute("data-gone") == "restart"
    assert "restarted" in gone.text
    assert "id=" not in driver.current_url


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_page_at_a_phones_width(served, browser, lang) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = browser
    url, _ = served
    # A phone's screen (headless Chromium's windows are at least 500 pixels wide).
    metrics = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        driver.get_log("browser")
        for game, rules in (("backgammon", "match=1"), ("runarch", "variant=solo,set=sample")):
            start(driver, url, game, rules, lang=lang)
            wait(
                driver,
                lambda d: d.find_elements(By.CSS_SELECTOR, "#play-board svg, #play-board .sq"),
            )
            width = driver.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390  # nothing wider than the screen
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_people_at_one_screen_see_their_own_dice_only_when_they_ask(served, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver, _ = browser
    url, _ = served
    driver.get(f"{url}/play?lang=en")
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=game]")).select_by_value("bluff")
    field = driver.find_element(By.CSS_SELECTOR, "input[name=rules]")
    field.clear()
    field.send_keys("players=2,first=1")
    ready = "return document.querySelector('.seat-rows').dataset.for === 'players=2,first=1'"
    wait(driver, lambda d: d.execute_script(ready))
    Select(driver.find_element(By.CSS_SELECTOR, "select[name=seat-1]")).select_by_value("human")
    driver.find_element(By.ID, "play-start").click()
    own = "return [...document.querySelectorAll('[data-own]')].map((e) => e.dataset.own)"
    bid = wait(driver, lambda d: clickable(d, "#play-controls button.bid"))[0]
    mine = driver.execute_script(own)
    bid.click()
    curtain = wait(driver, lambda d: clickable(d, "#play-curtain"))[0]
    assert "p2 to play" in curtain.text
    assert driver.execute_script(own) == mine  # behind the curtain: still p1's view
    driver.find_element(By.ID, "play-curtain-show").click()
    wait(
        driver,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, ".bluff-seat.me").get_attribute("data-seat") == "2"
        ),
    )
    assert clickable(driver, "#play-controls button.bid")  # p2 bids now
