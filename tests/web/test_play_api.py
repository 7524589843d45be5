"""The play API through Starlette's client: games made and played, errors that say why, games
owned by the client that made them, limits, idle and restarted games, records and pictures."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from runarch_gen.play import registry
from runarch_gen.web.app import create_app
from runarch_gen.web.play.store import PlayStore
from tests.toy_game import PIG
from tests.web.conftest import BASE, SAME_ORIGIN
from tests.web.play_support import Clock

GAMES = {
    "runarch": "variant=simple,set=sample",
    "bluff": "players=2",
    "malacca": "players=3,rounds=4",
    "backgammon": "match=1",
}


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app()


@pytest.fixture
def store(app: Any) -> PlayStore:
    """A fresh store of games for each test (its limits and clock the test's)."""
    app.state.play_store = PlayStore()
    return app.state.play_store  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def web(app: Any) -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(app, base_url=BASE, headers=SAME_ORIGIN) as client:
            yield client


def new(web: TestClient, **body: Any) -> dict[str, Any]:
    response = web.post("/api/play", json={"delay": "0", **body})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def error(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    return message


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_of_each_kind_is_made_and_answered(web, store, name) -> None:
    made = new(web, game=name, rules=GAMES[name], seed="3")
    assert made["url"] == f"/api/play/{made['id']}"
    shown = web.get(made["url"]).json()
    assert shown["id"] == made["id"] and shown["view"]["kind"] == name
    for key in ("game", "to_move", "legal", "result", "view"):
        assert key in shown
    assert shown["result"] is None
    assert (shown["to_move"] == 1) == bool(shown["legal"])


def test_the_seats_of_a_game(web) -> None:
    seats = web.get("/api/play/seats", params={"game": "runarch", "rules": "variant=solo"}).json()
    assert seats["players"] == 1 and seats["sides"] == ["player"]
    assert seats["files"] == ["board", "deck"]
    bluff = web.get("/api/play/seats", params={"game": "bluff", "rules": "players=5"}).json()
    assert bluff["players"] == 5 and bluff["default_bot"] == "bayes"
    assert error(web.get("/api/play/seats", params={"game": "chess"})).startswith("unknown game")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "bluff", "colour": "red"}, "unknown field 'colour'"),
        ({"game": "bluff", "rules": "players=2", "bots": "odds,odds"}, "2 seats leave 1"),
        ({"game": "bluff", "bots": "nobody"}, "unknown bot 'nobody'"),
        ({"game": "bluff", "rules": "players=2", "seat": 3}, "--seat 3: expected 1 to 2"),
        ({"game": "bluff", "seed": "12a"}, "--seed '12a': expected a whole number"),
        ({"game": "bluff", "delay": "9"}, "--delay 9: expected 0 to 5"),
        ({"game": "bluff", "rules": "players=9"}, "players"),
        ({"game": "bluff", "board": "0R4B"}, "bluff takes no board file"),
        ({"game": "runarch", "rules": "set=sample", "board": "nonsense"}, "--board"),
    ],
)
def test_a_bad_form_is_refused_naming_the_field(web, store, body, message) -> None:
    assert message in error(web.post("/api/play", json=body))


def test_an_illegal_action_is_refused_saying_why(web, store) -> None:
    made = new(web, game="bluff", rules="players=2,first=1", bots="human", seed="4")
    url = made["url"]
    assert error(web.post(f"{url}/action", json={"action": "2×3", "seat": 2})) == (
        "illegal action '2×3': it is p1's turn, not yours"
    )
    assert web.post(f"{url}/action", json={"action": "2×3"}).status_code == 200
    assert error(web.post(f"{url}/action", json={"action": "1×2", "seat": 2})) == (
        "illegal action '1×2': 1×2 is not higher than 2×3"
    )
    assert "expected a bid like" in error(
        web.post(f"{url}/action", json={"action": "hello", "seat": 2})
    )
    assert "name the action" in error(web.post(f"{url}/action", json={"action": " "}))
    assert "unknown field 'move'" in error(web.post(f"{url}/action", json={"move": "x"}))
    assert "moved on" in error(
        web.post(f"{url}/action", json={"action": "3×3", "seat": 2, "version": 0})
    )


def test_a_game_belongs_to_the_client_that_made_it(app, web, store) -> None:
    made = new(web, game="bluff", rules="players=2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        other = TestClient(app, base_url=BASE, headers=SAME_ORIGIN, client=("10.1.2.3", 4000))
    for response in (
        other.get(made["url"]),
        other.post(f"{made['url']}/action", json={"action": "doubt"}),
        other.post(f"{made['url']}/end"),
        other.get(f"{made['url']}/record"),
    ):
        assert response.status_code == 404
        assert response.json() == {"error": "no such game", "gone": "unknown"}
    assert other.get("/api/play").json()["games"] == []
    assert [g["id"] for g in web.get("/api/play").json()["games"]] == [made["id"]]


def test_games_per_client_are_limited(web, app) -> None:
    app.state.play_store = PlayStore(per_client=2)
    first = new(web, game="bluff")
    new(web, game="bluff")
    message = error(web.post("/api/play", json={"game": "bluff"}), 429)
    assert message.startswith("you have 2 games already")
    assert web.post(f"{first['url']}/end").json() == {"ended": True}
    new(web, game="bluff")
    gone = web.get(first["url"])
    assert gone.status_code == 404 and gone.json()["gone"] == "ended"


def test_an_idle_game_ends(web, app) -> None:
    clock = Clock()
    app.state.play_store = PlayStore(idle=60, clock=clock)
    made = new(web, game="bluff")
    clock.advance(59)
    assert web.get(made["url"]).status_code == 200  # asked about: its time starts again
    clock.advance(61)
    gone = web.get(made["url"])
    assert gone.status_code == 404 and gone.json()["gone"] == "idle"
    assert "without a move" in gone.json()["error"]


def test_a_restarted_server_says_the_game_ended_with_it(web, store) -> None:
    made = new(web, game="bluff")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with TestClient(create_app(), base_url=BASE, headers=SAME_ORIGIN) as restarted:
            gone = restarted.get(made["url"])
    assert gone.status_code == 404
    assert gone.json() == {
        "error": "this game ended when the server restarted: start a new one",
        "gone": "restart",
    }
    assert web.get("/api/play/not-an-id").json()["gone"] == "unknown"


def test_bots_move_after_the_delay(web, store) -> None:
    made = new(web, game="bluff", rules="players=2,first=1", bots="odds", delay="0.3", seed="1")
    moved = web.post(f"{made['url']}/action", json={"action": "1×1"}).json()
    assert moved["to_move"] == 2 and 0 < moved["next_in"] <= 0.3
    assert moved["undo"] is True
    time.sleep(0.35)
    later = web.get(made["url"]).json()
    assert later["actions"] > moved["actions"]
    assert later["undo"] is False


def test_undo_through_the_api(web, store) -> None:
    made = new(web, game="bluff", rules="players=2,first=1", bots="odds", delay="5", seed="1")
    before = web.get(made["url"]).json()
    web.post(f"{made['url']}/action", json={"action": "1×1"})
    back = web.post(f"{made['url']}/undo", json={}).json()
    assert back["view"] == before["view"] and back["legal"] == before["legal"]
    assert "cannot undo" in error(web.post(f"{made['url']}/undo", json={}))


def test_records_are_given_once_allowed(web, store) -> None:
    made = new(web, game="bluff", rules="players=2", seed="2")
    assert "when the game is over" in error(web.get(f"{made['url']}/record"))
    bg = new(web, game="backgammon", rules="match=1", seed="2")
    listing = web.get(f"{bg['url']}/record").json()
    assert listing["replay"] == "runarch-gen backgammon replay backgammon-record.mat"
    (file,) = listing["files"]
    download = web.get(file["url"])
    assert download.status_code == 200
    assert download.headers["content-disposition"] == (
        'attachment; filename="backgammon-record.mat"'
    )
    assert "point match" in download.text
    assert web.get(f"{bg['url']}/files/passwd").status_code == 404


def test_hint_and_analysis_routes(web, store) -> None:
    bg = new(web, game="backgammon", bots="human", seed="5")
    mover = bg["to_move"]
    hint = web.get(f"{bg['url']}/hint", params={"seat": str(mover)}).json()
    legal = web.get(bg["url"], params={"seat": str(mover)}).json()["legal"]
    assert {p["action"] for p in hint["plays"]} == set(legal)
    assert "when the game is over" in error(web.get(f"{bg['url']}/analysis"))
    bluff = new(web, game="bluff", rules="players=2,first=1")
    assert error(web.get(f"{bluff['url']}/hint")) == "bluff has no hint"


def test_pictures_of_public_parts(web, store) -> None:
    made = new(web, game="runarch", rules="variant=complex,set=sample", seed="2")
    card = made["view"]["dealt"][0]["id"] if made["view"]["dealt"] else 1
    picture = web.get(f"{made['url']}/assets/card-{card}.svg", params={"lang": "cs"})
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/svg+xml"
    assert picture.text.startswith("<svg")
    assert web.get(f"{made['url']}/assets/tile-5Y.svg").status_code == 200
    assert web.get(f"{made['url']}/assets/stone-3g.svg").status_code == 200
    for bad in ("card-9999.svg", "tile-9Q.svg", "../../etc/passwd", "board.png"):
        assert web.get(f"{made['url']}/assets/{bad}").status_code == 404


def test_another_site_cannot_play(web, store) -> None:
    made = new(web, game="bluff")
    refused = web.get(made["url"], headers={"Origin": "", "Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403
    posted = web.post(
        "/api/play", json={"game": "bluff"}, headers={"Origin": "http://evil.example"}
    )
    assert posted.status_code == 403


def test_the_page_in_both_languages(web, store) -> None:
    english = web.get("/play?lang=en")
    assert english.status_code == 200 and 'id="play-form"' in english.text
    assert "Start the game" in english.text and "/static/play.js" in english.text
    czech = web.get("/play?lang=cs&id=abc")
    assert "Začít hru" in czech.text and "Vrhcáby" in czech.text
    assert "content-security-policy" in czech.headers
    assert "unknown parameter 'game'" in error(web.get("/play?game=bluff"))
    assert web.get("/static/play.js").status_code == 200


def test_a_plug_in_game_is_played_with_the_generic_view(web, store, monkeypatch) -> None:
    registry.registered_games()  # every installed game loaded before the registry is copied
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    registry._add(PIG)
    made = new(web, game="pig", rules="target=5", bots="cautious", seed="2")
    assert made["view"]["kind"] == "generic" and made["legal"] == ["roll", "hold"]
    payload = made
    while payload["result"] is None:
        if payload["legal"]:
            payload = web.post(f"{made['url']}/action", json={"action": "roll"}).json()
        else:
            payload = web.get(made["url"]).json()
    assert payload["result"]["termination"] == "target"
    assert web.get(f"{made['url']}/record").json()["replay"] == (
        "runarch-gen pig replay pig-record.txt"
    )


def test_runarch_with_a_board_and_a_deck_given_as_files(web, store) -> None:
    from runarch_gen.runarch.boards.constraints import BoardConstraints
    from runarch_gen.runarch.boards.generate import generate_board, generation_meta
    from runarch_gen.runarch.boards.io import format_board
    from runarch_gen.runarch.decks.cards import Deck
    from runarch_gen.runarch.decks.io import deck_to_json
    from runarch_gen.runarch.engine.sample import sample_deck

    board = generate_board(seed=12)
    board_text = format_board(board, "json", generation_meta(12, "auto", BoardConstraints()))
    deck = sample_deck()
    made = new(web, game="runarch", rules="variant=simple", board=board_text,
               deck=deck_to_json(Deck(tuple(deck))), seed="3")  # fmt: skip
    assert made["game"] == "runarch(variant=simple) (board and deck given)"
    assert made["view"]["tiles"] == [piece.code for piece in board.tiles]
    hand = {card["id"] for card in made["view"]["hand"]}
    assert hand <= {card.id for card in deck}
    only_board = new(web, game="runarch", rules="variant=simple,set=sample", board=board_text)
    assert only_board["view"]["tiles"] == [piece.code for piece in board.tiles]
