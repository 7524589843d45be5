"""Validation (RULES.md §9): the static checks with their proofs, the bonus-token analysis, the
dynamic check, and the verdict — a set made unplayable on purpose fails for each reason."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.runarch.archives import ArchiveRule
from runarch_gen.runarch.boards.board import Board
from runarch_gen.runarch.boards.generate import generate_board
from runarch_gen.runarch.decks.cards import Deck, parse_goal
from runarch_gen.runarch.engine import RunArchGame
from runarch_gen.runarch.engine.conditions import parse_condition
from runarch_gen.runarch.engine.evaluation import evaluate_card
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.tokens import BonusTokens, default_tokens, parse_tokens_inline
from runarch_gen.runarch.rules import LineDirection, MatchBonus, RulesConfig, parse_rules
from runarch_gen.runarch.validation import validate as validate_module
from runarch_gen.runarch.validation.validate import (
    Check,
    DynamicCheck,
    ValidationReport,
    analyse_tokens,
    best_card_score,
    check_set,
    find_condition_witness,
    pair_outcome,
    setup_cards,
    validate_set,
)
from tests.test_deckgen import generated

SEED = 7  # the default set of these tests: `runarch-gen kit --seed 7` makes the same


def default_set() -> tuple[Board, Deck]:
    return generate_board(seed=SEED), generated(50, SEED)[0]


def failing(report: ValidationReport, name: str) -> Check:
    (check,) = [c for c in report.failing_checks() if c.name == name]
    return check


def with_goal(deck: Deck, card_id: int, text: str) -> Deck:
    return Deck(
        tuple(
            dataclasses.replace(card, goal=parse_goal(text, 12)) if card.id == card_id else card
            for card in deck
        )
    )


# ---------------------------------------------------------------------------------------------
# The default set


def test_the_default_set_passes_every_static_check() -> None:
    board, deck = default_set()
    report = check_set(board, deck)
    assert report.playable and report.exit_code == 0
    assert report.variants == ("simple", "complex", "solo")
    names = [c.name for c in report.checks]
    for name in ("board", "stones", "patterns", "goals", "minimums", "conditions", "deck size"):
        assert name in names
    # Every goal and every condition token carries its witness.
    goals = next(c for c in report.checks if c.name == "goals")
    assert goals.proofs and all(goals.proofs.values())
    conditions = next(c for c in report.checks if c.name == "conditions")
    assert len(conditions.proofs) == 12 and all(conditions.proofs.values())
    # The deadlock of the default token set is a rules finding, not a fault of the set.
    (finding,) = report.findings
    assert finding.rules == ("complex",) and finding.probability == Fraction(1, 9)


# ---------------------------------------------------------------------------------------------
# §9.1 each static reason


def test_a_board_that_breaks_b1_fails_naming_the_line() -> None:
    _, deck = default_set()
    board = Board.from_codes([["0R", "3B", "4G", "5Y", "6V"]] * 5)
    check = failing(check_set(board, deck, ["simple"]), "board")
    assert check.failures[0].component == "board" and check.failures[0].rule == "B-1"
    assert "column a repeats colour R (red) on a1, a2, a3, a4, a5" in check.failures[0].message


def test_b2_is_checked_only_when_asked() -> None:
    deck = sample_deck()
    assert check_set(sample_board(), deck, ["simple"]).playable  # B-1 only
    check = failing(check_set(sample_board(), deck, ["simple"], diagonals=True), "board")
    assert {f.rule for f in check.failures} == {"B-2"}


def test_an_unachievable_goal_fails_with_the_solvers_proof() -> None:
    board, deck = default_set()
    report = check_set(board, with_goal(deck, 3, "blue>=11"), ["complex"])
    check = failing(report, "goals")
    (failure,) = check.failures
    assert failure.component == "card 3, goal" and failure.rule == "§7"
    assert "blue>=11 cannot be met" in failure.message
    assert "CP-SAT proved that no 10 or fewer cards" in failure.proof
    assert check.proofs["blue>=11"] is None and report.exit_code == 1
    assert report.reasons[0].startswith("goals (complex): card 3, goal: blue>=11 cannot be met")


def test_goals_are_proven_with_the_variants_archive_capacity() -> None:
    # 10 red cards fill a SAME archive of 5 and a SHAPES archive of 5; archives of 4 hold at
    # most 4 + 4 + 1 red cards.
    board, deck = default_set()
    report = check_set(board, with_goal(deck, 3, "red>=10"), ["complex", "classic"])
    check = failing(report, "goals")
    assert check.rules == ("classic",) and "red>=10 cannot be met" in check.failures[0].message
    assert report.playable_in("complex") and not report.playable_in("classic")


def test_repeated_and_invalid_patterns_fail() -> None:
    board, deck = default_set()
    cards = list(deck)
    cards[1] = dataclasses.replace(cards[1], pattern=cards[0].pattern)
    check = failing(check_set(board, Deck(tuple(cards)), ["simple"]), "patterns")
    assert check.failures[0].component == "card 2" and "the same pattern as card 1" in (
        check.failures[0].message
    )


def test_a_line_match_bonus_cannot_reach_13_r09() -> None:
    board, deck = default_set()
    report = check_set(
        board, deck, ["complex(match_bonus=line)", "complex", "complex(match_bonus=off)"]
    )
    line, off = [c for c in report.failing_checks() if c.name == "minimums"]
    assert line.rules == ("complex(match_bonus=line)",)
    (failure,) = line.failures
    assert failure.component == "token N 13" and failure.rule == "R-09"
    assert "the best possible card score is 12" in failure.message
    assert "optimum over every card, line and arrangement" in failure.proof
    # With the whole board's match bonus every value is reached; without one, 11–13 are not.
    assert report.playable_in("complex")
    assert [f.component for f in off.failures] == [
        "token F 11",
        "token N 11",
        "token N 12",
        "token N 13",
    ]


def test_a_deck_too_small_to_deal_fails_with_the_arithmetic() -> None:
    board, deck = default_set()
    small = Deck(deck.cards[:12])
    report = check_set(board, small, ["complex"])
    (failure,) = failing(report, "deck size").failures
    assert failure.message == "too small to set up in the complex game"
    assert failure.proof == (
        "12 cards: setup takes 14 (2 players × 5 dealt [R-04] + 4 in the offer), leaving 0"
        " draws; 2 × 10 draws are needed, so at least 34 cards"
    )


def test_33_cards_fail_the_complex_game_with_deal_5_but_not_deal_4() -> None:
    # The deck checker only warns for 30–33 cards with deal 5; for that variant the set fails.
    board, short = generate_board(seed=SEED), generated(33, SEED)[0]
    report = check_set(board, short, ["complex", "complex(deal=4)", "simple", "solo"])
    sizes = {c.rules[0]: c for c in report.checks if c.name == "deck size"}
    assert not sizes["complex"].ok
    assert "19 draws, fewer than 20" in sizes["complex"].failures[0].message
    assert sizes["complex(deal=4)"].ok and sizes["simple"].ok and sizes["solo"].ok
    assert [c.name for c in report.failing_checks()] == ["deck size"]
    assert not report.playable_in("complex") and report.playable_in("complex(deal=4)")


def test_setup_cards_agree_with_the_engine() -> None:
    deck = sample_deck()
    for text in ("simple", "complex", "complex(deal=4)", "classic", "solo", "solo(deal=4)"):
        config = parse_rules(text)
        game = RunArchGame(config, sample_board(), deck)
        assert setup_cards(config)[0] == game.cards_for_setup()
        assert setup_cards(config)[1] == game.num_players


def test_every_condition_token_has_a_witness_that_the_archive_rules_accept() -> None:
    deck = sample_deck()
    rules = (ArchiveRule.COLOURS, ArchiveRule.SHAPES, ArchiveRule.SAME)  # article
    witness = find_condition_witness(parse_condition("*·*·5"), deck, rules, capacity=5)
    assert witness is not None and [len(a) for a in witness] == [0, 0, 5]
    by_id = {card.id: card.match for card in deck}
    same = [by_id[i] for i in witness[2]]
    assert len({p.colour for p in same}) == 1 or len({p.shape for p in same}) == 1
    # "total 5" with the fewest cards; "0·0·0" is never checked (a card was just archived).
    assert (
        sum(
            map(
                len,
                find_condition_witness(parse_condition("total 5"), deck, rules, capacity=5) or (),
            )
        )
        == 5
    )
    assert find_condition_witness(parse_condition("0·0·0"), deck, rules, capacity=5) is None


def test_a_condition_token_that_cannot_be_met_fails() -> None:
    board, deck = default_set()
    report = check_set(board, deck, ["complex(capacity=4,conditions=1·1·1|5·*·* any order|4·4·4)"])
    check = failing(report, "conditions")
    assert [f.component for f in check.failures] == ["condition 5·*·* any order", "condition 4·4·4"]
    assert all(f.rule == "R-02" for f in check.failures)
    assert check.proofs["1·1·1"] is not None


# ---------------------------------------------------------------------------------------------
# The best score a card can reach


def test_best_scores_per_match_bonus_option() -> None:
    board, deck = sample_board(), sample_deck()
    best = {}
    for option in MatchBonus:
        witness = best_card_score(board, deck, phase4=True, match_bonus=option)
        assert witness is not None
        best[option] = witness.score
    # off: 10 pattern points; line: 5 + 1 per attribute at most, 12; board: up to 20.
    assert best[MatchBonus.OFF] == 10 and best[MatchBonus.LINE] == 12
    assert 13 <= best[MatchBonus.BOARD] <= 20
    reversible = best_card_score(board, deck, phase4=False, direction=LineDirection.REVERSIBLE)
    assert reversible is not None and reversible.score == 10


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(list(MatchBonus)))
def test_no_arrangement_of_the_stones_beats_the_proven_best(seed: int, option: MatchBonus) -> None:
    rng = random.Random(seed)
    deck = sample_deck(30, seed=seed % 7)
    card = deck.cards[rng.randrange(len(deck))]
    best = best_card_score(sample_board(), [card], phase4=True, match_bonus=option)
    assert best is not None
    config = RulesConfig(match_bonus=option)
    for _ in range(20):
        stones = list(range(25))
        rng.shuffle(stones)
        scores = evaluate_card(
            stones, card.pattern, phase=4, tiles=sample_board(), match=card.match, config=config
        )
        assert all(s.card_score <= best.score for s in scores)
    # The witness itself scores its value with the rules engine.
    witness = evaluate_card(
        best.stones, card.pattern, phase=4, tiles=sample_board(), match=card.match, config=config
    )
    assert max(s.card_score for s in witness) == best.score


# ---------------------------------------------------------------------------------------------
# The bonus-token set: the rules finding


def test_the_default_token_set_deadlocks_one_game_in_nine() -> None:
    analysis = analyse_tokens(default_tokens(), best_pattern=10, best_phase4=20)
    assert analysis.deadlock == Fraction(1, 9) and analysis.possible == 0
    assert (analysis.deadlock_pairs, analysis.pairs) == (729, 6561)
    assert analysis.condition == "both players drew F 11"
    # The 10th card needs F: 5 cards of 5 stay at 25, the 6th passes it, cards of 7 pass 50
    # with the 9th.
    assert analysis.slowest[:9] == (5, 10, 15, 20, 25, 30, 37, 44, 51)
    assert analysis.tenth_level == 2
    assert analysis.phase4_only == (("F", (11,)), ("N", (11, 12, 13)))
    finding = analysis.finding(["complex", "classic"])
    assert finding is not None and finding.probability == Fraction(1, 9)
    assert "1 game in 9 (11.1%) cannot end (deadlock), when both players drew F 11" in (
        finding.headline
    )
    # The remedy must be a set the tool can read: F 9/10/10 repeats a value, so the F values
    # shift down as a whole (8/9/10, all within the 10 points of phases 1-3).
    assert any("With F 8/9/10 instead" in line for line in finding.explanation)
    assert parse_tokens_inline("D5/6/7 X7/8/9 F8/9/10 N11/12/13") is not None


def test_a_token_set_without_an_f_above_10_ends_every_game() -> None:
    tokens = BonusTokens(((5, 6, 7), (7, 8, 9), (9, 10), (11, 12, 13)))
    analysis = analyse_tokens(tokens, best_pattern=10, best_phase4=20)
    assert analysis.deadlock == 0 and analysis.possible == 0
    assert analysis.finding(["complex"]) is None


def test_a_token_set_can_deadlock_from_the_start() -> None:
    # A D of 11 cannot be met before the opponent passes 75, which needs its own D met.
    tokens = BonusTokens(((11,), (7,), (9,), (11,)))
    assert analyse_tokens(tokens, best_pattern=10, best_phase4=20).deadlock == 1


def _search(a: tuple[int, ...], b: tuple[int, ...], best_pattern: int, best_phase4: int) -> str:
    """The oracle: a plain search of every reachable pair of (total, cards), written from
    RULES.md alone (milestones 25/50/75 [R-16], 10 cards end the game, pattern points 5–10)."""
    start: tuple[int, ...] = (0, 0, 0, 0)
    seen, todo, ends, stuck = {start}, [start], False, False
    while todo:
        state = todo.pop()
        moved = False
        for side in (0, 1):
            total, cards, other = state[2 * side], state[2 * side + 1], state[2 - 2 * side]
            level = sum(total > m for m in (25, 50, 75))
            least = max(5, (a, b)[side][level])
            best = best_phase4 if other > 75 else best_pattern
            for score in range(least, best + 1):
                moved = True
                if cards + 1 == 10:
                    ends = True
                    continue
                moved_to = (min(total + score, 76), cards + 1)
                grown = (*moved_to, *state[2:]) if side == 0 else (*state[:2], *moved_to)
                if grown not in seen:
                    seen.add(grown)
                    todo.append(grown)
        stuck = stuck or not moved
    return "deadlock" if not ends else "may deadlock" if stuck else "ends"


@pytest.mark.parametrize(
    ("a", "b", "best_phase4"),
    [
        ((5, 7, 11, 11), (6, 8, 11, 13), 20),
        ((5, 7, 11, 11), (6, 8, 10, 13), 20),
        ((7, 9, 11, 13), (7, 9, 9, 13), 20),
        ((5, 7, 11, 13), (6, 7, 10, 13), 12),
        ((5, 8, 10, 11), (7, 7, 11, 13), 12),
        ((7, 7, 10, 11), (7, 7, 11, 11), 10),
        ((11, 7, 9, 11), (5, 7, 9, 11), 20),
    ],
)
def test_the_pair_analysis_agrees_with_a_plain_search(
    a: tuple[int, ...], b: tuple[int, ...], best_phase4: int
) -> None:
    found = pair_outcome(a, b, best_pattern=10, best_phase4=best_phase4)
    assert found == _search(a, b, 10, best_phase4)


# ---------------------------------------------------------------------------------------------
# The dynamic check and the verdict


def test_the_default_set_passes_the_dynamic_check() -> None:
    board, deck = default_set()
    report = validate_set(board, deck, games=4, seed=SEED, workers=1)
    assert [run.rules for run in report.dynamic] == ["simple", "complex", "solo"]
    assert all(run.games == 4 and run.unexplained_stalls == 0 for run in report.dynamic)
    assert report.playable and report.exit_code == 0 and report.verdict == "playable"
    assert report.lines()[-1] == (
        "verdict: PLAYABLE — the set can be played in simple, complex, solo (1 rules finding above)"
    )


def test_a_stall_guard_far_too_short_fails_the_set_dynamically() -> None:
    board, deck = default_set()
    report = validate_set(board, deck, ["complex(stall=6)"], games=3, seed=1, workers=1)
    assert report.failing_checks() == [] and not report.playable and report.exit_code == 1
    (run,) = report.dynamic
    assert (run.games, run.stalls, run.deadlocks) == (3, 3, 0)
    assert report.reasons == (
        "complex(stall=6): 3 of 3 simulated games (100.0%) stalled without a proven deadlock,"
        " more than the 5% tolerated: the bots could not finish them",
    )


@pytest.mark.parametrize(
    ("stalls", "deadlocks", "tolerance", "strict", "playable"),
    [
        (4, 0, 0.05, False, True),  # 4 of 300: the bots' own misses, tolerated
        (15, 0, 0.05, False, True),  # exactly 5 %
        (16, 0, 0.05, False, False),
        (40, 30, 0.05, False, True),  # proven deadlocks are a rules finding, not a stall
        (1, 0, 0.0, False, False),
        (1, 0, 0.05, True, False),  # strict tolerates no stall
        (30, 30, 0.05, True, False),  # nor a deadlock
    ],
)
def test_the_verdict_tolerates_a_few_stalls_the_bots_leave(
    stalls: int, deadlocks: int, tolerance: float, strict: bool, playable: bool
) -> None:
    run = DynamicCheck("complex", ("greedy",), 1, 300, stalls, deadlocks, interrupted=False)
    report = ValidationReport(
        ("complex",), (), (), dynamic=(run,), strict=strict, stall_tolerance=tolerance
    )
    assert report.playable is playable and report.exit_code == (0 if playable else 1)


def test_proven_rules_deadlocks_are_a_finding_and_fail_only_when_strict() -> None:
    board, deck = default_set()
    variants = ["complex(tokens=D5/6/7 X7/8/9 F11 N11/12/13)"]
    report = validate_set(board, deck, variants, games=3, seed=2, workers=1)
    assert report.findings[0].headline.endswith(
        "no game can end (deadlock), whatever stacks are drawn"
    )
    (run,) = report.dynamic
    assert run.games == run.stalls == run.deadlocks == 3  # every game proven deadlocked
    assert run.predicted_deadlock == 1
    assert report.playable and report.findings[0].probability == 1
    strict = validate_set(board, deck, variants, games=3, seed=2, workers=1, strict=True)
    assert not strict.playable and strict.exit_code == 1
    assert any("deadlocked (strict)" in reason for reason in strict.reasons)


def test_a_variant_failing_statically_is_not_simulated() -> None:
    board, short = generate_board(seed=SEED), generated(33, SEED)[0]
    report = validate_set(board, short, ["complex", "solo"], games=2, seed=1, workers=1)
    assert [r for r, _ in report.skipped] == ["complex"]
    assert [run.rules for run in report.dynamic] == ["solo"]


def test_an_interrupted_dynamic_check_reports_what_finished() -> None:
    board, deck = default_set()
    calls = []

    def advance(n: int) -> None:  # Ctrl-C after the static checks and two games
        calls.append(n)
        if len(calls) == validate_module.STATIC_STEPS + 2:
            raise KeyboardInterrupt

    report = validate_set(
        board, deck, ["complex", "solo"], games=6, seed=1, workers=1, advance=advance
    )
    (run,) = report.dynamic
    assert run.interrupted and run.games == 2
    assert report.skipped == (("solo", "interrupted"),)
    assert report.verdict == "interrupted" and report.exit_code == 130
    assert (
        report.lines()[-1] == "interrupted: the figures above are those of the games that finished"
    )


def test_the_json_report_has_the_verdict_checks_findings_and_simulations() -> None:
    board, deck = default_set()
    data = validate_set(board, deck, ["complex(stall=6)"], games=2, seed=1, workers=1).to_json()
    assert set(data) == {
        "verdict",
        "playable",
        "exit_code",
        "strict",
        "stall_tolerance",
        "variants",
        "reasons",
        "set",
        "checks",
        "rules_findings",
        "dynamic",
        "skipped",
        "lineup",
        "metrics",
        "balance",
        "interrupted",
    }
    assert data["verdict"] == "not playable" and data["exit_code"] == 1
    assert data["variants"] == [{"rules": "complex(stall=6)", "playable": False}]
    assert {"check", "rules", "ok", "summary", "failures", "proofs"} <= set(data["checks"][0])
    finding = data["rules_findings"][0]
    assert finding["kind"] == "deadlock" and finding["probability"] == "1/9"
    assert finding["tokens"]["F"] == [9, 10, 11]
    run = data["dynamic"][0]
    assert (run["games"], run["stalls"], run["unexplained_stalls"]) == (2, 2, 2)
    assert run["simulation"]["endings"] == {"stalled": 2}
