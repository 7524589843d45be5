"""The words of the family core's reports for people, in English and Czech.

A verdict's lines (:meth:`~.verdict.Verdict.lines`), a report's summary
(:meth:`~.report.PlayReport.summary`), the design metrics and the charts of simulated games take
``lang``; English is the command line's text, unchanged. What a game itself writes (its checks'
summaries, its statistics' and endings' names, a finding's headline) is the game's own text.

>>> word("cs", "verdict_playable", game="Vrhcáby", notes="")
'verdikt: HRATELNÉ — Vrhcáby se dá hrát'
>>> games_cs(1), games_cs(3), games_cs(40)
('1 hra', '3 hry', '40 her')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runarch_gen.errors import InputError

__all__ = ["LANGUAGES", "check_language", "games_cs", "metric_name", "named", "unit", "word"]

LANGUAGES = ("en", "cs")

WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        # a verdict
        "static_checks": "static checks:",
        "status_ok": "ok  ",
        "status_find": "FIND",
        "status_fail": "FAIL",
        "failure_indent": "          ",
        "proof": "proof: {proof}",
        "dynamic": "dynamic check: bots {bots}, seed {seed}:",
        "lineup": "line-up: {lineup}",
        "lineup_given": "{bots} as asked (the ladder: {ladder})",
        "lineup_default": "{bots}, the default line-up (the ladder: {ladder}){note}",
        "run": "{game}: {games} games, {stalls} stalled{dead}{status}",
        "run_dead": " ({deadlocks} proven deadlocks)",
        "run_interrupted": "; interrupted",
        "metrics_intervals": "design metrics (95 % intervals; docs/metrics.md):",
        "skill_trace": "skill trace: {describe}",
        "findings": "findings",
        "notes": "notes (significant, but small)",
        "suggestion": "suggestion: {text}",
        "verdict_not_playable": "verdict: NOT PLAYABLE",
        "verdict_interrupted": "verdict: none — interrupted before the dynamic check finished",
        "verdict_playable": "verdict: PLAYABLE — {game} can be played{notes}",
        "balance_findings": " ({n} balance finding{s} above)",
        # a finding's figures
        "effect_points": "effect {effect} points",
        "effect": "effect {effect} {unit}",
        "holm": ", {p} after Holm over {tests} tests",
        "suffice": "{games} games suffice to confirm it",
        "confirm": "confirm with {games} games",
        # a report
        "report_head": "{game}: {games} of {requested} games{status}, bots {bots}, seed {seed}",
        "report_interrupted": " (interrupted)",
        "ended": "ended by the rules: {ended}; stalled: {rate}",
        "endings": "endings: ",
        "final_score": "final score",
        "spread_columns": "mean ± sd (median, 10–90 %, min–max)",
        "bot": "bot {name}",
        "margin": "margin",
        "wins": "wins",
        "rate_columns": "rate (95 % interval)",
        "win_line": "{rate}: {wins} won, {shared} shared, {losses} lost of {sides}",
        "seat": "seat {name}",
        "head_to_head": "{a} against {b}: {wa}–{wb} ({shared} shared), p = {p} (two-sided sign"
        " test)",
        "first_player": "first player",
        "first_line": "{rate}: {won} won, {lost} lost, p = {p}",
        "per_game": "per game",
        "design_metrics": "design metrics",
        "value_columns": "value (95 % interval)",
        "median": "median",
        "points": "points",
        # charts
        "chart_subtitle": "{game}, {games}, bots {bots}",
        "chart_scores": "Final scores — {subtitle}",
        "final_score_axis": "final score",
        "games_axis": "games",
        "chart_length": "Game length — {subtitle}",
        "chart_first": "First-player advantage — {subtitle}",
        "first_won": "first player won",
        "second_won": "second player won",
        "another_won": "another player won",
        "shared_or_none": "shared or no win",
        "share_of_games": "share of games",
        "chart_wins": "Win rates (95 % intervals) — {subtitle}",
        "win_rate": "win rate",
        "chart_endings": "How games ended — {subtitle}",
    },
    "cs": {
        "static_checks": "statické kontroly:",
        "status_ok": "ok   ",
        "status_find": "NÁLEZ",
        "status_fail": "VADA ",
        "failure_indent": "           ",
        "proof": "důkaz: {proof}",
        "dynamic": "dynamická kontrola: boti {bots}, semínko {seed}:",
        "lineup": "sestava: {lineup}",
        "lineup_given": "{bots} podle zadání (žebříček: {ladder})",
        "lineup_default": "{bots}, výchozí sestava (žebříček: {ladder}){note}",
        "run": "{game}: {games}, uvízlé: {stalls}{dead}{status}",
        "run_dead": " (prokázané paty: {deadlocks})",
        "run_interrupted": "; přerušeno",
        "metrics_intervals": "ukazatele návrhu (95% intervaly; docs/metrics.md):",
        "skill_trace": "stopa dovednosti: {describe}",
        "findings": "nálezy",
        "notes": "poznámky (průkazné, ale malé)",
        "suggestion": "návrh: {text}",
        "verdict_not_playable": "verdikt: NEHRATELNÉ",
        "verdict_interrupted": "verdikt: žádný — přerušeno před koncem dynamické kontroly",
        "verdict_playable": "verdikt: HRATELNÉ — {game} se dá hrát{notes}",
        "balance_findings": " (nálezy vyváženosti výše: {n})",
        "effect_points": "účinek {effect} procentních bodů",
        "effect": "účinek {effect} {unit}",
        "holm": ", po Holmově opravě na {tests} testů {p}",
        "suffice": "k potvrzení stačí odehrané hry ({games})",
        "confirm": "potvrdit na {games} hrách",
        "report_head": "{game}: {games} z {requested} her{status}, boti {bots}, semínko {seed}",
        "report_interrupted": " (přerušeno)",
        "ended": "skončeno podle pravidel: {ended}; uvízlé: {rate}",
        "endings": "konce: ",
        "final_score": "konečné skóre",
        "spread_columns": "průměr ± sm. odch. (medián, 10–90 %, min–max)",
        "bot": "bot {name}",
        "margin": "rozdíl",
        "wins": "výhry",
        "rate_columns": "podíl (95% interval)",
        "win_line": "{rate}: výhry {wins}, dělené {shared}, prohry {losses} z {sides}",
        "seat": "místo {name}",
        "head_to_head": "{a} proti {b}: {wa}–{wb} (dělené {shared}), p = {p} (oboustranný"
        " znaménkový test)",
        "first_player": "první hráč",
        "first_line": "{rate}: výhry {won}, prohry {lost}, p = {p}",
        "per_game": "na hru",
        "design_metrics": "ukazatele návrhu",
        "value_columns": "hodnota (95% interval)",
        "median": "medián",
        "points": "procentních bodů",
        "chart_subtitle": "{game}, {games}, boti {bots}",
        "chart_scores": "Konečné skóre — {subtitle}",
        "final_score_axis": "konečné skóre",
        "games_axis": "hry",
        "chart_length": "Délka hry — {subtitle}",
        "chart_first": "Výhoda prvního hráče — {subtitle}",
        "first_won": "vyhrál první hráč",
        "second_won": "vyhrál druhý hráč",
        "another_won": "vyhrál jiný hráč",
        "shared_or_none": "dělená nebo žádná výhra",
        "share_of_games": "podíl her",
        "chart_wins": "Podíly výher (95% intervaly) — {subtitle}",
        "win_rate": "podíl výher",
        "chart_endings": "Jak hry skončily — {subtitle}",
    },
}

UNITS_CS = {
    "rounds": "kola",
    "rolls": "hody",
    "turns": "tahy",
    "actions": "akce",
    "moves": "tahy",
    "games": "hry",
    "points": "procentních bodů",
    "index": "index",
    "index 0–1": "index 0–1",
    "index −1–1": "index −1–1",
    "standing": "pořadí",
    "per game": "na hru",
    "legal actions": "možných tahů",
    "share of games": "podíl her",
    "share of the game": "podíl hry",
    "share of decisions": "podíl rozhodnutí",
}
"""Units of length and of effects in Czech (a unit not listed is shown as the game names it)."""

METRICS_CS = {
    "completion": "dokončené hry",
    "balance": "vyváženost",
    "first_player_edge": "výhoda prvního",
    "deadlock_rate": "podíl patů",
    "stall_rate": "podíl uvíznutých",
    "duration_mean": "průměrná délka",
    "duration_sd": "rozptyl délky (sd)",
    "decisiveness": "rozhodnost",
    "drama": "drama",
    "lead_changes": "změny vedení",
    "branching_factor": "větvení",
    "decision_moves": "tahy s volbou",
    "skill_trace": "stopa dovednosti",
}
"""The design metrics' names in Czech (docs/metrics.md defines them under their English
names, which JSON keeps)."""


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    return lang


def word(lang: str, key: str, **values: Any) -> str:
    """The text ``key`` in ``lang`` with ``values`` filled in."""
    text = WORDS[check_language(lang)][key]
    return text.format(**values) if values else text


def unit(lang: str, name: str) -> str:
    """A unit (of length, of an effect) in ``lang``."""
    return UNITS_CS.get(name, name) if lang == "cs" else name


def metric_name(lang: str, name: str) -> str:
    return METRICS_CS.get(name, name) if lang == "cs" else name


def games_cs(n: int) -> str:
    """``n`` games in Czech, with the noun's plural by number."""
    noun = "hra" if n == 1 else "hry" if 2 <= n <= 4 else "her"
    return f"{n:,} {noun}".replace(",", "\u00a0")


def named(game: str, title: str | None) -> str:
    """A game string shown with the game's title (``Vrhcáby (cube=off)``); without a title the
    string itself."""
    if not title:
        return game
    return title + (f" {game[game.index('(') :]}" if "(" in game else "")
