"""Final scoring (RULES.md §5–7): the best-card duel, bets, goals, classic archives, tie-breaks.

These functions are the single definition of settlement: the engine calls them at the end of
every game and ``runarch-gen tally`` calls them on a hand-written description of one player.

>>> settle_archive_bet(gold=True, bet_on=3, held=3, best=13)
16
>>> settle_archive_bet(gold=False, bet_on=2, held=2, best=13)
9
>>> settle_archive_bet(gold=True, bet_on=4, held=3, best=13)
-13
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from runarch_gen.play.game import Score
from runarch_gen.runarch.atoms import Piece
from runarch_gen.runarch.decks.cards import Goal
from runarch_gen.runarch.rules import RulesConfig, Variant


def half_up(value: int) -> int:
    """⌈value / 2⌉, the silver token's share of the best card (§6.3)."""
    return (value + 1) // 2


def settle_archive_bet(*, gold: bool, bet_on: int, held: int, best: int) -> int:
    """§6.3 a bet on ``bet_on`` cards in an archive that holds ``held``; ``best`` is M.

    Won: gold M + n, silver ⌈M/2⌉ + n. Lost: both −M (n is not subtracted).
    """
    if held == bet_on:
        return (best if gold else half_up(best)) + bet_on
    return -best


def settle_goal_bet(*, gold: bool, met: bool, reward: int, best: int) -> int:
    """[R-22] a bet on a public goal: met, gold M + reward, silver ⌈M/2⌉ + reward; else −M."""
    if met:
        return (best if gold else half_up(best)) + reward
    return -best


def settle_secret_goal(*, met: bool, reward: int) -> int:
    """§7 a secret goal scores its reward when met, nothing otherwise (never a bet on it)."""
    return reward if met else 0


def duel_bonus(best: int, other_bests: Sequence[int]) -> int:
    """[R-19] the best-card duel: a strictly higher best card scores its value once more
    (no opponent, no duel)."""
    return best if other_bests and all(best > other for other in other_bests) else 0


def full_archive_bonus(held: int, capacity: int, bonus: int) -> int:
    """[R-27] the classic game: an archive holding ``capacity`` (4) cards scores ``bonus``."""
    return bonus if held == capacity else 0


@dataclass(frozen=True, slots=True)
class ArchiveBet:
    archive: int  # 0 left, 1 middle, 2 right
    cards: int  # 2–5
    gold: bool


@dataclass(frozen=True, slots=True)
class GoalBet:
    goal: Goal
    gold: bool
    card: int | None = None  # the public goal card's id, for reports


@dataclass(frozen=True, slots=True)
class FinalPosition:
    """What final scoring reads of one side.

    ``archives`` are the match areas of the cards in each archive, left to right;
    ``opponent_bests`` the other sides' best cards, for the duel.
    """

    card_points: int
    best: int
    opponent_bests: tuple[int, ...] = ()
    archives: tuple[tuple[Piece, ...], ...] = ()
    archive_bets: tuple[ArchiveBet, ...] = ()
    goal_bets: tuple[GoalBet, ...] = ()
    secret: Goal | None = None


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a settlement: its part of the score, what it is, and its points."""

    part: str
    what: str
    points: int


@dataclass(frozen=True, slots=True)
class Settlement:
    items: tuple[Item, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def score(self) -> Score:
        """The items summed per part, in a fixed order of parts."""
        parts: dict[str, int] = {}
        for item in self.items:
            parts[item.part] = parts.get(item.part, 0) + item.points
        return Score(tuple(parts.items()))


PARTS = ("cards", "duel", "archive_bets", "goal_bets", "secret_goal", "full_archives")
ARCHIVE_NAMES = ("left", "middle", "right")


def settle(position: FinalPosition, config: RulesConfig) -> Settlement:
    """The final score of one side under ``config``: every part, item by item.

    >>> s = settle(FinalPosition(card_points=70, best=13, opponent_bests=(11,)), RulesConfig())
    >>> [(i.part, i.points) for i in s.items], s.total
    ([('cards', 70), ('duel', 13), ('archive_bets', 0), ('goal_bets', 0), ('secret_goal', 0)], 83)
    """
    best = position.best
    items = [
        Item("cards", "card points on the frame", position.card_points),
        Item("duel", "best-card duel [R-19]", duel_bonus(best, position.opponent_bests)),
    ]
    if config.variant is Variant.SIMPLE:
        return Settlement(tuple(items))
    matches = [piece for archive in position.archives for piece in archive]
    counts = [len(archive) for archive in position.archives] or [0, 0, 0]
    if config.has_bets:
        bet_items = []
        for bet in position.archive_bets:
            held = counts[bet.archive]
            points = settle_archive_bet(gold=bet.gold, bet_on=bet.cards, held=held, best=best)
            token = "gold" if bet.gold else "silver"
            what = (
                f"{token} on {bet.cards} in the {ARCHIVE_NAMES[bet.archive]} archive, holds {held}"
            )
            bet_items.append(Item("archive_bets", what, points))
        items += bet_items or [Item("archive_bets", "no archive bets", 0)]
        goal_items = []
        for goal_bet in position.goal_bets:
            met = goal_bet.goal.is_met(matches)
            points = settle_goal_bet(
                gold=goal_bet.gold, met=met, reward=goal_bet.goal.reward, best=best
            )
            token = "gold" if goal_bet.gold else "silver"
            card = f"card {goal_bet.card}: " if goal_bet.card is not None else ""
            state = "met" if met else "not met"
            what = f"{token} on {card}{goal_bet.goal.text} ({goal_bet.goal.reward}), {state}"
            goal_items.append(Item("goal_bets", what, points))
        items += goal_items or [Item("goal_bets", "no goal bets [R-22]", 0)]
    if position.secret is not None:
        met = position.secret.is_met(matches)
        state = "met" if met else "not met"
        what = f"secret goal {position.secret.text} ({position.secret.reward}), {state}"
        items.append(
            Item("secret_goal", what, settle_secret_goal(met=met, reward=position.secret.reward))
        )
    else:
        items.append(Item("secret_goal", "no secret goal", 0))
    if config.variant is Variant.CLASSIC:
        for archive, held in enumerate(counts):
            points = full_archive_bonus(held, config.capacity, config.archive_bonus)
            what = f"{ARCHIVE_NAMES[archive]} archive holds {held} of {config.capacity} [R-27]"
            items.append(Item("full_archives", what, points))
    return Settlement(tuple(items))


def settle_automa(card_points: int, best: int, player_best: int) -> Settlement:
    """§8 the automa's final score: its card points and the best-card duel [R-24]."""
    return Settlement(
        (
            Item("cards", "card points on the frame", card_points),
            Item("duel", "best-card duel [R-19]", duel_bonus(best, (player_best,))),
        )
    )


def winners(totals: Sequence[int], bests: Sequence[int]) -> tuple[int, ...]:
    """[R-20] the higher total wins; on a tie the higher best card; then a shared win."""
    top = max(totals)
    tied = [side for side, total in enumerate(totals) if total == top]
    top_best = max(bests[side] for side in tied)
    return tuple(side for side in tied if bests[side] == top_best)


def solo_winners(player_total: int, automa_total: int) -> tuple[int, ...]:
    """[R-24] the player wins only with a strictly higher final total; otherwise the automa."""
    return (0,) if player_total > automa_total else (1,)
