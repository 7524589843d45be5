"""The workshop's words in English and Czech, and which language a request gets.

A request's language: ``?lang=`` if given (remembered in a cookie), else the cookie, else the
first of the browser's ``Accept-Language`` languages that the workshop speaks, else English.

>>> choose_language(None, None, "cs-CZ,cs;q=0.9,en;q=0.8")
'cs'
>>> choose_language("en", None, "cs")
'en'
"""

from __future__ import annotations

LANGUAGES = ("en", "cs")

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "title": "RunArch workshop",
        "nav_boards": "Boards",
        "nav_decks": "Decks",
        "nav_kit": "Kit",
        "nav_playtest": "Playtest",
        "language": "Language",
        "boards_intro": "Click a square to pin the chosen tile there, or to forbid it there."
        " The number of valid boards left is exact.",
        "mode": "A click",
        "mode_pin": "pins the tile",
        "mode_forbid": "forbids the tile",
        "chosen_tile": "Tile",
        "diagonals": "Diagonals too (B-2): no colour or shape twice on either long diagonal",
        "remaining": "Boards that remain",
        "constraints": "Options",
        "none": "none",
        "clear": "Clear all",
        "seed": "Seed",
        "seed_hint": "empty: a fresh random seed",
        "draw": "Draw a board",
        "drawn": "Drawn board",
        "valid": "valid",
        "not_valid": "NOT valid",
        "holds": "holds every pin and ban",
        "breaks": "breaks a pin or ban",
        "download": "Download",
        "draw_many": "Draw distinct boards (JSON Lines)",
        "how_many": "How many",
        "conflict": "No board meets these options",
        "decks_intro": "A balanced deck: its patterns differ as much as possible.",
        "cards": "Cards (30–100)",
        "calibrate": "Calibrate goal rewards from simulated games",
        "calibrate_games": "Calibration games",
        "make_deck": "Make the deck",
        "balance": "Balance",
        "upload": "Check a deck or boards file (JSON, CSV or text)",
        "check": "Check",
        "kit_intro": "Every option of runarch-gen GAME kit, for every game. The kit is built in a"
        " worker process.",
        "kit_rules_hint": "e.g. players=4 (the kit prints these rules)",
        "kit_pages": "pages",
        "paper": "Paper",
        "kit_lang": "Language of the kit",
        "bleed": "Bleed (mm)",
        "duplex": "Duplex",
        "duplex_long": "long edge",
        "duplex_short": "short edge",
        "duplex_none": "none (glue the backs)",
        "duplex_offset": "Duplex offset X,Y (mm)",
        "print_friendly": "Print-friendly (light fills)",
        "only": "Only these kinds (none ticked: everything)",
        "validate": "Validate: simulate games in each variant (slower)",
        "use_board": "Use the board drawn on the boards page",
        "no_board": "no board drawn yet",
        "build_kit": "Build the kit",
        "cancel": "Cancel",
        "working": "Working",
        "queued": "Waiting in the queue",
        "done": "Done",
        "failed": "Failed",
        "cancelled": "Cancelled",
        "previews": "Previews",
        "files": "Files",
        "playtest_intro": "Games between bots, the report, its charts and the verdict.",
        "game": "Game",
        "rules": "Rules (parameters)",
        "rules_hint": "e.g. variant=simple",
        "bots": "Bots (comma-separated)",
        "games": "Games",
        "run_playtest": "Play the games",
        "report": "Report",
        "charts": "Charts",
        "verdict": "Verdict",
        "known_bots": "bots",
        "parameters": "The game's parameters",
        "playable": "playable",
        "not_playable": "NOT playable",
        "error": "Error",
        "board_file": "Board file (default: generated from the seed)",
        "deck_file": "Deck file (default: generated from the seed)",
        "wins": "wins",
        "of": "of",
        "rate": "rate",
        "pages": "Pages",
        "grid": "The board",
        "palette": "Tiles",
        "progress": "Progress",
        "json_report": "JSON",
        "all_cards": "Every card front",
        "file": "File",
        "square": "square",
        "pinned": "pinned",
        "banned": "banned",
        "many_limit": "At most {max} boards per request.",
        "many_fewer": "Only {count} boards meet these options.",
        "many_bad": "Enter a whole number from 1 to {max}.",
        "seed_bad": "A seed is a whole number from 0 to 9223372036854775807.",
        "label_games": "games",
        "label_boards": "boards",
        "label_deck": "deck",
        "label_calibrate": "calibration games",
        "label_kit": "kit",
        "label_simulate": "games",
        "label_validate": "games",
        "label_set": "checks",
        "steps": "steps",
        "group_bot": "bot",
        "group_seat": "seat",
        "group_side": "side",
        "group_value": "value",
        "group_first": "first player",
        "stop_cancelled": "cancelled",
        "rate_interval": "95 % interval",
        "metrics": "Design metrics (docs/metrics.md)",
        "value": "value",
    },
    "cs": {
        "title": "Dílna RunArch",
        "nav_boards": "Plány",
        "nav_decks": "Balíčky",
        "nav_kit": "Sada k tisku",
        "nav_playtest": "Testovací hry",
        "language": "Jazyk",
        "boards_intro": "Kliknutím na pole na ně připnete zvolenou podložku, nebo ji tam"
        " zakážete. Počet platných plánů, které zbývají, je přesný.",
        "mode": "Kliknutí",
        "mode_pin": "připne podložku",
        "mode_forbid": "zakáže podložku",
        "chosen_tile": "Podložka",
        "diagonals": "I úhlopříčky (B-2): žádná barva ani tvar dvakrát na dlouhé úhlopříčce",
        "remaining": "Zbývající plány",
        "constraints": "Volby",
        "none": "žádné",
        "clear": "Vymazat vše",
        "seed": "Semínko",
        "seed_hint": "prázdné: nové náhodné semínko",
        "draw": "Vylosovat plán",
        "drawn": "Vylosovaný plán",
        "valid": "platný",
        "not_valid": "NEPLATNÝ",
        "holds": "splňuje všechna připnutí i zákazy",
        "breaks": "porušuje připnutí nebo zákaz",
        "download": "Stáhnout",
        "draw_many": "Vylosovat různé plány (JSON Lines)",
        "how_many": "Kolik",
        "conflict": "Těmto volbám nevyhovuje žádný plán",
        "decks_intro": "Vyvážený balíček: jeho vzory se liší co nejvíce.",
        "cards": "Karty (30–100)",
        "calibrate": "Odměny cílů podle simulovaných her",
        "calibrate_games": "Her pro kalibraci",
        "make_deck": "Vytvořit balíček",
        "balance": "Vyváženost",
        "upload": "Zkontrolovat soubor s balíčkem nebo plány (JSON, CSV nebo text)",
        "check": "Zkontrolovat",
        "kit_intro": "Všechny volby příkazu runarch-gen HRA kit, pro každou hru. Sada se tvoří"
        " v pracovním procesu.",
        "kit_rules_hint": "např. players=4 (sada vytiskne tato pravidla)",
        "kit_pages": "počet stran",
        "paper": "Papír",
        "kit_lang": "Jazyk sady",
        "bleed": "Spadávka (mm)",
        "duplex": "Oboustranný tisk",
        "duplex_long": "dlouhá hrana",
        "duplex_short": "krátká hrana",
        "duplex_none": "žádný (rubové strany nalepit)",
        "duplex_offset": "Posun rubu X,Y (mm)",
        "print_friendly": "Úsporný tisk (světlé výplně)",
        "only": "Jen tyto druhy (nic nezaškrtnuto: vše)",
        "validate": "Ověřit: simulovat hry v každé variantě (pomalejší)",
        "use_board": "Použít plán vylosovaný na stránce Plány",
        "no_board": "zatím nevylosován žádný plán",
        "build_kit": "Vytvořit sadu",
        "cancel": "Zrušit",
        "working": "Pracuji",
        "queued": "Čeká ve frontě",
        "done": "Hotovo",
        "failed": "Nezdařilo se",
        "cancelled": "Zrušeno",
        "previews": "Náhledy",
        "files": "Soubory",
        "playtest_intro": "Hry mezi boty, zpráva, grafy a verdikt.",
        "game": "Hra",
        "rules": "Pravidla (parametry)",
        "rules_hint": "např. variant=simple",
        "bots": "Boti (oddělení čárkou)",
        "games": "Her",
        "run_playtest": "Odehrát hry",
        "report": "Zpráva",
        "charts": "Grafy",
        "verdict": "Verdikt",
        "known_bots": "boti",
        "parameters": "Parametry hry",
        "playable": "hratelné",
        "not_playable": "NEHRATELNÉ",
        "error": "Chyba",
        "board_file": "Soubor s plánem (jinak vytvořen ze semínka)",
        "deck_file": "Soubor s balíčkem (jinak vytvořen ze semínka)",
        "wins": "výher",
        "of": "z",
        "rate": "podíl",
        "pages": "Stránky",
        "grid": "Plán",
        "palette": "Podložky",
        "progress": "Průběh",
        "json_report": "JSON",
        "all_cards": "Líce všech karet",
        "file": "Soubor",
        "square": "pole",
        "pinned": "připnuto",
        "banned": "zakázáno",
        "many_limit": "Nejvýše {max} plánů v jednom požadavku.",
        "many_fewer": "Těmto volbám vyhovuje jen {count} plánů.",
        "many_bad": "Zadejte celé číslo od 1 do {max}.",
        "seed_bad": "Semínko je celé číslo od 0 do 9223372036854775807.",
        "label_games": "hry",
        "label_boards": "plány",
        "label_deck": "balíček",
        "label_calibrate": "kalibrační hry",
        "label_kit": "sada",
        "label_simulate": "hry",
        "label_validate": "hry",
        "label_set": "kontroly",
        "steps": "kroků",
        "group_bot": "bot",
        "group_seat": "místo",
        "group_side": "strana",
        "group_value": "hodnota",
        "group_first": "začínající hráč",
        "stop_cancelled": "zrušeno",
        "rate_interval": "95% interval",
        "metrics": "Metriky hry (docs/metrics.md)",
        "value": "hodnota",
    },
}


def _with_play_words() -> None:
    from runarch_gen.web.play.words import PLAY_STRINGS

    for lang, words in PLAY_STRINGS.items():
        STRINGS[lang].update(words)


_with_play_words()


def _with_metric_words() -> None:
    """The design metrics' names and units, as the family core's Czech reports name them
    (``metric_NAME``, ``unit_UNIT``; English: their own names)."""
    from runarch_gen.play.metrics import METRICS
    from runarch_gen.play.words import metric_name, unit

    units = {spec.unit for spec in METRICS.values()} - {"game's unit"}
    units |= {"rounds", "rolls", "turns", "actions", "moves"}  # the games' units of length
    units |= {"index 0–1", "index −1–1", "standing", "per game", "legal actions"}
    for lang in LANGUAGES:
        for name in METRICS:
            STRINGS[lang][f"metric_{name}"] = metric_name(lang, name)
        for each in sorted(units):
            STRINGS[lang][f"unit_{each}"] = unit(lang, each)


_with_metric_words()


GAME_TITLES: dict[str, dict[str, str]] = {
    "cs": {"backgammon": "Vrhcáby", "bluff": "Bluff (kostky)"},
}
"""Games whose name differs in a language (the registry's ``long_name`` is the English one)."""


def game_title(short_name: str, long_name: str, lang: str) -> str:
    """A game's name in ``lang``.

    >>> game_title("backgammon", "Backgammon", "cs")
    'Vrhcáby'
    """
    return GAME_TITLES.get(lang, {}).get(short_name, long_name)


def choose_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language of a request (see the module's docstring)."""
    for given in (query, cookie):
        if given is not None and given.lower() in LANGUAGES:
            return given.lower()
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
        if primary == "sk":  # Slovak readers read Czech more easily than English
            return "cs"
    return "en"
