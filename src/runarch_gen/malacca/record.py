"""One game between bots, kept round by round as a readable log (``malacca game``): the game
is played as every simulated game is (:func:`~runarch_gen.play.playtest.play_seeded`), then
its actions replayed to read each round's resolution.

>>> record = play_recorded({"players": 3}, ("morgan",), seed=1)
>>> len(record.rounds), record.rounds[0]["round"]
(12, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from runarch_gen.malacca.engine import MalaccaGame
from runarch_gen.malacca.rules import Card, rules_from_values

__all__ = ["GameLog", "play_recorded"]


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game of Malacca round by round: each round's ship, cards, stakes and money; its
    actions are the game's record."""

    game: str
    seed: int
    bots: tuple[str, ...]
    characters: tuple[str, ...]
    rounds: tuple[dict[str, Any], ...]
    money: tuple[int, ...]
    winners: tuple[int, ...]
    actions: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "bots": list(self.bots),
            "characters": list(self.characters),
            "rounds": list(self.rounds),
            "money": list(self.money),
            "winners": [f"p{w + 1}" for w in self.winners],
            "actions": " ".join(map(str, self.actions)),
        }

    def text(self) -> str:
        lines = [f"{self.game}, seed {self.seed}"]
        for p, bot in enumerate(self.bots):
            character = f" ({self.characters[p]})" if self.characters[p] else ""
            lines.append(f"  p{p + 1}: {bot}{character}")
        for entry in self.rounds:
            fate = "captured" if entry["captured"] else "defended"
            lines.append(
                f"round {entry['round']}: ship {entry['cargo']}, captain p{entry['captain'] + 1}"
                f" — {fate} ({entry['attack']}:{entry['defence']})"
            )
            for p, play in enumerate(entry["plays"]):
                lines.append(
                    f"  p{p + 1} {play['card']:<9} stake {play['stake']:>3} → {play['role']:<7}"
                    f" {play['change']:>+4} = {play['money']:>4}"
                    + (" +card" if play["cards"] else "")
                )
        won = ", ".join(f"p{w + 1}" for w in self.winners)
        lines.append(f"final money {list(self.money)}; won: {won}")
        return "\n".join(lines)


def play_recorded(values: Mapping[str, Any], bots: Sequence[str], seed: int) -> GameLog:
    """Play one game of the rules ``values`` with ``bots`` (repeated to fill the seats), the
    chance and each bot seeded from ``seed`` as the simulation runner does."""
    from runarch_gen.play.playtest import play_seeded
    from runarch_gen.play.registry import find_registration

    registration = find_registration("malacca")
    played = play_seeded(
        registration, values, bots, seed, game=MalaccaGame(rules_from_values(values))
    )
    state = played.game.new_initial_state()
    rounds: list[dict[str, Any]] = []
    seen = None
    for action in played.state.history():
        state.apply(action)
        last = state.last_round
        if last is not None and last is not seen:
            seen = last
            index, round_, result = last
            rounds.append(
                {
                    "round": index + 1,
                    "captain": round_.captain,
                    "cargo": round_.cargo,
                    "captured": result.captured,
                    "attack": result.attack,
                    "defence": result.defence,
                    "plays": [
                        {
                            "card": Card(seat.card).label,
                            "stake": seat.stake,
                            "role": outcome.role.value,
                            "change": outcome.change,
                            "money": seat.money + outcome.change,
                            "cards": outcome.cards,
                        }
                        for seat, outcome in zip(round_.seats, result.seats, strict=True)
                    ],
                }
            )
    return GameLog(
        str(played.game),
        seed,
        played.bots,
        tuple("" if c is None else c.key for c in state.characters),
        tuple(rounds),
        tuple(state.money),
        played.outcome.winners,
        tuple(state.history()),
    )
