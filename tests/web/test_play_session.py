"""The play session: seeding, bots' delay, undo where the rules allow it, records that replay,
hints and analysis, and each game's view made right (checked against the engines)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.backgammon.board import BAR, START, apply_step, legal_plays
from runarch_gen.errors import InputError
from runarch_gen.malacca.engine import MalaccaState
from runarch_gen.play.game import IllegalActionError
from runarch_gen.play.gamerecord import replay_record
from runarch_gen.play.playtest import play_seats
from runarch_gen.play.registry import find_game
from runarch_gen.web.play.backgammon import move_graph
from runarch_gen.web.play.malacca import MalaccaView
from runarch_gen.web.play.session import SeatPlan
from tests.web.play_support import Clock, FirstLegal, play_through, random_texts, session


def test_a_game_is_seeded_as_every_simulated_game() -> None:
    """Played by a person who moves as the bot would, the game is the game ``simulate`` plays
    with that seed (the bot in seat s seeded ``seed:s``, chance ``seed:chance``)."""
    from runarch_gen.backgammon.bots import HeuristicBot

    game = session({"game": "backgammon", "rules": "match=1", "bots": "td", "seed": "21",
                    "delay": "0"})  # fmt: skip
    twin = HeuristicBot(random.Random("21:0"))
    while not game.state.is_terminal():
        state = game.state
        action = twin.step(state.observation(0), state.legal_actions())
        game.act(0, state.action_to_string(action))
    expected = play_seats(game.game, game.registration.bots, ["heuristic", "td"], 21)
    assert list(game.state.history()) == list(expected.history())


def test_bots_move_after_their_delay_and_chance_at_once() -> None:
    clock = Clock()
    game = session(
        {"game": "backgammon", "bots": "heuristic", "seed": "4", "delay": "0.5"}, clock=clock
    )
    payload = game.payload(0)
    if payload["to_move"] == 2:  # the bot won the opening roll: it moves once its time comes
        assert payload["next_in"] == 0.5
        clock.advance(0.4)
        game.advance()
        assert game.payload(0)["to_move"] == 2
        clock.advance(0.1)
        game.advance()
        payload = game.payload(0)
    assert payload["to_move"] == 1 and payload["next_in"] is None
    moved = game.act(0, payload["legal"][0])
    if moved["to_move"] == 1:  # it was a roll (chance, drawn at once): now the play
        moved = game.act(0, moved["legal"][0])
    # Black's pre-roll decision is a bot's: it waits its delay.
    assert moved["to_move"] == 2 and moved["next_in"] == 0.5
    actions = moved["actions"]
    clock.advance(10.0)  # a page that comes back late: the due moves are made at once
    game.advance()
    later = game.payload(0)
    assert later["actions"] > actions + 1
    assert later["to_move"] in (1, None) or later["next_in"] is not None


def test_undo_takes_back_a_play_until_the_bot_rolls() -> None:
    clock = Clock()
    game = session({"game": "backgammon", "bots": "heuristic", "seed": "7", "delay": "1"},
                   clock=clock)  # fmt: skip
    while (payload := game.payload(0))["view"]["phase"] != "move" or payload["to_move"] != 1:
        if payload["to_move"] == 1:
            game.act(0, "roll")
        clock.advance(1)
        game.advance()
    before = game.payload(0)
    assert before["undo"] is False
    played = game.act(0, before["legal"][-1])
    assert played["undo"] is True and played["to_move"] == 2
    back = game.undo(0)
    assert {k: v for k, v in back.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
    assert back["version"] > played["version"]  # a new version: pages see it changed
    game.act(0, before["legal"][-1])
    clock.advance(1)
    game.advance()  # black decides to roll (a bot's decision: still undoable) …
    for _ in range(10):
        if game.payload(0)["to_move"] == 1 or game.state.is_terminal():
            break
        clock.advance(1)
        game.advance()
    # … but once the dice have spoken, nothing before can be taken back.
    assert game.payload(0)["undo"] is False
    with pytest.raises(InputError, match="cannot undo: chance has spoken since"):
        game.undo(0)


def test_undo_in_bluff_stops_at_the_other_players_answer() -> None:
    clock = Clock()
    game = session({"game": "bluff", "rules": "players=2", "bots": "odds", "seed": "2",
                    "delay": "1"}, clock=clock)  # fmt: skip
    while not game.payload(0)["legal"]:
        clock.advance(1)
        game.advance()
    payload = game.payload(0)
    bid = next(text for text in payload["legal"] if text != "doubt")
    assert game.act(0, bid)["undo"] is True
    clock.advance(1)
    game.advance()  # the bot answers
    answered = game.payload(0)
    assert answered["undo"] is False
    assert answered["undo_why"] == "another player has answered since"


def test_undo_in_runarch_takes_back_a_swap_but_not_a_drawn_card() -> None:
    game = session({"game": "runarch", "rules": "variant=simple,set=sample", "bots": "greedy",
                    "seed": "3", "delay": "5"})  # fmt: skip
    rng = random.Random(1)
    for _ in range(400):  # swap until a card scores, undoing each swap once
        payload = game.payload(0)
        if payload["to_move"] != 1:
            game.delay = 0
            game.due = 0
            game.advance()
            game.delay = 5
            continue
        choices = payload["choices"]
        if choices["lines"]:
            drawn = [o for line in choices["lines"] for o in line["options"] if o["draw"]]
            if drawn:
                after = game.act(0, drawn[0]["action"])
                assert after["undo"] is False
                assert after["undo_why"] == "your action showed you something hidden"
                return
        if choices["swaps"]:
            swap = rng.choice(choices["swaps"])["action"]
            swapped = game.act(0, swap)
            assert swapped["undo"] is True
            assert game.undo(0)["view"]["stones"] == payload["view"]["stones"]
            game.act(0, swap)
        else:
            game.act(0, choices["end"])
    raise AssertionError("no card was scored")


def test_no_undo_with_a_person_in_another_seat() -> None:
    game = session({"game": "bluff", "rules": "players=2", "bots": "human", "seed": "5",
                    "delay": "0"})  # fmt: skip
    mover = game.state.current_player()
    bid = next(t for t in game.payload(mover)["legal"] if t != "doubt")
    after = game.act(mover, bid)
    assert after["undo"] is False and after["undo_why"] == "undo is for games against bots"


def test_illegal_actions_are_refused_saying_why() -> None:
    game = session({"game": "bluff", "rules": "players=2,first=1", "bots": "human", "seed": "5",
                    "delay": "0"})  # fmt: skip
    with pytest.raises(IllegalActionError, match="it is p1's turn, not yours"):
        game.act(1, "1×1")
    game.act(0, "2×3")
    with pytest.raises(IllegalActionError, match="1×3 is not higher than 2×3"):
        game.act(1, "1×3")
    with pytest.raises(IllegalActionError, match="expected a bid like"):
        game.act(1, "bet five")
    with pytest.raises(IllegalActionError, match="the game has moved on"):
        game.act(1, "3×3", version=0)
    with pytest.raises(InputError, match="this game has seats 1 to 2"):
        game.seat_of(5)


def test_a_broken_bot_ends_the_game_with_a_message() -> None:
    class Broken(FirstLegal):
        def step(self, observation: Any, legal_actions: Any) -> int:
            raise RuntimeError("no idea")

    game = session({"game": "bluff", "rules": "players=2,first=2", "bots": "broken",
                    "delay": "0"}, factories={"broken": Broken})  # fmt: skip
    payload = game.payload(0)
    assert payload["error"] == "the bot broken failed: no idea"
    assert payload["legal"] == []


# ---------------------------------------------------------------------------------------------
# Records: each game's own format, read back by its own replay


@pytest.mark.parametrize(
    ("name", "rules"), [("bluff", "players=3"), ("malacca", "players=3,rounds=4")]
)
def test_records_of_games_with_explicit_chance_replay(name: str, rules: str) -> None:
    game = session({"game": name, "rules": rules, "seed": "6", "delay": "0"})
    with pytest.raises(InputError, match="when the game is over"):
        game.record()
    play_through(game, random_texts(2))
    (record,) = game.record()
    replayed = replay_record(record.text, find_game, source=record.name)
    assert list(replayed.state.history()) == list(game.state.history())
    assert '[Seed "6"]' in record.text


def test_a_backgammon_record_is_given_at_any_time_and_replays() -> None:
    from runarch_gen.backgammon.record import read_match

    game = session({"game": "backgammon", "rules": "match=3", "seed": "6", "delay": "0"})
    assert game.payload(0)["record"] is True  # nothing hidden: the record so far
    play_through(game, random_texts(4))
    (record,) = game.record()
    assert record.name.endswith(".mat")
    states = read_match(record.text, record.name)
    assert states[-1].score == game.state.score  # type: ignore[attr-defined]


def test_a_runarch_record_replays_with_its_deck() -> None:
    from runarch_gen.runarch.decks.io import parse_deck
    from runarch_gen.runarch.engine.record import replay

    game = session({"game": "runarch", "rules": "variant=solo,set=sample", "seed": "9",
                    "delay": "0"})  # fmt: skip
    play_through(game, random_texts(5))
    record, deck = game.record()
    assert '[Deck "deck.json"]' in record.text
    state = replay(record.text, deck=parse_deck(deck.text, source=deck.name))
    assert state.outcome() == game.state.outcome()


def test_the_toy_game_is_played_with_the_generic_view() -> None:
    from runarch_gen.web.play.session import PlaySession
    from tests.toy_game import PIG

    game = PIG.load({"target": 8})
    played = PlaySession("pig", "here", PIG, game, "pig(target=8)",
                         [SeatPlan("you"), SeatPlan("bot", "hold12")], seed=1, delay=0)  # fmt: skip
    payloads = play_through(played, random_texts(1))
    assert payloads[0]["view"] == {
        "kind": "generic",
        "fields": {"banked": [0, 0], "turn_total": 0, "player": 0, "rolling": False},
    }
    assert payloads[0]["legal"] == ["roll", "hold"]
    assert payloads[-1]["result"]["termination"] == "target"
    (record,) = played.record()
    assert record.text.startswith('[Game "pig(target=8)"]')


# ---------------------------------------------------------------------------------------------
# Vrhcáby: every destination offered leads to a legal play, and every legal play is offered


def _paths(graph: list[dict[str, Any]], node: int = 0) -> list[tuple[list[Any], str]]:
    here = graph[node]
    if here["action"] is not None:
        return [([], here["action"])]
    return [
        ([(a, b, hit), *steps], action)
        for a, b, hit, child in here["edges"]
        for steps, action in _paths(graph, child)
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(1, 6))
def test_the_move_graph_leads_to_every_legal_play_and_nothing_else(
    seed: int, die1: int, die2: int
) -> None:
    rng = random.Random(seed)
    game = find_game("backgammon")
    state = game.new_initial_state()
    while True:  # a position reached by random play
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
        if state.phase.value == "move" and rng.random() < 0.15:
            break
    me, you = state.board[state.turn], state.board[1 - state.turn]
    plays = legal_plays(me, you, die1, die2)
    if not plays:
        return
    texts = {play.key: f"play{i}" for i, play in enumerate(plays)}
    graph = move_graph(me, you, (die1, die2), False, texts, len(plays[0].steps))
    paths = _paths(graph)
    assert {action for _, action in paths} == set(texts.values())  # every play, no other
    for steps, action in paths:  # each path: legal single steps reaching that play
        mover, other = me, you
        for start, end, hit in steps:
            moved = next(
                m
                for die in {die1, die2}
                if (m := apply_step(mover, other, start, die)) is not None and m[2].end == end
            )
            assert moved[2].hit == bool(hit)
            mover, other = moved[0], moved[1]
        assert texts[(mover, other)] == action


def test_the_move_graph_enters_from_the_bar_first() -> None:
    me = (0, *START[1:25], 1)  # a checker on the bar
    me = tuple(c - (1 if i == 6 else 0) for i, c in enumerate(me))
    plays = legal_plays(me, START, 6, 5)
    texts = {play.key: str(i) for i, play in enumerate(plays)}
    graph = move_graph(me, START, (6, 5), False, texts, len(plays[0].steps))
    assert {edge[0] for edge in graph[0]["edges"]} == {BAR}


def test_the_hint_ranks_every_legal_play_and_advises_the_cube() -> None:
    game = session({"game": "backgammon", "bots": "human", "seed": "3", "delay": "0"})
    mover = game.state.current_player()
    hint = game.hint(mover)
    assert "neural2" in hint["source"]
    assert sorted(p["action"] for p in hint["plays"]) == sorted(game.payload(mover)["legal"])
    two = [p for p in hint["plays"] if p["plies"] == 2]
    assert two and all(p["loss"] >= 0 for p in hint["plays"])
    assert [p["equity"] for p in two] == sorted((p["equity"] for p in two), reverse=True)


def test_the_analysis_rates_each_side_of_a_finished_game() -> None:
    game = session({"game": "backgammon", "rules": "match=1", "bots": "td2", "seed": "3",
                    "delay": "0"})  # fmt: skip
    with pytest.raises(InputError, match="when the game is over"):
        game.analysis(0)
    play_through(game, random_texts(8))
    analysis = game.analysis(0)
    white, black = analysis["sides"]
    assert white["moves"] > 0 and white["error_per_move"] > black["error_per_move"]
    assert all(m["loss"] > 0 for m in analysis["mistakes"])


def test_no_hint_for_a_game_without_one() -> None:
    game = session({"game": "bluff", "rules": "players=2,first=1", "seed": "3", "delay": "0"})
    assert game.payload(0)["hint"] is False
    with pytest.raises(InputError, match="bluff has no hint"):
        game.hint(0)


# ---------------------------------------------------------------------------------------------
# Malacca: the resolution shown is the engine's


def test_malaccas_resolution_as_shown_is_the_engines() -> None:
    """Over random games, every round whose cards the seat saw is resolved on the page as the
    engine resolved it (each seat's role, parts and change of money)."""
    compared = 0
    for seed in range(12):
        game = session({"game": "malacca", "rules": "players=3,rounds=8,equipment=on",
                        "bots": "random,random", "seed": str(seed), "delay": "0"})  # fmt: skip
        rng = random.Random(seed)
        shown_rounds: set[int] = set()
        while not game.state.is_terminal():
            payload = game.payload(0)
            resolution = payload["view"]["resolution"]
            state = game.state
            assert isinstance(state, MalaccaState)
            if resolution and resolution["cards_seen"] and resolution["round"] not in shown_rounds:
                shown_rounds.add(resolution["round"])
                number, _, result = state.last_round  # type: ignore[misc]
                assert number + 1 == resolution["round"]
                seats = [s for s in resolution["steps"] if s["kind"] == "seat"]
                assert [s["change"] for s in seats] == list(result.changes)
                assert [s["role"] for s in seats] == [r.role.value for r in result.seats]
                compared += 1
            if payload["legal"]:
                game.act(0, rng.choice(payload["legal"]))
            else:
                game.advance()
    assert compared >= 10


def test_malaccas_note_keeps_nothing_but_the_table() -> None:
    view, memory = MalaccaView(), dict[str, Any]()
    game = find_game("malacca(players=2)")
    state = game.new_initial_state()
    for text in ("captain p1", "ship 9", "defence 2"):
        state.apply_text(text)
        view.note(game, state.observation(1), 1, memory)
    assert memory["table"]["laid"] == [-1, None]  # p1's card face down to p2


def test_a_generated_set_is_the_librarys_and_stops_with_the_server() -> None:
    """``set=N`` is made in a child process (a CP-SAT solve would hold the server's exit):
    the same board and deck as ``kit --seed N``; a server that stops ends it at once."""
    import threading
    import time

    from runarch_gen.runarch.register import load_runarch
    from runarch_gen.web.play.setup import read_options

    made: Any = read_options({"game": "runarch", "rules": "variant=simple,set=5"}).game
    library = load_runarch({"variant": "simple", "set": "5"})
    assert made.board == library.board and tuple(made.cards) == tuple(library.cards)
    stopping = threading.Event()
    stopping.set()
    started = time.monotonic()
    with pytest.raises(InputError, match="set 6: the deck was not made"):
        read_options({"game": "runarch", "rules": "set=6"}, stopping)
    assert time.monotonic() - started < 2.0
