"""The play API: handlers that parse, call the session and serialise (docs/web.md, "Play").

=========================================  ===================================================
``POST /api/play``                         a new game (fields: :mod:`.setup`) → 201 its payload
``GET /api/play``                          the client's games
``GET /api/play/seats``                    ``game``, ``rules``: the seats and bots of a game
``GET /api/play/ID``                       the payload for the creator's seat (``seat=N``: for
                                           another person's seat at the same screen)
``POST /api/play/ID/action``               ``{action, seat?, version?}`` → the new payload; 400
                                           naming why the action is not legal now
``POST /api/play/ID/undo``                 take back the last decision (when allowed)
``POST /api/play/ID/end``                  end the game
``GET /api/play/ID/record``                the record's files (once allowed) and the replay
``GET /api/play/ID/files/NAME``            one of them (``download=1``: as an attachment)
``GET /api/play/ID/hint``                  advice for the seat to move (Vrhcáby)
``GET /api/play/ID/analysis``              a finished game's analysis (Vrhcáby)
``GET /api/play/ID/assets/NAME``           a picture of a public part (board, card, stone)
=========================================  ===================================================

An unknown game, another client's, one ended by a restart or by idling: 404 with ``gone``
saying which (``restart``, ``idle``, ``ended``, ``unknown``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from runarch_gen.errors import InputError
from runarch_gen.web.params import field_int, field_str, parse_bool, parse_int
from runarch_gen.web.play.session import MAX_ACTION_TEXT, PlaySession
from runarch_gen.web.play.setup import read_options
from runarch_gen.web.play.store import Gone, PlayStore

__all__ = ["play_routes", "store_of"]

MAX_QUERY = 1024
MAX_BODY_TEXT = 2_100_000
_store_lock = threading.Lock()


def store_of(request: Request) -> PlayStore:
    """The application's games (made on first use)."""
    state = request.app.state
    with _store_lock:
        store: PlayStore | None = getattr(state, "play_store", None)
        if store is None:
            store = state.play_store = PlayStore()
        return store


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _params(request: Request, known: set[str]) -> dict[str, str]:
    if len(request.url.query) > MAX_QUERY:
        raise InputError(f"the query is over {MAX_QUERY} characters")
    for name in request.query_params:
        if name not in known:
            raise InputError(
                f"unknown parameter {name[:40]!r}: expected {', '.join(sorted(known)) or 'none'}"
            )
    return dict(request.query_params)


async def _body(request: Request) -> dict[str, Any]:
    from runarch_gen.textdata import loads_json

    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the request body is not UTF-8 text") from None
    if len(text) > MAX_BODY_TEXT:
        raise InputError("the request body is too long")
    value = loads_json(text, "the request body") if text.strip() else {}
    if not isinstance(value, dict):
        raise InputError("the request body must be a JSON object")
    return value


def _gone(exc: Gone) -> Response:
    return JSONResponse({"error": exc.message(), "gone": exc.reason}, status_code=404)


def _session(request: Request) -> PlaySession:
    return store_of(request).get(request.path_params["game"], _client(request))


def _seat(value: Any) -> int | None:
    """A seat given 1-based (query text or JSON number), 0-based here; ``None`` if absent."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return parse_int("seat", value, 1, 64) - 1
    return field_int({"seat": value}, "seat", 1, 64, default=1) - 1


def _guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        try:
            result: Response = await handler(request)
        except Gone as exc:
            return _gone(exc)
        return result

    return endpoint


async def create(request: Request) -> Response:
    from runarch_gen.web.work import stopping_event

    _params(request, set())
    body = await _body(request)
    store = store_of(request)
    store.check(_client(request))  # at the limit: refused before any game is made
    options = await run_in_threadpool(read_options, body, stopping_event(request))

    def make(game_id: str) -> PlaySession:
        return PlaySession(
            game_id,
            _client(request),
            options.registration,
            options.game,
            options.game_text,
            options.seats,
            options.seed,
            options.delay,
            options.seed_given,
        )

    session = await run_in_threadpool(store.create, _client(request), make)
    payload = await run_in_threadpool(session.payload, session.you)
    return JSONResponse({**payload, "url": f"/api/play/{session.id}"}, status_code=201)


async def games(request: Request) -> Response:
    _params(request, set())
    store = store_of(request)
    mine = await run_in_threadpool(store.games_of, _client(request))
    return JSONResponse({"games": mine, "limit": store.per_client, "idle_minutes": store.idle / 60})


async def seats(request: Request) -> Response:
    from runarch_gen.web.play.setup import seats_of

    given = _params(request, {"game", "rules"})
    name = field_str(given, "game", default="runarch", limit=40)
    rules = field_str(given, "rules", default="", limit=400)
    return JSONResponse(await run_in_threadpool(seats_of, name, rules))


async def show(request: Request) -> Response:
    given = _params(request, {"seat"})
    session = _session(request)

    def answer() -> dict[str, Any]:
        session.advance()
        return session.payload(session.seat_of(_seat(given.get("seat"))))

    return JSONResponse(await run_in_threadpool(answer))


async def action(request: Request) -> Response:
    _params(request, set())
    body = await _body(request)
    for name in body:
        if name not in ("action", "seat", "version"):
            raise InputError(f"unknown field {name[:40]!r}: expected action, seat, version")
    text = field_str(body, "action", default="", limit=MAX_ACTION_TEXT)
    if not text.strip():
        raise InputError("--action: name the action, as the record writes it")
    version = body.get("version")
    if version is not None:
        version = field_int(body, "version", 0, 10**12, default=0)
    session = _session(request)
    seat = _seat(body.get("seat"))
    payload = await run_in_threadpool(
        session.act, session.you if seat is None else seat, text, version
    )
    return JSONResponse(payload)


async def undo(request: Request) -> Response:
    _params(request, set())
    body = await _body(request)
    for name in body:
        if name != "seat":
            raise InputError(f"unknown field {name[:40]!r}: expected seat")
    session = _session(request)
    seat = _seat(body.get("seat"))
    payload = await run_in_threadpool(session.undo, session.you if seat is None else seat)
    return JSONResponse(payload)


async def end(request: Request) -> Response:
    _params(request, set())
    await _body(request)
    store_of(request).end(request.path_params["game"], _client(request))
    return JSONResponse({"ended": True})


async def record(request: Request) -> Response:
    _params(request, set())
    session = _session(request)
    files = await run_in_threadpool(session.record)
    game_id = session.id
    return JSONResponse(
        {
            "files": [
                {"name": f.name, "url": f"/api/play/{game_id}/files/{f.name}?download=1"}
                for f in files
            ],
            "replay": session._view().replay_command(session.game) if files else None,
        }
    )


async def record_file(request: Request) -> Response:
    given = _params(request, {"download"})
    session = _session(request)
    files = await run_in_threadpool(session.record)
    wanted = request.path_params["name"]
    found = next((f for f in files if f.name == wanted), None)
    if found is None:
        return JSONResponse({"error": "no such file of this game"}, status_code=404)
    response = Response(found.text, media_type=found.media)
    if parse_bool("download", given.get("download", "0")):
        response.headers["content-disposition"] = f'attachment; filename="{found.name}"'
    return response


async def hint(request: Request) -> Response:
    given = _params(request, {"seat"})
    session = _session(request)
    seat = _seat(given.get("seat"))
    return JSONResponse(
        await run_in_threadpool(session.hint, session.you if seat is None else seat)
    )


async def analysis(request: Request) -> Response:
    given = _params(request, {"seat"})
    session = _session(request)
    seat = _seat(given.get("seat"))
    return JSONResponse(
        await run_in_threadpool(session.analysis, session.you if seat is None else seat)
    )


async def asset(request: Request) -> Response:
    from runarch_gen.web.pages import request_language

    _params(request, {"lang"})
    session = _session(request)
    name = request.path_params["name"]
    lang = request_language(request)
    found = await run_in_threadpool(session._view().asset, session.game, name, lang)
    if found is None:
        return JSONResponse({"error": "no such picture of this game"}, status_code=404)
    data, media = found
    response = Response(data, media_type=media)
    response.headers["cache-control"] = "private, max-age=3600"
    return response


def play_routes(
    api: Callable[[Callable[[Request], Any]], Callable[[Request], Any]],
) -> list[BaseRoute]:
    """The play API's routes, each wrapped by the application's ``api`` (errors as JSON)."""

    def route(path: str, handler: Callable[[Request], Any], method: str = "GET") -> Route:
        return Route(path, api(_guarded(handler)), methods=[method])

    return [
        Route("/api/play", api(_guarded(create)), methods=["POST"]),
        Route("/api/play", api(_guarded(games)), methods=["GET"]),
        route("/api/play/seats", seats),
        route("/api/play/{game}", show),
        route("/api/play/{game}/action", action, "POST"),
        route("/api/play/{game}/undo", undo, "POST"),
        route("/api/play/{game}/end", end, "POST"),
        route("/api/play/{game}/record", record),
        route("/api/play/{game}/files/{name}", record_file),
        route("/api/play/{game}/hint", hint),
        route("/api/play/{game}/analysis", analysis),
        route("/api/play/{game}/assets/{name}", asset),
    ]
