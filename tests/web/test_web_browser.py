"""The workshop in a real browser: Debian's Chromium driven by Selenium through chromedriver.

Open the boards page, pin a tile by clicking, draw a board, check on the page that it is valid
and holds the pin; then build a kit with that board, download the PDF and read it back.
Skipped, saying why, where Chromium or chromedriver is missing or cannot start (.ci/run
installs them with apt-get).
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from runarch_gen.runarch.boards.constraints import BoardConstraints
from runarch_gen.runarch.boards.generate import count_boards
from runarch_gen.web.app import create_app
from runarch_gen.web.jobs import JobManager

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import uvicorn

    port = _free_port()
    jobs = JobManager(root=tmp_path_factory.mktemp("browser-jobs"))
    config = uvicorn.Config(
        create_app("127.0.0.1", port, jobs=jobs), host="127.0.0.1", port=port, log_level="warning"
    )
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        if time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)
    assert not jobs.root.exists()  # the server's shutdown deleted every job's files


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path]]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("no Chromium: install Debian's chromium and chromium-driver packages")
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path_factory.mktemp("downloads")
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.add_argument("--lang=en-US")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    except WebDriverException as exc:
        pytest.skip(f"Chromium would not start: {exc.msg}")
    driver.set_page_load_timeout(30)
    yield driver, downloads
    driver.quit()


def wait(driver: Any, condition: Any, timeout: float = 30.0) -> Any:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # A page that re-renders between finding an element and reading it is asked again.
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=ignored).until(
        condition
    )


def valid_b1(codes: list[str]) -> bool:
    """An oracle of its own: every row and column holds five colours and five shapes, and the
    25 tiles are all different (RULES.md B-1)."""
    rows = [codes[r * 5 : r * 5 + 5] for r in range(5)]
    columns = [codes[c::5] for c in range(5)]
    lines_ok = all(
        len({code[0] for code in line}) == 5 and len({code[1] for code in line}) == 5
        for line in rows + columns
    )
    return lines_ok and len(set(codes)) == 25


def test_pin_draw_and_build_a_kit_in_chromium(server: str, browser: tuple[Any, Path]) -> None:
    from selenium.webdriver.common.by import By

    driver, downloads = browser
    driver.get(f"{server}/boards?lang=en")
    pick = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#palette .pick[data-code="3G"]'))
    start = wait(driver, lambda d: d.find_element(By.ID, "count").text.replace(",", "").isdigit())
    assert start
    assert int(driver.find_element(By.ID, "count").text.replace(",", "")) == count_boards()
    pick.click()
    assert driver.find_element(By.ID, "chosen").text == "3G"
    driver.find_element(By.CSS_SELECTOR, '#grid .sq[data-square="c3"]').click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#grid .sq[data-pin="3G"]'))
    expected = count_boards(BoardConstraints.parse(fixes=["c3=3G"]))
    wait(driver, lambda d: d.find_element(By.ID, "count").text.replace(",", "") == str(expected))
    assert "--fix c3=3G" in driver.find_element(By.ID, "options").text

    driver.find_element(By.ID, "seed").send_keys("42")
    driver.find_element(By.ID, "draw").click()
    verdict = wait(driver, lambda d: d.find_element(By.ID, "validity").is_displayed())
    assert verdict
    box = driver.find_element(By.ID, "validity")
    assert box.get_attribute("data-valid") == "true"
    assert box.get_attribute("data-holds") == "true"
    squares = driver.find_elements(By.CSS_SELECTOR, "#grid .sq")
    codes = [square.get_attribute("data-code") for square in squares]
    assert [s.get_attribute("data-square") for s in squares][12] == "c3"
    assert codes[12] == "3G"
    assert valid_b1(codes)

    driver.get(f"{server}/kit?lang=en")
    use = wait(driver, lambda d: d.find_element(By.ID, "use-board"))
    assert use.is_enabled()
    use.click()
    driver.find_element(By.CSS_SELECTOR, 'input[name=only][value="board"]').click()
    driver.find_element(By.CSS_SELECTOR, "#kit-form button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.ID, "kit-job").get_attribute("data-state"), 120)
    assert driver.find_element(By.ID, "kit-job").get_attribute("data-state") == "done"
    driver.find_element(By.CSS_SELECTOR, 'a[data-file="kit.pdf"]').click()
    pdf = downloads / "kit.pdf"
    wait(driver, lambda d: pdf.is_file() and pdf.stat().st_size > 0, 30)
    document = pymupdf.open(pdf)
    assert document.page_count >= 1
    text = " ".join(document[i].get_text() for i in range(document.page_count))
    assert all(code in text for code in codes)  # every tile of the drawn board is printed
    previews = driver.find_elements(By.CSS_SELECTOR, "#kit-job .previews img")
    assert previews and all(img.get_attribute("naturalWidth") != "0" for img in previews)


def test_another_games_kit_in_czech(server: str, browser: tuple[Any, Path]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver, _ = browser
    driver.get(f"{server}/kit?lang=cs")
    game = Select(wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "select[name=game]")))
    game.select_by_visible_text("Vrhcáby")
    # Only Vrhcáby's fields are offered: its kinds and its rules, no seed, board or deck.
    assert not driver.find_element(By.CSS_SELECTOR, "input[name=seed]").is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "input[name=rules]").is_displayed()
    shown = [
        box.get_attribute("value")
        for box in driver.find_elements(By.CSS_SELECTOR, "input[name=only]")
        if box.is_displayed()
    ]
    assert "dice" in shown and "tiles" not in shown
    driver.find_element(By.CSS_SELECTOR, 'fieldset[data-game="backgammon"] [value="dice"]').click()
    driver.find_element(By.CSS_SELECTOR, "#kit-form button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.ID, "kit-job").get_attribute("data-state"), 120)
    assert driver.find_element(By.ID, "kit-job").get_attribute("data-state") == "done"
    report = driver.find_element(By.CSS_SELECTOR, "#kit-job .report").text
    assert "počet stran" in report and "kostky a sázecí kostka k slepení" in report
    assert driver.find_elements(By.CSS_SELECTOR, 'a[data-file="kit.pdf"]')
    assert driver.find_elements(By.CSS_SELECTOR, 'a[data-file="kit.zip"]')


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_every_page_loads_without_script_errors(server: str, browser: tuple[Any, Path], lang):
    from selenium.webdriver.common.by import By

    driver, _ = browser
    driver.get_log("browser")  # forget what came before
    for page, ready in (
        ("boards", "#palette .pick"),
        ("decks", "#deck-form"),
        ("kit", "#kit-form input[name=only]"),
        ("playtest", "#known-params"),
    ):
        driver.get(f"{server}/{page}?lang={lang}")
        wait(driver, lambda d, css=ready: d.find_elements(By.CSS_SELECTOR, css))
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
    driver.get(f"{server}/boards?lang={lang}")  # the count arrives last
    wait(driver, lambda d: any(c.isdigit() for c in d.find_element(By.ID, "count").text))
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_only_the_latest_answer_is_shown_and_focus_stays(
    server: str, browser: tuple[Any, Path]
) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = browser
    driver.get(f"{server}/boards?lang=en")
    wait(driver, lambda d: d.find_element(By.ID, "count").text.replace(",", "").isdigit())
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#palette .pick[data-code="5Y"]'))

    def press_enter(name: str) -> None:  # the keyboard: focus the square, press Enter
        driver.execute_script(
            "const s = document.querySelector(`#grid .sq[data-square='${arguments[0]}']`);"
            "s.focus(); s.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}));",
            name,
        )

    # Pin b3, pin c5, take c5 back: three requests within a few milliseconds.
    press_enter("b3")
    driver.execute_script(
        "const q = (s) => document.querySelector(`#grid .sq[data-square='${s}']`);"
        "q('c5').dispatchEvent(new MouseEvent('click'));"
        "setTimeout(() => q('c5').dispatchEvent(new MouseEvent('click')), 20);"
    )
    expected = count_boards(BoardConstraints.parse(fixes=["b3=5Y"]))
    wait(driver, lambda d: d.find_element(By.ID, "count").text.replace(",", "") == str(expected))
    time.sleep(1.0)  # any stale answer would land by now
    assert driver.find_element(By.ID, "count").text.replace(",", "") == str(expected)
    assert not driver.find_element(By.ID, "conflict").is_displayed()
    assert driver.find_element(By.ID, "options").text == "--fix b3=5Y"
    # A pin made with the keyboard keeps the focus on its square.
    press_enter("d4")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#grid .sq[data-pin="5Y"]'))
    focused = "return document.activeElement.getAttribute('data-square')"
    wait(driver, lambda d: d.execute_script(focused) == "d4")


def test_seeds_stay_exact_beyond_2_to_the_53(server: str, browser: tuple[Any, Path]) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = browser
    driver.get(f"{server}/boards?lang=en")
    wait(driver, lambda d: d.find_element(By.ID, "count").text.replace(",", "").isdigit())
    seed = "9223372036854775807"
    driver.find_element(By.ID, "seed").send_keys(seed)
    driver.find_element(By.ID, "draw").click()
    wait(driver, lambda d: d.find_element(By.ID, "validity").is_displayed())
    assert driver.find_element(By.ID, "validity").get_attribute("data-seed") == seed
    link = driver.find_element(By.ID, "dl-json").get_attribute("href")
    assert f"seed={seed}" in link
    assert seed in driver.find_element(By.ID, "validity").text


def test_beyond_the_limit_the_page_says_so(server: str, browser: tuple[Any, Path]) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = browser
    driver.get(f"{server}/boards?lang=cs")
    wait(driver, lambda d: d.find_element(By.ID, "count").text.strip(" …"))
    many = driver.find_element(By.ID, "many")
    many.clear()
    many.send_keys("20000")
    note = driver.find_element(By.ID, "many-note")
    assert note.is_displayed() and "Nejvýše" in note.text
    assert driver.find_element(By.ID, "dl-many").get_attribute("href") is None
    many.clear()
    many.send_keys("5")
    assert not note.is_displayed()
    assert "count=5" in driver.find_element(By.ID, "dl-many").get_attribute("href")


def test_the_button_waits_for_its_job_and_czech_stays_czech(
    server: str, browser: tuple[Any, Path]
) -> None:
    from selenium.webdriver.common.by import By

    driver, _ = browser
    driver.get(f"{server}/playtest?lang=cs")
    select = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "select[name=game]"))
    titles = [o.text for o in select.find_elements(By.TAG_NAME, "option")]
    assert "Vrhcáby" in titles
    driver.find_element(By.CSS_SELECTOR, "input[name=games]").clear()
    driver.find_element(By.CSS_SELECTOR, "input[name=games]").send_keys("5000")
    button = driver.find_element(By.CSS_SELECTOR, "#playtest-form button[type=submit]")
    button.click()
    wait(driver, lambda d: not button.is_enabled())
    cancel = driver.find_element(By.CSS_SELECTOR, "#playtest-form .cancel")
    wait(driver, lambda d: cancel.is_displayed())
    cancel.click()
    wait(driver, lambda d: d.find_element(By.ID, "playtest-job").get_attribute("data-state"))
    assert button.is_enabled()
    assert driver.find_element(By.CSS_SELECTOR, "#playtest-job .state").text == "Zrušeno"
    assert not driver.find_element(By.CSS_SELECTOR, "#playtest-job .error").is_displayed()
