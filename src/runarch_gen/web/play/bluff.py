"""Bluff on the play page: your dice (and only yours), the others' dice as counts, the betting
scale with the bids still open, doubt, and each challenge's reveal.

Everything comes from :class:`~runarch_gen.bluff.engine.BluffObservation`: the seat's own
hidden dice, the dice every player has revealed, the bids, and the results of past rounds
(whose hands the game showed at the challenge).

>>> from runarch_gen.bluff.engine import BluffGame
>>> from runarch_gen.bluff.rules import BluffRules
>>> game = BluffGame(BluffRules(players=2, dice=2, first=1))
>>> state = game.new_initial_state()
>>> for text in ("roll 3,5", "roll 1,★"):
...     _ = state.apply_text(text)
>>> view = BluffView().view(game, state.observation(0), 0, {})
>>> view["own"], view["dice"], view["hidden"]
(['3', '5'], [2, 2], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from runarch_gen.bluff.engine import BluffGame, BluffObservation, Phase
from runarch_gen.bluff.rules import STAR_TEXT
from runarch_gen.play.game import Game
from runarch_gen.web.play.view import Renderer

__all__ = ["BluffView"]


def _face(face: int, faces: int) -> str:
    return STAR_TEXT if face == faces + 1 else str(face)


class BluffView(Renderer):
    kind = "bluff"

    def view(
        self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]
    ) -> dict[str, Any]:
        assert isinstance(game, BluffGame) and isinstance(observation, BluffObservation)
        obs = observation
        faces = obs.rules.faces

        def hand(dice: Sequence[int]) -> list[str]:
            return [_face(d, faces) for d in dice]

        return {
            "kind": self.kind,
            "faces": faces,
            "star": STAR_TEXT,
            "players": len(obs.dice),
            "dice": list(obs.dice),
            "own": hand(obs.own),
            "shown": [hand(s) for s in obs.shown],
            "hidden": obs.hidden_from_me,
            "in_play": sum(obs.dice),
            "bids": [{"seat": p + 1, "bid": str(game.bids[r])} for p, r in obs.bids],
            "standing": str(game.bids[obs.last]) if obs.last >= 0 else None,
            "scale": [str(bid) for bid in game.bids],
            "standing_rank": obs.last,
            "phase": Phase.NAMES[obs.phase],
            "to_act": obs.to_act + 1 if obs.to_act >= 0 else None,
            "opener": obs.opener + 1,
            "round": obs.round,
            "results": [
                {
                    "round": r.round,
                    "bid": str(r.bid),
                    "bidder": r.bidder + 1,
                    "doubter": r.doubter + 1,
                    "hands": [hand(h) for h in r.hands],
                    "counted": r.counted,
                    "winner": r.winner + 1,
                    "loser": r.loser + 1,
                    "lost": list(r.lost),
                    "gained": r.gained,
                    "exact": r.exact,
                    "summary": r.summary(),
                }
                for r in obs.results
            ],
        }
