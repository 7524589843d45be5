"""The web workshop: a Starlette application over the library, for ``runarch-gen serve``.

How it is put together (docs/web.md says what each route answers):

- :mod:`.guard` — the front door (errors always JSON, requests at once, Host, cross-site
  requests, body size), :func:`.guard.middleware`;
- :mod:`.params` — the one place where request text becomes numbers and booleans;
- :mod:`.pages` — the pages (Jinja2 templates in ``templates/``, words in :mod:`.i18n`);
- :mod:`.work` — computations a request asks for, cancelled when its client leaves or the
  server stops, and conflicts explained within a time limit;
- :mod:`.jobs` and :mod:`.worker` — decks, kits and playtests in worker processes.

A handler parses (raising the command line's :class:`~runarch_gen.errors.InputError`, which
:func:`_api` answers as 400 ``{"error": "one line"}``), calls one library function and
serialises. :data:`ROUTES` lists them; a new page adds its routes there.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
...     client.get("/api/runarch/count").json()["count"] > 0
True
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from runarch_gen.errors import InputError, RunArchError
from runarch_gen.runarch.boards.constraints import BoardConstraints
from runarch_gen.runarch.boards.explain import Cancelled
from runarch_gen.web import work
from runarch_gen.web.boards import (
    CPSAT_SECONDS,
    MAX_BOARDS,
    MAX_CPSAT_BOARDS,
    BoardQuery,
    grid_svg,
    palette_svg,
    parse_query,
    parse_tiles,
)
from runarch_gen.web.guard import BodyTooLarge, middleware
from runarch_gen.web.i18n import LANGUAGES
from runarch_gen.web.jobs import JobManager
from runarch_gen.web.pages import fresh_seed, home, page, request_language, wants_download
from runarch_gen.web.params import (
    MAX_CALIBRATE_GAMES,
    MAX_PLAYTEST_GAMES,
    field_bool,
    field_float,
    field_int,
    field_seed,
    field_str,
    parse_int,
)
from runarch_gen.web.play.routes import play_routes
from runarch_gen.web.work import Busy, ClientGone

__all__ = ["create_app"]

MAX_BODY = 2_000_000
"""Bytes a request body may hold (an uploaded deck or board, a form)."""
MAX_QUERY = 8192
MAX_TEXT = 1_000_000
"""Characters of an uploaded board or deck."""
MAX_REQUESTS = 100
"""Requests in progress at once; beyond, 503."""
MAX_OFFSET = 20.0
"""Millimetres a duplex offset may be, either way."""
BOARD_PARAMS = {"seed", "diagonals", "fix", "forbid", "engine"}
NO_JOB = "no such job (jobs and their files are kept for an hour)"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": _one_line(message)}, status_code=status)


def _check_params(request: Request, known: set[str]) -> None:
    if len(request.url.query) > MAX_QUERY:
        raise InputError(f"the query is over {MAX_QUERY} characters")
    for name in request.query_params:
        if name not in known:
            raise InputError(
                f"unknown parameter {name[:40]!r}: expected {', '.join(sorted(known)) or 'none'}"
            )


def _board_query(request: Request, extra: frozenset[str] = frozenset()) -> BoardQuery:
    _check_params(request, BOARD_PARAMS | extra)
    params = request.query_params
    return parse_query(
        {k: params[k] for k in ("seed", "diagonals", "engine") if k in params},
        {k: params.getlist(k) for k in ("fix", "forbid")},
    )


def _attachment(response: Response, request: Request, name: str) -> Response:
    if wants_download(request):
        response.headers["content-disposition"] = f'attachment; filename="{name}"'
    return response


def _lang(request: Request) -> str:
    return request_language(request)


# ---------------------------------------------------------------------------------------------
# The board API: what `runarch-gen board`, `boards` and `count` print


async def _satisfiable(request: Request, constraints: BoardConstraints) -> int:
    """The exact number of boards meeting ``constraints`` (milliseconds, whatever the bans);
    none: the command line's error, explained within :data:`.explain.EXPLAIN_SECONDS`."""
    from runarch_gen.runarch.boards.generate import count_boards

    total = await run_in_threadpool(count_boards, constraints)
    if total:
        return total
    raise InputError(await work.conflict(request, constraints, _lang(request)))


def _cpsat_bounds(query: BoardQuery, count: int) -> None:
    if query.engine == "cpsat" and count > MAX_CPSAT_BOARDS:
        raise InputError(
            f"--count {count}: at most {MAX_CPSAT_BOARDS} boards with --engine cpsat here"
            " (one CP-SAT solve each; the exact engine draws any number)"
        )


def _drawn(query: BoardQuery, count: int, seed: int, cancel: Any) -> list[Any]:
    """``count`` boards; with CP-SAT, each solve time-limited and the run cancellable."""
    from runarch_gen.runarch.boards.generate import generate_boards

    def step(n: int) -> None:
        del n
        if cancel.is_set():
            raise Cancelled

    return generate_boards(
        count,
        query.constraints,
        seed=seed,
        engine=query.engine,
        on_progress=step,
        time_limit=CPSAT_SECONDS,
    )


async def api_board(request: Request) -> Response:
    """``runarch-gen board`` (``format`` text, json, png) and the board as SVG."""
    query = _board_query(request, frozenset({"format", "lang", "download"}))
    fmt = request.query_params.get("format", "json").lower()  # a JSON API: JSON unless asked
    if fmt not in ("text", "json", "png", "svg"):
        raise InputError(f"--format {fmt[:40]!r}: expected text, json, png or svg")
    seed = query.seed if query.seed is not None else fresh_seed()
    if query.engine != "cpsat":  # microseconds: counted, drawn and written in one go
        answer = await run_in_threadpool(_exact_board, request, query, seed, fmt)
        if answer is not None:
            return answer
    await _satisfiable(request, query.constraints)
    (board,) = await work.run_cancellable(request, _drawn, query, 1, seed)
    return await run_in_threadpool(_board_answer, request, query, board, seed, fmt)


def _exact_board(request: Request, query: BoardQuery, seed: int, fmt: str) -> Response | None:
    """The board of the exact engine, or ``None`` when no board meets the options."""
    from runarch_gen.runarch.boards.generate import count_boards, generate_board

    if not count_boards(query.constraints):
        return None
    board = generate_board(query.constraints, seed=seed, engine=query.engine)
    return _board_answer(request, query, board, seed, fmt)


def _board_answer(request: Request, query: BoardQuery, board: Any, seed: int, fmt: str) -> Response:
    from runarch_gen.runarch.boards.generate import generation_meta
    from runarch_gen.runarch.boards.io import format_board

    name = f"board-{seed}.{ {'text': 'txt'}.get(fmt, fmt) }"
    response: Response
    if fmt == "png":
        from runarch_gen.runarch.kit.preview import board_png

        response = Response(board_png(board), media_type="image/png")
    elif fmt == "svg":
        from runarch_gen.web.boards import board_svg

        response = Response(board_svg(board, lang=_lang(request)), media_type="image/svg+xml")
    else:
        meta = generation_meta(seed, query.engine, query.constraints)
        text = format_board(board, "json" if fmt == "json" else "text", meta)
        media = "application/json" if fmt == "json" else "text/plain; charset=utf-8"
        response = Response(text, media_type=media)
    response.headers["x-seed"] = str(seed)
    return _attachment(response, request, name)


async def api_boards(request: Request) -> Response:
    """``runarch-gen boards -n COUNT`` (``format`` jsonl or text)."""
    from runarch_gen.runarch.boards.generate import generation_meta
    from runarch_gen.runarch.boards.io import format_boards

    query = _board_query(request, frozenset({"count", "format", "download"}))
    count = parse_int("count", request.query_params.get("count", "1"), 1, MAX_BOARDS)
    fmt = request.query_params.get("format", "jsonl").lower()
    if fmt not in ("jsonl", "text"):
        raise InputError(f"--format {fmt[:40]!r}: expected jsonl or text")
    _cpsat_bounds(query, count)
    await _satisfiable(request, query.constraints)
    seed = query.seed if query.seed is not None else fresh_seed()
    found = await work.run_cancellable(request, _drawn, query, count, seed)
    meta = generation_meta(seed, query.engine, query.constraints)
    text = format_boards(found, "text" if fmt == "text" else "jsonl", meta)
    media = "application/x-ndjson" if fmt == "jsonl" else "text/plain; charset=utf-8"
    response = Response(text, media_type=media)
    response.headers["x-seed"] = str(seed)
    return _attachment(response, request, f"boards-{seed}.{'jsonl' if fmt == 'jsonl' else 'txt'}")


async def api_count(request: Request) -> Response:
    """``runarch-gen count --json``; contradictory options: 400 with the explanation (in the
    request's ``lang``), or without it when it is not found within the time limit."""
    from runarch_gen.runarch.boards.generate import resolve_engine

    query = _board_query(request, frozenset({"lang"}))
    if query.engine == "cpsat":
        raise InputError("--engine cpsat: counting by CP-SAT enumeration is not served here")
    if query.seed is not None:
        raise InputError("unknown parameter 'seed': a count takes no seed")
    total = await _satisfiable(request, query.constraints)
    return JSONResponse(
        {
            "count": total,
            "engine": resolve_engine(query.engine),
            "constraints": query.constraints.to_json(),
        }
    )


def api_grid(request: Request) -> Response:
    """The boards page's grid (SVG), with a drawn board (``board``: 25 codes) if given."""
    query = _board_query(request, frozenset({"board", "lang"}))
    board = parse_tiles(request.query_params.get("board"))
    return Response(
        grid_svg(query.constraints, board, lang=_lang(request)), media_type="image/svg+xml"
    )


def api_palette(request: Request) -> Response:
    _check_params(request, {"lang"})
    return Response(palette_svg(lang=_lang(request)), media_type="image/svg+xml")


async def api_check(request: Request) -> Response:
    """``runarch-gen check --json`` on the request body: boards (text, JSON, JSON Lines) or a
    deck (JSON, CSV). Status 200 with the report whatever the verdict; its ``exit_code`` is the
    command line's."""
    from runarch_gen.web.params import parse_bool

    _check_params(request, {"diagonals"})
    diagonals = parse_bool("diagonals", request.query_params.get("diagonals", "0"))
    text = await _body_text(request)

    def check() -> dict[str, Any]:
        from runarch_gen.runarch.boards.check import check_board_text
        from runarch_gen.runarch.decks.check import check_deck_text
        from runarch_gen.runarch.decks.io import sniff_deck

        deck = sniff_deck(text)
        if deck:
            report: Any = check_deck_text(text, source="upload")
        else:
            report = check_board_text(text, source="upload", diagonals=diagonals)
        return {
            "kind": "deck" if deck else "boards",
            "exit_code": report.exit_code,
            "lines": report.lines(),
            "report": report.to_json(),
        }

    return JSONResponse(await run_in_threadpool(check))


async def _body_text(request: Request) -> str:
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the request body is not UTF-8 text") from None
    if len(text) > MAX_TEXT:
        raise InputError(f"the text is over {MAX_TEXT:,} characters")
    return text


async def _body_json(request: Request) -> dict[str, Any]:
    from runarch_gen.textdata import loads_json

    text = await _body_text(request)
    # Nesting and number lengths bounded: a ParseError naming where, never a RecursionError.
    value = loads_json(text, "the request body") if text.strip() else {}
    if not isinstance(value, dict):
        raise InputError("the request body must be a JSON object")
    return value


# ---------------------------------------------------------------------------------------------
# Jobs: every option checked here as the command line checks it, before the job is accepted


def _known_fields(body: dict[str, Any], known: set[str]) -> None:
    for name in body:
        if name not in known:
            raise InputError(f"unknown field {name[:40]!r}: expected {', '.join(sorted(known))}")


def _seed(body: dict[str, Any]) -> int:
    seed = field_seed(body)
    return seed if seed is not None else fresh_seed()


def _choice(body: dict[str, Any], name: str, choices: tuple[str, ...], default: str) -> str:
    value = field_str(body, name, default=default, limit=40).strip().lower()
    if value not in choices:
        option = name.replace("_", "-")
        raise InputError(f"--{option} {value!r}: expected one of {', '.join(choices)}")
    return value


def deck_options(body: dict[str, Any]) -> dict[str, Any]:
    """The deck form, checked as ``runarch-gen deck`` checks its options."""
    from runarch_gen.runarch.decks.generate import MAX_CARDS, MIN_CARDS

    _known_fields(body, {"cards", "seed", "calibrate", "calibrate_games", "lang"})
    cards = field_int(body, "cards", 0, 10**6, default=50)
    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise InputError(f"--cards {cards}: a deck has {MIN_CARDS} to {MAX_CARDS} cards [R-01]")
    return {
        "cards": cards,
        "seed": _seed(body),
        "calibrate": field_bool(body, "calibrate", default=False),
        "calibrate_games": field_int(body, "calibrate_games", 1, MAX_CALIBRATE_GAMES, default=400),
        "lang": _choice(body, "lang", LANGUAGES, "en"),
    }


def _offset(text: str) -> str:
    """``--duplex-offset X,Y``: two numbers of at most :data:`MAX_OFFSET` mm either way."""
    from runarch_gen.web.params import parse_float

    if not text.strip():
        return ""
    parts = text.split(",")
    if len(parts) != 2:
        raise InputError(f"--duplex-offset {text[:40]!r}: expected X,Y in mm (e.g. 0.5,-1)")
    x, y = (parse_float("duplex-offset", p.strip(), -MAX_OFFSET, MAX_OFFSET) for p in parts)
    return f"{x!r},{y!r}"


def kit_options(body: dict[str, Any]) -> dict[str, Any]:
    """The kit form, checked as ``runarch-gen kit`` checks its options (and the uploaded board
    and deck read as its ``--board`` and ``--deck`` files are)."""
    from runarch_gen.runarch.kit.build import KitOptions, parse_offset, parse_only
    from runarch_gen.runarch.kit.config import load_kit_config
    from runarch_gen.runarch.kit.inputs import parse_board, read_deck_text

    known = {"seed", "paper", "lang", "bleed", "duplex", "duplex_offset", "print_friendly"}
    known |= {"only", "validate", "board", "deck"}
    _known_fields(body, known)
    paper = _choice(body, "paper", tuple(load_kit_config().papers), "a4")
    bleed = field_float(body, "bleed", 0.0, 20.0, default=3.0)
    only = body.get("only") or []
    if not isinstance(only, list) or not all(isinstance(k, str) and len(k) < 40 for k in only):
        raise InputError("--only: expected a list of component kinds")
    offset = _offset(field_str(body, "duplex_offset", default="", limit=40))
    options = KitOptions(
        paper=paper,
        lang=_choice(body, "lang", LANGUAGES, "en"),
        bleed=bleed,
        duplex=_choice(body, "duplex", ("long", "short", "none"), "long"),  # type: ignore[arg-type]
        duplex_offset=parse_offset(offset or None),
        print_friendly=field_bool(body, "print_friendly", default=False),
        only=parse_only(",".join(only)) if only else None,
    ).checked()
    out: dict[str, Any] = {
        "seed": _seed(body),
        "paper": options.paper,
        "lang": options.lang,
        "bleed": options.bleed,
        "duplex": options.duplex,
        "duplex_offset": offset,
        "print_friendly": options.print_friendly,
        "only": [k.replace("_", "-") for k in options.only or ()],
        "validate": field_bool(body, "validate", default=False),
    }
    board = field_str(body, "board", default="", limit=MAX_TEXT)
    if board.strip():
        parse_board(board, source="--board")
        out["board"] = board
        out["board_format"] = "json" if board.lstrip().startswith("{") else "txt"
    deck = field_str(body, "deck", default="", limit=MAX_TEXT)
    if deck.strip():
        read_deck_text(deck, source="--deck")
        out["deck"] = deck
        out["deck_format"] = "json" if deck.lstrip().startswith("{") else "csv"
    return out


GAME_KIT_FIELDS = {"game", "rules", "paper", "lang", "bleed", "duplex", "duplex_offset"}
GAME_KIT_FIELDS |= {"print_friendly", "only"}


def any_kit_options(body: dict[str, Any]) -> dict[str, Any]:
    """The kit form of any registered game with a kit (``game``, default runarch), checked as
    ``runarch-gen GAME kit`` checks its options, the kit planned (not drawn) so that nothing
    it refuses — a bleed too large for the paper, a rule the game refuses — is accepted. RunArch
    takes its own form (:func:`kit_options`: a seed, a board and a deck)."""
    from runarch_gen.games import game_values
    from runarch_gen.pnp.kit import (
        KitOptions,
        KitRequest,
        kit_definition,
        parse_offset,
        parse_only,
    )
    from runarch_gen.pnp.sheets import PAPERS

    game = field_str(body, "game", default="runarch", limit=40)
    rules = field_str(body, "rules", default="", limit=400)
    registration, values = game_values(game, rules)
    definition = kit_definition(registration)  # a game without a kit: its one line
    if definition.make is not None:  # RunArch: its own inputs
        if rules.strip():
            raise InputError(f"unknown field 'rules': the {registration.name} kit takes none")
        own = kit_options({k: v for k, v in body.items() if k not in ("game", "rules")})
        return {**own, "game": registration.name}
    _known_fields(body, GAME_KIT_FIELDS)
    for parameter in registration.game_type.parameters:
        # The job's command reads such a value as a file name: the workshop reads no file.
        if parameter.from_file is not None and values.get(parameter.name) != parameter.default:
            raise InputError(f"--rules: {parameter.name} names a file, which is not read here")
    registration.load(values)  # every parameter checked as the game checks it
    only = body.get("only") or []
    if not isinstance(only, list) or not all(isinstance(k, str) and len(k) < 40 for k in only):
        raise InputError("--only: expected a list of component kinds")
    offset = _offset(field_str(body, "duplex_offset", default="", limit=40))
    options = KitOptions(
        paper=_choice(body, "paper", tuple(PAPERS), "a4"),
        lang=_choice(body, "lang", LANGUAGES, "en"),
        bleed=field_float(body, "bleed", 0.0, 20.0, default=3.0),
        duplex=_choice(body, "duplex", ("long", "short", "none"), "long"),  # type: ignore[arg-type]
        duplex_offset=parse_offset(offset or None),
        print_friendly=field_bool(body, "print_friendly", default=False),
        only=parse_only(",".join(only), definition.kinds) if only else None,
    ).checked(definition.kinds)
    definition.plan(KitRequest(options, values))  # laid out, not drawn: milliseconds
    return {
        "game": registration.name,
        # The game string of the values read (never the text given): the job's command reads
        # no file whatever the text said.
        "rules": registration.game_type.game_string(values),
        "paper": options.paper,
        "lang": options.lang,
        "bleed": options.bleed,
        "duplex": options.duplex,
        "duplex_offset": offset,
        "print_friendly": options.print_friendly,
        "only": [k.replace("_", "-") for k in options.only or ()],
    }


def playtest_options(body: dict[str, Any]) -> dict[str, Any]:
    """The playtest form: a registered game, its parameters, bots, games, seed — the game made
    and the bots seated as the playtest will, so that nothing fails after it is accepted."""
    from runarch_gen.games import game_values
    from runarch_gen.play.playtest import check_bots

    _known_fields(body, {"game", "rules", "bots", "games", "seed", "lang"})
    game = field_str(body, "game", default="runarch", limit=40)
    rules = field_str(body, "rules", default="", limit=400)
    registration, values = game_values(game, rules)
    made = registration.load(values)  # every parameter checked as the game checks it
    bots_text = field_str(body, "bots", default="", limit=200)
    given = [b for b in bots_text.split(",") if b.strip()]
    bots = list(check_bots(registration, given, made.num_players)) if given else []
    return {
        "game": registration.game_type.short_name,
        "rules": rules,
        "bots": bots,
        "games": field_int(body, "games", 1, MAX_PLAYTEST_GAMES, default=200),
        "seed": _seed(body),
        "lang": _choice(body, "lang", LANGUAGES, "en"),
    }


JOB_FORMS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "deck": deck_options,
    "kit": kit_options,
    "playtest": playtest_options,
}
"""The forms of the jobs, by kind (``any_kit_options`` serves ``/api/kit``, a ``kit`` job too)."""


def _client(request: Request) -> str:
    """Who a job belongs to for the limits: the client's address (a cookie costs nothing to
    change, an address does)."""
    return request.client.host if request.client else "?"


def _jobs(request: Request) -> JobManager:
    manager: JobManager = request.app.state.jobs
    return manager


def submit(
    kind: str, form: Callable[[dict[str, Any]], dict[str, Any]] | None = None
) -> Callable[[Request], Any]:
    """A job's route: its form checked in full (400 otherwise), then the job queued (202)."""
    checked = form if form is not None else JOB_FORMS[kind]

    async def endpoint(request: Request) -> Response:
        _check_params(request, set())
        body = await _body_json(request)
        options = await run_in_threadpool(checked, body)
        job = await run_in_threadpool(_jobs(request).submit, kind, _client(request), options)
        status = _jobs(request).status(job)
        return JSONResponse({**status, "url": f"/api/jobs/{job.id}"}, status_code=202)

    return endpoint


def api_job(request: Request) -> Response:
    _check_params(request, set())
    manager = _jobs(request)
    job = manager.get(request.path_params["job"])
    if job is None:
        return _error(404, NO_JOB)
    return JSONResponse(manager.status(job))


def api_cancel(request: Request) -> Response:
    _check_params(request, set())
    manager = _jobs(request)
    job = manager.cancel(request.path_params["job"])
    if job is None:
        return _error(404, NO_JOB)
    return JSONResponse(manager.status(job))


def api_job_file(request: Request) -> Response:
    _check_params(request, {"download"})
    manager = _jobs(request)
    job = manager.get(request.path_params["job"])
    if job is None:
        return _error(404, NO_JOB)
    path = manager.file_path(job, request.path_params["name"])
    if path is None:
        return _error(404, "no such file in this job")
    return FileResponse(path, filename=path.name if wants_download(request) else None)


def api_games(request: Request) -> Response:
    """``runarch-gen games --json``."""
    from runarch_gen.games import registered_games

    _check_params(request, set())
    return JSONResponse({"games": [r.to_json() for r in registered_games()]})


# ---------------------------------------------------------------------------------------------
# The application


def _api(endpoint: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """An API route: synchronous endpoints run in the thread pool; the library's errors are
    400, :class:`Busy` 429, a body too large 413; the time spent is in ``Server-Timing``."""

    async def wrapped(request: Request) -> Response:
        started = time.perf_counter()
        response = await answer(request)
        # The time spent here, for the benchmark and the browser's network panel.
        response.headers["server-timing"] = f"app;dur={1000 * (time.perf_counter() - started):.2f}"
        return response

    async def answer(request: Request) -> Response:
        try:
            if asyncio.iscoroutinefunction(endpoint):
                result: Response = await endpoint(request)
            else:
                result = await run_in_threadpool(endpoint, request)
        except RunArchError as exc:
            return _error(400, str(exc))
        except Busy as exc:
            return _error(429, str(exc))
        except BodyTooLarge as exc:
            return _error(413, str(exc))
        except ClientGone:
            return Response(status_code=499)  # nobody reads it
        return result

    return wrapped


def _page(request: Request) -> Response:
    try:
        return page(request)
    except RunArchError as exc:
        return _error(400, str(exc))


ROUTES: list[BaseRoute] = [
    Route("/", home),
    Route("/api/runarch/board", _api(api_board)),
    Route("/api/runarch/boards", _api(api_boards)),
    Route("/api/runarch/count", _api(api_count)),
    Route("/api/runarch/grid.svg", _api(api_grid)),
    Route("/api/runarch/palette.svg", _api(api_palette)),
    Route("/api/runarch/check", _api(api_check), methods=["POST"]),
    Route("/api/runarch/deck", _api(submit("deck")), methods=["POST"]),
    Route("/api/runarch/kit", _api(submit("kit")), methods=["POST"]),
    Route("/api/kit", _api(submit("kit", any_kit_options)), methods=["POST"]),
    Route("/api/playtest", _api(submit("playtest")), methods=["POST"]),
    Route("/api/games", _api(api_games)),
    Route("/api/jobs/{job}", _api(api_job)),
    Route("/api/jobs/{job}/cancel", _api(api_cancel), methods=["POST"]),
    Route("/api/jobs/{job}/files/{name}", _api(api_job_file)),
    *play_routes(_api),
    Mount("/static", StaticFiles(packages=[("runarch_gen.web", "static")]), name="static"),
    Route("/{page}", _page),
]


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        message = f"method {request.method} is not allowed here"
    elif exc.status_code == 404 and exc.detail == "Not Found":
        message = f"no such route: {request.url.path[:80]}"
    else:
        message = str(exc.detail)
    return JSONResponse({"error": _one_line(message)}, status_code=exc.status_code, headers=headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    del request, exc
    return _error(500, "internal error: the server's log has the details")


def _warm_up() -> None:
    """Build the counter's tables before the first request needs them."""
    from runarch_gen.runarch.boards.generate import count_boards

    count_boards(BoardConstraints.parse(forbids=["a1=5Y"]))
    count_boards(BoardConstraints.parse(diagonals=True, fixes=["a1=5Y"]))


def create_app(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    jobs: JobManager | None = None,
    tick_seconds: float = 1.0,
    max_requests: int = MAX_REQUESTS,
) -> Starlette:
    """The workshop for a server bound to ``host``:``port``."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # The job folder exists only while the server runs.
        manager = jobs if jobs is not None else JobManager()
        app.state.jobs = manager
        await run_in_threadpool(_warm_up)

        async def ticker() -> None:
            while True:
                await asyncio.sleep(tick_seconds)
                await run_in_threadpool(manager.tick)

        task = asyncio.create_task(ticker())
        try:
            yield
        finally:
            app.state.stopping.set()  # every cancellable computation ends now
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            manager.shutdown()

    app = Starlette(
        routes=ROUTES,
        middleware=middleware(host, port, max_body=MAX_BODY, max_requests=max_requests),
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
    # Set when the server stops (by the lifespan's end, or earlier by `serve` as soon as a stop
    # is asked for): the computations of this application's requests end.
    app.state.stopping = threading.Event()
    return app
