"""One test per rule of RULES.md §3–8 and per R-option, on hand-built positions.

The positions use the identity stones (stone k on square k: row 1 holds 0R 3R 4R 5R 6R, column
a holds 0R 0B 0G 0Y 0V, diagonal d1 holds 0R 3B 4G 5Y 6V) and the sample board, whose tiles put
exactly one stone of each colour on a tile of its colour and one of each shape on a tile of its
shape (so the board match bonus [R-09] is 2 for any card).

Card 1, pattern 0R,3B,4G,5Y,6V, scores 6 on every row and column and 10 on d1.
Card 2, pattern 3B,4G,5Y,6V,0R, is valid nowhere.
"""

from __future__ import annotations

import pytest

from runarch_gen.play.game import IllegalActionError
from runarch_gen.runarch.archives import ArchiveRule, accepts, fits
from runarch_gen.runarch.atoms import PIECES, parse_piece
from runarch_gen.runarch.engine.actions import END, SETUP_CHOICES
from runarch_gen.runarch.engine.conditions import parse_condition
from runarch_gen.runarch.engine.setup import GOLD, SILVER, deal_setup
from runarch_gen.runarch.engine.stages import BET, OVER, PLAY, SETUP_STAGE, RunArchTermination
from tests.test_engine_helpers import (
    IDENTITY,
    card,
    final,
    make_game,
    position,
    rng,
    sq,
    swap,
    texts,
)

P = "0R,3B,4G,5Y,6V"
NOWHERE = "3B,4G,5Y,6V,0R"


def swaps_of(state) -> list[str]:
    return [t for t in texts(state) if "-" in t]


# §4.1 movement phases -------------------------------------------------------------------------


def test_phase_1_allows_one_orthogonal_swap_only() -> None:
    state = position(make_game())
    assert len(swaps_of(state)) == 40
    with pytest.raises(IllegalActionError, match="phase 1 allows one orthogonal swap"):
        swap(state, "a1", "b2")
    swap(state, "a1", "b1")
    assert state.stones[:2] == [1, 0]
    assert texts(state) == ["end"]  # the move is complete


def test_phase_2_adds_diagonal_swaps() -> None:
    state = position(make_game(), received=(1, 0))
    assert state.phase(0) == 2
    assert len(swaps_of(state)) == 72
    swap(state, "a1", "b2")
    assert texts(state) == ["end"]
    with pytest.raises(IllegalActionError, match="phase 2 allows one adjacent swap"):
        position(make_game(), received=(1, 0)).apply_text("a1-a3")  # a jump waits for phase 3


def test_phase_3_jump_swap_over_a_stone_which_stays() -> None:
    state = position(make_game(), received=(2, 0))
    assert len(swaps_of(state)) == 120
    swap(state, "a1", "c3")  # diagonal jump over b2
    assert (state.stones[sq("a1")], state.stones[sq("b2")], state.stones[sq("c3")]) == (12, 6, 0)
    assert texts(state) == ["end"]  # a jump swap is a whole move


def test_phase_3_double_swap_sharing_a_stone_or_not() -> None:
    shared = position(make_game(), received=(2, 0))
    swap(shared, "a1", "b1")
    assert "end" in texts(shared)  # one adjacent swap is already a complete move
    swap(shared, "b1", "c1")  # the stone from a1 moves on
    assert shared.stones[:3] == [1, 2, 0]
    assert texts(shared) == ["end"]
    apart = position(make_game(), received=(2, 0))
    swap(apart, "a1", "b1")
    swap(apart, "d4", "e5")
    assert texts(apart) == ["end"]


def test_R06_second_swap_may_not_be_the_first_again() -> None:
    state = position(make_game(), received=(2, 0))
    swap(state, "a1", "b1")
    assert "a1-b1" not in texts(state)
    with pytest.raises(IllegalActionError, match="R-06"):
        swap(state, "b1", "a1")
    with pytest.raises(IllegalActionError, match="jump swap is a whole move"):
        swap(state, "c1", "e1")


def test_phase_4_moves_as_phase_3() -> None:
    assert len(swaps_of(position(make_game(), received=(3, 0)))) == 120


def test_passing_is_never_allowed() -> None:
    state = position(make_game())
    assert "end" not in texts(state)
    with pytest.raises(IllegalActionError, match="passing is never allowed"):
        state.apply(END)


def test_simple_game_swaps_orthogonally_and_diagonally_all_game() -> None:
    state = position(make_game("simple"))
    assert state.phase(0) == 0
    assert len(swaps_of(state)) == 72
    swap(state, "c3", "d4")
    assert texts(state) == ["end"]


def test_phase_comes_from_tokens_received_minimum_from_own_stack() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(
        game, hands=[[1], []], received=(2, 0), given=(0, 1), stacks=((6, 8, 10, 12), (5, 7, 9, 11))
    )
    assert state.phase(0) == 3 and state.phase(1) == 1
    assert state.minimum(0) == 6 and state.minimum(1) == 7
    assert texts(state, "@")  # 6 points reach white's own minimum 6 ...
    state.given[0] = 1  # ... but not 8 once white has handed over its D token
    state.recompute()
    assert not texts(state, "@")


# §4.2 evaluating a card -----------------------------------------------------------------------


def test_evaluation_scores_colour_and_shape_points_and_needs_every_position() -> None:
    game = make_game("complex", [card(1, P), card(2, NOWHERE)])
    state = position(game, hands=[[1, 2], []])
    lines = {t.split(">")[0] for t in texts(state, "@")}
    assert lines == {
        f"1@{name}" for name in ("r1", "r2", "r3", "r4", "r5", "ca", "cb", "cc", "cd", "ce")
    }
    assert state.card_score(game.card_index[1], 0, 0) == (6, 0)
    with pytest.raises(IllegalActionError, match=r"position 1 \(0R on a1\) earns 0"):
        state.apply_text("2@r1>L+p")


def test_diagonals_only_in_phase_4() -> None:
    game = make_game("complex", [card(1, P)])
    phase3 = position(game, hands=[[1], []], received=(2, 0))
    assert not [t for t in texts(phase3, "@") if "@d" in t]
    with pytest.raises(IllegalActionError, match="diagonals in phase 4 only"):
        phase3.apply_text("1@d1>L+p")
    phase4 = position(game, hands=[[1], []], received=(3, 0))
    assert "1@d1>L+p" in texts(phase4)


@pytest.mark.parametrize(
    ("option", "match", "expected"),
    [
        ("board", "0R", 2),  # one 0-colour and one circle stone lie on matching tiles
        ("board", "3B", 2),
        ("line", "0R", 2),  # both are on d1 (the 0R stone on a1)
        ("line", "3B", 0),  # neither is on d1
        ("off", "0R", 0),
    ],
)
def test_R09_match_bonus_board_line_off(option: str, match: str, expected: int) -> None:
    game = make_game(f"complex(match_bonus={option})", [card(1, P, match=match)])
    state = position(game, hands=[[1], []], received=(3, 0))
    assert state.card_score(game.card_index[1], 10, 0) == (10, expected)
    state.received[0] = 2  # no bonus before phase 4
    assert state.card_score(game.card_index[1], 0, 0) == (6, 0)


def test_match_bonus_counts_stones_on_tiles_of_their_colour_and_shape() -> None:
    # Count by hand: stones of the match colour on tiles of that colour, same for the shape.
    game = make_game("complex", [card(1, P, match="4G")])
    tiles = game.board.indices()
    stones = list(IDENTITY)
    expected = sum(
        PIECES[s].colour == 2 == PIECES[t].colour for s, t in zip(stones, tiles, strict=True)
    )
    expected += sum(
        PIECES[s].shape == 2 == PIECES[t].shape for s, t in zip(stones, tiles, strict=True)
    )
    state = position(game, hands=[[1], []], received=(3, 0))
    assert state.card_score(game.card_index[1], 10, 0)[1] == expected == 2


def test_minimum_reads_pattern_points_in_phases_1_to_3_and_the_card_score_in_phase_4() -> None:
    game = make_game("complex", [card(1, P)])
    # Phase 3, minimum 11 (N on top): 10 pattern points on d1 are not enough, no bonus counts.
    phase3 = position(game, hands=[[1], []], received=(2, 0), given=(3, 0))
    assert not texts(phase3, "@")
    # Phase 4, minimum 11: d1 scores 10 + 2 = 12; rows 6 + 2 = 8 fall short.
    phase4 = position(game, hands=[[1], []], received=(3, 0), given=(3, 0))
    assert {t.split(">")[0] for t in texts(phase4, "@")} == {"1@d1"}
    with pytest.raises(IllegalActionError, match="card score 8 below the minimum 11"):
        phase4.apply_text("1@r1>L+p")


def test_R08_reading_direction_only_by_default_reversible_as_option() -> None:
    backwards = "6V,5Y,4G,3B,0R"  # d1 read from e5 to a1
    reading = make_game("complex", [card(1, backwards)])
    assert not texts(position(reading, hands=[[1], []], received=(3, 0)), "@d1")
    reversible = make_game("complex(direction=reversible)", [card(1, backwards)])
    state = position(reversible, hands=[[1], []], received=(3, 0))
    assert "1@d1>L+p" in texts(state)
    assert state.card_score(reversible.card_index[1], 10, 0)[0] == 10


def test_R10_simple_game_minimum_is_fixed() -> None:
    game = make_game("simple(minimum=7)", [card(1, P)])
    assert not texts(position(game, hands=[[1], []]), "@")  # rows and columns score 6
    assert texts(position(make_game("simple", [card(1, P)]), hands=[[1], []]), "@")


def test_simple_game_lines_are_rows_and_columns_and_cards_are_discarded() -> None:
    game = make_game("simple", [card(1, P)])
    state = position(game, hands=[[1], []])
    assert "1@d1+p" not in texts(state)
    state.apply_text("1@r1+p")
    assert state.totals[0] == 6 and game.card_index[1] in state.discard
    assert state.archives == [[[], [], []], [[], [], []]]


def test_R12_several_cards_in_one_turn_before_between_and_after_the_swaps() -> None:
    game = make_game("complex", [card(1, P), card(3, P, match="3B"), card(4, P, match="4G")])
    state = position(game, hands=[[1, 3], []], received=(2, 0))
    state.pile.append(game.card_index[4])  # the next draw
    state.apply_text("1@r1>L+p")  # before the move
    swap(state, "a1", "b1")
    state.apply_text("3@r2>M+p")  # between the two swaps of a double swap
    swap(state, "c3", "c4")
    state.apply_text("4@ce>R+p")  # after the move
    assert state.placed[0] == 3 and state.totals[0] == 18
    state.apply(END)


# §4.3 archives ---------------------------------------------------------------------------------


def test_archive_rules_same_shapes_colours_match_the_definition() -> None:
    codes = ["0R", "3R", "0B", "4G", "4R", "5Y", "6V", "3Y"]
    cards = [card(10 + i, P, match=code) for i, code in enumerate(codes)]
    game = make_game("complex", cards)
    state = position(game)
    for archive, rule in enumerate((ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)):
        for held in ([], ["0R"], ["0R", "3R"], ["0R", "0B"], ["3R", "4G", "5Y"]):
            if not fits(rule, [parse_piece(c) for c in held]):
                continue  # never reached in play: each placement keeps the rule
            state.archives[0][archive] = [game.card_index[10 + codes.index(c)] for c in held]
            for code in codes:
                expected = accepts(rule, [parse_piece(c) for c in held], parse_piece(code))
                got = state.archive_accepts(0, archive, game.card_index[10 + codes.index(code)])
                assert got == expected, (rule, held, code)


def test_same_archive_is_decided_by_the_cards_placed() -> None:
    game = make_game(
        "complex", [card(1, P, match="0R"), card(2, P, match="0B"), card(3, P, match="3R")]
    )
    state = position(game)
    state.archives[0][0] = [game.card_index[1], game.card_index[2]]  # both circles: shapes decide
    assert not state.archive_accepts(0, 0, game.card_index[3])
    state.archives[0][0] = [game.card_index[1]]  # one card fits both ways
    assert state.archive_accepts(0, 0, game.card_index[3])


def test_R11_a_card_no_archive_takes_cannot_be_scored() -> None:
    game = make_game(
        "complex(capacity=4)",
        [
            card(1, P, match="0R"),
            *[
                card(20 + i, P, match=m)
                for i, m in enumerate(
                    ["0B", "3R", "4G", "5Y", "6V", "3B", "0G", "0Y", "5R", "3G", "4V", "6B"]
                )
            ],
        ],
    )
    state = position(game, hands=[[1], []])
    full = [[20, 21, 23, 24], [25, 26, 27, 28], [29, 30, 31, 22]]  # none takes 0R any more
    state.archives[0] = [[game.card_index[i] for i in archive] for archive in full]
    state.recompute()
    assert not texts(state, "@")
    with pytest.raises(IllegalActionError, match="archive"):
        state.apply_text("1@r1>L+p")


def test_R13_archive_order_overview_and_article() -> None:
    assert make_game("complex").config.archive_rules == (
        ArchiveRule.SAME,
        ArchiveRule.SHAPES,
        ArchiveRule.COLOURS,
    )
    article = make_game(
        "complex(archive_order=article)", [card(1, P, match="0R"), card(2, P, match="3R")]
    )
    state = position(article)
    state.archives[0] = [[article.card_index[1]], [], []]
    assert not state.archive_accepts(0, 0, article.card_index[2])  # left is COLOURS now
    assert state.archive_accepts(0, 2, article.card_index[2])  # right is SAME


def test_R14_capacity_five_by_default_and_configurable() -> None:
    circles = [card(10 + i, P, match=f"0{c}") for i, c in enumerate("RBGYV")] + [
        card(15, P, match="0R")
    ]
    for rules, capacity in (("complex", 5), ("complex(capacity=4)", 4), ("classic", 4)):
        game = make_game(rules, circles)
        state = position(game)
        state.archives[0][0] = [game.card_index[10 + i] for i in range(capacity)]
        assert not state.archive_accepts(0, 0, game.card_index[15]), rules
        state.archives[0][0].pop()
        assert state.archive_accepts(0, 0, game.card_index[15]), rules


# §4.4 drawing ----------------------------------------------------------------------------------


def test_R15_offer_opens_in_phase_2_and_the_pile_top_joins_it() -> None:
    game = make_game("complex", [card(1, P), card(2, NOWHERE), card(3, NOWHERE), card(4, NOWHERE)])
    phase1 = position(game, hands=[[1], []])
    phase1.offer = [game.card_index[2], game.card_index[3]]
    phase1.recompute()
    assert {t.split("+")[1] for t in texts(phase1, "@")} == {"p"}
    with pytest.raises(IllegalActionError, match="R-15"):
        phase1.apply_text("1@r1>L+o1")
    phase2 = position(game, hands=[[1], []], received=(1, 0))
    phase2.offer = [game.card_index[2], game.card_index[3]]
    top = phase2.pile[-1]
    phase2.recompute()
    assert {t.split("+")[1] for t in texts(phase2, "@")} == {"p", "o1", "o2"}
    phase2.apply_text("1@r1>L+o2")
    assert phase2.hands[0] == [game.card_index[3]]
    assert phase2.offer == [game.card_index[2], top]


def test_empty_pile_leaves_the_offer_and_then_no_draw() -> None:
    game = make_game("complex", [card(1, P), card(2, NOWHERE)])
    state = position(game, hands=[[1], []], received=(1, 0))
    state.pile = []
    state.offer = [game.card_index[2]]
    state.recompute()
    assert {t.split("+")[1] for t in texts(state, "@")} == {"o1"}
    state.offer = []
    state.recompute()
    assert "1@r1>L" in texts(state)  # nothing left to draw: no draw part
    state.apply_text("1@r1>L")
    assert state.hands[0] == []


def test_drawing_is_not_optional_while_a_card_is_left() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(game, hands=[[1], []])
    with pytest.raises(IllegalActionError, match="must be drawn"):
        state.apply_text("1@r1>L")


# §4.5 milestones -------------------------------------------------------------------------------


def test_R16_a_milestone_passes_from_at_most_m_to_more_than_m() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(game, hands=[[1], []], received=(3, 0))
    state.totals[0] = 25  # standing exactly on 25 is still "at most 25"
    state.apply_text("1@d1>L+p")  # 10 + 2 = 12: 25 -> 37
    assert state.given == [1, 0] and state.received == [3, 1]
    assert state.minimum(0) == 7 and state.phase(1) == 2


def test_R16_one_card_passes_several_milestones() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(game, hands=[[1], []], received=(3, 0))
    state.totals[0] = 40
    state.bests[0] = 0
    game_card = game.card_index[1]
    state._pass_milestones(0, 20, 60)  # one card worth 40 would pass 25 and 50
    assert state.given[0] == 2 and state.received[1] == 2
    assert game_card in state.hands[0]


def test_R16_several_tokens_at_once_and_N_never_leaves() -> None:
    game = make_game("complex", [card(1, P), card(2, P)])
    away = [(60, GOLD), (64, GOLD), (90, GOLD), (94, GOLD)]  # no frame token on 57 or 82
    state = position(game, hands=[[1, 2], []], received=(3, 1), given=(1, 0), frame_bets=away)
    state.totals[0] = 45
    state.apply_text("1@d1>L+p")  # 45 -> 57: passes 50
    assert state.given[0] == 2
    state.totals[0] = 70
    state.apply_text("2@d1>M+p")  # 70 -> 82: passes 75, the last token that can leave
    assert state.given[0] == 3 and state.received[1] == 3
    assert state.minimum(0) == 11  # N stays on top for good
    state._pass_milestones(0, 82, 200)  # totals count on past 100; no milestone after 75
    assert state.given[0] == 3


# §6 bets ---------------------------------------------------------------------------------------


def conditions_index(game, text: str) -> int:
    return [c.text for c in game.conditions].index(parse_condition(text).text)


def test_R02_condition_token_taken_right_after_the_card_is_archived_and_placed_at_once() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(
        game, hands=[[1], []], conditions=[(conditions_index(game, "3·0·0 any order"), GOLD)]
    )
    # Two red cards in the left (SAME) archive; scoring the red card 1 into it makes 3·0·0.
    state.archives[0][0] = [
        k for k in range(1, len(game.cards)) if game.cards[k].match.colour == 0
    ][:2]
    state.apply_text("1@r1>L+p")
    assert state.stage == BET and state.pending == [GOLD] and state.condition_tokens == [-1]
    assert "end" not in texts(state) and texts(state)[0] == "$L2"
    state.apply_text("$L3")
    assert state.bets[0][0 * 4 + 1] == GOLD and state.stage == PLAY


def test_condition_token_pays_once_to_the_first_who_meets_it() -> None:
    game = make_game("complex", [card(1, P), card(2, P)])
    state = position(
        game, hands=[[1], [2]], conditions=[(conditions_index(game, "total 5"), SILVER)]
    )
    not_red = [k for k in range(2, len(game.cards)) if game.cards[k].match.colour != 0]
    by_colour = {game.cards[k].match.colour: k for k in not_red}
    four = list(by_colour.values())  # one blue, green, yellow, violet: fits COLOURS
    state.archives = [[[], [], four[:]], [[], [], four[:]]]
    state.apply_text("1@r1>L+p")  # white: 5 cards in all
    assert state.pending == [SILVER]
    state.apply_text("$L2")
    swap(state, "a1", "b1")
    state.apply(END)
    state.apply_text("2@r2>L+p")  # black reaches 5 too: the token is gone
    assert state.pending == [] and state.stage == PLAY


def test_frame_token_taken_when_the_total_stands_on_it_modulo_100() -> None:
    game = make_game("complex", [card(1, P), card(2, P)])
    state = position(
        game, hands=[[1, 2], []], frame_bets=[(55, GOLD), (60, SILVER), (76, GOLD), (98, SILVER)]
    )
    state.totals[0] = 51
    state.apply_text("1@r1>L+p")  # 51 + 6 = 57, covered by 55-57
    assert state.pending == [GOLD] and state.frame_tokens == [-1, SILVER, GOLD, SILVER]
    state.apply_text("$L2")
    state.totals[0] = 94
    state.apply_text("2@r2>M+p")  # 100: the space 100, also 0, covered by 98-100
    assert state.pending == [SILVER]
    state.apply_text("$M2")
    assert state.frame_tokens == [-1, SILVER, GOLD, -1]


def test_R05_frame_tokens_cover_three_spaces_inside_their_segment_never_sharing() -> None:
    for seed in range(300):
        setup = deal_setup(rng(seed), 50, token_games=True, condition_count=12)
        covered = [set(range(start, start + 3)) for start, _ in setup.frame_bets]
        assert all(c <= set(range(51, 76)) for c in covered[:2])
        assert all(c <= set(range(76, 101)) for c in covered[2:])
        assert not covered[0] & covered[1] and not covered[2] & covered[3]
        assert len(setup.conditions) == 6 and len({i for i, _ in setup.conditions}) == 6


def test_R21_a_token_with_no_free_spot_is_discarded() -> None:
    game = make_game("complex", [card(1, P)])
    state = position(
        game, hands=[[1], []], frame_bets=[(55, GOLD), (60, SILVER), (76, GOLD), (80, SILVER)]
    )
    state.bets[0] = [GOLD] * len(state.bets[0])  # every spot taken, no public goals
    state.totals[0] = 51
    state.apply_text("1@r1>L+p")
    assert state.pending == [] and state.discarded_bets == 1 and state.stage == PLAY


def test_public_goal_spots_are_bet_opportunities() -> None:
    game = make_game("complex", [card(1, P), card(7, P, goal="red>=1", reward=5)])
    state = position(
        game,
        hands=[[1], []],
        public=[7],
        frame_bets=[(55, GOLD), (60, SILVER), (76, GOLD), (80, SILVER)],
    )
    state.totals[0] = 51
    state.apply_text("1@r1>L+p")
    assert "$7" in texts(state)
    state.apply_text("$7")
    assert state.final_position(0).goal_bets[0].gold


def test_R02_condition_set_is_data() -> None:
    game = make_game('complex(conditions="1·0·0|0·1·0 any order")', [card(1, P)])
    assert [c.text for c in game.conditions] == ["1·0·0", "0·1·0 any order"]
    state = position(game, hands=[[1], []], conditions=[(0, GOLD), (1, SILVER)])
    state.apply_text("1@r1>L+p")
    assert state.pending == [GOLD, SILVER]  # 1·0·0 and, in some order, 0·1·0


# §3 setup [R-04] --------------------------------------------------------------------------------


@pytest.mark.parametrize(("deal", "publics", "choices"), [(5, 4, 30), (4, 2, 12)])
def test_R04_deal_is_a_choice_of_public_and_secret_goals(
    deal: int, publics: int, choices: int
) -> None:
    game = make_game(f"complex(deal={deal})")
    state = game.new_initial_state(rng(3))
    assert state.stage == SETUP_STAGE and len(state.legal_actions()) == choices == len(
        SETUP_CHOICES[deal]
    )
    first = state.current
    dealt = list(state.dealt[first])
    text = state.action_to_string(state.legal_actions()[-1])
    state.apply(state.legal_actions()[-1])
    assert text.startswith("setup:")
    assert state.current == 1 - first  # the other player chooses next, seeing those goals
    state.apply(0)
    assert state.stage == PLAY and state.current == first
    assert len(state.public) == publics
    for side in (0, 1):
        assert len(state.hands[side]) == 2 and state.secret[side] >= 0
    assert set(state.hands[first]) | {state.secret[first]} | set(
        state.public[: publics // 2]
    ) == set(dealt)
    assert len(state.offer) == 4


def test_setup_draws_one_token_of_each_symbol_per_side() -> None:
    for seed in range(50):
        stacks = deal_setup(rng(seed), 50, token_games=True, condition_count=0).stacks
        for stack in stacks:
            assert (
                stack[0] in (5, 6, 7)
                and stack[1] in (7, 8, 9)
                and stack[2] in (9, 10, 11)
                and stack[3] in (11, 12, 13)
            )


# §5 end of the game ----------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_complex_game_ends_after_the_round_of_the_tenth_card(first: int) -> None:
    game = make_game("complex", [card(1, P), card(2, P)])
    state = position(game, hands=[[1], [2]], to_move=first)
    state.placed = [9, 9]
    state.turn = 0
    state.apply_text(f"{1 + first}@r1>L+p")  # the player to move places their 10th card
    swap(state, "a1", "b1")
    state.apply(END)
    assert not state.is_terminal()  # the second player still has a turn this round
    swap(state, "a1", "b1")
    state.apply(END)
    assert state.is_terminal() and state.termination == RunArchTermination.TENTH_CARD
    assert state.turn == 2


def test_complex_game_second_player_tenth_card_ends_at_once() -> None:
    game = make_game("complex", [card(1, P), card(2, P)])
    state = position(game, hands=[[1], [2]], to_move=1)
    state.turn = 1  # black moves second: white (first) has had one turn
    state.placed = [9, 9]
    state.apply_text("2@r1>L+p")
    swap(state, "a1", "b1")
    state.apply(END)
    assert (
        state.is_terminal()
        and state.termination == RunArchTermination.TENTH_CARD
        and state.turn == 2
    )


def test_R17_simple_game_ends_after_the_round_in_which_a_total_exceeds_the_target() -> None:
    game = make_game("simple(target=30)", [card(1, P), card(2, P)])
    state = position(game, hands=[[1], [2]])
    state.totals = [25, 0]
    state.apply_text("1@r1+p")  # 31 > 30
    swap(state, "a1", "b1")
    state.apply(END)
    assert not state.is_terminal()
    swap(state, "a1", "b1")
    state.apply(END)
    assert state.is_terminal() and state.termination == RunArchTermination.TARGET


def test_R18_stall_guard_counts_the_turns_of_both_players() -> None:
    game = make_game("complex(stall=7)")
    state = position(game)
    for _ in range(7):
        assert not state.is_terminal()
        swap(state, "a1", "b1")
        state.apply(END)
    assert (
        state.is_terminal() and state.termination == RunArchTermination.STALLED and state.turn == 7
    )
    outcome = state.outcome()
    assert outcome is not None and outcome.stalled


# Final scoring (§5, §6.3, §7) ------------------------------------------------------------------


def test_R19_best_card_duel_strictly_higher_scores_its_value_again() -> None:
    game = make_game("simple")
    state = position(game)
    state.totals, state.bests = [50, 50], [9, 7]
    state.stage = OVER
    state.termination = RunArchTermination.TARGET
    outcome = final(state)
    assert outcome.scores[0].part("duel") == 9 and outcome.scores[1].part("duel") == 0
    state.bests = [8, 8]
    tie = final(state)
    assert tie.scores[0].part("duel") == tie.scores[1].part("duel") == 0


def test_R20_higher_total_wins_then_higher_best_card_then_a_shared_win() -> None:
    game = make_game("simple")
    state = position(game)
    state.stage, state.termination = OVER, RunArchTermination.TARGET
    state.totals, state.bests = [60, 58], [5, 9]  # 60 vs 58 + 9 duel = 67
    assert final(state).winners == (1,)
    state.totals, state.bests = [60, 60], [9, 9]
    assert final(state).winners == (0, 1) and final(state).result() == "1/2-1/2"
    # Equal totals after the duel, different best cards: impossible with a duel; test the rule.
    from runarch_gen.runarch.engine.scoring import winners

    assert winners([70, 70], [8, 9]) == (1,)


def test_R22_public_goal_bet_met_or_not_and_no_bet_scores_nothing() -> None:
    game = make_game(
        "complex", [card(7, P, goal="red>=2", reward=5), card(8, P, goal="blue>=1", reward=4)]
    )
    state = position(game, public=[7, 8])
    reds = [k for k in range(len(game.cards)) if game.cards[k].match.colour == 0][:2]
    state.archives[0] = [reds, [], []]
    state.bests = [13, 0]
    state.bets[0][12] = GOLD  # on card 7: met, 13 + 5
    state.stage, state.termination = OVER, RunArchTermination.TENTH_CARD
    assert final(state).scores[0].part("goal_bets") == 18
    state.bets[0][12] = SILVER  # 7 + 5
    assert final(state).scores[0].part("goal_bets") == 12
    state.bets[0][13] = GOLD  # on card 8: not met, -13
    assert final(state).scores[0].part("goal_bets") == 12 - 13
    state.bets[0][12] = state.bets[0][13] = -1  # no bets: a met public goal scores nothing
    assert final(state).scores[0].part("goal_bets") == 0


def test_R23_secret_goal_scores_its_reward_when_met_only() -> None:
    game = make_game("complex", [card(7, P, goal="colours>=2", reward=6)])
    state = position(game)
    state.secret[0] = game.card_index[7]
    state.stage, state.termination = OVER, RunArchTermination.TENTH_CARD
    assert final(state).scores[0].part("secret_goal") == 0
    two = [k for k in range(len(game.cards)) if game.cards[k].match.colour in (0, 1)]
    other = next(k for k in two if game.cards[k].match.colour != game.cards[two[0]].match.colour)
    state.archives[0] = [[], [], [two[0], other]]
    assert final(state).scores[0].part("secret_goal") == 6


def test_R27_classic_game_has_no_bets_and_full_archives_score() -> None:
    game = make_game("classic", [card(1, P)])
    assert not game.bets and game.config.capacity == 4
    state = position(game, hands=[[1], []])
    state.totals[0] = 51
    state.apply_text("1@r1>L+p")
    assert state.stage == PLAY and not state.pending
    state.archives[0] = [[1, 2, 3, 4], [5, 6, 7, 8], [9]]
    state.stage, state.termination = OVER, RunArchTermination.TENTH_CARD
    assert final(state).scores[0].part("full_archives") == 20
    bonus = make_game("classic(archive_bonus=7)")
    other = position(bonus)
    other.archives[0] = [[1, 2, 3, 4], [], []]
    other.stage, other.termination = OVER, RunArchTermination.TENTH_CARD
    assert final(other).scores[0].part("full_archives") == 7


# §8 the automa [R-24] [R-25] -------------------------------------------------------------------


def automa_game(arrows: str, match: str = "4G", pattern: str = P):
    return make_game("solo", [card(1, P), card(9, pattern, match=match, arrows=arrows)])


def test_R24_automa_swaps_its_stone_in_the_first_arrow_that_stays_on_the_board() -> None:
    game = automa_game("N,E", match="4G")  # the 4G stone lies on c3 (identity)
    state = position(game, hands=[[1], []])
    state.pile.append(game.card_index[9])
    swap(state, "e5", "e4")
    state.apply(END)  # the automa plays at once
    assert state.stones[sq("c2")] == parse_piece("4G").index
    assert state.stones[sq("c3")] == parse_piece("4B").index
    _, revealed, origin, target, _, _ = state.automa_log[-1]
    assert (revealed, origin, target) == (game.card_index[9], sq("c3"), sq("c2"))
    assert state.current == 0 and state.turn == 2


def test_R24_automa_skips_an_arrow_off_the_board() -> None:
    game = automa_game("N,S", match="0R")  # 0R on a1: north is off the board
    state = position(game, hands=[[1], []])
    state.pile.append(game.card_index[9])
    swap(state, "e5", "e4")
    state.apply(END)
    assert state.automa_log[-1][2:4] == (sq("a1"), sq("a2"))


def test_automa_with_both_arrows_off_the_board_turns_clockwise_after_the_second() -> None:
    game = automa_game("N,W", match="0R")  # a1: N and W both off; clockwise after W: NW, N, NE, E
    state = position(game, hands=[[1], []])
    state.pile.append(game.card_index[9])
    swap(state, "e5", "e4")
    state.apply(END)
    assert state.automa_log[-1][2:4] == (sq("a1"), sq("b1"))


def test_R24_automa_scores_its_best_line_pattern_points_only_without_a_minimum() -> None:
    game = automa_game("N,W", match="6V")  # the 6V stone on e5 moves north
    state = position(game, hands=[[1], []])
    state.pile.append(game.card_index[9])
    state.received[1] = 3  # the automa is in phase 4: diagonals count, bonus never does
    swap(state, "a1", "b1")
    state.apply(END)
    log = state.automa_log[-1]
    assert log[5] == state.totals[1] == state.bests[1]
    # The rule's count on the board after the automa's swap, long diagonals included (phase 4):
    # the best valid line's pattern points, no match bonus.
    lines = STRAIGHT_LINES + DIAGONALS
    best = max(points for ok, points in (_line_matches(state.stones, P, ln) for ln in lines) if ok)
    assert log[5] == best and game.card_index[9] in state.discard


def test_R24_automa_discards_a_card_valid_nowhere() -> None:
    game = automa_game("N,E", match="0R", pattern=NOWHERE)
    state = position(game, hands=[[1], []])
    state.pile.append(game.card_index[9])
    swap(state, "d5", "e5")
    state.apply(END)
    assert state.automa_log[-1][4:] == (-1, 0) and state.totals[1] == 0


def test_R24_automa_hands_over_tokens_at_milestones() -> None:
    game = automa_game("N,E", match="4G", pattern="0B,3B,4B,5B,6B")  # scores on r2 ...
    state = position(game, hands=[[1], []])
    state.totals[1] = 20
    state.pile.append(game.card_index[9])
    swap(state, "e5", "e4")
    state.apply(END)
    assert state.totals[1] > 25 and state.received[0] == 1 and state.phase(0) == 2


def _line_matches(stones: list[int], pattern: str, squares: list[str]) -> tuple[bool, int]:
    # The rule's own words: a point for each position whose stone shares the pattern stone's
    # colour, and one for each that shares its shape (codes read from the pieces' names); the
    # card is valid on the line when every position earns a point.
    earned = []
    for code, name in zip(pattern.split(","), squares, strict=True):
        stone = PIECES[stones[sq(name)]].code
        earned.append((stone[0] == code[0]) + (stone[1] == code[1]))
    return all(earned), sum(earned)


def _automa_score(stones: list[int], pattern: str, divisor: int) -> int:
    lines = [_line_matches(stones, pattern, line) for line in STRAIGHT_LINES]
    valid = [points for ok, points in lines if ok]
    if valid:
        return max(valid)
    return max(points for _, points in lines) // divisor if divisor else 0


STRAIGHT_LINES = [[f"{c}{r}" for c in "abcde"] for r in "12345"] + [
    [f"{c}{r}" for r in "12345"] for c in "abcde"
]
# d1 reads a1 -> e5, d2 reads e1 -> a5 (RULES §2).
DIAGONALS = [["a1", "b2", "c3", "d4", "e5"], ["e1", "d2", "c3", "b4", "a5"]]


@pytest.mark.parametrize(("level", "divisor"), [(1, 0), (2, 2), (3, 1)])
def test_R28_automa_levels_score_a_card_valid_nowhere_by_its_best_lines_matches(
    level: int, divisor: int
) -> None:
    game = make_game(
        f"solo(automa={level})", [card(1, P), card(9, NOWHERE, match="0R", arrows="N,E")]
    )
    state = position(game, hands=[[1], []])
    state.pile.append(game.card_index[9])
    swap(state, "d5", "e5")
    stones = list(state.stones)
    stones[sq("a1")], stones[sq("b1")] = stones[sq("b1")], stones[sq("a1")]  # N is off: E
    assert not any(_line_matches(stones, NOWHERE, line)[0] for line in STRAIGHT_LINES)
    best = max(_line_matches(stones, NOWHERE, line)[1] for line in STRAIGHT_LINES)
    state.apply(END)
    assert best > 1 and state.totals[1] == _automa_score(stones, NOWHERE, divisor)
    assert state.automa_log[-1][5] == (best // divisor if divisor else 0)


def test_R28_automa_level_4_plays_the_better_of_two_and_puts_the_other_under_the_pile() -> None:
    game = make_game(
        "solo(automa=4)",
        [
            card(1, P),
            card(8, P, match="4G", arrows="N,E"),
            card(9, NOWHERE, match="0R", arrows="N,E"),
        ],
    )
    state = position(game, hands=[[1], []])
    weak, strong = game.card_index[9], game.card_index[8]
    state.pile += [strong, weak]  # the weak card is on top: revealed first
    swap(state, "d5", "e5")
    before = list(state.stones)
    scores = {}
    for card_id, match, swap_to in ((9, "0R", "b1"), (8, "4G", "c2")):
        stones = before[:]
        at = stones.index(parse_piece(match).index)
        stones[at], stones[sq(swap_to)] = stones[sq(swap_to)], stones[at]
        scores[card_id] = _automa_score(stones, NOWHERE if card_id == 9 else P, 1)
    state.apply(END)
    chosen = 8 if scores[8] > scores[9] else 9
    assert state.automa_log[-1][1] == game.card_index[chosen]
    assert state.totals[1] == max(scores.values())
    assert state.pile[0] == game.card_index[17 - chosen]  # the other one, under the pile


def test_R25_solo_ends_when_the_pile_is_empty_at_the_automa_turn() -> None:
    game = make_game("solo", [card(1, P)])
    state = position(game, hands=[[1], []])
    state.pile = []
    swap(state, "a1", "b1")
    state.apply(END)
    assert state.is_terminal() and state.termination == RunArchTermination.PILE_EMPTY


def test_R24_solo_player_wins_only_with_a_strictly_higher_total() -> None:
    game = make_game("solo")
    state = position(game)
    state.stage, state.termination = OVER, RunArchTermination.PILE_EMPTY
    state.totals, state.bests = [40, 40], [7, 7]
    assert final(state).winners == (1,)
    state.totals = [41, 40]
    assert final(state).winners == (0,)
    state.bests = [7, 9]  # the automa takes part in the duel: 41 vs 49
    assert final(state).winners == (1,)


def test_automa_first_plays_right_after_the_setup() -> None:
    game = make_game("solo")
    for seed in range(20):
        state = game.new_initial_state(rng(seed))
        state.apply(0)
        if state.setup.first == 1:
            assert len(state.automa_log) == 1 and state.turn == 1
            return
    raise AssertionError("no seed let the automa go first")


def test_any_deck_size_from_30_to_100_plays() -> None:
    for size in (30, 100):
        game = make_game("complex", size=size)
        assert len(game.cards) == size
        state = game.new_initial_state(rng(size))
        assert len(state.pile) == size - 14
