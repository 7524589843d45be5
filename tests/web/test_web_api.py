"""The workshop's JSON API and pages through Starlette's test client: the same answers as the
command line for the same options, every bad input a 400 (or 403/404/413) with one line, and
the guards against other sites."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runarch_gen.cli import run
from runarch_gen.web.jobs import JobManager
from tests.web.conftest import BASE, SAME_ORIGIN, files_under


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def options_of(query: dict[str, Any]) -> list[str]:
    argv: list[str] = []
    if query.get("diagonals"):
        argv.append("--diagonals")
    for name in ("fix", "forbid"):
        for value in query.get(name, []):
            argv += [f"--{name}", value]
    return argv


CASES = [
    {},
    {"diagonals": "true"},
    {"fix": ["a1=5Y"]},
    {"fix": ["a1=5Y", "c3=0R"], "forbid": ["e5=6V", "b2=3G"]},
    {"diagonals": "true", "fix": ["c3=y5"], "forbid": ["a1=0R"]},
]


@pytest.mark.parametrize("query", CASES)
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_board_is_what_the_command_line_prints(client, capsys, query, fmt) -> None:
    response = client.get("/api/runarch/board", params={**query, "seed": "7", "format": fmt})
    assert response.status_code == 200
    code, out, _ = cli(capsys, "board", "--seed", "7", "--format", fmt, *options_of(query))
    assert code == 0
    assert response.text == out
    assert response.headers["x-seed"] == "7"


@pytest.mark.parametrize("query", CASES)
def test_count_is_what_the_command_line_prints(client, capsys, query) -> None:
    response = client.get("/api/runarch/count", params=query)
    assert response.status_code == 200
    code, out, _ = cli(capsys, "count", "--json", *options_of(query))
    assert code == 0
    assert response.json() == json.loads(out)


def test_boards_are_what_the_command_line_prints(client, capsys) -> None:
    params = {"count": "5", "seed": "3", "fix": "b2=4B"}
    response = client.get("/api/runarch/boards", params=params)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    _, out, _ = cli(capsys, "boards", "-n", "5", "--seed", "3", "--fix", "b2=4B")
    assert response.text == out
    rows = [json.loads(line) for line in response.text.splitlines()]
    assert len({json.dumps(r["tiles"]) for r in rows}) == 5
    assert all(r["tiles"][1][1] == "4B" for r in rows)


def test_a_board_without_seed_reports_the_seed_it_used(client) -> None:
    response = client.get("/api/runarch/board")
    assert response.json()["seed"] == int(response.headers["x-seed"])


def test_the_issues_example_is_the_command_lines_json(client, capsys) -> None:
    url = "/api/runarch/board?seed=7&diagonals=true&fix=a1=5Y&forbid=c3=0R"
    response = client.get(url)
    assert response.headers["content-type"].startswith("application/json")
    argv = ["board", "--seed", "7", "--diagonals", "--fix", "a1=5Y", "--forbid", "c3=0R"]
    _, out, _ = cli(capsys, *argv, "--format", "json")
    assert response.text == out


def test_board_png_and_svg(client) -> None:
    png = client.get("/api/runarch/board", params={"seed": "1", "format": "png", "download": "1"})
    assert png.content.startswith(b"\x89PNG")
    assert png.headers["content-disposition"] == 'attachment; filename="board-1.png"'
    svg = client.get("/api/runarch/board", params={"seed": "1", "format": "svg"})
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and svg.text.count("<polygon") > 25


def test_grid_shows_pins_bans_and_the_drawn_board(client) -> None:
    grid = client.get("/api/runarch/grid.svg", params={"fix": "a1=5Y", "forbid": "b2=0R"}).text
    assert len(re.findall(r'class="sq"', grid)) == 25
    assert 'data-square="a1" data-code="5Y" data-pin="5Y"' in grid
    assert "≠0R" in grid
    board = client.get("/api/runarch/board", params={"seed": "5", "fix": "a1=5Y", "format": "json"})
    codes = ",".join(code for row in board.json()["tiles"] for code in row)
    drawn = client.get("/api/runarch/grid.svg", params={"fix": "a1=5Y", "board": codes}).text
    assert re.findall(r'data-code="(\w\w)"', drawn) == codes.split(",")


def test_palette_offers_all_25_tiles(client) -> None:
    palette = client.get("/api/runarch/palette.svg").text
    assert len(set(re.findall(r'class="pick" data-code="(\w\w)"', palette))) == 25


def test_check_reports_like_the_command_line(client, capsys, tmp_path) -> None:
    good = client.get("/api/runarch/board", params={"seed": "2", "format": "text"}).text
    bad = good.replace(good[:2], "XX", 1)
    for text, expected in ((good, 0), (bad, 2)):
        response = client.post("/api/runarch/check", content=text, headers=SAME_ORIGIN)
        assert response.status_code == 200
        path = tmp_path / "board.txt"
        path.write_text(text)
        code, out, _ = cli(capsys, "check", str(path), "--json")
        assert response.json()["exit_code"] == code == expected
        assert response.json()["report"] == json.loads(out.replace(str(path), "upload"))


def test_games_list_is_what_the_command_line_prints(client, capsys) -> None:
    _, out, _ = cli(capsys, "games", "--json")
    assert client.get("/api/games").json() == json.loads(out)


# -- bad input --------------------------------------------------------------------------------

BAD_BOARD_QUERIES = [
    ("count", {"fix": ["a1=5Y", "b1=5R"]}, "contradictory options: --fix a1=5Y and --fix b1=5R"),
    ("count", {"fix": ["a1=Q9"]}, "--fix a1=Q9: unknown code 'Q9'"),
    ("count", {"forbid": ["z9=5Y"]}, "--forbid z9=5Y: unknown square 'z9'"),
    ("count", {"fix": ["a1"]}, "--fix a1: expected SQUARE=CODE"),
    ("count", {"fix": ["a1=5Y", "a1=0R"]}, "--fix a1=5Y and --fix a1=0R both fix square a1"),
    ("count", {"diagonals": "maybe"}, "--diagonals 'maybe': expected true or false"),
    ("count", {"engine": "cpsat"}, "--engine cpsat: counting by CP-SAT"),
    ("count", {"engine": "magic"}, "--engine 'magic': expected auto, exact or cpsat"),
    ("count", {"seed": "1"}, "a count takes no seed"),
    ("count", {"colour": "red"}, "unknown parameter 'colour'"),
    ("board", {"seed": "-1"}, "--seed -1: expected 0 to"),
    ("board", {"seed": "x"}, "--seed 'x': expected a whole number"),
    ("board", {"seed": "9" * 30}, "expected a whole number"),
    ("board", {"format": "gif"}, "--format 'gif': expected text, json, png or svg"),
    ("board", {"fix": ["a1=5Y", "b1=5R"]}, "contradictory options"),
    ("boards", {"count": "0"}, "--count 0: expected 1 to 10000"),
    ("boards", {"count": "10001"}, "--count 10001: expected 1 to 10000"),
    ("boards", {"format": "csv"}, "--format 'csv': expected jsonl or text"),
    ("boards", {"count": "2", "fix": [f"{s}=5Y" for s in ("a1",)] + ["b2=0R", "c3=3G"]}, None),
    ("grid.svg", {"board": "5Y,0R"}, "--board: expected 25 codes, not 2"),
    ("palette.svg", {"x": "1"}, "unknown parameter 'x'"),
]


@pytest.mark.parametrize(("route", "query", "message"), BAD_BOARD_QUERIES)
def test_bad_board_parameters_give_400_with_one_line(client, jobs, route, query, message) -> None:
    response = client.get(f"/api/runarch/{route}", params=query)
    if message is None:  # a control: these options are fine
        assert response.status_code == 200
        return
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error
    assert "\n" not in error and "Traceback" not in error
    assert files_under(jobs.root) == []


def test_a_contradiction_gives_the_command_lines_message(client, capsys) -> None:
    code, _, err = cli(capsys, "count", "--fix", "a1=5Y", "--fix", "b2=5R", "--diagonals")
    assert code == 2
    response = client.get(
        "/api/runarch/count", params={"fix": ["a1=5Y", "b2=5R"], "diagonals": "true"}
    )
    assert response.status_code == 400
    assert "runarch-gen: error: " + response.json()["error"] == err.strip()


def test_too_many_pins_or_bans_are_refused(client) -> None:
    squares = [f"{c}{r}" for r in range(1, 6) for c in "abcde"]
    many = [f"{s}=5Y" for s in squares] + ["a1=0R"]
    assert client.get("/api/runarch/count", params={"fix": many}).status_code == 400
    long_query = "&".join(f"forbid=a1={i}" for i in range(2000))
    response = client.get("/api/runarch/count?" + long_query)
    assert response.status_code == 400
    assert "over 8192 characters" in response.json()["error"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(["fix", "forbid", "seed", "diagonals", "engine", "format", "count"]),
        st.text(max_size=12),
        max_size=4,
    ),
    st.sampled_from(["board", "boards", "count", "grid.svg"]),
)
def test_any_query_is_answered_or_refused_in_one_line(client, params, route) -> None:
    if params.get("engine", "").strip().lower() == "cpsat":
        params["engine"] = "auto"  # CP-SAT on random constraints is the slow path by design
    response = client.get(f"/api/runarch/{route}", params=params)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        error = response.json()["error"]
        assert error and "\n" not in error


# -- the guards -------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io", ""])
def test_other_hosts_are_refused(client, host) -> None:
    # Starlette's TrustedHostMiddleware; its plain-text refusal is given as JSON.
    response = client.get("/api/runarch/count", headers={"Host": host})
    assert response.status_code == 400
    assert response.json() == {"error": "invalid host header"}


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_answered(client, host) -> None:
    assert client.get("/api/runarch/count", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:9999"},
        {"Origin": "null"},
        {"Origin": "https://127.0.0.1:8000"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_cross_origin_posts_are_refused(client, jobs, headers) -> None:
    for url in ("/api/runarch/kit", "/api/runarch/check", "/api/jobs/x/cancel"):
        response = client.post(url, content="{}", headers=headers)
        assert response.status_code == 403, url
        assert "refused" in response.json()["error"]
    assert jobs.active("testclient") == []


def test_big_bodies_are_refused(client) -> None:
    big = b"x" * 2_000_001
    response = client.post("/api/runarch/check", content=big, headers=SAME_ORIGIN)
    assert response.status_code == 413

    def chunks() -> Any:
        for _ in range(40):
            yield b"y" * 100_000

    chunked = client.post("/api/runarch/check", content=chunks(), headers=SAME_ORIGIN)
    assert chunked.status_code == 413


def test_bodies_that_are_not_json_or_text(client) -> None:
    for body, message in (
        (b"\xff\xfe", "not UTF-8"),
        (b"[1]", "must be a JSON object"),
        (b"{", "the request body:1:2:"),
        (b"[" * 100_000, "nested more than 64 levels deep"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "the request body"),
    ):
        response = client.post("/api/runarch/kit", content=body, headers=SAME_ORIGIN)
        assert response.status_code == 400
        assert message in response.json()["error"]


def test_warning_and_checks_of_serve(monkeypatch, capsys) -> None:
    import uvicorn

    calls: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda server: calls.append(server.config))
    code, _, err = cli(capsys, "serve", "--host", "0.0.0.0", "--port", "8123")
    assert code == 0
    assert "warning: --host 0.0.0.0 serves the workshop to every network" in err
    assert calls[0].host == "0.0.0.0" and calls[0].port == 8123
    code, _, err = cli(capsys, "serve", "--port", "0")
    assert code == 2 and "--port" in err


def test_a_server_on_every_address_answers_ip_hosts_only() -> None:
    from runarch_gen.web.guard import Guard

    async def nothing(scope: Any, receive: Any, send: Any) -> None:
        del scope, receive, send

    guard = Guard(nothing, hosts={"localhost"}, any_address=True)
    assert guard.host_allowed("192.168.1.20")
    assert not guard.host_allowed("attacker.example")


# -- pages --------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["boards", "decks", "kit", "playtest"])
@pytest.mark.parametrize(("lang", "word"), [("en", "RunArch workshop"), ("cs", "Dílna RunArch")])
def test_pages_in_both_languages(client, page, lang, word) -> None:
    response = client.get(f"/{page}", params={"lang": lang})
    assert response.status_code == 200
    assert word in response.text
    assert f'<html lang="{lang}">' in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]
    strings = re.search(
        r'<script type="application/json" id="strings">(.*?)</script>', response.text, re.S
    )
    assert strings is not None and json.loads(strings[1])["title"] == word
    assert response.cookies.get("rg_lang") == lang


def test_the_browser_language_is_followed(client) -> None:
    client.cookies.clear()
    response = client.get("/kit", headers={"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"})
    assert "Sada k tisku" in response.text
    client.cookies.clear()
    response = client.get("/kit", headers={"Accept-Language": "de-DE,de"})
    assert '<html lang="en">' in response.text


def test_home_static_and_unknown_pages(client) -> None:
    home = client.get("/", follow_redirects=False)
    assert home.status_code == 303 and home.headers["location"] == "/boards"
    assert client.get("/static/workshop.js").status_code == 200
    assert client.get("/static/workshop.css").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/nowhere").status_code == 404
    assert client.get("/boards", params={"x": "1"}).status_code == 400


def test_the_base_url_is_loopback() -> None:
    assert BASE.startswith("http://127.0.0.1")


def test_nothing_is_left_after_shutdown(tmp_path) -> None:
    manager = JobManager(root=tmp_path)
    folder = manager.root
    assert folder.is_dir()
    manager.shutdown()
    assert not folder.exists()


def test_an_uploaded_deck_is_checked_like_the_command_line(client, capsys, tmp_path) -> None:
    deck = tmp_path / "deck.csv"
    code, _, _ = cli(capsys, "deck", "--cards", "30", "--seed", "2", "-o", str(deck))
    assert code == 0
    response = client.post("/api/runarch/check", content=deck.read_text(), headers=SAME_ORIGIN)
    assert response.status_code == 200
    code, out, _ = cli(capsys, "check", str(deck), "--json")
    answer = response.json()
    assert answer["kind"] == "deck" and answer["exit_code"] == code
    assert json.dumps(answer["report"]) == json.dumps(json.loads(out)).replace(str(deck), "upload")
    header = deck.read_text().splitlines()[0]
    refused = client.post("/api/runarch/check", content=f"{header}\nx,y\n", headers=SAME_ORIGIN)
    assert refused.status_code == 400
    assert refused.json()["error"].startswith("upload:2:1: column id: 'x' is not a whole number")


def test_explanations_are_bounded(client, monkeypatch) -> None:
    from runarch_gen.web import work

    monkeypatch.setattr(work, "MAX_EXPLAINING", 0)
    query = {"fix": ["a1=5Y", "e1=5B"], "forbid": "c4=0V"}
    for route in ("count", "board", "boards"):
        response = client.get(f"/api/runarch/{route}", params=query)
        assert response.status_code == 429
        assert "too many contradictions" in response.json()["error"]
    assert client.get("/api/runarch/count", params={"fix": "a1=5Y"}).status_code == 200


def test_no_job_folder_before_the_server_starts(tmp_path, monkeypatch) -> None:
    import tempfile

    from runarch_gen.web.app import create_app

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    create_app()
    assert list(tmp_path.iterdir()) == []


# -- numbers by the grammar, errors always JSON, cross-site GETs ---------------------------------


@pytest.mark.parametrize("value", ["²", "١٢", "1e3", "+5", "1_000", " 7\t", "9" * 25, "0x10"])
@pytest.mark.parametrize(
    ("route", "name"),
    [("board", "seed"), ("boards", "count"), ("boards", "seed"), ("count", "diagonals")],
)
def test_numbers_are_ascii_digits_only(client, route, name, value) -> None:
    response = client.get(f"/api/runarch/{route}", params={name: value})
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith(f"--{name} ")


def test_a_content_length_in_other_digits_is_refused(client) -> None:
    # '²' as the byte a client sends (headers are Latin-1): isdigit() says yes, int() says no.
    response = client.post(
        "/api/runarch/check", content=b"", headers={**SAME_ORIGIN, "Content-Length": b"\xb2"}
    )
    assert response.status_code == 400
    assert response.json() == {"error": "bad Content-Length"}


def test_every_error_is_json(client) -> None:
    for method, url, status in (
        ("GET", "/api/nothing/here", 404),
        ("GET", "/static/nothing.js", 404),
        ("DELETE", "/api/runarch/count", 405),
        ("PUT", "/api/jobs/x/cancel", 405),
        ("GET", "/nowhere", 404),
    ):
        response = client.request(method, url, headers=SAME_ORIGIN)
        assert response.status_code == status, url
        assert response.headers["content-type"] == "application/json", url
        error = response.json()["error"]
        assert error and "\n" not in error, url


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "http://evil.example"},
        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
    ],
)
def test_gets_that_compute_are_refused_to_other_sites(client, headers) -> None:
    for url in ("/api/runarch/count", "/api/runarch/board", "/api/runarch/boards?count=5"):
        response = client.get(url, headers=headers)
        assert response.status_code == 403, url
        assert "refused" in response.json()["error"]
    # Pages may be linked from anywhere; this server's own requests and typed addresses pass.
    assert client.get("/boards", headers=headers).status_code == 200
    for own in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {}):
        assert client.get("/api/runarch/count", headers=own).status_code == 200


def test_a_conflict_in_czech_and_its_cache_holds_text(client) -> None:
    from runarch_gen.web import work

    query = {"fix": ["a1=5Y", "b1=5R"], "lang": "cs"}
    for _ in range(3):
        response = client.get("/api/runarch/count", params=query)
        assert response.status_code == 400
        assert response.json()["error"] == (
            "protichůdné volby: --fix a1=5Y a --fix b1=5R: dvakrát tvar 5 v řádku 1"
        )
    assert all(isinstance(message, str) for message in work._messages.values())
