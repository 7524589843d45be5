"""Malacca's round resolution on hand-built rounds, one test per rule of the rules document
(``docs/rules/malacca.md`` §3–§8). Expected numbers are worked out from the rules text."""

from __future__ import annotations

import pytest

from runarch_gen.errors import InputError
from runarch_gen.malacca.resolve import RoundInput, RoundResult, Seat, deal_out, resolve_round
from runarch_gen.malacca.rules import Card, Character, MalaccaRules, Role

A, D, T = Card.ATTACK, Card.DEFENCE, Card.TRADE


def play(
    *seats: Seat, cargo: int = 7, captain: int = 0, rules: MalaccaRules | None = None
) -> RoundResult:
    result = resolve_round(
        RoundInput(cargo, captain, tuple(seats), rules or MalaccaRules(players=len(seats)))
    )
    # [M-04] money is conserved in every round: gains = ship + bank − what the bank takes.
    assert sum(result.changes) == result.from_ship + result.from_bank - result.to_bank
    return result


def s(card: Card, stake: int = 0, money: int = 5, **kw: object) -> Seat:
    return Seat(money, card, stake, **kw)  # type: ignore[arg-type]


# -- §3.4 captured or defended --------------------------------------------------------------


def test_worked_example_1_captured_ship_loot_shared_by_the_attackers() -> None:
    r = play(s(A, 2), s(T, 4), s(D, 1), s(A, 0))
    assert r.captured and (r.attack, r.defence) == (2, 1)
    assert r.changes == (6, -4, -1, 6)
    assert [x.part("loot") for x in r.seats] == [6, 0, 0, 6]
    assert r.seats[0].stake_back and not r.seats[1].stake_back
    assert r.from_ship == 7 and r.from_bank == 0 and r.to_bank == 0
    assert [x.cards for x in r.seats] == [0, 0, 0, 0]


def test_worked_example_2_defended_ship_attacker_pays_half_of_the_rest() -> None:
    r = play(s(A, 3, money=11), s(T, 4), s(D, 1), s(D, 0))
    assert not r.captured
    assert r.changes == (-7, 4, 2, 1)
    assert r.seats[0].part("stake") == -3 and r.seats[0].part("penalty") == -4
    assert [x.cards for x in r.seats] == [0, 0, 1, 1]
    assert r.from_ship == 0  # [M-14] the cargo goes back to the bank
    assert r.to_bank == 4 and r.from_bank == 4


def test_equal_attack_and_defence_defend_the_ship() -> None:
    r = play(s(A), s(D), s(T, 2))
    assert not r.captured and (r.attack, r.defence) == (1, 1)


def test_nobody_attacking_defends_the_ship() -> None:
    r = play(s(T, 1), s(T, 2))
    assert not r.captured and r.changes == (1, 2)


def test_strength_two_cards_count_double() -> None:
    r = play(s(Card.ATTACK2), s(D), s(T, 3))
    assert r.captured and (r.attack, r.defence) == (2, 1)
    r = play(s(A), s(A), s(Card.DEFENCE2), s(T, 3))
    assert not r.captured and (r.attack, r.defence) == (2, 2)


# -- §3.5 captured: sharing the loot [M-09] ---------------------------------------------------


def test_loot_is_dealt_one_coin_at_a_time_from_the_captain() -> None:
    # 8 silver to three attackers, the captain among them: 3, 3, 2 in order from the captain.
    r = play(s(A), s(A), s(D, 1), s(A), cargo=7, captain=0)
    assert r.changes == (3, 3, -1, 2)
    r = play(s(A), s(A), s(D, 1), s(A), cargo=7, captain=3)
    assert r.changes == (3, 2, -1, 3)


def test_loot_starts_with_the_first_attacker_clockwise_of_the_captain() -> None:
    r = play(s(A), s(A), s(T), s(T), cargo=7, captain=2)
    assert r.changes == (4, 3, 0, 0)
    r = play(s(A), s(A), s(T), s(T), cargo=7, captain=1)
    assert r.changes == (3, 4, 0, 0)


def test_share_even_sends_the_indivisible_rest_to_the_bank() -> None:
    rules = MalaccaRules(players=4, share="even")
    r = play(s(A), s(A), s(D, 1), s(A), cargo=7, rules=rules)
    assert r.changes == (2, 2, -1, 2) and r.to_bank == 2


def test_attackers_get_their_stakes_back_on_a_captured_ship() -> None:
    r = play(s(A, 5), s(T, 1), cargo=0)
    assert r.changes == (1, -1) and r.seats[0].stake_back


# -- §3.6 defended -----------------------------------------------------------------------------


def test_traders_double_their_stake_from_the_bank_on_a_defended_ship() -> None:
    r = play(s(T, 4), s(Card.TRADE2, 3), s(D), s(A, 0, money=1))
    assert r.changes[:2] == (4, 6)
    assert r.seats[1].part("payout") == 6


def test_attackers_stakes_are_shared_by_the_defenders_one_at_a_time() -> None:
    # 5 silver of attackers' stakes to defenders 2 and 3 (captain 3): 3 then 2.
    r = play(s(A, 2, money=2), s(A, 3, money=3), s(Card.DEFENCE2), s(D), captain=3)
    assert not r.captured
    assert r.seats[3].part("share") == 3 and r.seats[2].part("share") == 2


@pytest.mark.parametrize(
    ("money", "stake", "penalty"), [(9, 0, 4), (9, 1, 4), (1, 0, 0), (8, 3, 2)]
)
def test_the_penalty_is_half_the_rest_rounded_down(money: int, stake: int, penalty: int) -> None:
    r = play(s(A, stake, money=money), s(D))
    assert r.seats[0].part("penalty") == -penalty
    assert r.changes[0] == -stake - penalty


def test_cargo_defenders_option_shares_the_cargo_among_the_defenders() -> None:
    rules = MalaccaRules(players=3, cargo="defenders")
    r = play(s(A), s(D), s(D), cargo=7, rules=rules)
    assert r.changes == (-2, 4, 3) and r.from_ship == 7
    useless = play(s(T), s(D), s(D), cargo=7, rules=rules)
    assert useless.changes == (0, 0, 0)


# -- §3.7 special rules ------------------------------------------------------------------------


def test_deck_scrubbing_pays_two_to_a_penniless_trader() -> None:
    r = play(s(T, 0, money=0), s(D))
    assert r.changes == (2, 0)
    assert r.seats[0].part("scrub") == 2


def test_deck_scrubbing_is_not_doubled_by_trade_x2() -> None:
    assert play(s(Card.TRADE2, 0, money=0), s(D)).changes[0] == 2


def test_deck_scrubbing_needs_an_empty_purse_and_a_defended_ship() -> None:
    assert play(s(T, 0, money=3), s(D)).changes[0] == 0
    assert play(s(T, 0, money=0), s(A)).changes[0] == 0


def test_deck_scrubbing_amount_is_an_option() -> None:
    rules = MalaccaRules(players=2, scrub=3)
    assert play(s(T, 0, money=0), s(T), rules=rules).changes[0] == 3


def test_tragic_hero_draws_a_card_when_all_others_attacked() -> None:
    r = play(s(A), s(A), s(Card.DEFENCE2, 1), s(A))
    assert r.captured and r.changes == (3, 3, -1, 2)
    assert r.seats[2].cards == 1 and r.seats[2].reason == "tragic hero"


def test_no_tragic_hero_when_someone_traded_or_two_defended() -> None:
    assert play(s(A), s(A), s(D), s(T)).seats[2].cards == 0
    r = play(s(A), s(A), s(A), s(D), s(D))
    assert r.captured and [x.cards for x in r.seats] == [0] * 5


def test_two_player_captured_round_makes_a_tragic_hero() -> None:
    r = play(s(Card.ATTACK2), s(D, 2))
    assert r.captured and r.seats[1].cards == 1


def test_useless_defence_gets_only_the_stake_back() -> None:
    r = play(s(T, 5), s(Card.TRADE2, 3, money=3), s(D, 2, money=4), s(T, 0, money=0))
    assert not r.captured and r.useless
    assert r.changes == (5, 6, 0, 2)
    assert [x.cards for x in r.seats] == [0, 0, 0, 0]
    assert r.seats[2].stake_back


# -- [M-08] wait cards ---------------------------------------------------------------------


def test_wait_cards_take_the_chosen_role_with_strength_one() -> None:
    r = play(
        s(Card.WAIT_AD, 0, money=5, choice=Role.DEFENCE),
        s(A, 1, money=6),
        s(Card.WAIT_DT, 2, money=2, choice=Role.TRADE),
    )
    assert not r.captured and (r.attack, r.defence) == (1, 1)
    assert r.changes == (1, -3, 2)
    assert r.seats[0].cards == 1 and r.seats[2].role is Role.TRADE


def test_a_wait_card_chosen_as_attack_captures() -> None:
    r = play(s(Card.WAIT_AD, 0, choice=Role.ATTACK), s(T, 3))
    assert r.captured and r.changes == (10, -3)


def test_a_wait_card_needs_a_legal_choice() -> None:
    with pytest.raises(InputError, match="wait-dt chooses defence or trade"):
        play(s(Card.WAIT_DT, choice=Role.ATTACK), s(T))
    with pytest.raises(InputError, match="only a wait card"):
        play(s(A, choice=Role.TRADE), s(T))


# -- §7 characters -----------------------------------------------------------------------------


def test_henry_morgan_gets_three_for_a_successful_defence_only() -> None:
    morgan = Character.MORGAN
    assert play(s(D, character=morgan), s(A)).changes[0] == 3 + 0
    assert play(s(D, character=morgan), s(T)).changes[0] == 0  # useless [M-13]
    assert play(s(D, character=morgan), s(Card.ATTACK2)).changes[0] == 0  # captured
    on = MalaccaRules(players=2, useless_bonus=True)
    assert play(s(D, character=morgan), s(T), rules=on).changes[0] == 3


def test_henry_morgan_counts_a_wait_card_chosen_as_defence() -> None:
    r = play(s(Card.WAIT_DT, choice=Role.DEFENCE, character=Character.MORGAN), s(A))
    assert r.seats[0].part("character") == 3


def test_pierre_le_picard_takes_one_every_round() -> None:
    assert play(s(A, character=Character.PICARD, money=4), s(D)).changes[0] == -2 + 1
    assert play(s(T, character=Character.PICARD), s(T)).changes[0] == 1


def test_black_caesar_gains_the_number_of_players_when_all_roles_agree() -> None:
    caesar = Character.CAESAR
    r = play(s(T, character=caesar), s(Card.TRADE2), s(Card.WAIT_DT, choice=Role.TRADE))
    assert r.seats[0].part("character") == 3
    r = play(s(A, character=caesar), s(A), s(Card.ATTACK2), s(A), cargo=8)
    assert r.changes[0] == 2 + 4
    assert play(s(D, character=caesar), s(D)).changes[0] == 2
    assert play(s(D, character=caesar), s(T)).changes[0] == 0


def test_zheng_he_gets_three_for_a_successful_trade_even_without_a_stake() -> None:
    zheng = Character.ZHENG
    assert play(s(T, 0, character=zheng), s(D)).changes[0] == 3
    assert play(s(T, 2, character=zheng), s(A, 0)).changes[0] == -2  # captured
    stake_needed = MalaccaRules(players=2, zheng_stake=True)
    assert play(s(T, 0, character=zheng), s(D), rules=stake_needed).changes[0] == 0
    assert play(s(T, 1, character=zheng), s(D), rules=stake_needed).changes[0] == 4


def test_ingrid_hammar_gets_three_for_a_successful_attack() -> None:
    ingrid = Character.INGRID
    assert play(s(A, character=ingrid), s(T), cargo=4).changes[0] == 4 + 3
    assert play(s(A, character=ingrid, money=4), s(D)).changes[0] == -2


def test_sayyida_draws_like_everyone_in_the_round_result() -> None:
    r = play(s(D, character=Character.SAYYIDA), s(A))
    assert r.seats[0].cards == 1  # she looks at two, which the engine handles


# -- §8 equipment -------------------------------------------------------------------------------


def test_better_attack_pays_three_per_card_on_a_captured_ship() -> None:
    r = play(s(A, equipment=(2, 0, 0)), s(T), cargo=4)
    assert r.seats[0].part("equipment") == 6
    assert play(s(A, equipment=(1, 0, 0), money=4), s(D)).seats[0].part("equipment") == 0


def test_better_defence_pays_four_only_if_someone_attacked() -> None:
    assert play(s(D, equipment=(0, 1, 0)), s(A)).seats[0].part("equipment") == 4
    assert play(s(D, equipment=(0, 1, 0)), s(T)).seats[0].part("equipment") == 0


def test_better_trade_pays_five_only_with_a_stake() -> None:
    assert play(s(T, 1, equipment=(0, 0, 1)), s(D)).changes[0] == 1 + 5
    assert play(s(T, 0, equipment=(0, 0, 1)), s(D)).changes[0] == 0


def test_equipment_of_the_wrong_kind_pays_nothing() -> None:
    assert play(s(T, 1, equipment=(1, 1, 0)), s(D)).changes[0] == 1


# -- the helpers and bad input -----------------------------------------------------------------


def test_deal_out_gives_the_first_receivers_the_rest() -> None:
    assert deal_out(10, [4, 0, 1]) == ([4, 3, 3], 0)
    assert deal_out(2, [4, 0, 1]) == ([1, 1, 0], 0)
    assert deal_out(5, []) == ([], 5)


@pytest.mark.parametrize(
    ("seats", "captain", "message"),
    [
        ((s(A),), 0, "2 to 8 players"),
        ((s(A), s(T)), 2, "captain"),
        ((s(A, 6), s(T)), 0, "stake is 0 to the money"),
    ],
)
def test_impossible_rounds_are_refused(seats: tuple[Seat, ...], captain: int, message: str) -> None:
    with pytest.raises(InputError, match=message):
        resolve_round(RoundInput(3, captain, seats))
