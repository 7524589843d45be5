"""The deck checker: RULES.md §1.3, §7 and §9 written out plainly, sharing no code with the
generator.

:func:`check_deck` reports *every* rule violation — by card id and field — and the balance
figures of §9.2: stones overall, colours and shapes at each position, match areas, goal kinds,
colours, shapes, pairs and thresholds, arrow directions and pairs, and the smallest number of
positions in which two patterns differ. Balance is reported, not required: a designer's deck may
be uneven on purpose; rule violations make the deck invalid (exit code 1).

Goals are checked with a witness from
:func:`~runarch_gen.runarch.decks.goals.find_witness`, and each witness is then verified
here against the archive rules' definitions
(:func:`~runarch_gen.runarch.archives.fits`) and :meth:`Goal.is_met`.

This module does not import :mod:`~runarch_gen.runarch.decks.generate`, so that tests can hold every
generated deck against it.

>>> from runarch_gen.runarch.decks.io import parse_deck_csv
>>> deck = parse_deck_csv("id,p1,p2,p3,p4,p5,match,goal,reward,arrow1,arrow2\\n"
...                       "1,0R,3R,4G,5Y,6V,5Y,blue>=3,6,N,N\\n")
>>> for violation in check_deck(deck).violations:
...     print(violation.text)
deck: 1 card; a deck has 30 to 100 [R-01]
card 1, pattern: colour R (red) twice, at positions 1 and 2 [§1.3]
card 1, arrows: N,N: the two directions must differ [R-03]
card 1, goal: blue>=3 cannot be met: no 10 or fewer cards of this deck fit the archives and \
meet it [§7]
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from runarch_gen.errors import EXIT_INVALID, EXIT_OK
from runarch_gen.runarch.archives import ARCHIVE_CAPACITY, fits
from runarch_gen.runarch.atoms import COLOURS, DIRECTIONS, PIECES, SHAPES, Colour, Piece, Shape
from runarch_gen.runarch.counts import DRAWS_PER_PLAYER, OFFER_SIZE
from runarch_gen.runarch.decks.cards import MAX_REWARD, MIN_REWARD, Card, Deck, Goal, GoalKind
from runarch_gen.runarch.decks.goals import MAX_ARCHIVED, RandomArchiveOdds, Witness, find_witness
from runarch_gen.runarch.decks.io import parse_deck

__all__ = [
    "DeckReport",
    "Differences",
    "Figure",
    "GoalCheck",
    "Violation",
    "check_deck",
    "check_deck_text",
]

DECK_SIZES = range(30, 101)
STONES_PER_PATTERN = 5  # §1.3
ARROWS = 2
DEALS = {"5": 5, "4": 4}  # cards dealt to each player
PLAYERS = 2


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule: the card (``None`` for the deck as a whole), the field, the rule."""

    card: int | None
    field: str  # deck, id, pattern, match, goal, reward, arrows
    rule: str
    message: str

    @property
    def text(self) -> str:
        where = f"card {self.card}, {self.field}" if self.card is not None else self.field
        return f"{where}: {self.message} [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "field": self.field, "rule": self.rule, "message": self.message}


@dataclass(frozen=True, slots=True)
class Figure:
    """One balance figure: counts that §9.2 wants equal as far as divisibility allows."""

    target: str  # the balance target's name, e.g. "positions"
    name: str  # e.g. "colours at position 1"
    counts: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    @property
    def expected(self) -> tuple[int, int]:
        """The floor and the ceiling of an equal share."""
        share = Fraction(self.total, len(self.counts)) if self.counts else Fraction(0)
        return math.floor(share), math.ceil(share)

    @property
    def even(self) -> bool:
        low, high = self.expected
        return all(low <= n <= high for _, n in self.counts)

    @property
    def text(self) -> str:
        """``colours at position 1: 10 each (all 5)``; long even figures name the exceptions."""
        values = Counter(n for _, n in self.counts)
        if len(values) == 1:
            shown = f"{self.counts[0][1]} each (all {len(self.counts)})"
        elif self.even and len(self.counts) > 10:
            common = values.most_common(1)[0][0]
            rest = ", ".join(label for label, n in self.counts if n != common)
            shown = f"{common} each, {self.counts_other(common)} for {rest}"
        else:
            shown = ", ".join(f"{label}: {n}" for label, n in self.counts)
        verdict = "" if self.even else f" — uneven, expected {self._expected_text()}"
        return f"{self.name}: {shown}{verdict}"

    def counts_other(self, common: int) -> int:
        return next(n for _, n in self.counts if n != common)

    def _expected_text(self) -> str:
        low, high = self.expected
        return f"{low} each" if low == high else f"{low} or {high} each"

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "name": self.name,
            "counts": dict(self.counts),
            "expected": list(self.expected),
            "even": self.even,
        }


@dataclass(frozen=True, slots=True)
class Differences:
    """How much the patterns differ: the smallest difference between two cards (one such
    pair), how many pairs differ in each number of positions, and the best possible value for
    this many cards with its reason."""

    smallest: int | None
    pair: tuple[int, int] | None
    histogram: tuple[tuple[int, int], ...]
    best_possible: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "smallest": self.smallest,
            "pair": list(self.pair) if self.pair else None,
            "pairs_by_difference": {str(d): n for d, n in self.histogram},
            "best_possible": self.best_possible,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class GoalCheck:
    """A goal of the deck (by its text), the cards that show it, its chance estimate and the
    witness that it can be met (``None``: it cannot)."""

    goal: Goal
    cards: tuple[int, ...]
    rewards: tuple[int, ...]
    chance: Fraction
    witness: Witness | None

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal.text,
            "cards": list(self.cards),
            "rewards": list(self.rewards),
            "chance": round(float(self.chance), 6),
            "achievable": self.witness is not None,
            "witness": self.witness.to_json() if self.witness else None,
        }


@dataclass(frozen=True, slots=True)
class DeckReport:
    """The verdict on a deck. ``exit_code``: 0 valid, 1 some rule is broken."""

    source: str
    cards: int
    violations: tuple[Violation, ...]
    warnings: tuple[str, ...]
    figures: tuple[Figure, ...]
    differences: Differences
    goals: tuple[GoalCheck, ...]

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def balanced(self) -> bool:
        return all(figure.even for figure in self.figures)

    @property
    def exit_code(self) -> int:
        return EXIT_OK if self.valid else EXIT_INVALID

    def summary(self) -> str:
        verdict = (
            "valid"
            if self.valid
            else f"not valid, {len(self.violations)} violation{_s(len(self.violations))}"
        )
        balance = "balanced" if self.balanced else "not balanced"
        return f"{self.source}: {self.cards} card{_s(self.cards)}, {verdict}, {balance} (§9.2)"

    def lines(self) -> list[str]:
        """The report for people: violations and warnings first, then the figures."""
        out = [f"{self.source}: {v.text}" for v in self.violations]
        out += [f"{self.source}: warning: {w}" for w in self.warnings]
        d = self.differences
        if d.smallest is not None and d.pair is not None:
            spread = ", ".join(f"{n} pairs differ in {k}" for k, n in d.histogram)
            out.append(
                f"smallest difference between two patterns: {d.smallest} (cards {d.pair[0]} and"
                f" {d.pair[1]}); best possible {d.best_possible}: {d.reason}"
            )
            out.append(f"  {spread}")
        out.append("balance (§9.2):")
        out += [f"  {figure.text}" for figure in self.figures]
        unmet = sum(1 for g in self.goals if g.witness is None)
        out.append(
            f"goals: {len(self.goals)} different, "
            + ("all achievable" if not unmet else f"{unmet} cannot be met")
        )
        for g in self.goals:
            rewards = "/".join(str(r) for r in sorted(set(g.rewards)))
            proof = f"witness {g.witness.text}" if g.witness else "CANNOT BE MET"
            cards = ", ".join(map(str, g.cards))
            out.append(
                f"  {g.goal.text} — cards {cards}; reward {rewards}; chance"
                f" {float(g.chance):.1%}; {proof}"
            )
        out.append(self.summary())
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": "deck",
            "cards": self.cards,
            "valid": self.valid,
            "balanced": self.balanced,
            "exit_code": self.exit_code,
            "violations": [v.to_json() for v in self.violations],
            "warnings": list(self.warnings),
            "differences": self.differences.to_json(),
            "balance": [figure.to_json() for figure in self.figures],
            "goals": [g.to_json() for g in self.goals],
        }


def check_deck_text(text: str, *, source: str, capacity: int = ARCHIVE_CAPACITY) -> DeckReport:
    """Read a deck (JSON or CSV) and check it. A file that cannot be read raises
    :class:`~runarch_gen.errors.ParseError` (exit code 2)."""
    return check_deck(parse_deck(text, source=source), source=source, capacity=capacity)


def check_deck(
    deck: Deck, *, source: str = "<deck>", capacity: int = ARCHIVE_CAPACITY
) -> DeckReport:
    """Every rule violation of ``deck``, its balance figures and goal witnesses.

    ``capacity`` is an archive's size (5 [R-14]; 4 in the classic game [R-27]).
    """
    cards = deck.cards
    violations: list[Violation] = []
    warnings: list[str] = []

    # size, and §9.1: enough cards for setup plus 10 draws per player.
    if len(cards) not in DECK_SIZES:
        violations.append(
            Violation(
                None,
                "deck",
                "R-01",
                f"{len(cards)} card{_s(len(cards))}; a deck has"
                f" {DECK_SIZES.start} to {DECK_SIZES.stop - 1}",
            )
        )
    for deal, per_player in DEALS.items():
        setup = PLAYERS * per_player + OFFER_SIZE
        draws = len(cards) - setup
        if draws < PLAYERS * DRAWS_PER_PLAYER:
            warnings.append(
                f"with deal {deal} [R-04] setup takes {setup} cards and leaves {max(draws, 0)}"
                f" draws, fewer than {DRAWS_PER_PLAYER} per player (§9.1)"
            )

    # Card ids are unique.
    for card_id, n in sorted(Counter(card.id for card in cards).items()):
        if n > 1:
            violations.append(Violation(card_id, "id", "deck", f"{n} cards have id {card_id}"))

    # Patterns [§1.3].
    first_with: dict[tuple[Piece, ...], int] = {}
    for card in cards:
        violations += _pattern_violations(card)
        stones = card.pattern.pieces
        if stones in first_with:
            violations.append(
                Violation(
                    card.id,
                    "pattern",
                    "§1.3",
                    f"the same pattern as card {first_with[stones]}",
                )
            )
        else:
            first_with[stones] = card.id

    # Arrows.
    for card in cards:
        names = ",".join(d.name for d in card.arrows) or "none"
        if len(card.arrows) != ARROWS:
            violations.append(
                Violation(
                    card.id,
                    "arrows",
                    "R-03",
                    f"{names}: {len(card.arrows)} direction{_s(len(card.arrows))},"
                    f" a card shows {ARROWS}",
                )
            )
        elif len(set(card.arrows)) != len(card.arrows):
            violations.append(
                Violation(card.id, "arrows", "R-03", f"{names}: the two directions must differ")
            )

    # Goals [§7, R-23].
    goals = _goal_checks(cards, capacity)
    for check in goals:
        if check.witness is None:
            for card_id in check.cards:
                violations.append(
                    Violation(
                        card_id,
                        "goal",
                        "§7",
                        f"{check.goal.text} cannot be met: no {MAX_ARCHIVED} or fewer cards of"
                        " this deck fit the archives and meet it",
                    )
                )
        elif problem := _witness_problem(check.goal, check.witness, cards, capacity):
            # The witness search and this check disagree: the goal is not proven achievable.
            for card_id in check.cards:
                violations.append(
                    Violation(
                        card_id,
                        "goal",
                        "§7",
                        f"{check.goal.text}: witness does not hold: {problem}",
                    )
                )
    for card in cards:
        goal = card.goal
        thresholds = [n for n, used in _thresholds(goal) if used]
        if any(n < 1 for n in thresholds):
            violations.append(
                Violation(card.id, "goal", "R-23", f"{goal.text}: a threshold below 1 asks nothing")
            )
        if not MIN_REWARD <= goal.reward <= MAX_REWARD:
            violations.append(
                Violation(
                    card.id,
                    "reward",
                    "R-23",
                    f"{goal.reward} points; rewards are {MIN_REWARD} to {MAX_REWARD}",
                )
            )
    warnings += _reward_order_warnings(goals)

    return DeckReport(
        source=source,
        cards=len(cards),
        violations=tuple(violations),
        warnings=tuple(warnings),
        figures=tuple(_figures(cards)),
        differences=_differences(cards),
        goals=tuple(goals),
    )


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _pattern_violations(card: Card) -> list[Violation]:
    stones = card.pattern.pieces
    out = []
    if len(stones) != STONES_PER_PATTERN:
        out.append(
            Violation(
                card.id,
                "pattern",
                "§1.3",
                f"{len(stones)} stones; a pattern has {STONES_PER_PATTERN}",
            )
        )
    colours: dict[Colour, list[int]] = defaultdict(list)
    shapes: dict[Shape, list[int]] = defaultdict(list)
    for position, piece in enumerate(stones, start=1):
        colours[piece.colour].append(position)
        shapes[piece.shape].append(position)
    repeats = [(f"colour {c.letter} ({c.english})", where) for c, where in colours.items()] + [
        (f"shape {s.digit} ({s.english})", where) for s, where in shapes.items()
    ]
    for what, where in repeats:
        if len(where) > 1:
            at = ", ".join(map(str, where[:-1])) + f" and {where[-1]}"
            out.append(
                Violation(
                    card.id, "pattern", "§1.3", f"{what} {_times(len(where))}, at positions {at}"
                )
            )
    return out


def _times(n: int) -> str:
    return {2: "twice", 3: "three times", 4: "four times", 5: "five times"}.get(n, f"{n} times")


def _thresholds(goal: Goal) -> tuple[tuple[int, bool], ...]:
    counts_colour = goal.kind in (GoalKind.COLOUR, GoalKind.COLOUR_AND_SHAPE, GoalKind.COLOURS)
    counts_shape = goal.kind in (GoalKind.SHAPE, GoalKind.COLOUR_AND_SHAPE, GoalKind.SHAPES)
    return ((goal.colour_count, counts_colour), (goal.shape_count, counts_shape))


# ---------------------------------------------------------------------------------------------
# Goals


def _goal_checks(cards: Sequence[Card], capacity: int) -> list[GoalCheck]:
    by_text: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        by_text[card.goal.text].append(card)
    odds = RandomArchiveOdds(tuple(card.match for card in cards))
    checks = []
    for text in sorted(by_text):
        showing = by_text[text]
        goal = showing[0].goal
        checks.append(
            GoalCheck(
                goal=goal,
                cards=tuple(card.id for card in showing),
                rewards=tuple(card.goal.reward for card in showing),
                chance=odds.exact_chance(goal),
                witness=find_witness(goal, cards, capacity=capacity),
            )
        )
    return checks


def _witness_problem(
    goal: Goal, witness: Witness, cards: Sequence[Card], capacity: int
) -> str | None:
    """What is wrong with ``witness``, by the rules' definitions; ``None`` when it holds."""
    by_id = {card.id: card for card in cards}
    ids = witness.card_ids
    if len(set(ids)) != len(ids):
        return "a card is used twice"
    if len(ids) > MAX_ARCHIVED:
        return f"{len(ids)} cards, more than {MAX_ARCHIVED}"
    if any(card_id not in by_id for card_id in ids):
        return "a card that is not in the deck"
    for rule, placed in witness.placement:
        matches = [by_id[card_id].match for card_id in placed]
        if len(matches) > capacity or not fits(rule, matches):
            return f"archive {rule.value} cannot hold {', '.join(p.code for p in matches)}"
    if not goal.is_met(by_id[card_id].match for card_id in ids):
        return "the cards do not meet the goal"
    return None


def _reward_order_warnings(goals: Sequence[GoalCheck]) -> list[str]:
    """Pairs of goals where the less likely one pays less [R-23]."""
    inverted = [
        (hard, easy)
        for hard in goals
        for easy in goals
        if hard.chance < easy.chance and max(hard.rewards) < min(easy.rewards)
    ]
    if not inverted:
        return []
    hard, easy = inverted[0]
    return [
        f"{len(inverted)} pair{_s(len(inverted))} of goals pay less for the harder goal [R-23],"
        f" e.g. {hard.goal.text} (chance {float(hard.chance):.1%}, reward {max(hard.rewards)})"
        f" and {easy.goal.text} (chance {float(easy.chance):.1%}, reward {min(easy.rewards)})"
    ]


# ---------------------------------------------------------------------------------------------
# Differences between patterns


def _differences(cards: Sequence[Card]) -> Differences:
    rows = [(card.id, card.pattern.pieces) for card in cards if len(card.pattern) == 5]
    histogram: Counter[int] = Counter()
    smallest: int | None = None
    pair: tuple[int, int] | None = None
    for k, (id_a, a) in enumerate(rows):
        for id_b, b in rows[k + 1 :]:
            differ = sum(1 for x, y in zip(a, b, strict=True) if x != y)
            histogram[differ] += 1
            if smallest is None or differ < smallest:
                smallest, pair = differ, (id_a, id_b)
    # Pigeonhole: with more cards than stones, every position holds some stone twice.
    if len(rows) > len(PIECES):
        seen: dict[Piece, int] = {}
        repeat = ""
        for card_id, stones in rows:
            if stones[0] in seen:
                repeat = f"; here cards {seen[stones[0]]} and {card_id} both have {stones[0].code}"
                break
            seen[stones[0]] = card_id
        best = STONES_PER_PATTERN - 1
        reason = (
            f"{len(rows)} cards cannot all show different stones at position 1, there are only"
            f" {len(PIECES)} (pigeonhole), so two of them share it{repeat}"
        )
    else:
        best = STONES_PER_PATTERN
        reason = f"{len(rows)} cards can show different stones at every position"
    return Differences(smallest, pair, tuple(sorted(histogram.items())), best, reason)


# ---------------------------------------------------------------------------------------------
# Balance figures [§9.2]


def _figure(
    target: str,
    name: str,
    items: Iterable[Hashable],
    groups: Sequence[Hashable],
    label: Callable[[Any], str] = str,
) -> Figure:
    counts = Counter(items)
    return Figure(target, name, tuple((label(g), counts[g]) for g in groups))


def _figures(cards: Sequence[Card]) -> list[Figure]:
    patterns = [card.pattern.pieces for card in cards if len(card.pattern) == 5]
    goals = [card.goal for card in cards]
    arrows = [card.arrows for card in cards if len(card.arrows) == ARROWS]
    figures = [
        _figure("stones", "stones", (p for s in patterns for p in s), PIECES, _code),
    ]
    for i in range(STONES_PER_PATTERN):
        figures.append(
            _figure(
                "positions",
                f"colours at position {i + 1}",
                (s[i].colour for s in patterns),
                COLOURS,
                _letter,
            )
        )
        figures.append(
            _figure(
                "positions",
                f"shapes at position {i + 1}",
                (s[i].shape for s in patterns),
                SHAPES,
                _digit,
            )
        )
    figures.append(_figure("matches", "match areas", (c.match for c in cards), PIECES, _code))
    figures.append(
        _figure("matches", "match colours", (c.match.colour for c in cards), COLOURS, _letter)
    )
    figures.append(
        _figure("matches", "match shapes", (c.match.shape for c in cards), SHAPES, _digit)
    )
    figures.append(
        _figure("goal-kinds", "goal kinds", (g.kind for g in goals), list(GoalKind), _kind)
    )
    for attribute, plural, values, code, single in (
        ("colour", "colours", COLOURS, _letter, GoalKind.COLOUR),
        ("shape", "shapes", SHAPES, _digit, GoalKind.SHAPE),
    ):
        wanted = [(g.kind, getattr(g, attribute)) for g in goals]
        figures.append(
            _figure(
                f"goal-{plural}",
                f"goal {plural}",
                (value for _, value in wanted if value is not None),
                values,
                code,
            )
        )
        for kind in (single, GoalKind.COLOUR_AND_SHAPE):
            figures.append(
                _figure(
                    f"goal-{plural}",
                    f"{plural} of {_KIND_NAMES[kind]}",
                    (value for k, value in wanted if k is kind),
                    values,
                    code,
                )
            )
    figures.append(
        _figure(
            "goal-pairs",
            "colour×shape pairs of colour+shape goals",
            (
                Piece(g.colour, g.shape)
                for g in goals
                if g.kind is GoalKind.COLOUR_AND_SHAPE
                and g.colour is not None
                and g.shape is not None
            ),
            PIECES,
            _code,
        )
    )
    for kind in GoalKind:
        levels = Counter(
            (g.colour_count, g.shape_count)
            if kind is GoalKind.COLOUR_AND_SHAPE
            else max(g.colour_count, g.shape_count)
            for g in goals
            if g.kind is kind
        )
        if levels:
            figures.append(
                _figure(
                    "goal-thresholds",
                    f"thresholds of {_KIND_NAMES[kind]}",
                    (level for level, n in levels.items() for _ in range(n)),
                    sorted(levels),
                    lambda lv: f"{lv[0]}&{lv[1]}" if isinstance(lv, tuple) else f">={lv}",
                )
            )
    figures.append(
        _figure("arrow-directions", "first arrows", (a[0] for a in arrows), DIRECTIONS, _name)
    )
    figures.append(
        _figure("arrow-directions", "second arrows", (a[1] for a in arrows), DIRECTIONS, _name)
    )
    figures.append(
        _figure("arrow-directions", "all arrows", (d for a in arrows for d in a), DIRECTIONS, _name)
    )
    pairs = [(a, b) for a in DIRECTIONS for b in DIRECTIONS if a != b]
    figures.append(
        _figure(
            "arrow-pairs",
            "arrow pairs",
            (tuple(a) for a in arrows),
            pairs,
            lambda p: f"{p[0].name}→{p[1].name}",
        )
    )
    return figures


_KIND_NAMES = {
    GoalKind.COLOUR: "one-colour goals",
    GoalKind.SHAPE: "one-shape goals",
    GoalKind.COLOUR_AND_SHAPE: "colour+shape goals",
    GoalKind.COLOURS: "different-colours goals",
    GoalKind.SHAPES: "different-shapes goals",
}


def _letter(colour: Colour) -> str:
    return colour.letter


def _digit(shape: Shape) -> str:
    return shape.digit


def _code(piece: Piece) -> str:
    return piece.code


def _kind(kind: GoalKind) -> str:
    return kind.value


def _name(direction: Any) -> str:
    return str(direction.name)
