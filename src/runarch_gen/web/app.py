"""The web workshop: a Starlette application over the library, for ``runarch-gen serve``.

Pages: ``/boards``, ``/decks``, ``/kit``, ``/playtest`` (English or Czech). The JSON API under
``/api/`` is what the pages use, and answers as the command line does: the same output for the
same options, and for a bad option status 400 with the command line's one-line message as
``{"error": ...}`` (docs/web.md lists every route). Long work (a deck, a kit, a playtest) runs
as a job in a worker process (:mod:`.jobs`).

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
...     client.get("/api/runarch/count").json()["count"] > 0
True
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from html import escape
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from runarch_gen.errors import InputError, RunArchError
from runarch_gen.runarch.boards.constraints import BoardConstraints
from runarch_gen.web.boards import (
    MAX_BOARDS,
    BoardQuery,
    grid_svg,
    palette_svg,
    parse_bool,
    parse_int,
    parse_query,
    parse_seed,
    parse_tiles,
)
from runarch_gen.web.guard import BodyTooLarge, Guard, allowed_hosts
from runarch_gen.web.i18n import LANGUAGES, STRINGS, choose_language
from runarch_gen.web.jobs import Busy, JobManager

__all__ = ["create_app"]

MAX_BODY = 2_000_000
"""Bytes a request body may hold (an uploaded deck or board, a form)."""
MAX_QUERY = 8192
MAX_TEXT = 1_000_000
"""Characters of an uploaded board or deck."""
MAX_PLAYTEST_GAMES = 100_000
MAX_CALIBRATE_GAMES = 10_000
CLIENT_COOKIE = "rg_client"
LANG_COOKIE = "rg_lang"
_CLIENT_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
PAGES = ("boards", "decks", "kit", "playtest")
BOARD_PARAMS = {"seed", "diagonals", "fix", "forbid", "engine"}


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
                f"unknown parameter {name[:40]!r}: expected {', '.join(sorted(known))}"
            )


def _board_query(request: Request, extra: frozenset[str] = frozenset()) -> BoardQuery:
    _check_params(request, BOARD_PARAMS | extra)
    params = request.query_params
    return parse_query(
        {k: params[k] for k in ("seed", "diagonals", "engine") if k in params},
        {k: params.getlist(k) for k in ("fix", "forbid")},
    )


def _fresh_seed(seed: int | None) -> int:
    return seed if seed is not None else secrets.randbelow(2**31)


def _attachment(response: Response, request: Request, name: str) -> Response:
    if parse_bool("download", request.query_params.get("download", "0")):
        response.headers["content-disposition"] = f'attachment; filename="{name}"'
    return response


# ---------------------------------------------------------------------------------------------
# The board API: what `runarch-gen board`, `boards` and `count` print


async def api_board(request: Request) -> Response:
    """``runarch-gen board`` (``format`` text, json, png) and the board as SVG."""
    query = _board_query(request, frozenset({"format", "lang", "download"}))
    await _satisfiable(query.constraints)
    return await run_in_threadpool(_board, request, query)


def _board(request: Request, query: BoardQuery) -> Response:
    from runarch_gen.runarch.boards.generate import generate_board, generation_meta
    from runarch_gen.runarch.boards.io import format_board

    fmt = request.query_params.get("format", "json").lower()  # a JSON API: JSON unless asked
    if fmt not in ("text", "json", "png", "svg"):
        raise InputError(f"--format {fmt[:40]!r}: expected text, json, png or svg")
    seed = _fresh_seed(query.seed)
    board = generate_board(query.constraints, seed=seed, engine=query.engine)
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
    query = _board_query(request, frozenset({"count", "format", "download"}))
    await _satisfiable(query.constraints)
    return await run_in_threadpool(_boards, request, query)


def _boards(request: Request, query: BoardQuery) -> Response:
    from runarch_gen.runarch.boards.generate import generate_boards, generation_meta
    from runarch_gen.runarch.boards.io import format_boards

    count = parse_int("count", request.query_params.get("count", "1"), 1, MAX_BOARDS)
    fmt = request.query_params.get("format", "jsonl").lower()
    if fmt not in ("jsonl", "text"):
        raise InputError(f"--format {fmt[:40]!r}: expected jsonl or text")
    seed = _fresh_seed(query.seed)
    found = generate_boards(count, query.constraints, seed=seed, engine=query.engine)
    meta = generation_meta(seed, query.engine, query.constraints)
    text = format_boards(found, "text" if fmt == "text" else "jsonl", meta)
    media = "application/x-ndjson" if fmt == "jsonl" else "text/plain; charset=utf-8"
    response = Response(text, media_type=media)
    response.headers["x-seed"] = str(seed)
    return _attachment(response, request, f"boards-{seed}.{'jsonl' if fmt == 'jsonl' else 'txt'}")


async def api_count(request: Request) -> Response:
    """``runarch-gen count --json``; contradictory options: 400 with the CP-SAT explanation."""
    from runarch_gen.runarch.boards.generate import resolve_engine

    query = _board_query(request)
    if query.engine == "cpsat":
        raise InputError("--engine cpsat: counting by CP-SAT enumeration is not served here")
    if query.seed is not None:
        raise InputError("unknown parameter 'seed': a count takes no seed")
    total = await _satisfiable(query.constraints)
    return JSONResponse(
        {
            "count": total,
            "engine": resolve_engine(query.engine),
            "constraints": query.constraints.to_json(),
        }
    )


@functools.lru_cache(maxsize=256)
def _contradiction(constraints: BoardConstraints) -> InputError:
    """The command line's error for constraints no board meets. CP-SAT's explanation takes
    from a tenth of a second to seconds, so a page toggling a pin asks for it once."""
    from runarch_gen.runarch.boards.generate import contradiction

    return contradiction(constraints)


_EXPLAINERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="explain")
MAX_EXPLAINING = 16
"""Contradictions explained or waiting at once; beyond, 429 (the explanations are CP-SAT solves
and must not crowd out the board requests, which run in the server's own thread pool)."""
_explaining = [0]


async def _satisfiable(constraints: BoardConstraints) -> int:
    """The exact number of boards meeting ``constraints``; none: the command line's error,
    explained by CP-SAT on one of two threads of its own."""
    from runarch_gen.runarch.boards.generate import count_boards

    total = await run_in_threadpool(count_boards, constraints)
    if total:
        return total
    if _explaining[0] >= MAX_EXPLAINING:
        raise Busy("too many contradictions are being explained at once: try again")
    _explaining[0] += 1
    try:
        error = await asyncio.wrap_future(_EXPLAINERS.submit(_contradiction, constraints))
    finally:
        _explaining[0] -= 1
    raise error


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
    _check_params(request, {"diagonals"})
    diagonals = parse_bool("diagonals", request.query_params.get("diagonals", "0"))
    text = await _body_text(request)

    def check() -> dict[str, Any]:
        from runarch_gen.runarch.boards.check import check_board_text
        from runarch_gen.runarch.decks.check import check_deck_text
        from runarch_gen.runarch.decks.io import sniff_deck

        if sniff_deck(text):
            report: Any = check_deck_text(text, source="upload")
        else:
            report = check_board_text(text, source="upload", diagonals=diagonals)
        return {
            "kind": "deck" if sniff_deck(text) else "boards",
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
# Jobs: options checked here as the command line checks them, then queued


def _field(body: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = body.get(name, default)
    if value is None:
        return default
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if kind is int and isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InputError(f"--{name.replace('_', '-')}: expected {kind.__name__}, not {value!r:.40}")
    return value


def _known_fields(body: dict[str, Any], known: set[str]) -> None:
    for name in body:
        if name not in known:
            raise InputError(f"unknown field {name[:40]!r}: expected {', '.join(sorted(known))}")


def _seed_field(body: dict[str, Any]) -> int:
    value = body.get("seed")
    if value is None or value == "":
        return _fresh_seed(None)
    seed = parse_seed(str(value))
    assert seed is not None
    return seed


def deck_options(body: dict[str, Any]) -> dict[str, Any]:
    """The deck form, checked as ``runarch-gen deck`` checks its options."""
    from runarch_gen.runarch.decks.generate import MAX_CARDS, MIN_CARDS

    _known_fields(body, {"cards", "seed", "calibrate", "calibrate_games", "lang"})
    cards = _field(body, "cards", int, 50)
    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise InputError(f"--cards {cards}: a deck has {MIN_CARDS} to {MAX_CARDS} cards [R-01]")
    games = _field(body, "calibrate_games", int, 400)
    if not 1 <= games <= MAX_CALIBRATE_GAMES:
        raise InputError(f"--calibrate-games {games}: expected 1 to {MAX_CALIBRATE_GAMES}")
    lang = _field(body, "lang", str, "en")
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    return {
        "cards": cards,
        "seed": _seed_field(body),
        "calibrate": _field(body, "calibrate", bool, False),
        "calibrate_games": games,
        "lang": lang,
    }


def kit_options(body: dict[str, Any]) -> dict[str, Any]:
    """The kit form, checked as ``runarch-gen kit`` checks its options (and the uploaded board
    and deck read as its ``--board`` and ``--deck`` files are)."""
    from runarch_gen.runarch.kit.build import KitOptions, parse_offset, parse_only
    from runarch_gen.runarch.kit.config import load_kit_config
    from runarch_gen.runarch.kit.inputs import parse_board, read_deck_text

    known = {"seed", "paper", "lang", "bleed", "duplex", "duplex_offset", "print_friendly"}
    known |= {"only", "validate", "board", "deck"}
    _known_fields(body, known)
    paper = _field(body, "paper", str, "a4").lower()
    if paper not in load_kit_config().papers:
        papers = ", ".join(load_kit_config().papers)
        raise InputError(f"--paper {paper[:40]!r}: expected one of {papers}")
    bleed = _field(body, "bleed", float, 3.0)
    if not math.isfinite(bleed) or not 0 <= bleed <= 20:
        raise InputError(f"--bleed {bleed:g}: expected 0 to 20 mm")
    only = _field(body, "only", list, [])
    if not all(isinstance(k, str) for k in only):
        raise InputError("--only: expected a list of component kinds")
    offset = _field(body, "duplex_offset", str, "")
    options = KitOptions(
        paper=paper,
        lang=_field(body, "lang", str, "en").lower(),
        bleed=bleed,
        duplex=_field(body, "duplex", str, "long").lower(),
        duplex_offset=parse_offset(offset or None),
        print_friendly=_field(body, "print_friendly", bool, False),
        only=parse_only(",".join(only)) if only else None,
    ).checked()
    out: dict[str, Any] = {
        "seed": _seed_field(body),
        "paper": options.paper,
        "lang": options.lang,
        "bleed": options.bleed,
        "duplex": options.duplex,
        "duplex_offset": offset.strip(),
        "print_friendly": options.print_friendly,
        "only": [k.replace("_", "-") for k in options.only or ()],
        "validate": _field(body, "validate", bool, False),
    }
    board = _field(body, "board", str, "")
    if board.strip():
        if len(board) > MAX_TEXT:
            raise InputError(f"--board: over {MAX_TEXT:,} characters")
        parse_board(board, source="--board")
        out["board"] = board
        out["board_format"] = "json" if board.lstrip().startswith("{") else "txt"
    deck = _field(body, "deck", str, "")
    if deck.strip():
        if len(deck) > MAX_TEXT:
            raise InputError(f"--deck: over {MAX_TEXT:,} characters")
        read_deck_text(deck, source="--deck")
        out["deck"] = deck
        out["deck_format"] = "json" if deck.lstrip().startswith("{") else "csv"
    return out


def playtest_options(body: dict[str, Any]) -> dict[str, Any]:
    """The playtest form: a registered game, its parameters, bots, games, seed."""
    from runarch_gen.games import game_values

    _known_fields(body, {"game", "rules", "bots", "games", "seed"})
    game = _field(body, "game", str, "runarch")
    rules = _field(body, "rules", str, "")
    if len(rules) > 400:
        raise InputError("--rules: over 400 characters")
    registration, _ = game_values(game, rules)
    bots_text = _field(body, "bots", str, "")
    bots = [b.strip().lower() for b in bots_text.split(",") if b.strip()]
    known = ", ".join(sorted(registration.bots))
    if len(bots) > 16:
        raise InputError("--bots: at most 16 bots")
    for bot in bots:
        if bot not in registration.bots:
            raise InputError(f"unknown bot {bot[:40]!r}: expected one of {known}")
    games = _field(body, "games", int, 200)
    if not 1 <= games <= MAX_PLAYTEST_GAMES:
        raise InputError(f"--games {games}: expected 1 to {MAX_PLAYTEST_GAMES:,}")
    return {
        "game": registration.game_type.short_name,
        "rules": rules,
        "bots": bots,
        "games": games,
        "seed": _seed_field(body),
    }


JOB_FORMS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "deck": deck_options,
    "kit": kit_options,
    "playtest": playtest_options,
}


def _client(request: Request) -> str:
    cookie = request.cookies.get(CLIENT_COOKIE, "")
    if _CLIENT_RE.match(cookie):
        return "cookie:" + cookie
    return "address:" + (request.client.host if request.client else "?")


def _jobs(request: Request) -> JobManager:
    manager: JobManager = request.app.state.jobs
    return manager


def submit(kind: str) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        _check_params(request, set())
        body = await _body_json(request)
        options = await run_in_threadpool(JOB_FORMS[kind], body)
        job = _jobs(request).submit(kind, _client(request), options)
        status = _jobs(request).status(job)
        return JSONResponse({**status, "url": f"/api/jobs/{job.id}"}, status_code=202)

    return endpoint


def api_job(request: Request) -> Response:
    _check_params(request, set())
    manager = _jobs(request)
    job = manager.get(request.path_params["job"])
    if job is None:
        return _error(404, "no such job (jobs and their files are kept for an hour)")
    return JSONResponse(manager.status(job))


def api_cancel(request: Request) -> Response:
    _check_params(request, set())
    manager = _jobs(request)
    job = manager.cancel(request.path_params["job"])
    if job is None:
        return _error(404, "no such job (jobs and their files are kept for an hour)")
    return JSONResponse(manager.status(job))


def api_job_file(request: Request) -> Response:
    _check_params(request, {"download"})
    manager = _jobs(request)
    job = manager.get(request.path_params["job"])
    if job is None:
        return _error(404, "no such job (jobs and their files are kept for an hour)")
    path = manager.file_path(job, request.path_params["name"])
    if path is None:
        return _error(404, "no such file in this job")
    download = parse_bool("download", request.query_params.get("download", "0"))
    return FileResponse(path, filename=path.name if download else None)


def api_games(request: Request) -> Response:
    """``runarch-gen games --json``."""
    from runarch_gen.games import registered_games

    _check_params(request, set())
    return JSONResponse({"games": [r.to_json() for r in registered_games()]})


# ---------------------------------------------------------------------------------------------
# Pages


def _lang(request: Request) -> str:
    return choose_language(
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
        request.headers.get("accept-language"),
    )


def _template(name: str) -> str:
    return (resources.files("runarch_gen.web") / "templates" / name).read_text("utf-8")


_PLACEHOLDER = re.compile(r"\{\{(!?)(\w+)\}\}")


def render(name: str, strings: dict[str, str], raw: dict[str, str]) -> str:
    """The template with ``{{key}}`` replaced by the escaped word and ``{{!key}}`` by markup."""

    def fill(match: re.Match[str]) -> str:
        if match[1]:
            return raw[match[2]]
        return escape(strings[match[2]])

    return _PLACEHOLDER.sub(fill, _template(name))


def _games_options() -> str:
    from runarch_gen.games import registered_games

    parts = []
    for r in registered_games():
        spec = r.game_type
        bots = ",".join(sorted(r.bots))
        params = "\n".join(parameter.describe() for parameter in spec.parameters)
        parts.append(
            f'<option value="{escape(spec.short_name)}" data-bots="{escape(bots)}"'
            f' data-params="{escape(params)}">{escape(spec.long_name)}</option>'
        )
    return "".join(parts)


def _kind_boxes(lang: str) -> str:
    """The ``--only`` check boxes, named in the page's language as the kit names them."""
    from runarch_gen.runarch.kit.build import KINDS
    from runarch_gen.runarch.kit.config import load_kit_config

    texts = load_kit_config().texts(lang)
    return "\n".join(
        f'<label><input type="checkbox" name="only" value="{escape(k.replace("_", "-"))}">'
        f" {escape(texts.kind(k))}</label>"
        for k in KINDS
    )


def page(request: Request) -> Response:
    name = request.path_params.get("page", "boards")
    if name not in PAGES:
        return PlainTextResponse("no such page", status_code=404)
    if set(request.query_params) - {"lang"}:
        return PlainTextResponse("unknown parameter", status_code=400)
    lang = _lang(request)
    strings = STRINGS[lang]
    nav = "".join(
        f'<a href="/{p}"{" aria-current=page" if p == name else ""}>'
        f"{escape(strings['nav_' + p])}</a>"
        for p in PAGES
    )
    switch = "".join(
        f'<a class="lang{" on" if code == lang else ""}" href="/{name}?lang={code}"'
        f' hreflang="{code}">{code.upper()}</a>'
        for code in LANGUAGES
    )
    raw = {
        "nav": nav,
        "switch": switch,
        "lang": lang,
        "page": name,
        # Inside <script> entities are not decoded: escape only what could end the element.
        "strings_json": json.dumps(strings, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026"),
        "games_options": _games_options() if name == "playtest" else "",
        "kinds": _kind_boxes(lang) if name == "kit" else "",
    }
    raw["body"] = render(f"{name}.html", strings, raw)
    html = render("base.html", strings, raw)
    response = HTMLResponse(html)
    response.headers["content-security-policy"] = (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self';"
        " frame-ancestors 'none'"
    )
    response.headers["x-content-type-options"] = "nosniff"
    if "lang" in request.query_params and request.query_params["lang"] in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="strict")
    if not _CLIENT_RE.match(request.cookies.get(CLIENT_COOKIE, "")):
        response.set_cookie(
            CLIENT_COOKIE, secrets.token_urlsafe(24), samesite="strict", httponly=True
        )
    return response


def home(request: Request) -> Response:
    return RedirectResponse("/boards", status_code=303)


# ---------------------------------------------------------------------------------------------
# The application


def _api(endpoint: Callable[[Request], Any]) -> Callable[[Request], Any]:
    """Run a synchronous endpoint in the thread pool, turning the library's errors into 400."""

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
        return result

    return wrapped


def create_app(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    jobs: JobManager | None = None,
    tick_seconds: float = 1.0,
) -> Starlette:
    """The workshop for a server bound to ``host``:``port``."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # The job folder exists only while the server runs.
        manager = jobs if jobs is not None else JobManager()
        app.state.jobs = manager

        async def ticker() -> None:
            while True:
                await asyncio.sleep(tick_seconds)
                await run_in_threadpool(manager.tick)

        task = asyncio.create_task(ticker())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            manager.shutdown()

    routes = [
        Route("/", home),
        Route("/api/runarch/board", _api(api_board)),
        Route("/api/runarch/boards", _api(api_boards)),
        Route("/api/runarch/count", _api(api_count)),
        Route("/api/runarch/grid.svg", _api(api_grid)),
        Route("/api/runarch/palette.svg", _api(api_palette)),
        Route("/api/runarch/check", _api(api_check), methods=["POST"]),
        Route("/api/runarch/deck", _api(submit("deck")), methods=["POST"]),
        Route("/api/runarch/kit", _api(submit("kit")), methods=["POST"]),
        Route("/api/playtest", _api(submit("playtest")), methods=["POST"]),
        Route("/api/games", _api(api_games)),
        Route("/api/jobs/{job}", _api(api_job)),
        Route("/api/jobs/{job}/cancel", _api(api_cancel), methods=["POST"]),
        Route("/api/jobs/{job}/files/{name}", _api(api_job_file)),
        Mount("/static", StaticFiles(packages=[("runarch_gen.web", "static")])),
        Route("/{page}", page),
    ]
    any_address = host in ("0.0.0.0", "::")
    middleware = [
        Middleware(
            Guard,
            hosts=allowed_hosts(host),
            port=port,
            any_address=any_address,
            max_body=MAX_BODY,
        )
    ]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
