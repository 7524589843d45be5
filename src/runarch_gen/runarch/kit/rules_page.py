"""The key figures of a kit's simulated games (``kit --validate``), as the rulebook prints
them (:mod:`~runarch_gen.runarch.kit.rulebook`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from runarch_gen.runarch.kit.config import Texts
    from runarch_gen.runarch.validation.validate import ValidationReport

COLUMN_GAP = 7.0
HEADING_GAP = 0.8
BLOCK_GAP = 2.2


def playtest_section(t: Texts, validation: ValidationReport) -> tuple[str, str]:
    """Heading and text of the simulated games' key figures (RULES §9.3), in the kit's
    language: per variant the games that ended by the rules, their median length and the first
    player's wins, and the games that could not end (the rules finding on the bonus tokens)."""
    rules = t["rules"]
    comma = str(rules["playtest_decimal"])

    def percent(x: float) -> str:
        return f"{100 * x:.1f}".replace(".", comma) + " %"

    first = validation.dynamic[0]
    lines = [
        str(rules["playtest_intro"]).format(
            games=first.games, bots=", ".join(first.bots), seed=first.seed
        )
    ]
    names = rules["playtest_variants"]
    for run in validation.dynamic:
        variant = str(names.get(run.rules.split("(")[0], run.rules))
        won = (
            str(rules["playtest_first"]).format(rate=percent(run.first_player_wins))
            if run.first_player_wins is not None
            else ""
        )
        turns = f"{run.median_turns:g}".replace(".", comma) if run.median_turns is not None else "–"
        lines.append(
            str(rules["playtest_variant"]).format(
                variant=variant, ended=run.ended, games=run.games, turns=turns, first=won
            )
        )
        if run.deadlocks:
            finding = next((f for f in validation.findings if run.rules in f.rules), None)
            values = finding.details.get("condition_values") if finding is not None else None
            tokens = " ".join(f"{k} {'/'.join(map(str, v))}" for k, v in (values or {}).items())
            lines.append(
                str(rules["playtest_deadlock"]).format(
                    variant=variant,
                    count=run.deadlocks,
                    rate=percent(run.deadlocks / run.games),
                    tokens=tokens or "?",
                    theory=percent(float(finding.probability)) if finding is not None else "?",
                )
            )
    return str(rules["playtest_title"]), "\n".join(lines)
