"""Nothing hidden leaks: a seat's answers are the same whatever the others hide.

Each test plays a game twice with everything the seat may see the same — its own decisions,
its own dice and draws, the other seats' decisions (bots whose choices depend only on what is
public) — and the hidden parts changed: the other players' dice, the special cards they draw,
the order of RunArch's draw pile, the rolls still to come. The seat's answers (every field,
the log and the undo flag included) must be identical until the game reveals a hidden part,
and the test shows that the two games did differ where the seat could not see.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from runarch_gen.bluff.engine import BluffState, Phase
from runarch_gen.malacca.engine import MalaccaState
from runarch_gen.malacca.engine import Phase as MalaccaPhase
from runarch_gen.play.game import State, sample_chance
from runarch_gen.runarch.engine import actions as runarch_actions
from runarch_gen.runarch.engine.setup import Setup
from tests.web.play_support import Clock, FirstLegal, play_through, random_texts, session


def comparable(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True)


def first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int | None:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if comparable(x) != comparable(y):
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


# ---------------------------------------------------------------------------------------------
# Bluff: the other player's dice


def test_bluff_the_other_players_dice_are_not_in_your_answers_until_the_reveal() -> None:
    seed = 11

    def rolls(change: bool) -> Any:
        rng = random.Random(seed)

        def chance(state: State[Any]) -> int:
            assert isinstance(state, BluffState)
            action = sample_chance(state, rng)
            if change and state.phase == Phase.ROLL and state.player == 1:
                outcomes = state.chance_outcomes()
                return outcomes[(action + 7) % len(outcomes)][0]  # another hand of p2
            return action

        return chance

    games = []
    for change in (False, True):
        game = session(
            {
                "game": "bluff",
                "rules": "players=2,dice=4",
                "bots": "random",
                "seed": "5",
                "delay": "0",
            },
            chance=rolls(change),
        )
        games.append((game, play_through(game, random_texts(3))))
    (_, seen_a), (_, seen_b) = games
    reveal = next(i for i, p in enumerate(seen_a) if p["view"]["results"])
    assert first_difference(seen_a, seen_b) == reveal  # identical up to the first reveal
    hands_a = seen_a[reveal]["view"]["results"][0]["hands"]
    hands_b = seen_b[reveal]["view"]["results"][0]["hands"]
    assert hands_a[0] == hands_b[0] and hands_a[1] != hands_b[1]  # p2's dice did differ
    for payload in seen_a[:reveal]:
        for entry in payload["log"]:
            if entry["seat"] != 1:
                assert entry["text"] is None  # others' rolls and bids: no text in the log


# ---------------------------------------------------------------------------------------------
# Malacca: the special cards the others draw (and so the deck)


class Defender(FirstLegal):
    """Defence with no stake whenever a card is laid, else the smallest action: it never lays a
    special card, so its hand never shows."""

    def step(self, observation: Any, legal_actions: Any) -> int:
        if 1 in legal_actions and observation.phase == "play":
            return 1
        return int(min(legal_actions))


def test_malacca_the_cards_the_others_draw_never_reach_your_answers() -> None:
    outcomes: dict[int, int] = {}

    def first_run(rng: random.Random) -> Any:
        def chance(state: State[Any]) -> int:
            action = sample_chance(state, rng)
            outcomes[len(state.history())] = action
            return action

        return chance

    def changed_run(state: State[Any]) -> int:
        assert isinstance(state, MalaccaState)
        wanted = outcomes[len(state.history())]
        legal = state.legal_actions()
        if state.phase is MalaccaPhase.DRAW and state.pending[0][0] != 0:
            others = [c for c in legal if c != wanted]
            if others:
                return others[0]  # another card for another seat
        assert wanted in legal, "the seat's own draws must stay as they were"
        return wanted

    body = {"game": "malacca", "rules": "players=3,rounds=6", "bots": "defender,defender",
            "seed": "4", "delay": "0"}  # fmt: skip
    bots = {"defender": Defender}
    a = session(body, factories=bots, chance=first_run(random.Random(9)))
    seen_a = play_through(a, lambda p: p["legal"][0])
    b = session(body, factories=bots, chance=changed_run)
    seen_b = play_through(b, lambda p: p["legal"][0])
    assert [comparable(p) for p in seen_a] == [comparable(p) for p in seen_b]
    assert isinstance(a.state, MalaccaState) and isinstance(b.state, MalaccaState)
    assert a.state.hands[0] == b.state.hands[0]
    assert a.state.hands[1:] != b.state.hands[1:]  # the others did hold other cards
    # The records tell the draws: they are given only now that the game is over.
    assert a.record()[0].text != b.record()[0].text


# ---------------------------------------------------------------------------------------------
# RunArch: the other side's hand and the order of the draw pile


class SwapThenEnd(FirstLegal):
    """The first swap, then the end of the turn: never a card, so nothing of its hand shows."""

    def step(self, observation: Any, legal_actions: Any) -> int:
        moves = [int(a) for a in legal_actions if runarch_actions.kind(a) in ("swap", "end")]
        return min(moves)


def test_runarch_the_other_hand_and_the_pile_are_not_in_your_answers() -> None:
    body = {"game": "runarch", "rules": "variant=simple,set=sample", "bots": "mover",
            "seed": "8", "delay": "0"}  # fmt: skip
    bots = {"mover": SwapThenEnd}
    setup = session(body, factories=bots).state.setup  # type: ignore[attr-defined]
    # The simple game deals order[0:2] to white (the seat), order[2:4] to black; the rest is
    # the pile, order[4] on top. Black's hand swapped with the two cards at the pile's
    # bottom, which the game does not reach.
    order = list(setup.order)
    changed = order[:2] + order[-2:] + order[4:-2] + order[2:4]
    other = Setup(setup.stones, tuple(changed), setup.stacks, setup.conditions,
                  setup.frame_bets, setup.first)  # fmt: skip

    def player() -> Any:
        rng = random.Random(4)  # the seat's own choices: from its answers only

        def choose(payload: dict[str, Any]) -> str:
            choices = payload["choices"]
            if choices["lines"]:
                return str(choices["lines"][0]["options"][0]["action"])
            if choices["swaps"]:
                return str(rng.choice(choices["swaps"])["action"])
            return str(choices["end"])

        return choose

    a = session(body, factories=bots)
    seen_a = play_through(a, player())
    b = session(body, factories=bots, initial=lambda game: game.new_state(other))
    seen_b = play_through(b, player())
    assert first_difference(seen_a, seen_b) is None
    assert a.state.hands[1] != b.state.hands[1]  # type: ignore[attr-defined]
    assert min(p["view"]["pile"] for p in seen_a) > 2  # the pile's bottom was never drawn
    assert sum(p["view"]["sides"][0]["total"] for p in seen_a[-1:]) > 0  # the seat did score


# ---------------------------------------------------------------------------------------------
# Any game: no answer holds a roll still to come, the generator or the seed


def modest(payload: dict[str, Any]) -> str:
    """The first legal action that is not a doubt (the lowest bid), doubting in Bluff only
    when nothing else is left or every third bid: games that last several rounds."""
    legal = payload["legal"]
    others = [text for text in legal if text != "doubt"]
    if "doubt" in legal and (not others or payload["actions"] % 3 == 0):
        return "doubt"
    return str(others[0])


@pytest.mark.parametrize(
    ("name", "rules", "bot"),
    [
        ("backgammon", "match=3", "random"),
        ("bluff", "players=2", "odds"),
        ("malacca", "players=2,rounds=4", "random"),
    ],
)
def test_answers_hold_nothing_of_the_rolls_to_come(name: str, rules: str, bot: str) -> None:
    """Two games whose chance agrees for the first k outcomes and then differs give the same
    answers up to the k-th outcome: an answer cannot depend on what chance does later."""
    k = 4

    def chance_of(tail_seed: int) -> Any:
        head, tail = random.Random(1), random.Random(tail_seed)
        count = [0]

        def chance(state: State[Any]) -> int:
            count[0] += 1
            return sample_chance(state, head if count[0] <= k else tail)

        return chance

    runs = []
    for tail in (2, 3):
        game = session(
            {"game": name, "rules": rules, "bots": bot, "delay": "0"},
            chance=chance_of(tail),
            seed=8346712093,  # as a fresh seed would be: not given, so not shown
        )
        runs.append(play_through(game, modest))
    seen_a, seen_b = runs
    differ = first_difference(seen_a, seen_b)
    assert differ is not None  # the tails did make different games

    def chance_count(payload: dict[str, Any]) -> int:
        return sum(1 for entry in payload["log"] if entry["who"] == "chance")

    assert chance_count(seen_a[differ]) > k  # they differ only after the k-th outcome
    for payload in seen_a[:-1]:
        assert "8346712093" not in comparable(payload)  # the seed, not given, never shown
    assert seen_a[-1]["seed"] == "8346712093"  # shown once the game is over


def test_an_answer_is_for_one_seat_and_lists_only_its_own_legal_actions() -> None:
    game = session(
        {"game": "bluff", "rules": "players=3", "bots": "human,human", "delay": "0", "seed": "2"}
    )
    mover = game.state.current_player()
    for seat in range(3):
        payload = game.payload(seat)
        assert payload["seat"] == seat + 1
        assert bool(payload["legal"]) == (seat == mover)
        assert payload["choices"] is None or seat == mover
        own = payload["view"]["own"]
        assert len(own) == payload["view"]["dice"][seat]


def test_no_answer_carries_a_past_state() -> None:
    """What undo restores stays on the server: an answer's fields are the same whatever the
    history, and the log shows the texts of the seat's own actions only."""
    clock = Clock()
    game = session(
        {"game": "bluff", "rules": "players=2", "bots": "odds", "delay": "1", "seed": "3"},
        clock=clock,
    )
    payload = game.payload(0)
    if not payload["legal"]:
        clock.advance(5)
        game.advance()
        payload = game.payload(0)
    keys = set(payload)
    bid = next(text for text in payload["legal"] if text != "doubt")
    after = game.act(0, bid)
    assert set(after) == keys
    assert after["undo"] is True  # the bot has not answered yet
    assert all(e["text"] is None for e in after["log"] if e["seat"] != 1)
    assert "state" not in json.dumps(after)


@pytest.mark.xfail(
    strict=True,
    reason="Malacca's observation forgets the cards of a round that ended in the move that"
    " revealed them (public information the seat should keep seeing)",
)
def test_malacca_observation_shows_the_cards_of_the_round_just_resolved() -> None:
    """Engine gap (reported, not a leak): after the last card is laid and the round resolves
    without draws, the observation no longer shows the revealed cards; MalaccaObservation has
    no field for the last round's table (the state keeps it in ``last_round``)."""
    from runarch_gen.malacca.engine import MalaccaGame
    from runarch_gen.malacca.rules import MalaccaRules

    state = MalaccaGame(MalaccaRules(players=2)).new_initial_state()
    for text in ("captain p1", "ship 9", "trade 2", "attack 1"):
        state.apply_text(text)
    observation = state.observation(0)
    assert observation.laid[1] == 0 or "attack" in repr(observation)  # p2's card: attack
