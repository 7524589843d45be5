"""The baseline bot: scores whenever it can, otherwise plays any legal action at random."""

from __future__ import annotations

from collections.abc import Sequence

from runarch_gen.runarch.bots.base import RunArchBot, mypyc_attr
from runarch_gen.runarch.engine.actions import SWAP_BASE
from runarch_gen.runarch.engine.observation import RunArchObservation


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot(RunArchBot):
    """Scores a card whenever one can be scored, choosing uniformly among the legal evaluations
    (each a card, line, archive and draw source); otherwise a uniformly random legal action —
    a swap, the end of the turn once moved, a bet spot or a setup choice.
    """

    name = "random"

    def step(self, observation: RunArchObservation, legal_actions: Sequence[int]) -> int:
        choices = legal_actions
        if choices[0] < SWAP_BASE:  # evaluations come first when there are any
            choices = self.evaluations(legal_actions) or legal_actions
        # random() * n is uniform over the choices and cheaper than Random.choice in the hot path.
        return choices[int(self.rng.random() * len(choices))]
