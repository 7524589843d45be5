"""The game on the family core: dice are chance outcomes, the cube and resignations are
actions, a money game is one state and a match is one state to N points.

The turn: before the roll the player on roll may **double** (if the cube is his or in the
middle), **resign** (offering a single game, a gammon or a backgammon) or **roll**; the roll is a
chance node (21 outcomes); then he chooses a **play** (one action per distinct resulting
position) — a roll that cannot be played passes the turn by itself. A double is answered with
**take**, **drop** or (money play, when allowed) **beaver**; a beaver may be answered with a
**raccoon**. The opening roll is a chance node with 36 outcomes, one die each; a tie is rolled
again (an automatic double when allowed).

Actions: the decisions are small numbers (:data:`ROLL` …), a play is ``PLAY_BASE`` plus a code
of its steps (start point and die of each), a roll ``10 × high + low``, the opening roll
``100 + 10 × white + black``.

>>> from runarch_gen.backgammon.rules import Rules
>>> state = BackgammonGame(Rules()).new_initial_state()
>>> state.apply(state.string_to_action("opening 3-1"))
>>> state.apply_text("8/5 6/5") >= PLAY_BASE
True
>>> state.position_id(), state.current_player()
('sGfwATDgc/ABMA', 1)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from runarch_gen.backgammon.board import (
    BAR,
    OFF,
    Play,
    Side,
    Step,
    apply_step,
    legal_plays,
    play_code,
)
from runarch_gen.backgammon.errors import IllegalPlayError
from runarch_gen.backgammon.ids import MatchInfo, match_id, position_id
from runarch_gen.backgammon.notation import format_play, parse_play
from runarch_gen.backgammon.rules import BACKGAMMON_TYPE, MAX_CUBE, Rules
from runarch_gen.play.game import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Game,
    GameInfo,
    IllegalActionError,
    Outcome,
    Score,
    State,
    Termination,
)

__all__ = [
    "BackgammonEnd",
    "BackgammonGame",
    "BackgammonObservation",
    "BackgammonState",
    "FinishedGame",
    "Phase",
    "View",
    "decode_play",
    "encode_play",
]

ROLL, DOUBLE, TAKE, DROP, BEAVER, RACCOON = 0, 1, 2, 3, 4, 5
RESIGN_SINGLE, RESIGN_GAMMON, RESIGN_BACKGAMMON = 6, 7, 8
ACCEPT, REJECT = 9, 10
PLAY_BASE = 1000
TURN_ACTIONS = 8
OPENING_BASE = 100
_CODE_BASE = 151
SIDES = ("white", "black")
DECISION_NAMES = {
    ROLL: "roll",
    DOUBLE: "double",
    TAKE: "take",
    DROP: "drop",
    BEAVER: "beaver",
    RACCOON: "raccoon",
    RESIGN_SINGLE: "resign single",
    RESIGN_GAMMON: "resign gammon",
    RESIGN_BACKGAMMON: "resign backgammon",
    ACCEPT: "accept",
    REJECT: "reject",
}
_BY_NAME = {name: action for action, name in DECISION_NAMES.items()}
_BY_NAME.update({"pass": DROP, "accept double": TAKE, "no double": ROLL})

ROLLS: tuple[tuple[int, float], ...] = tuple(
    (10 * high + low, (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
)
OPENINGS: tuple[tuple[int, float], ...] = tuple(
    (OPENING_BASE + 10 * white + black, 1 / 36) for white in range(1, 7) for black in range(1, 7)
)


class Phase(enum.Enum):
    OPENING = "opening"  # chance: one die each
    PRE_ROLL = "pre-roll"  # the player on roll: roll, double or resign
    ROLL = "roll"  # chance: the dice
    MOVE = "move"  # the player on roll: a play
    DOUBLED = "doubled"  # the opponent: take, drop or beaver
    BEAVERED = "beavered"  # the doubler: accept, raccoon (or drop, [V-33] option)
    RESIGNED = "resigned"  # the opponent: accept or reject
    OVER = "over"


class BackgammonEnd(Termination):
    """Why a game (money) or a match ended."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    MATCH = "match"
    LIMIT = "limit"

    @property
    def stalled(self) -> bool:
        return self is BackgammonEnd.LIMIT


def encode_play(steps: Sequence[Step]) -> int:
    """The action of a play: ``PLAY_BASE`` plus its steps' (start, die) in base 151."""
    return PLAY_BASE + play_code(steps)


def decode_play(action: int) -> list[tuple[int, int]]:
    """The (start, die) steps of a play's action."""
    code = action - PLAY_BASE
    steps: list[tuple[int, int]] = []
    while code:
        code, digit = divmod(code, _CODE_BASE)
        if digit == 0:
            break
        steps.append(((digit - 1) // 6 + 1, (digit - 1) % 6 + 1))
    return steps


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One finished game of a match or a money session: who won, how, for how many points
    (a game's record — its actions — is the state's history)."""

    winner: int
    end: BackgammonEnd
    kind: int  # 1 single, 2 gammon, 3 backgammon (the resignation's or the drop's: 1)
    cube: int
    points: int
    first: int
    rolls: int
    doubles: int
    takes: int
    drops: int
    crawford: bool


@dataclass(frozen=True, slots=True)
class BackgammonObservation:
    """What a player sees (everything: backgammon hides nothing), from its own side: ``me``
    and ``you`` are sides as in :mod:`.board` (``me`` moves down to its point 1)."""

    player: int
    phase: Phase
    to_act: int
    on_roll: int
    me: Side
    you: Side
    dice: tuple[int, int]
    cube: int
    cube_owner: int  # -1 middle, 0 me, 1 the opponent (relative!)
    can_double: bool
    match: int
    score: tuple[int, int]  # mine, the opponent's
    crawford: bool
    resign_offer: int
    rules: Rules
    legal: tuple[tuple[int, Play], ...] = ()
    """When this player is to move: each legal play with its action, by action."""

    def plays(self) -> list[Play]:
        """The legal plays of the roll (when this player is to move), by action."""
        return [play for _, play in self.legal]


View = BackgammonObservation
"""The observation's earlier name."""


class BackgammonGame(Game["BackgammonState"]):
    """A money game or a match under :class:`Rules`."""

    rules: Rules
    game_type = BACKGAMMON_TYPE
    length_unit = "rolls"

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()

    @property
    def info(self) -> GameInfo:
        bound = 1.0 if self.rules.match else 3.0 * MAX_CUBE
        # the limit is checked between turns; one turn adds at most 8 actions (double, beaver,
        # raccoon or resign and answer, the roll, the play)
        return GameInfo(2, self.rules.limit + TURN_ACTIONS, -bound, bound)

    def new_initial_state(self, rng: random.Random | None = None) -> BackgammonState:
        return BackgammonState(self)


class BackgammonState(State[BackgammonObservation]):
    """A money game, or a whole match, in progress."""

    __slots__ = (
        "_plays",
        "auto_doubles",
        "beavers_used",
        "board",
        "crawford_game",
        "cube",
        "cube_owner",
        "dice",
        "doubler",
        "game",
        "game_doubles",
        "game_drops",
        "game_rolls",
        "game_takes",
        "games",
        "opener",
        "phase",
        "post_crawford",
        "resign_offer",
        "rules",
        "score",
        "turn",
        "winner",
    )

    def __init__(self, game: BackgammonGame) -> None:
        super().__init__()
        self.game = game
        self.rules = game.rules
        self.score = [0, 0]
        self.games: list[FinishedGame] = []
        self.crawford_game = False
        self.post_crawford = False
        self.winner = -1
        self._new_game()

    def _new_game(self) -> None:
        start = self.rules.start
        self.board: list[Side] = [start, start]
        self.cube = 1
        self.cube_owner = -1
        self.dice = (0, 0)
        self.turn = 0
        self.opener = 0
        self.doubler = -1
        self.resign_offer = 0
        self.beavers_used = 0
        self.auto_doubles = 0
        self.game_rolls = 0
        self.game_doubles = 0
        self.game_takes = 0
        self.game_drops = 0
        self.phase = Phase.OPENING
        self._plays: dict[int, Play] | None = None

    # -- the interface -------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL_PLAYER
        if self.phase in (Phase.OPENING, Phase.ROLL):
            return CHANCE_PLAYER
        if self.phase in (Phase.DOUBLED, Phase.RESIGNED):
            return 1 - self.turn
        return self.turn

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        if self.phase is Phase.OPENING:
            return OPENINGS
        if self.phase is Phase.ROLL:
            return ROLLS
        return ()

    def legal_actions(self) -> Sequence[int]:
        phase = self.phase
        if phase is Phase.OPENING:
            return [a for a, _ in OPENINGS]
        if phase is Phase.ROLL:
            return [a for a, _ in ROLLS]
        if phase is Phase.MOVE:
            return sorted(self._legal_plays())
        if phase is Phase.PRE_ROLL:
            actions = [ROLL]
            if self.can_double():
                actions.append(DOUBLE)
            if self.rules.resign:
                actions += [RESIGN_SINGLE, RESIGN_GAMMON, RESIGN_BACKGAMMON]
            return actions
        if phase is Phase.DOUBLED:
            actions = [TAKE, DROP]
            if self._can_beaver():
                actions.append(BEAVER)
            return actions
        if phase is Phase.BEAVERED:
            actions = [TAKE]
            if self.rules.beaver_drop:
                actions.append(DROP)
            if self._can_raccoon():
                actions.append(RACCOON)
            return actions
        if phase is Phase.RESIGNED:
            return [ACCEPT, REJECT]
        return []

    def _legal_plays(self) -> dict[int, Play]:
        if self._plays is None:
            mover, other = self.board[self.turn], self.board[1 - self.turn]
            plays = legal_plays(mover, other, self.dice[0], self.dice[1], self.rules.egyptian)
            self._plays = {PLAY_BASE + p.code: p for p in plays}
        return self._plays

    def _apply(self, action: int) -> None:
        if self.phase is Phase.OVER:
            raise IllegalActionError(str(action), "the game is over")
        phase = self.phase
        if phase is Phase.MOVE:
            play = self._legal_plays().get(action)
            if play is None:
                raise IllegalPlayError(str(action), "not a legal play of this roll")
            self._play(play)
            return
        if action not in self.legal_actions():
            raise IllegalActionError(str(action), f"not legal in the {phase.value} phase")
        if phase is Phase.OPENING:
            self._opening(action)
        elif phase is Phase.ROLL:
            high, low = divmod(action, 10)
            self.dice = (high, low)
            self.game_rolls += 1
            self._begin_move()
        elif phase is Phase.PRE_ROLL:
            self._pre_roll(action)
        elif phase is Phase.DOUBLED:
            self._answer_double(action)
        elif phase is Phase.BEAVERED:
            self._answer_beaver(action)
        elif phase is Phase.RESIGNED:
            if action == ACCEPT:
                self._end_game(1 - self.turn, self.resign_offer, BackgammonEnd.RESIGNED)
            else:
                self.resign_offer = 0
                self.phase = Phase.ROLL  # [V-24] a rejected resignation: the resigner rolls

    def _opening(self, action: int) -> None:
        white, black = divmod(action - OPENING_BASE, 10)
        if white == black:
            # [V-36] automatic doubles, money play only, up to the limit
            if self.auto_doubles < self.rules.autodoubles_allowed and self.cube * 2 <= MAX_CUBE:
                self.auto_doubles += 1
                self.cube *= 2
            return
        self.turn = 0 if white > black else 1
        self.opener = self.turn
        # [V-04] the opener plays both dice: his own first
        self.dice = (white, black) if self.turn == 0 else (black, white)
        self.game_rolls += 1
        self._begin_move()

    def _pre_roll(self, action: int) -> None:
        if action == ROLL:
            self.phase = Phase.ROLL
        elif action == DOUBLE:
            self.doubler = self.turn
            self.game_doubles += 1
            self.phase = Phase.DOUBLED
        else:
            self.resign_offer = action - RESIGN_SINGLE + 1
            self.phase = Phase.RESIGNED

    def _answer_double(self, action: int) -> None:
        taker = 1 - self.turn
        if action == DROP:
            self.game_drops += 1
            self._end_game(self.turn, 1, BackgammonEnd.DROPPED)  # [V-32] the current cube
        elif action == TAKE:
            self.game_takes += 1
            self.cube *= 2
            self.cube_owner = taker
            self.phase = Phase.ROLL
        else:  # BEAVER [V-33]: redouble at once, keeping the cube
            self.game_takes += 1
            self.beavers_used += 1
            self.cube *= 4
            self.cube_owner = taker
            self.phase = Phase.BEAVERED

    def _answer_beaver(self, action: int) -> None:
        if action == TAKE:
            self.phase = Phase.ROLL
        elif action == DROP:  # [V-33] option: the doubler refuses the beaver
            self.game_drops += 1
            self.cube //= 2
            self._end_game(1 - self.turn, 1, BackgammonEnd.DROPPED)
        else:  # RACCOON [V-34]: the doubler redoubles again and owns the cube
            self.cube *= 2
            self.cube_owner = self.turn
            self.phase = Phase.ROLL

    def _begin_move(self) -> None:
        self._plays = None
        if self._legal_plays():
            self.phase = Phase.MOVE
        else:
            self._next_turn()  # [V-11] a roll that cannot be played passes

    def _play(self, play: Play) -> None:
        mover = self.turn
        self.board[mover], self.board[1 - mover] = play.mover, play.other
        self._plays = None
        if play.mover[OFF] == self.rules.checkers:
            self._end_game(mover, self._kind(mover), None)
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn = 1 - self.turn
        self.dice = (0, 0)
        self._plays = None
        if len(self._history) + 1 >= self.rules.limit:  # the action being applied counts
            self._stall()
            return
        self.phase = Phase.PRE_ROLL if (self.can_double() or self.rules.resign) else Phase.ROLL

    def _kind(self, winner: int) -> int:
        """[V-21] [V-22] single, gammon or backgammon by the loser's checkers."""
        loser = self.board[1 - winner]
        if loser[OFF]:
            return 1
        if self.rules.bgrule == "seed":
            behind = loser[BAR] or any(loser[7:13])  # the loser's outer board
        else:
            behind = loser[BAR] or any(loser[19:25])  # the winner's home board
        return 3 if behind else 2

    def _end_game(self, winner: int, kind: int, end: BackgammonEnd | None) -> None:
        counted = kind
        if self.rules.jacoby_applies and self.cube_owner == -1:
            counted = 1  # [V-35] Jacoby: no gammons with the cube in the middle
        points = counted * self.cube
        if end is None:
            end = (BackgammonEnd.SINGLE, BackgammonEnd.GAMMON, BackgammonEnd.BACKGAMMON)[kind - 1]
        self.games.append(
            FinishedGame(
                winner,
                end,
                kind,
                self.cube,
                points,
                self.opener,
                self.game_rolls,
                self.game_doubles,
                self.game_takes,
                self.game_drops,
                self.crawford_game,
            )
        )
        self.score[winner] += points
        self.dice = (0, 0)
        self._plays = None
        if self.rules.money:
            self.winner = winner
            self.phase = Phase.OVER
            return
        length = self.rules.match
        if self.score[winner] >= length:  # [V-41] the match ends at N or beyond
            self.winner = winner
            self.phase = Phase.OVER
            return
        # [V-42] Crawford: the first game after a player reaches N-1 has no doubling
        if self.crawford_game:
            self.crawford_game, self.post_crawford = False, True
        elif self.rules.crawford and not self.post_crawford and self.score[winner] == length - 1:
            self.crawford_game = True
        if len(self._history) + 1 >= self.rules.limit:  # the action being applied counts
            self._stall()
            return
        self._new_game()

    def _stall(self) -> None:
        self.winner = -1
        self.phase = Phase.OVER

    # -- the cube ------------------------------------------------------------------------

    def can_double(self) -> bool:
        """Whether the player on roll may double now ([V-30], [V-42])."""
        r = self.rules
        return (
            r.cube
            and not self.crawford_game
            and self.cube_owner in (-1, self.turn)
            and self.cube * 2 <= MAX_CUBE
        )

    def _can_beaver(self) -> bool:
        return (
            self.rules.beaver_allowed
            and self.beavers_used < self.rules.beavers
            and self.cube * 4 <= MAX_CUBE
        )

    def _can_raccoon(self) -> bool:
        return self.rules.raccoon_allowed and self.cube * 2 <= MAX_CUBE

    # -- text ----------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        phase = self.phase
        if phase is Phase.OPENING:
            white, black = divmod(action - OPENING_BASE, 10)
            return f"opening {white}-{black}"
        if phase is Phase.ROLL:
            return f"{action // 10}{action % 10}"
        if phase is Phase.MOVE:
            play = self._legal_plays().get(action)
            if play is None:
                return f"play#{action}"
            return format_play(self.dice, list(play.steps)).split(": ", 1)[-1]
        return DECISION_NAMES.get(action, f"action#{action}")

    def string_to_action(self, text: str) -> int:
        wanted = " ".join(text.strip().lower().split())
        if self.phase is Phase.MOVE:
            mover, other = self.board[self.turn], self.board[1 - self.turn]
            play = parse_play(text, mover, other, self.dice, self.rules.egyptian)
            return encode_play(play.steps)
        if wanted in _BY_NAME and _BY_NAME[wanted] in self.legal_actions():
            return _BY_NAME[wanted]
        return super().string_to_action(text)

    # -- the end -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def outcome(self) -> Outcome | None:
        if self.phase is not Phase.OVER:
            return None
        scores = tuple(Score((("points", s),)) for s in self.score)
        if self.winner < 0:
            return Outcome(BackgammonEnd.LIMIT, (), scores, SIDES, (0.0, 0.0))
        if self.rules.money:
            last = self.games[-1]
            value = float(last.points)
            returns = (value, -value) if self.winner == 0 else (-value, value)
            return Outcome(last.end, (self.winner,), scores, SIDES, returns)
        returns = (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)
        return Outcome(BackgammonEnd.MATCH, (self.winner,), scores, SIDES, returns)

    # -- views ---------------------------------------------------------------------------

    def observation(self, player: int) -> BackgammonObservation:
        to_act = self.current_player()
        owner = -1 if self.cube_owner < 0 else (0 if self.cube_owner == player else 1)
        return BackgammonObservation(
            player=player,
            phase=self.phase,
            to_act=to_act,
            on_roll=self.turn,
            me=self.board[player],
            you=self.board[1 - player],
            dice=self.dice,
            cube=self.cube,
            cube_owner=owner,
            can_double=self.phase is Phase.PRE_ROLL and self.can_double(),
            match=self.rules.match,
            score=(self.score[player], self.score[1 - player]),
            crawford=self.crawford_game,
            resign_offer=self.resign_offer,
            rules=self.rules,
            legal=tuple(sorted(self._legal_plays().items()))
            if self.phase is Phase.MOVE and player == self.turn
            else (),
        )

    def position_id(self) -> str:
        """The gnubg Position ID with the player on roll second (as gnubg writes it)."""
        return position_id(self.board[self.turn], self.board[1 - self.turn])

    def match_info(self) -> MatchInfo:
        """The gnubg match state of this state (player 0 is white)."""
        turn = self.current_player()
        if turn < 0:
            turn = self.turn
        if self.phase is Phase.OVER:
            state = 2
        elif self.phase is Phase.OPENING:
            state = 0 if not self._history else 1
        else:
            state = 1
        return MatchInfo(
            cube=self.cube,
            cube_owner=self.cube_owner,
            on_roll=self.turn,
            crawford=self.crawford_game,
            game_state=state,
            turn=turn,
            doubled=self.phase is Phase.DOUBLED,
            resign=self.resign_offer if self.phase is Phase.RESIGNED else 0,
            dice=self.dice,
            length=self.rules.match,
            scores=(min(self.score[0], 2**15 - 1), min(self.score[1], 2**15 - 1)),
            jacoby=self.rules.jacoby_applies,
        )

    def match_id(self) -> str:
        return match_id(self.match_info())

    def length(self) -> int:
        """The rolls of the games played (the opening rolls included)."""
        return sum(g.rolls for g in self.games) + self.game_rolls * (not self.is_terminal())

    def first(self) -> int:
        """The side that won the opening roll of the first game."""
        return self.games[0].first if self.games else self.opener

    def statistics(self) -> dict[str, float]:
        games = self.games
        if not games:
            return {}
        n = len(games)
        return {
            "games": float(n),
            "single": sum(g.kind == 1 and g.end.value == "single" for g in games) / n,
            "gammon": sum(g.kind == 2 for g in games) / n,
            "backgammon": sum(g.kind == 3 for g in games) / n,
            "doubles": float(sum(g.doubles for g in games)),
            "takes": float(sum(g.takes for g in games)),
            "drops": float(sum(g.drops for g in games)),
            "resigned": sum(g.end.value == "resigned" for g in games) / n,
            "final cube": sum(g.cube for g in games) / n,
            "points": float(sum(g.points for g in games)),
        }

    def copy(self) -> Self:
        new = type(self).__new__(type(self))
        for name in BackgammonState.__slots__:
            setattr(new, name, getattr(self, name))
        new.board = list(self.board)
        new.score = list(self.score)
        new.games = list(self.games)
        new._history = list(self._history)
        return new

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BackgammonState)
            and self.game.rules == other.game.rules
            and self._history == other._history
            and self.board == other.board
            and self.phase is other.phase
        )

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return f"{self.position_id()}:{self.match_id()}"


def step_play(mover: Side, other: Side, steps: Sequence[tuple[int, int]]) -> tuple[Side, Side]:
    """The position after the (start, die) steps (no legality check beyond each step's)."""
    for start, die in steps:
        result = apply_step(mover, other, start, die)
        if result is None:
            raise IllegalPlayError(f"{start}/{start - die}", "not a legal step")
        mover, other, _ = result
    return mover, other
