"""Can a two-player game always end? The bonus-token set analysed (RULES.md §1.4, §4.2, §5).

A player's minimum is the value of their own top bonus token; the opponent's progress opens
the player's movement phases, and so decides the best score a card can reach [R-16].
:func:`analyse_tokens` searches every pair of stacks two players can draw for games that no
sequence of scores can end, and :meth:`TokenAnalysis.finding` reports them as a
:class:`RulesFinding`: a fault of the rules, whatever the board and deck.

>>> from runarch_gen.runarch.engine.tokens import default_tokens
>>> finding = analyse_tokens(default_tokens(), best_pattern=10, best_phase4=20).finding(
...     ["complex"])
>>> finding.headline
'complex: 1 game in 9 (11.1%) cannot end (deadlock), when both players drew F 11'
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from runarch_gen.runarch.counts import CARDS_TO_END, MILESTONES
from runarch_gen.runarch.decks.cards import PATTERN_LENGTH
from runarch_gen.runarch.engine.tokens import TOKEN_SYMBOLS, BonusTokens

__all__ = [
    "RulesFinding",
    "TokenAnalysis",
    "analyse_tokens",
    "pair_outcome",
    "token_candidates",
]

LEAST_PATTERN_POINTS = PATTERN_LENGTH  # §4.2 a valid line earns at least 1 point a position


@dataclass(frozen=True, slots=True)
class RulesFinding:
    """A fault of the rules rather than of the set: ``probability`` is the share of games it
    affects, ``headline`` one line, ``explanation`` the argument, line by line."""

    kind: str  # "deadlock"
    rules: tuple[str, ...]
    probability: Fraction
    headline: str
    explanation: tuple[str, ...]
    details: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rules": list(self.rules),
            "probability": str(self.probability),
            "rate": round(float(self.probability), 6),
            "headline": self.headline,
            "explanation": list(self.explanation),
            **dict(self.details),
        }


@dataclass(frozen=True, slots=True)
class _Reach:
    """What one player can do alone when every card may score up to ``best``: reach the 10th
    card, pass the last milestone with fewer cards, and at which levels (milestones passed) a
    position with fewer than 10 cards can score no card."""

    finishes: bool
    passes: bool
    stuck: frozenset[int]


def _level(total: int) -> int:
    """Milestones passed [R-16]: the index of the player's own token that is on top."""
    return sum(total > m for m in MILESTONES)


def _minimum(stack: Sequence[int], level: int) -> int:
    return max(LEAST_PATTERN_POINTS, stack[min(level, len(stack) - 1)])


@functools.lru_cache(maxsize=4096)
def _reach(stack: tuple[int, ...], best: int) -> _Reach:
    # Totals as bits of an int, one int per number of cards; past the last milestone the
    # total no longer matters (the minimum is the last token's), so it is capped there.
    cap = MILESTONES[-1] + 1
    bands: list[int] = []
    low = 0
    for m in MILESTONES:
        bands.append(((1 << (m + 1)) - 1) ^ ((1 << low) - 1))  # totals low..m
        low = m + 1
    bands.append(1 << cap)
    row, passes, stuck = 1, False, set()
    for _ in range(CARDS_TO_END):
        passes = passes or bool(row >> cap & 1)
        grown = 0
        for level, band in enumerate(bands):
            here = row & band
            if not here:
                continue
            least = _minimum(stack, level)
            if least > best:
                stuck.add(level)
                continue
            for score in range(least, best + 1):
                grown |= here << score
        if grown >> cap:
            grown = (grown & ((1 << cap) - 1)) | (1 << cap)
        row = grown
    return _Reach(bool(row), passes, frozenset(stuck))


@dataclass(frozen=True, slots=True)
class TokenAnalysis:
    """Whether two players holding stacks drawn from ``tokens`` can always end a game.

    A player's minimum is the value of their own top token; its movement phase (and so the best
    score a card can reach: ``best_pattern`` in phases 1–3, ``best_phase4`` in phase 4) comes
    from the opponent's progress [R-16]. Every pair of stacks is searched, each player's
    possible totals card by card; a pair *deadlocks* when no sequence of scores lets either
    player place a 10th card, and *may deadlock* when the players can both end up unable to
    score although the game could have ended.

    ``slowest`` are the totals of a player who always scores the least with the lowest tokens:
    the most cards anyone can score before each milestone; ``tenth_level`` the level (0 = D,
    1 = X, 2 = F, 3 = N) whose minimum a 10th card needs at least.
    """

    tokens: BonusTokens
    best_pattern: int
    best_phase4: int
    slowest: tuple[int, ...]
    tenth_level: int
    phase4_only: tuple[tuple[str, tuple[int, ...]], ...]
    pairs: int
    deadlock: Fraction
    deadlock_pairs: int
    possible: Fraction
    possible_pairs: int
    example: tuple[tuple[int, ...], tuple[int, ...]] | None
    condition: str
    condition_values: Mapping[str, tuple[int, ...]] | None = field(
        default=None, compare=False, hash=False
    )

    def finding(self, rules: Sequence[str]) -> RulesFinding | None:
        """The rules finding for two-player games under ``rules``; ``None`` when every game
        can end and none can run into a deadlock."""
        if not self.deadlock and not self.possible:
            return None
        names = " and ".join(rules)
        explanation = [self._tenth_card_text()]
        if self.phase4_only:
            shown = ", ".join(f"{s} {'/'.join(map(str, v))}" for s, v in self.phase4_only)
            explanation.append(
                f"{shown} exceed{'s' if len(self.phase4_only) == 1 else ''} the"
                f" {self.best_pattern} pattern points a card can score in movement phases 1–3:"
                " a player whose minimum it is scores again only in phase 4, which opens when"
                f" the opponent passes {MILESTONES[-1]} [R-16]."
            )
        if self.deadlock:
            when = "Whatever stacks are drawn" if self.deadlock == 1 else f"When {self.condition}"
            explanation.append(
                f"{when}, neither can pass {MILESTONES[-1]} and the game cannot"
                f" end: {self.deadlock_pairs:,} of the {self.pairs:,} pairs of stacks,"
                f" probability {self.deadlock} ({float(self.deadlock):.1%})."
            )
            headline = (
                f"{names}: no game can end (deadlock), whatever stacks are drawn"
                if self.deadlock == 1
                else f"{names}: {_share(self.deadlock)} cannot end (deadlock), when"
                f" {self.condition}"
            )
        else:
            headline = f"{names}: {_share(self.possible)} can run into a deadlock"
        if self.possible:
            explanation.append(
                f"In {self.possible_pairs:,} more pairs of stacks (probability {self.possible})"
                " the players can both end up unable to score although the game could end."
            )
        explanation.append(self._remedy_text())
        details = {
            "tokens": self.tokens.to_json(),
            "best_pattern_points": self.best_pattern,
            "best_phase4_score": self.best_phase4,
            "slowest_totals": list(self.slowest),
            "tenth_card_token": TOKEN_SYMBOLS[self.tenth_level],
            "pairs": self.pairs,
            "deadlock_pairs": self.deadlock_pairs,
            "possible_deadlock_pairs": self.possible_pairs,
            "possible_deadlock": str(self.possible),
            "deadlock": str(self.deadlock),
            "example": [list(s) for s in self.example] if self.example else None,
            "condition": self.condition,
            "condition_values": self._condition_values(),
        }
        return RulesFinding(
            "deadlock",
            tuple(rules),
            self.deadlock or self.possible,
            headline,
            tuple(explanation),
            details,
        )

    def _condition_values(self) -> dict[str, list[int]] | None:
        """The token values that make the games deadlock: those both stacks hold (``{"F":
        [11]}``); when every pair deadlocks, the values phases 1–3 cannot reach on the tokens
        handed over at the milestones."""
        if self.condition_values is None:
            return None
        if self.condition_values:
            return {k: list(v) for k, v in self.condition_values.items()}
        return {
            symbol: [v for v in values if v > self.best_pattern]
            for symbol, values in zip(
                TOKEN_SYMBOLS[: len(MILESTONES)], self.tokens.values, strict=False
            )
            if any(v > self.best_pattern for v in values)
        }

    def _remedy_text(self) -> str:
        # The smallest changes of the token values that phases 1–3 cannot reach, each searched
        # again: a computed remedy, not a guess (runarch-gen validate --suggest plays it).
        found = token_candidates(
            self.tokens, best_pattern=self.best_pattern, best_phase4=self.best_phase4
        )
        if not found:
            return (
                "The token set is data (the rules option tokens, §1.4); no value brought within"
                f" the {self.best_pattern} points of phases 1–3 lets every game end."
            )
        changed = [
            f"{symbol} {'/'.join(map(str, new))}"
            for symbol, old, new in zip(
                TOKEN_SYMBOLS, self.tokens.values, found[0].values, strict=True
            )
            if old != new
        ]
        return (
            f"The token set is data (the rules option tokens, §1.4). With"
            f" {', '.join(changed)} instead, the same search finds that every game can end."
        )

    def _tenth_card_text(self) -> str:
        nine = self.slowest[: CARDS_TO_END - 1]
        used = sorted({_level(total) for total in (0, *nine[:-1])})  # levels the 9 cards met
        lenient = ", ".join(f"{TOKEN_SYMBOLS[k]} {min(self.tokens.values[k])}" for k in used)
        passed = MILESTONES[self.tenth_level - 1] if self.tenth_level else 0
        symbol = TOKEN_SYMBOLS[self.tenth_level]
        later = " or a later one" if self.tenth_level < len(TOKEN_SYMBOLS) - 1 else ""
        return (
            f"A player's 10th card needs at least the {symbol} token's minimum"
            f" ({'/'.join(map(str, self.tokens.values[self.tenth_level]))}){later}: scoring"
            f" the least each time with the lowest tokens ({lenient}) the totals run"
            f" {', '.join(map(str, nine))}, so even the 9th card takes the total past {passed}."
        )


def _share(p: Fraction) -> str:
    if p.numerator == 1:
        return f"1 game in {p.denominator} ({float(p):.1%})"
    return f"{p} of the games ({float(p):.1%})"


def pair_outcome(
    a: tuple[int, ...], b: tuple[int, ...], *, best_pattern: int, best_phase4: int
) -> str:
    """How a two-player game goes when the players drew the token stacks ``a`` and ``b``
    (values top to bottom): ``ends`` (every way of playing can still end it), ``may deadlock``
    (the players can both end up unable to score, although it could end) or ``deadlock`` (no
    sequence of scores lets either player place a 10th card).

    The search is over each player's possible totals card by card, every card scoring
    anything from the player's minimum up to the best score of the player's phase:
    ``best_pattern`` until the opponent passes the last milestone, ``best_phase4`` after.
    Until then the players cannot help each other (phases 1–3 share the same best score), so
    each is searched alone; afterwards the one in phase 4 plays on from the start, having
    waited (scoring is never compulsory).

    >>> pair_outcome((5, 7, 11, 11), (6, 8, 11, 13), best_pattern=10, best_phase4=20)
    'deadlock'
    >>> pair_outcome((5, 7, 11, 11), (6, 8, 10, 13), best_pattern=10, best_phase4=20)
    'ends'
    """
    top = max(best_pattern, best_phase4)
    return _outcome(_profile(a, best_pattern, top), _profile(b, best_pattern, top), top)


_Profile = tuple[_Reach, _Reach, int]  # phases 1–3, phase 4, the minimum past the last milestone


def _profile(stack: tuple[int, ...], best_pattern: int, top: int) -> _Profile:
    return _reach(stack, best_pattern), _reach(stack, top), _minimum(stack, len(MILESTONES))


@functools.lru_cache(maxsize=4096)
def _outcome(a: _Profile, b: _Profile, top: int) -> str:
    # A stack matters only through its profile: many stacks share one.
    last = len(MILESTONES)
    low = frozenset(range(last))  # levels before the last milestone
    (a13, a4, a_last), (b13, b4, b_last) = a, b

    # x passes the last milestone in phases 1–3; y, in phase 4 from then on, places a 10th card
    # or passes too, after which x in phase 4 scores on at its last minimum.
    def via(x13: _Reach, x_last: int, y4: _Reach) -> bool:
        return x13.passes and (y4.finishes or (y4.passes and x_last <= top))

    if not (a13.finishes or b13.finishes or via(a13, a_last, b4) or via(b13, b_last, a4)):
        return "deadlock"
    if a13.stuck & low and b13.stuck & low:  # both stuck before anyone opens phase 4
        return "may deadlock"
    for x13, y4 in ((a13, b4), (b13, a4)):
        if last in x13.stuck and y4.stuck & low:  # x past the last milestone, y cannot follow
            return "may deadlock"
        if x13.passes and y4.passes and min(a_last, b_last) > top:
            return "may deadlock"
    return "ends"


def analyse_tokens(tokens: BonusTokens, *, best_pattern: int, best_phase4: int) -> TokenAnalysis:
    """Search every pair of stacks two players can draw from ``tokens`` (§1.4) for games that
    cannot end, given the best card score of movement phases 1–3 and of phase 4.

    >>> from runarch_gen.runarch.engine.tokens import default_tokens
    >>> analysis = analyse_tokens(default_tokens(), best_pattern=10, best_phase4=20)
    >>> analysis.deadlock, analysis.condition, analysis.slowest[:9]
    (Fraction(1, 9), 'both players drew F 11', (5, 10, 15, 20, 25, 30, 37, 44, 51))
    >>> analyse_tokens(default_tokens(), best_pattern=11, best_phase4=20).deadlock
    Fraction(0, 1)
    """
    stacks = tokens.stacks()
    deadlock = possible = Fraction(0)
    deadlock_pairs = possible_pairs = 0
    locked: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for (a, pa), (b, pb) in itertools.product(stacks, repeat=2):
        outcome = pair_outcome(a, b, best_pattern=best_pattern, best_phase4=best_phase4)
        if outcome == "deadlock":
            deadlock += pa * pb
            deadlock_pairs += 1
            locked.append((a, b))
        elif outcome == "may deadlock":
            possible += pa * pb
            possible_pairs += 1

    lenient = [min(values) for values in tokens.values]
    total, slowest = 0, []
    for _ in range(CARDS_TO_END):
        total += _minimum(lenient, _level(total))
        slowest.append(total)
    phase4_only = tuple(
        (symbol, tuple(v for v in values if v > best_pattern))
        for symbol, values in zip(TOKEN_SYMBOLS, tokens.values, strict=True)
        if any(v > best_pattern for v in values)
    )
    return TokenAnalysis(
        tokens=tokens,
        best_pattern=best_pattern,
        best_phase4=best_phase4,
        slowest=tuple(slowest),
        tenth_level=_level(slowest[CARDS_TO_END - 2]),
        phase4_only=phase4_only,
        pairs=len(stacks) ** 2,
        deadlock=deadlock,
        deadlock_pairs=deadlock_pairs,
        possible=possible,
        possible_pairs=possible_pairs,
        example=locked[0] if locked else None,
        condition=_describe_pairs(locked, tokens),
        condition_values=_narrowed_values(locked, tokens),
    )


def _narrowed_values(
    pairs: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], tokens: BonusTokens
) -> dict[str, tuple[int, ...]] | None:
    """``{"F": (11,)}`` when the pairs are exactly those in which both stacks hold one of these
    values of these symbols (and anything of the others); ``None`` when they are not."""
    sides = {a for a, _ in pairs}
    if not pairs or sides != {b for _, b in pairs} or len(pairs) != len(sides) ** 2:
        return None
    seen = [tuple(sorted({stack[i] for stack in sides})) for i in range(len(TOKEN_SYMBOLS))]
    if len(sides) != math.prod(len(v) for v in seen):
        return None
    return {
        symbol: values
        for symbol, values, every in zip(TOKEN_SYMBOLS, seen, tokens.values, strict=True)
        if len(values) < len(every)
    }


def _describe_pairs(
    pairs: Sequence[tuple[tuple[int, ...], tuple[int, ...]]], tokens: BonusTokens
) -> str:
    """``both players drew F 11`` when the pairs are exactly those whose two stacks each hold
    one of some symbols' values; otherwise a count and an example."""
    if not pairs:
        return "no pair of stacks"
    narrowed = _narrowed_values(pairs, tokens)
    if narrowed is not None:
        if not narrowed:
            return "they drew any stacks"
        return "both players drew " + " and ".join(
            f"{symbol} {' or '.join(map(str, values))}" for symbol, values in narrowed.items()
        )
    a, b = pairs[0]
    return (
        f"the stacks drawn are one of {len(pairs)} pairs, e.g. {_stack_text(a)} / {_stack_text(b)}"
    )


def _stack_text(stack: Sequence[int]) -> str:
    return " ".join(f"{s}{v}" for s, v in zip(TOKEN_SYMBOLS, stack, strict=True))


def _lowered(tokens: BonusTokens, best_pattern: int) -> Iterator[BonusTokens]:
    """Token sets in which the values that movement phases 1–3 cannot reach on the tokens
    handed over at the milestones (D, X, F) are brought within reach: each such symbol's
    values shifted down as a whole (as many tokens as before), then the offending values
    dropped; one symbol at a time before all of them."""
    levels = len(MILESTONES)
    offending = [
        level for level, values in enumerate(tokens.values[:levels]) if max(values) > best_pattern
    ]

    def shifted(level: int) -> tuple[int, ...] | None:
        values = tokens.values[level]
        new = tuple(v - (max(values) - best_pattern) for v in values)
        return new if min(new) >= 1 else None

    def dropped(level: int) -> tuple[int, ...] | None:
        new = tuple(v for v in tokens.values[level] if v <= best_pattern)
        return new or None

    groups = [[level] for level in offending]
    if len(offending) > 1:
        groups.append(offending)
    for change in (shifted, dropped):
        for group in groups:
            values = list(tokens.values)
            for level in group:
                new = change(level)
                if new is None:
                    break
                values[level] = new
            else:
                yield BonusTokens(tuple(values))


def token_candidates(
    tokens: BonusTokens, *, best_pattern: int, best_phase4: int
) -> list[BonusTokens]:
    """Changes of ``tokens`` after which the token analysis proves every two-player game can
    end (no deadlock, none possible), smallest first; empty when no such change is found.
    ``best_pattern`` and ``best_phase4`` are the set's best card scores (phases 1–3, phase 4)."""
    out: list[BonusTokens] = []
    for candidate in _lowered(tokens, best_pattern):
        if candidate in out:
            continue
        analysis = analyse_tokens(candidate, best_pattern=best_pattern, best_phase4=best_phase4)
        if not analysis.deadlock and not analysis.possible:
            out.append(candidate)
    return out
