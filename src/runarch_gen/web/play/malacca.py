"""Malacca on the play page: your hand of action cards, the open stakes, the ship, every seat's
money, and each round's resolution step by step.

The engine's observation does not carry the round's resolution, but it is public: once every
card is revealed, the cards, stakes, wait choices, money, characters and equipment on the
table decide it (:func:`~runarch_gen.malacca.resolve.resolve_round`). The renderer remembers
the table as the seat last saw it before the round was resolved and resolves it again when the
observation shows the round done. A wait choice made by the action that resolved the round is
the one whose resolution gives the money the observation shows.

>>> from runarch_gen.malacca.engine import MalaccaGame
>>> from runarch_gen.malacca.rules import MalaccaRules
>>> game = MalaccaGame(MalaccaRules(players=2))
>>> state = game.new_initial_state()
>>> view, memory = MalaccaView(), {}
>>> for text in ("captain p1", "ship 9", "defence 2", "attack 1"):
...     _ = state.apply_text(text)
...     view.note(game, state.observation(0), 0, memory)
>>> steps = view.view(game, state.observation(0), 0, memory)["resolution"]["steps"]
>>> steps[1]["text"]
'attack 1 against defence 1: the ship is defended'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from runarch_gen.malacca.engine import CARDS, MalaccaGame, MalaccaObservation
from runarch_gen.malacca.resolve import RoundInput, RoundResult, Seat, resolve_round
from runarch_gen.malacca.rules import Card, Character, Role
from runarch_gen.play.game import Game
from runarch_gen.web.play.view import Renderer

__all__ = ["MalaccaView"]


def _label(card: int | None) -> str | None:
    if card is None:
        return None
    return "hidden" if card < 0 else Card(card).label


class MalaccaView(Renderer):
    kind = "malacca"

    def note(self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]) -> None:
        assert isinstance(game, MalaccaGame) and isinstance(observation, MalaccaObservation)
        obs = observation
        resolved = len(obs.captured)
        if resolved == obs.round and obs.cargo is not None:
            memory["table"] = _table(obs)  # the round before it is resolved
        if resolved > memory.get("resolved", 0):
            memory["resolved"] = resolved
            table = memory.get("table")
            if table is not None and table["round"] == resolved - 1:
                if obs.round == resolved - 1 and all(c is not None and c >= 0 for c in obs.laid):
                    # still on the table, revealed: the cards and every choice
                    seen = _table(obs)
                    table = {**table, **{k: seen[k] for k in ("laid", "stakes", "choices")}}
                memory["last"] = _resolution(game, table, obs)

    def view(
        self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]
    ) -> dict[str, Any]:
        assert isinstance(game, MalaccaGame) and isinstance(observation, MalaccaObservation)
        obs = observation
        specials = {Card(c).label: obs.hand[c] for c in range(3, CARDS) if obs.hand[c]}
        return {
            "kind": self.kind,
            "players": obs.players,
            "round": obs.round + 1,
            "rounds": obs.rounds,
            "phase": obs.phase,
            "captain": obs.captain + 1,
            "to_act": obs.to_act + 1 if obs.to_act >= 0 else None,
            "cargo": obs.cargo,
            "ships_left": list(obs.ships_left),
            "seats": [
                {
                    "seat": p + 1,
                    "money": obs.money[p],
                    "stake": obs.stakes[p],
                    "laid": _label(obs.laid[p]),
                    "choice": obs.choices[p],
                    "specials": obs.specials[p],
                    "character": _character(obs.characters[p]),
                    "equipment": list(obs.equipment[p]),
                }
                for p in range(obs.players)
            ],
            "hand": specials,
            "equipment_left": list(obs.equipment_left),
            "deck": obs.deck,
            "bottom": [_label(c) if c >= 0 else "?" for c in obs.bottom],
            "looking": [Card(c).label for c in obs.looking],
            "captured": list(obs.captured),
            "resolution": memory.get("last"),
        }

    def choices(
        self,
        game: Game[Any],
        observation: Any,
        seat: int,
        legal: Sequence[tuple[int, str]],
    ) -> dict[str, Any] | None:
        assert isinstance(observation, MalaccaObservation)
        obs = observation
        if obs.phase != "play":
            return {"buttons": [text for _, text in legal]}
        cards = sorted({action % 8 for action, _ in legal})
        return {
            "cards": [Card(c).label for c in cards],
            "max_stake": max(action // 8 for action, _ in legal),
        }


def _character(key: str) -> dict[str, str] | None:
    if not key:
        return None
    character = Character.parse(key)
    return {"key": key, "title": character.title}


def _table(obs: MalaccaObservation) -> dict[str, Any]:
    return {
        "round": obs.round,
        "cargo": obs.cargo,
        "captain": obs.captain,
        "money": list(obs.money),
        "laid": list(obs.laid),
        "stakes": list(obs.stakes),
        "choices": list(obs.choices),
        "characters": list(obs.characters),
        "equipment": [list(e) for e in obs.equipment],
    }


def _resolution(
    game: MalaccaGame, table: dict[str, Any], after: MalaccaObservation
) -> dict[str, Any]:
    """The round on ``table`` resolved again, the wait choices it lacks found from the money
    ``after`` shows; as steps for the page. When the seat never saw the cards revealed (the
    round ended in the move that revealed them), only what the observation shows: captured or
    not, and each seat's change of money."""
    money = table["money"]
    changes = [after.money[p] - money[p] for p in range(len(money))]
    if not all(c is not None and c >= 0 for c in table["laid"]):
        return {
            "round": table["round"] + 1,
            "cargo": table["cargo"],
            "captured": after.captured[-1],
            "inferred": False,
            "cards_seen": False,
            "changes": changes,
            "steps": [],
        }
    missing = [
        p
        for p, card in enumerate(table["laid"])
        if Card(card).role is None and not table["choices"][p]
    ]
    found: tuple[RoundInput, RoundResult] | None = None
    inferred = bool(missing)
    options = [Card(table["laid"][p]).choices for p in missing]
    for picked in itertools.product(*options):
        choices = list(table["choices"])
        for p, role in zip(missing, picked, strict=True):
            choices[p] = role.value
        round_ = _round(game, table, choices)
        result = resolve_round(round_)
        if list(result.changes) == changes and result.captured == after.captured[-1]:
            found = (round_, result)
            break
    if found is None:  # nothing matched: the table as last seen (should not happen)
        round_ = _round(game, table, [c or "" for c in table["choices"]], fill=True)
        found = (round_, resolve_round(round_))
    return {**_steps(table["round"] + 1, *found, inferred=inferred), "changes": changes}


def _round(
    game: MalaccaGame, table: dict[str, Any], choices: Sequence[str | None], fill: bool = False
) -> RoundInput:
    seats = []
    for p, card_index in enumerate(table["laid"]):
        card = Card(card_index)
        choice: Role | None = Role(choices[p]) if choices[p] else None
        if fill and card.role is None and choice is None:
            choice = card.choices[0]
        character = table["characters"][p]
        equipment = table["equipment"][p]
        seats.append(
            Seat(
                money=table["money"][p],
                card=card,
                stake=table["stakes"][p] or 0,
                choice=choice if card.role is None else None,
                character=Character.parse(character) if character else None,
                equipment=(equipment[0], equipment[1], equipment[2]),
            )
        )
    return RoundInput(table["cargo"], table["captain"], tuple(seats), game.rules)


def _steps(number: int, round_: RoundInput, result: RoundResult, inferred: bool) -> dict[str, Any]:
    seats = round_.seats
    reveal = [
        {
            "seat": p + 1,
            "card": seat.card.label,
            "stake": seat.stake,
            "role": seat.role.value,
        }
        for p, seat in enumerate(seats)
    ]
    if result.useless:
        verdict = "nobody attacks: the ship sails on"
    elif result.captured:
        verdict = "the ship is captured"
    else:
        verdict = "the ship is defended"
    steps: list[dict[str, Any]] = [
        {
            "kind": "reveal",
            "text": ", ".join(
                f"p{r['seat']} {r['card']} ({r['role']}) {r['stake']}" for r in reveal
            ),
            "seats": reveal,
        },
        {
            "kind": "strength",
            "text": f"attack {result.attack} against defence {result.defence}: {verdict}",
            "attack": result.attack,
            "defence": result.defence,
            "captured": result.captured,
            "useless": result.useless,
        },
    ]
    for p, seat in enumerate(result.seats):
        parts = ", ".join(f"{name} {value:+d}" for name, value in seat.parts) or "nothing"
        extra = f"; draws {seat.cards} ({seat.reason})" if seat.cards else ""
        steps.append(
            {
                "kind": "seat",
                "seat": p + 1,
                "role": seat.role.value,
                "parts": [{"part": name, "value": value} for name, value in seat.parts],
                "change": seat.change,
                "stake_back": seat.stake_back,
                "cards": seat.cards,
                "reason": seat.reason,
                "text": f"p{p + 1} ({seat.role.value}): {parts} = {seat.change:+d}{extra}",
            }
        )
    return {
        "round": number,
        "cargo": round_.cargo,
        "captured": result.captured,
        "inferred": inferred,
        "cards_seen": True,
        "steps": steps,
    }
