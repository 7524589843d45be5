"""Malacca in the family registry: its factory, bots, statistics and conformance games.

>>> from runarch_gen.play.registry import find_game
>>> str(find_game("malacca(players=5,equipment=on)"))
'malacca(players=5,equipment=on)'
"""

from __future__ import annotations

from collections.abc import Mapping

from runarch_gen.malacca.bots import BOTS
from runarch_gen.malacca.design import DESIGN
from runarch_gen.malacca.engine import MALACCA_TYPE, MalaccaGame, MalaccaState
from runarch_gen.malacca.rules import Card, Equipment, rules_from_values
from runarch_gen.play.design import register_design
from runarch_gen.play.registry import Value, register_game

__all__ = ["load_malacca", "malacca_statistics"]


def load_malacca(values: Mapping[str, Value]) -> MalaccaGame:
    """The Malacca game of registry parameter ``values`` (see ``MALACCA_TYPE``)."""
    return MalaccaGame(rules_from_values(values))


def malacca_statistics(state: MalaccaState) -> dict[str, object]:
    """Per-game figures for the simulation report: each seat's character and position from the
    first captain (win rates by either), ships captured, special cards played by kind, and each
    equipment card's net value (bonuses earned − its price) by kind and the round it was bought
    in."""
    n = state.players
    first = state.history()[0]
    out: dict[str, object] = {
        "position": tuple(f"captain+{(p - first) % n}" for p in range(n)),
        "ships captured": sum(state.captured),
        "special cards played": sum(state.played[3:]),
        "special cards unplayed at the end": sum(sum(hand) for hand in state.hands),
    }
    if state.rules.characters is not None:
        out["character"] = tuple(c.key if c is not None else "none" for c in state.characters)
    for card in range(3, 8):
        out[f"played {Card(card).label}"] = state.played[card]
    if state.rules.equipment:
        out["equipment bought"] = len(state.equipment_cards)
        values: dict[str, list[int]] = {}
        for _seat, kind, round_, earned in state.equipment_cards:
            name = f"better {Equipment(kind).label} net, bought in round {round_ + 1:02d}"
            values.setdefault(name, []).append(earned - 5)
        for name, nets in sorted(values.items()):
            out[name] = tuple(nets)
    return out


def _rounds(state: MalaccaState) -> int:
    return state.round


def _first(state: MalaccaState) -> int:
    return state.history()[0]


REGISTRATION = register_game(
    MALACCA_TYPE,
    load_malacca,
    bots=BOTS,
    conformance=(
        "malacca(players=2)",
        "malacca(players=3,characters=random,equipment=on)",
        "malacca(players=4,characters=random,equipment=on,share=even,cargo=defenders)",
        "malacca(players=5,characters=random,equipment=on,useless_bonus=on,zheng_stake=on)",
        "malacca(players=6,characters=random)",
        "malacca(players=7,characters=random,equipment=on)",
        "malacca(players=8,characters=random,equipment=on,rounds=6)",
        "malacca(players=3,characters=sayyida/laskarina/caesar,ships=1-3,rounds=3)",
    ),
    rules_document="malacca.md",
    statistics=malacca_statistics,
    length=_rounds,
    length_unit="rounds",
    first=_first,
)
register_design(MALACCA_TYPE.short_name, DESIGN)
