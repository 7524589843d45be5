"""Can this game, with these rules and data, be played? Checks with proofs, simulated games,
and a verdict with its exit code — the part of every game's validation that no game owns.

A :class:`Check` is one static check (nothing is played): its name, a one-line summary, its
:class:`Failure` list (each with the component, the rule and a proof) and the proofs of what
passed. A :class:`DynamicRun` is a batch of simulated games: how many stalled. A
:class:`Verdict` puts them together: playable when no check fails and no run stalls more
than the tolerance allows (none with ``strict``); its exit code is 0, 1 (not playable) or 130
(interrupted before anything failed).

:func:`validate_game` validates any registered game: the game's own static checks (its
registration's ``checks`` hook, e.g. a betting scale that has no bid above a star), random
games checked by the conformance suite (every game ends, within its declared length), and
games between bots.

>>> check = Check("scale", "the scale", (Failure("scale", "L-01", "no bid after 3×★"),))
>>> Verdict("bluff", (check,)).verdict, Verdict("bluff", (check,)).exit_code
('not playable', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK
from runarch_gen.play.balance import Finding, Suggestion, balance_findings, suggest
from runarch_gen.play.registry import Registration, Value

if TYPE_CHECKING:
    from runarch_gen.play.report import PlayReport

__all__ = [
    "DEFAULT_STALL_TOLERANCE",
    "Check",
    "DynamicRun",
    "Failure",
    "Verdict",
    "validate_game",
]

DEFAULT_STALL_TOLERANCE = 0.05
"""The share of simulated games that may stall before a set fails (bots are not perfect)."""


@dataclass(frozen=True, slots=True)
class Failure:
    """One reason a game cannot be played: the component, the rule, what is wrong, and the
    proof (a witness, a count, a counter-example)."""

    component: str
    rule: str
    message: str
    proof: str = ""

    @property
    def text(self) -> str:
        return f"{self.component}: {self.message} [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        return {
            "component": self.component,
            "rule": self.rule,
            "message": self.message,
            "proof": self.proof,
        }


@dataclass(frozen=True, slots=True)
class Check:
    """One static check: its name, a one-line summary, its failures, the proofs of what
    passed (JSON-ready), and the variants it concerns (empty: all of them)."""

    name: str
    summary: str
    failures: tuple[Failure, ...] = ()
    proofs: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    rules: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.failures

    def concerns(self, rules: str) -> bool:
        """Whether the check concerns the variant ``rules`` (a check of no variant concerns
        them all)."""
        return not self.rules or rules in self.rules

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.name,
            "rules": list(self.rules),
            "ok": self.ok,
            "summary": self.summary,
            "failures": [f.to_json() for f in self.failures],
            "proofs": dict(self.proofs),
        }


@dataclass(frozen=True, slots=True)
class DynamicRun:
    """Simulated games: how many were played and how many stalled (did not end by the rules)."""

    game: str
    bots: tuple[str, ...]
    seed: int
    games: int
    stalls: int
    interrupted: bool = False
    summary: tuple[str, ...] = ()
    report: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def text(self) -> str:
        status = "; interrupted" if self.interrupted else ""
        return f"{self.game}: {self.games} games, {self.stalls} stalled{status}"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "stalls": self.stalls,
            "interrupted": self.interrupted,
            "simulation": dict(self.report),
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """Every check and simulation of a game, and whether it can be played."""

    game: str
    checks: tuple[Check, ...]
    dynamic: tuple[DynamicRun, ...] = ()
    strict: bool = False
    stall_tolerance: float = DEFAULT_STALL_TOLERANCE
    findings: tuple[Finding, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()

    def stalls_fail(self, run: DynamicRun) -> bool:
        """Whether more than the tolerated share of ``run``'s games stalled (any, if strict)."""
        tolerance = 0.0 if self.strict else self.stall_tolerance
        return run.stalls > tolerance * run.games

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the game cannot be played, one line each; empty when it can."""
        out = []
        for check in self.checks:
            if check.failures:
                more = len(check.failures) - 1
                extra = f" (and {more} more)" if more else ""
                out.append(f"{check.name}: {check.failures[0].text}{extra}")
        for run in self.dynamic:
            if self.stalls_fail(run):
                tolerance = 0.0 if self.strict else self.stall_tolerance
                out.append(
                    f"{run.game}: {run.stalls} of {run.games} simulated games stalled,"
                    f" more than the {tolerance:.0%} tolerated"
                )
        return tuple(out)

    @property
    def playable(self) -> bool:
        return not self.reasons

    @property
    def interrupted(self) -> bool:
        return any(run.interrupted for run in self.dynamic)

    @property
    def verdict(self) -> str:
        """``playable``, ``not playable``, or ``interrupted`` when the simulation stopped
        before anything failed (a failure found before the interruption stands)."""
        if not self.playable:
            return "not playable"
        return "interrupted" if self.interrupted else "playable"

    @property
    def exit_code(self) -> int:
        if self.playable and self.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_OK if self.playable else EXIT_INVALID

    def lines(self) -> list[str]:
        """The report for people: checks, simulations, verdict."""
        out = ["static checks:"]
        for check in self.checks:
            out.append(f"  {'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.summary}")
            for failure in check.failures:
                out.append(f"          {failure.text}")
                if failure.proof:
                    out.append(f"            proof: {failure.proof}")
        if self.dynamic:
            first = self.dynamic[0]
            out.append(f"dynamic check: bots {', '.join(first.bots)}, seed {first.seed}:")
            for run in self.dynamic:
                out.append(f"  {run.text}")
                out += [f"    {line}" for line in run.summary]
        if self.findings:
            out.append("balance (not failures):")
            for finding in self.findings:
                out.append(f"  {finding.kind}: {finding.headline}")
                for suggestion in self.suggestions:
                    if suggestion.finding == finding:
                        out.append(f"    suggestion: {suggestion.text()}")
        if not self.playable:
            out.append("verdict: NOT PLAYABLE")
            out += [f"  {reason}" for reason in self.reasons]
        elif self.interrupted:
            out.append("verdict: none — interrupted before the dynamic check finished")
        else:
            n = len(self.findings)
            notes = f" ({n} balance finding{'s' if n > 1 else ''} above)" if n else ""
            out.append(f"verdict: PLAYABLE — {self.game} can be played{notes}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "verdict": self.verdict,
            "playable": self.playable,
            "exit_code": self.exit_code,
            "strict": self.strict,
            "stall_tolerance": self.stall_tolerance,
            "reasons": list(self.reasons),
            "checks": [c.to_json() for c in self.checks],
            "dynamic": [run.to_json() for run in self.dynamic],
            "balance": [f.to_json() for f in self.findings],
            "suggestions": [s.to_json() for s in self.suggestions],
            "interrupted": self.interrupted,
        }


def _conformance_check(registration: Registration, values: Mapping[str, Value], seed: int) -> Check:
    from runarch_gen.play.conformance import ConformanceError, check_random_games

    game = registration.load(values)
    try:
        covered = check_random_games(game, games=5, seed=seed, deep_every=5)
    except ConformanceError as exc:
        return Check(
            "random games",
            "a random game breaks a rule of the engine",
            (Failure(str(game), "engine", "random play breaks a promise", str(exc)),),
        )
    endings = ", ".join(f"{k} {v}" for k, v in sorted(covered.terminations.items()))
    return Check(
        "random games",
        f"{covered.games} random games ended within the declared length"
        f" ({covered.longest} actions at most): {endings}",
        proofs={"games": covered.games, "states": covered.states, "longest": covered.longest},
    )


def validate_game(
    registration: Registration,
    values: Mapping[str, Value],
    *,
    bots: Sequence[str] | None = None,
    games: int = 200,
    seed: int = 0,
    workers: int | None = None,
    strict: bool = False,
    stall_tolerance: float = DEFAULT_STALL_TOLERANCE,
    propose: bool = False,
    on_progress: Callable[[int], None] | None = None,
    on_report: Callable[[PlayReport], None] | None = None,
) -> Verdict:
    """Validate a registered game with parameter ``values``: the game's own static checks (its
    registration's ``checks``), random games under the conformance suite, then ``games``
    games between ``bots`` (default: the game's default bot in every seat); ``games=0``
    skips the simulation. The games' balance findings are reported beside the verdict; with
    ``propose`` each is given to the registration's ``suggestions`` (candidate changes of the
    parameters, smallest first), which are simulated in turn until one removes it.
    ``on_report`` receives the games' report (for charts) before the findings are made."""
    from runarch_gen.play.playtest import playtest

    found: list[Check] = list(registration.checks(values)) if registration.checks else []
    found.append(_conformance_check(registration, values, seed))
    game = registration.load(values)
    dynamic: tuple[DynamicRun, ...] = ()
    findings: list[Finding] = []
    proposals: list[Suggestion] = []
    if games:
        names = list(bots) if bots else [registration.default_bot]
        played = playtest(
            registration,
            values,
            names,
            games=games,
            seed=seed,
            workers=workers,
            on_progress=on_progress,
        )
        if on_report is not None:
            on_report(played)
        lines = played.summary().splitlines()[1:5]
        dynamic = (
            DynamicRun(
                str(game),
                played.bots,
                seed,
                played.games,
                played.stalls,
                played.interrupted,
                tuple(lines),
                played.to_json(),
            ),
        )
        if not played.interrupted:
            findings = balance_findings(
                played.results,
                played.sides,
                values=played.wins_by_value(),
                stall_tolerance=stall_tolerance,
            )
        if propose and registration.suggestions is not None:
            for finding in findings:

                def replay(change: Mapping[str, str]) -> Any:
                    parsed = registration.game_type.parse_parameters(dict(change), "suggestion")
                    changed = dict(values) | {name: parsed[name] for name in change}
                    return playtest(
                        registration, changed, names, games=games, seed=seed, workers=workers
                    )

                candidates = registration.suggestions(values, finding)
                proposals.append(
                    suggest(
                        finding,
                        candidates,
                        replay,
                        played.sides,
                        stall_tolerance=stall_tolerance,
                    )
                )
    return Verdict(
        str(game),
        tuple(found),
        dynamic,
        strict,
        stall_tolerance,
        tuple(findings),
        tuple(proposals),
    )
