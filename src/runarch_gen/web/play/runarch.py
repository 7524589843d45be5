"""RunArch on the play page: the board and its stones, swaps by clicking two squares, your hand
and each card's valid lines with the points it would score, the offer's match areas, the
archives, bets, the score frame and — in the solo game — the automa's turns.

Everything comes from :class:`~runarch_gen.runarch.engine.observation.RunArchObservation` and
the public game (board, the deck's list of cards, rules): the other side's hand, its secret
goal, the offer's patterns and the pile's order never reach the page. What the other side or
the automa did since the seat's last look is told from the change between two observations
(stones swapped, points scored, a card filed).

>>> import random
>>> from runarch_gen.runarch.engine.game import RunArchGame
>>> from runarch_gen.runarch.engine.sample import sample_board, sample_deck
>>> from runarch_gen.runarch.rules import parse_rules
>>> game = RunArchGame(parse_rules("simple"), sample_board(), sample_deck())
>>> state = game.new_initial_state(random.Random(1))
>>> seat = state.current_player()
>>> choices = RunArchView().choices(game, state.observation(seat), seat,
...     [(a, state.action_to_string(a)) for a in state.legal_actions()])
>>> choices["swaps"][0]
{'a': 'a1', 'b': 'b1', 'action': 'a1-b1'}
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from runarch_gen.play.game import Game, State
from runarch_gen.runarch.atoms import PIECES, SQUARE_NAMES, parse_piece
from runarch_gen.runarch.engine import actions
from runarch_gen.runarch.engine.game import RunArchGame
from runarch_gen.runarch.engine.observation import RunArchObservation
from runarch_gen.runarch.engine.setup import FRAME_COVER, GOLD
from runarch_gen.runarch.engine.tables import LINE_NAMES, LINE_SQUARES, PAIR_A, PAIR_B
from runarch_gen.runarch.rules import MatchBonus
from runarch_gen.web.play.view import RecordFile, Renderer

__all__ = ["RunArchView"]

STAGES = ("setup", "play", "bet", "over")
EVENTS_KEPT = 24
MAX_CARD_ID = 10_000


def _colour(value: int) -> str | None:
    return None if value < 0 else ("gold" if value == GOLD else "silver")


def _card(game: RunArchGame, k: int) -> dict[str, Any]:
    card = game.cards[k]
    return {
        "id": card.id,
        "match": card.match.code,
        "pattern": [piece.code for piece in card.pattern],
        "goal": card.goal.text,
        "reward": card.goal.reward,
    }


def _snapshot(obs: RunArchObservation) -> dict[str, Any]:
    return {
        "to_move": obs.to_move,
        "turn": obs.turn,
        "stones": list(obs.stones),
        "totals": list(obs.totals),
        "filed": [sum(map(len, side)) for side in obs.archives],
        "stage": obs.stage,
    }


class RunArchView(Renderer):
    kind = "runarch"
    files = ("board", "deck")

    def players(self, registration: Any, values: Mapping[str, Any]) -> tuple[int, tuple[str, ...]]:
        from runarch_gen.runarch.register import load_runarch

        game = load_runarch({**values, "set": "sample"})  # the seats only: no set generated
        return game.num_players, game.sides[: game.num_players]

    def sides(self, game: Game[Any]) -> tuple[str, ...]:
        assert isinstance(game, RunArchGame)
        return game.sides[: game.num_players]

    def make_game(
        self, registration: Any, values: Mapping[str, Any], stopping: threading.Event | None
    ) -> Game[Any]:
        """The game of ``values``; a set generated from a seed (``set=N``, a CP-SAT solve of
        seconds) is made by ``runarch-gen deck`` in a process of its own, which ends as soon as
        the server stops (a solve in the server's threads would hold its exit)."""
        from runarch_gen.runarch.boards.generate import generate_board
        from runarch_gen.runarch.decks.io import parse_deck
        from runarch_gen.runarch.register import load_runarch

        chosen = str(values.get("set", "")).strip().lower()
        if not chosen.isdigit():
            return load_runarch(values)
        seed = int(chosen)
        base = load_runarch({**values, "set": "sample"})
        text = _deck_in_child(seed, stopping)
        deck = parse_deck(text, source=f"set {seed}")
        return RunArchGame(base.config, generate_board(seed=seed), deck)

    def game_with_files(
        self, registration: Any, values: Mapping[str, Any], files: Mapping[str, str]
    ) -> tuple[Game[Any], str] | None:
        from runarch_gen.runarch.decks.cards import Deck
        from runarch_gen.runarch.kit.inputs import parse_board, read_deck_text
        from runarch_gen.runarch.register import load_runarch

        board_text, deck_text = files.get("board", ""), files.get("deck", "")
        both = bool(board_text.strip()) and bool(deck_text.strip())
        base = load_runarch({**values, "set": "sample"} if both else values)
        board = parse_board(board_text, source="--board") if board_text.strip() else base.board
        deck = (
            read_deck_text(deck_text, source="--deck")
            if deck_text.strip()
            else Deck(tuple(base.cards))
        )
        game = RunArchGame(base.config, board, deck, deck_name="deck.json")
        parts = [p for p, t in (("board", board_text), ("deck", deck_text)) if t.strip()]
        text = registration.game_type.game_string(values) + f" ({' and '.join(parts)} given)"
        return game, text

    # -- what the seat saw ------------------------------------------------------------------

    def note(self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]) -> None:
        assert isinstance(game, RunArchGame) and isinstance(observation, RunArchObservation)
        now = _snapshot(observation)
        before = memory.get("last")
        memory["last"] = now
        if before is None:
            return
        events: list[dict[str, Any]] = memory.setdefault("events", [])
        automa = game.solo and now["turn"] > before["turn"] + 1
        actor = 1 if automa else before["to_move"]
        changed = [q for q in range(25) if before["stones"][q] != now["stones"][q]]
        if changed:
            events.append(
                {
                    "turn": now["turn"],
                    "side": actor,
                    "kind": "swap",
                    "squares": [SQUARE_NAMES[q] for q in changed],
                }
            )
        for side in range(2):
            gained = now["totals"][side] - before["totals"][side]
            if gained:
                filed = now["filed"][side] > before["filed"][side]
                events.append(
                    {
                        "turn": now["turn"],
                        "side": side,
                        "kind": "score",
                        "points": gained,
                        "total": now["totals"][side],
                        "filed": filed,
                    }
                )
        del events[:-EVENTS_KEPT]

    def view(
        self, game: Game[Any], observation: Any, seat: int, memory: dict[str, Any]
    ) -> dict[str, Any]:
        assert isinstance(game, RunArchGame) and isinstance(observation, RunArchObservation)
        obs = observation
        config = game.config
        sides = []
        for side in range(2):
            sides.append(
                {
                    "name": game.sides[side],
                    "total": obs.totals[side],
                    "best": obs.bests[side],
                    "minimum": obs.minimums[side],
                    "phase": obs.phases[side],
                    "stack": list(obs.stacks[side]) if obs.stacks else [],
                    "archives": [
                        [_card(game, k) for k in archive] for archive in obs.archives[side]
                    ],
                    "bets": _bets(game, obs, side),
                }
            )
        return {
            "kind": self.kind,
            "variant": config.variant.value,
            "solo": game.solo,
            "simple": not game.token_games,
            "me": seat,
            "stage": STAGES[obs.stage],
            "to_move": obs.to_move + 1,
            "turn": obs.turn,
            "tiles": [piece.code for piece in game.board.tiles],
            "stones": [PIECES[i].code for i in obs.stones],
            "hand": [_card(game, k) for k in obs.hand],
            "dealt": [_card(game, k) for k in obs.dealt],
            "secret": _card(game, obs.secret) if obs.secret >= 0 else None,
            "public_goals": [_card(game, k) for k in obs.public_goals],
            "offer": list(map(_piece_code, obs.offer)),
            "pile": obs.pile_size,
            "opponent_hand": obs.opponent_hand_size,
            "sides": sides,
            "archive_rules": list(game.archive_rule_values),
            "capacity": game.capacity,
            "target": config.target,
            "conditions": [
                {"text": condition.text, "bet": _colour(colour)}
                for condition, colour in obs.conditions
            ],
            "frame": [
                {"start": start, "end": start + FRAME_COVER - 1, "bet": _colour(colour)}
                for start, colour in obs.frame_bets
            ],
            "pending": [_colour(c) for c in obs.pending_bets],
            "swaps": obs.swaps,
            "events": list(memory.get("events", ())),
        }

    def choices(
        self,
        game: Game[Any],
        observation: Any,
        seat: int,
        legal: Sequence[tuple[int, str]],
    ) -> dict[str, Any] | None:
        assert isinstance(game, RunArchGame) and isinstance(observation, RunArchObservation)
        obs = observation
        out: dict[str, Any] = {"swaps": [], "lines": [], "end": None, "bets": [], "setup": []}
        lines: dict[tuple[int, int], dict[str, Any]] = {}
        phase4 = obs.phases[seat] == 4
        for action, text in legal:
            kind = actions.kind(action)
            if kind == "swap":
                pair = action - actions.SWAP_BASE
                a, b = SQUARE_NAMES[PAIR_A[pair]], SQUARE_NAMES[PAIR_B[pair]]
                out["swaps"].append({"a": a, "b": b, "action": text})
            elif kind == "end":
                out["end"] = text
            elif kind == "evaluate":
                slot, line, archive, draw = actions.decode_evaluation(action)
                entry = lines.get((slot, line))
                if entry is None:
                    card = obs.hand[slot]
                    pattern = obs.pattern_points(card, line)
                    bonus = _match_bonus(game, obs, card, line) if phase4 else 0
                    entry = lines[slot, line] = {
                        "card": game.cards[card].id,
                        "slot": slot + 1,
                        "line": LINE_NAMES[line],
                        "squares": [SQUARE_NAMES[q] for q in LINE_SQUARES[line]],
                        "pattern": pattern,
                        "bonus": bonus,
                        "score": pattern + bonus,
                        "options": [],
                    }
                entry["options"].append(
                    {
                        "archive": None
                        if archive == actions.NO_ARCHIVE
                        else actions.ARCHIVE_LETTERS[archive],
                        "draw": _draw(draw),
                        "action": text,
                    }
                )
            elif kind == "bet":
                spot = action - actions.BET_BASE
                if spot < actions.N_ARCHIVE_SPOTS:
                    archive, cards = actions.spot_archive(spot)
                    bet: dict[str, Any] = {
                        "archive": actions.ARCHIVE_LETTERS[archive],
                        "cards": cards,
                    }
                else:
                    goal = obs.public_goals[spot - actions.N_ARCHIVE_SPOTS]
                    bet = {"goal": game.cards[goal].id}
                out["bets"].append({**bet, "action": text})
            elif kind == "setup":
                public, secret = actions.SETUP_CHOICES[game.config.deal][action]
                dealt = obs.dealt
                keep = [k for i, k in enumerate(dealt) if i not in public and i != secret]
                out["setup"].append(
                    {
                        "public": [game.cards[dealt[i]].id for i in public],
                        "secret": game.cards[dealt[secret]].id,
                        "keep": [game.cards[k].id for k in keep],
                        "action": text,
                    }
                )
        out["lines"] = sorted(lines.values(), key=lambda e: (-e["score"], e["slot"], e["line"]))
        return out

    # -- the record and the pictures ---------------------------------------------------------

    def record(
        self, game: Game[Any], state: State[Any], names: Sequence[str], tags: Mapping[str, str]
    ) -> list[RecordFile]:
        from runarch_gen.runarch.decks.cards import Deck
        from runarch_gen.runarch.decks.io import deck_to_json
        from runarch_gen.runarch.engine.record import write_record
        from runarch_gen.runarch.engine.state import RunArchState

        assert isinstance(game, RunArchGame) and isinstance(state, RunArchState)
        seed = tags.get("Seed")
        text = write_record(
            state,
            seed=int(seed) if seed is not None else None,
            players=names,
            tags={"Event": tags.get("Event", "RunArch game"), "Deck": "deck.json"},
        )
        return [
            RecordFile("runarch-record.txt", "text/plain; charset=utf-8", text),
            RecordFile("deck.json", "application/json", deck_to_json(Deck(tuple(game.cards)))),
        ]

    def replay_command(self, game: Game[Any]) -> str:
        return "runarch-gen replay runarch-record.txt"

    def asset(self, game: Game[Any], name: str, lang: str) -> tuple[bytes, str] | None:
        assert isinstance(game, RunArchGame)
        kind, _, rest = name.removesuffix(".svg").partition("-")
        if not name.endswith(".svg") or len(name) > 40:
            return None
        if kind in ("tile", "stone"):
            try:
                piece = parse_piece(rest)
            except ValueError:
                return None
            return _piece_svg(kind, piece.code, lang).encode(), "image/svg+xml"
        if kind == "card" and rest.isdigit() and int(rest) < MAX_CARD_ID:
            found = [k for k, card in enumerate(game.cards) if card.id == int(rest)]
            if not found:
                return None
            return _card_svg(game, found[0], lang).encode(), "image/svg+xml"
        return None


DECK_SECONDS = 120.0
"""The longest a set's deck may take to generate for a game."""


def _deck_in_child(seed: int, stopping: threading.Event | None) -> str:
    """The deck ``runarch-gen kit --seed SEED`` generates, as JSON, made in a child process
    (killed with its group when the server stops or after :data:`DECK_SECONDS`)."""
    import os
    import signal
    import subprocess
    import sys
    import tempfile
    import time

    from runarch_gen.errors import InputError

    with tempfile.TemporaryDirectory(prefix="runarch-play-") as folder:
        out = os.path.join(folder, "deck.json")
        child = subprocess.Popen(
            [sys.executable, "-m", "runarch_gen", "deck", "--seed", str(seed), "-o", out],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + DECK_SECONDS
        try:
            while child.poll() is None:
                if (stopping is not None and stopping.is_set()) or time.monotonic() > deadline:
                    raise InputError(f"set {seed}: the deck was not made (the server stops)")
                time.sleep(0.05)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
            assert child.stderr is not None
            errors = child.stderr.read().decode("utf-8", "replace")
            child.stderr.close()
        if child.returncode != 0:
            last = errors.strip().splitlines()[-1:] or ["no message"]
            raise InputError(f"set {seed}: the deck was not made: {last[0][:200]}")
        with open(out, encoding="utf-8") as handle:
            return handle.read()


def _piece_code(index: int) -> str:
    return PIECES[index].code


def _draw(code: int) -> str | None:
    if code == actions.DRAW_PILE:
        return "pile"
    if code == actions.NO_DRAW:
        return None
    return f"offer {code}"


def _match_bonus(game: RunArchGame, obs: RunArchObservation, card: int, line: int) -> int:
    """[R-09] the match bonus of ``card`` on ``line`` in phase 4, from the public stones."""
    option = game.config.match_bonus
    if option is MatchBonus.BOARD:
        return game.tables.match_bonus_board(obs.stones, card)
    if option is MatchBonus.LINE:
        return game.tables.match_bonus_line(obs.stones, card, line)
    return 0


def _bets(game: RunArchGame, obs: RunArchObservation, side: int) -> list[dict[str, Any]]:
    placed = []
    for spot, colour in enumerate(obs.bets[side]):
        if colour < 0:
            continue
        if spot < actions.N_ARCHIVE_SPOTS:
            archive, cards = actions.spot_archive(spot)
            placed.append(
                {
                    "archive": actions.ARCHIVE_LETTERS[archive],
                    "cards": cards,
                    "bet": _colour(colour),
                }
            )
        else:
            goal = obs.public_goals[spot - actions.N_ARCHIVE_SPOTS]
            placed.append({"goal": game.cards[goal].id, "bet": _colour(colour)})
    return placed


@functools.lru_cache(maxsize=128)
def _piece_svg(kind: str, code: str, lang: str) -> str:
    from runarch_gen.pnp.svg import SvgSurface
    from runarch_gen.runarch.kit.icons import draw_stone
    from runarch_gen.web.boards import painter

    paint = painter(lang)
    piece = parse_piece(code)
    if kind == "tile":
        side = paint.layouts["tile"].width
        s = SvgSurface(side, side, paint.fonts)
        paint.draw_tile(s, piece, 0.0)
        return s.svg()
    s = SvgSurface(30, 30, paint.fonts)
    draw_stone(s, piece, (15, 15), 14, paint.style)
    return s.svg()


@functools.lru_cache(maxsize=256)
def _card_svg(game: RunArchGame, k: int, lang: str) -> str:
    """Card ``k`` of ``game`` as the kit draws its front (goal texts in ``lang``)."""
    from runarch_gen.pnp.svg import SvgSurface
    from runarch_gen.web.boards import painter

    paint = painter(lang)
    layout = paint.layouts["card"]
    s = SvgSurface(layout.width, layout.height, paint.fonts)
    paint.draw_card_front(s, game.cards[k], 0.0)
    return s.svg()
