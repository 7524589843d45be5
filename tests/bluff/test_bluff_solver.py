"""The exact solver: CFR+ against the sequence-form LP, a published value, bots' exploitability."""

from __future__ import annotations

import numpy as np
import pytest

from runarch_gen.bluff.bots import BOTS
from runarch_gen.bluff.rules import BluffRules, parse_scale
from runarch_gen.bluff.solver import (
    PublicTree,
    bot_strategy,
    exploitability,
    small_rules,
    solve,
    solve_lp,
)
from runarch_gen.errors import InputError

TINY_SCALE = "1\n*1\n2\n"


def _tiny(faces: int = 2, scale: str = TINY_SCALE) -> BluffRules:
    return small_rules(BluffRules(faces=faces, scale=parse_scale(scale)), (1, 1))


@pytest.mark.parametrize(
    ("faces", "scale"), [(2, TINY_SCALE), (3, TINY_SCALE), (2, "1\n2\n*1\n"), (3, "1\n*1\n")]
)
def test_cfr_and_the_linear_program_agree_on_tiny_games(faces: int, scale: str) -> None:
    rules = _tiny(faces, scale)
    result = solve(PublicTree(rules), target=1e-4, max_iterations=5000, check_every=25)
    assert result.exploitability < 1e-4
    # the value of the average strategy lies within its exploitability of the game's value
    assert result.value == pytest.approx(solve_lp(rules), abs=2 * result.exploitability + 1e-6)


@pytest.mark.slow
def test_the_one_die_game_converges_to_the_published_value() -> None:
    # With one die each the Bluff scale (★k between 2k−1 and 2k) is Dudo's ranking of claims
    # (n aces between 2n−1 and 2n of a kind); Neller and Hnath (2011) give the first
    # player's value of one-die-each Dudo as −7/258.
    tree = PublicTree(small_rules(BluffRules(), (1, 1)))
    assert tree.decision_nodes == 2**12  # 12 bids name at most 2 dice
    result = solve(tree, target=1e-3, check_every=100)
    assert result.exploitability < 1e-3 and result.iterations < 2000
    assert result.value == pytest.approx(-7 / 258, abs=2e-3)
    for name, make in BOTS.items():
        value, gap = exploitability(tree, bot_strategy(tree, make))
        assert 0 <= gap <= 1, name
        assert -1 <= value <= 1


def test_a_bot_strategy_is_a_distribution_at_every_node_for_every_hand() -> None:
    tree = PublicTree(_tiny())
    for make in BOTS.values():
        for depth, layer in enumerate(bot_strategy(tree, make)):
            sums = np.add.reduceat(layer, tree.starts[depth], axis=0)
            assert np.allclose(sums, 1.0)


def test_the_uniform_strategy_has_positive_exploitability_and_a_solution_almost_none() -> None:
    tree = PublicTree(_tiny())
    _, uniform = exploitability(tree, tree.uniform())
    solved = solve(tree, target=1e-4, max_iterations=4000, check_every=20)
    assert uniform > 0.1 and 0 <= solved.exploitability < 1e-4


def test_exploitability_is_never_negative_for_random_strategies() -> None:
    tree = PublicTree(_tiny(3))
    rng = np.random.default_rng(5)
    for _ in range(20):
        strategy = []
        for depth, layer in enumerate(tree.uniform()):
            raw = rng.random(layer.shape)
            sums = np.add.reduceat(raw, tree.starts[depth], axis=0)[tree.edges[depth][0]]
            strategy.append(raw / sums)
        value, gap = exploitability(tree, strategy)
        assert gap >= -1e-12 and -1 <= value <= 1


def test_games_too_large_to_solve_are_refused() -> None:
    with pytest.raises(InputError, match="at most 18"):
        PublicTree(small_rules(BluffRules(), (2, 2)))
