"""The workshop's pages: Jinja2 templates (Starlette's ``Jinja2Templates``, autoescaped) over
the words of :mod:`.i18n`.

Every page extends ``templates/base.html``, which draws the header (the page list of
:data:`PAGES`, the language switch) and hands the page's words to the script as JSON. A new
page is a template with a ``main`` block, a name in :data:`PAGES` (and ``nav_NAME`` in every
language of :mod:`.i18n`), a function in :data:`CONTEXT` if it needs data of its own, and a
function in ``static/workshop.js``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import jinja2
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates

from runarch_gen.web.i18n import LANGUAGES, STRINGS, choose_language, game_title
from runarch_gen.web.params import parse_bool

__all__ = ["CLIENT_COOKIE", "LANG_COOKIE", "PAGES", "page", "request_language"]

PAGES = ("boards", "decks", "kit", "playtest", "play")
PARAMS = {"play": frozenset({"lang", "id"})}
"""The query parameters a page takes besides ``lang``."""
LANG_COOKIE = "rg_lang"
CLIENT_COOKIE = "rg_client"  # no longer read: jobs are limited by address
CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self';"
    " frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

templates = Jinja2Templates(
    env=jinja2.Environment(
        loader=jinja2.PackageLoader("runarch_gen.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a missing word is an error, not an empty label
        trim_blocks=False,
    )
)


class Words:
    """A language's words for the templates: ``t.title`` and ``t["nav_" + page]``. (A plain
    dict would answer ``t.clear`` or ``t.items`` with its own methods.) A missing word is an
    error, never an empty label."""

    def __init__(self, words: dict[str, str]) -> None:
        self._words = words

    def __getattr__(self, name: str) -> str:
        try:
            return self._words[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str) -> str:
        return self._words[name]


def request_language(request: Request) -> str:
    """``?lang=``, else the cookie, else the browser's languages (see :mod:`.i18n`)."""
    return choose_language(
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
        request.headers.get("accept-language"),
    )


def _playtest(lang: str) -> dict[str, Any]:
    from runarch_gen.games import registered_games
    from runarch_gen.web.params import MAX_PLAYTEST_GAMES

    games = [
        {
            "name": r.game_type.short_name,
            "title": game_title(r.game_type.short_name, r.game_type.long_name, lang),
            "bots": ",".join(sorted(r.bots)),
            "params": "\n".join(parameter.describe() for parameter in r.game_type.parameters),
        }
        for r in registered_games()
    ]
    return {"games": games, "max_games": MAX_PLAYTEST_GAMES}


def _kind_names(definition: Any, lang: str) -> dict[str, str]:
    """A kit's component kinds named in ``lang`` as the kit names them."""
    if definition.make is not None:  # a kit made its own way reads its own texts
        from runarch_gen.runarch.kit.config import load_kit_config

        texts = load_kit_config().texts(lang)
        return {kind: texts.kind(kind) for kind in definition.kinds}
    from runarch_gen.pnp.kit import load_templates

    table = load_templates(definition.game).texts(lang).get("kinds", {})
    return {kind: str(table.get(kind, kind)) for kind in definition.kinds}


def _kit(lang: str) -> dict[str, Any]:
    """Every game with a kit (its registration's ``kit`` hook), with its ``--only`` check boxes
    named in the page's language; ``own``: the game makes its kit from inputs of its own
    (RunArch: a seed, a board, a deck) instead of rules."""
    from runarch_gen.games import registered_games
    from runarch_gen.pnp.kit import kit_definition

    games = []
    for registration in registered_games():
        if registration.kit is None:
            continue
        definition = kit_definition(registration)
        names = _kind_names(definition, lang)
        short = registration.game_type.short_name
        games.append(
            {
                "name": short,
                "title": game_title(short, registration.game_type.long_name, lang),
                "own": definition.make is not None,
                "kinds": [(kind.replace("_", "-"), names[kind]) for kind in definition.kinds],
            }
        )
    return {"kit_games": games}


def _boards(lang: str) -> dict[str, Any]:
    from runarch_gen.web.boards import MAX_BOARDS

    del lang
    return {"max_boards": MAX_BOARDS}


def _play(lang: str) -> dict[str, Any]:
    from runarch_gen.web.play.page import play_context

    return play_context(lang)


CONTEXT: dict[str, Callable[[str], dict[str, Any]]] = {
    "boards": _boards,
    "kit": _kit,
    "playtest": _playtest,
    "play": _play,
}


def page(request: Request) -> Response:
    """A page (``/boards``, …) in the request's language."""
    from runarch_gen.errors import InputError

    name = request.path_params.get("page", "boards")
    if name not in PAGES:
        raise HTTPException(404, f"no page {name[:40]!r}: expected {', '.join(PAGES)}")
    allowed = PARAMS.get(name, frozenset({"lang"}))
    unknown = set(request.query_params) - allowed
    if unknown:
        expected = ", ".join(sorted(allowed))
        raise InputError(f"unknown parameter {sorted(unknown)[0][:40]!r}: expected {expected}")
    lang = request_language(request)
    strings = STRINGS[lang]
    context = {
        "page": name,
        "pages": PAGES,
        "lang": lang,
        "languages": LANGUAGES,
        "t": Words(strings),
        "strings": strings,
        **(CONTEXT[name](lang) if name in CONTEXT else {}),
    }
    response = templates.TemplateResponse(request, f"{name}.html", context)
    response.headers["content-security-policy"] = CSP
    response.headers["x-content-type-options"] = "nosniff"
    response.headers["referrer-policy"] = "same-origin"
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="strict")
    return response


def home(request: Request) -> Response:
    return RedirectResponse("/boards", status_code=303)


def fresh_seed() -> int:
    return secrets.randbelow(2**31)


def wants_download(request: Request) -> bool:
    return parse_bool("download", request.query_params.get("download", "0"))
