"""Can this game, with these rules and data, be played? Checks with proofs, simulated games,
and a verdict with its exit code — the part of every game's validation that no game owns.

A :class:`Check` is one static check (nothing is played): its name, a one-line summary, its
:class:`Failure` list (each with the component, the rule and a proof) and the proofs of what
passed. A :class:`DynamicRun` is a batch of simulated games: how many stalled, and how many of
those the engine proved could not end (deadlocks). :func:`judge` is **the one verdict**: the
command line (``validate`` and ``GAME validate``), the kit's validation and the web workshop's
playtest all decide with it. A set is playable when no check fails and no run stalls, without a
proven deadlock, in more than the tolerated share of its games; proven deadlocks and a game's
*rules findings* (checks that fail only under ``strict``) are findings, not failures, unless
``strict``. The exit code is 0, 1 (not playable) or 130 (interrupted before anything failed).

:func:`validate_game` validates any registered game: the game's own static checks (its
registration's ``checks`` hook), random games checked by the conformance suite (every game
ends, within its declared length), games between bots — by default the line-up the game's
design names (:mod:`runarch_gen.play.design`), from the top of its ladder — their design
metrics (:mod:`runarch_gen.play.metrics`), with a skill trace from games of the strongest bot
against the bottom of the ladder, and the balance findings (:mod:`runarch_gen.play.balance`).

>>> check = Check("scale", "the scale", (Failure("scale", "L-01", "no bid after 3×★"),))
>>> Verdict("bluff", (check,)).verdict, Verdict("bluff", (check,)).exit_code
('not playable', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from runarch_gen.errors import EXIT_INTERRUPTED, EXIT_INVALID, EXIT_OK
from runarch_gen.play.balance import (
    SIGNIFICANCE,
    Finding,
    Suggestion,
    common_findings,
    order,
    suggest,
)
from runarch_gen.play.design import Design, design_of
from runarch_gen.play.ladder import SkillRun, pairing
from runarch_gen.play.registry import Registration, Value

if TYPE_CHECKING:
    from runarch_gen.play.metrics import Metrics
    from runarch_gen.play.report import PlayReport

__all__ = [
    "DEFAULT_STALL_TOLERANCE",
    "SKILL_MARGIN",
    "Check",
    "DynamicRun",
    "Failure",
    "Judgement",
    "Verdict",
    "default_lineup",
    "finding_lines",
    "findings_of",
    "judge",
    "measure_skill",
    "skill_findings",
    "validate_game",
]

DEFAULT_STALL_TOLERANCE = 0.05
"""The share of simulated games that may stall, without a proven deadlock, before a set fails
(bots are not perfect)."""
SKILL_MARGIN = 0.2
"""A skill trace whose 95 % interval lies wholly below this is a finding: skill hardly matters
(in a two-player game, the best bot wins under 60 % of its games against random)."""


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
    passed (JSON-ready), and the variants it concerns (empty: all of them). A check with
    ``strict_only`` reports a *rules finding* — a fault of the rules whatever the set, such as
    token draws that deadlock the game — which fails the set only with ``strict``."""

    name: str
    summary: str
    failures: tuple[Failure, ...] = ()
    proofs: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    rules: tuple[str, ...] = ()
    strict_only: bool = False

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
            **({"rules_finding": True} if self.strict_only else {}),
        }


# ---------------------------------------------------------------------------------------------
# The one verdict


@dataclass(frozen=True, slots=True)
class Judgement:
    """What :func:`judge` decided: the verdict, whether the set is playable, why not (one
    line each), and the exit code."""

    verdict: str
    playable: bool
    reasons: tuple[str, ...]
    exit_code: int


def judge(
    checks: Sequence[Check],
    runs: Sequence[tuple[str, int, int, int]],
    *,
    strict: bool = False,
    stall_tolerance: float = DEFAULT_STALL_TOLERANCE,
    rules_findings: Sequence[str] = (),
    interrupted: bool = False,
) -> Judgement:
    """The verdict on a set: ``checks`` (their failures fail it; a ``strict_only`` check's
    only with ``strict``), ``runs`` of simulated games as ``(label, games, stalls,
    deadlocks)`` (stalls without a proven deadlock in more than ``stall_tolerance`` of a run's
    games fail it; with ``strict`` any stall or deadlock does), and ``rules_findings``
    (headlines that fail it only with ``strict``). ``interrupted``: the games stopped early —
    a failure found stands (exit 1), else exit 130.

    >>> judge([], [("complex", 300, 40, 30)]).verdict
    'playable'
    >>> for reason in judge([], [("complex", 300, 40, 30)], strict=True).reasons:
    ...     print(reason)
    complex: 10 of 300 simulated games (3.3%) stalled without a proven deadlock (strict)
    complex: 30 of 300 games deadlocked (strict)
    """
    reasons: list[str] = []
    for check in checks:
        if check.failures and (strict or not check.strict_only):
            where = f" ({', '.join(check.rules)})" if check.rules else ""
            more = f" (and {len(check.failures) - 1} more)" if len(check.failures) > 1 else ""
            kind = "rules finding (strict): " if check.strict_only else ""
            reasons.append(f"{kind}{check.name}{where}: {check.failures[0].text}{more}")
    tolerance = 0.0 if strict else stall_tolerance
    for label, games, stalls, deadlocks in runs:
        unexplained = stalls - deadlocks
        if games and unexplained > tolerance * games:
            share = f"{unexplained} of {games} simulated games ({unexplained / games:.1%})"
            if strict:
                reasons.append(f"{label}: {share} stalled without a proven deadlock (strict)")
            else:
                reasons.append(
                    f"{label}: {share} stalled without a proven deadlock, more than the"
                    f" {tolerance:.0%} tolerated: the bots could not finish them"
                )
        if strict and deadlocks:
            reasons.append(f"{label}: {deadlocks} of {games} games deadlocked (strict)")
    if strict:
        reasons += [f"rules finding (strict): {headline}" for headline in rules_findings]
    playable = not reasons
    if not playable:
        return Judgement("not playable", False, tuple(reasons), EXIT_INVALID)
    if interrupted:
        return Judgement("interrupted", True, (), EXIT_INTERRUPTED)
    return Judgement("playable", True, (), EXIT_OK)


# ---------------------------------------------------------------------------------------------
# Simulated games


@dataclass(frozen=True, slots=True)
class DynamicRun:
    """Simulated games: how many were played, stalled, and were proven deadlocks."""

    game: str
    bots: tuple[str, ...]
    seed: int
    games: int
    stalls: int
    interrupted: bool = False
    summary: tuple[str, ...] = ()
    report: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    deadlocks: int = 0

    @property
    def text(self) -> str:
        return self.text_in("en")

    def text_in(self, lang: str, title: str | None = None) -> str:
        """``complex: 300 games, 4 stalled`` in ``lang`` (en, cs), the game named by ``title``
        if given."""
        from runarch_gen.play.words import games_cs, named, word

        status = word(lang, "run_interrupted") if self.interrupted else ""
        dead = word(lang, "run_dead", deadlocks=self.deadlocks) if self.deadlocks else ""
        games = games_cs(self.games) if lang == "cs" else self.games
        return word(
            lang,
            "run",
            game=named(self.game, title),
            games=games,
            stalls=self.stalls,
            dead=dead,
            status=status,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "stalls": self.stalls,
            "deadlocks": self.deadlocks,
            "interrupted": self.interrupted,
            "simulation": dict(self.report),
        }


def finding_lines(
    findings: Sequence[Finding], suggestions: Sequence[Suggestion] = (), lang: str = "en"
) -> list[str]:
    """The findings and notes for people: ``findings:`` then ``notes:``, each with its figures
    and any suggestion (the frame and the figures in ``lang``; a headline is its game's)."""
    from runarch_gen.play.words import word

    out: list[str] = []
    for level, key in (("finding", "findings"), ("note", "notes")):
        chosen = [f for f in findings if f.level == level]
        if not chosen:
            continue
        out.append(f"{word(lang, key)}:")
        for finding in chosen:
            out.append(f"  {finding.kind}: {finding.headline}")
            figures = finding.figures(lang)
            if figures:
                out.append(f"    {figures}")
            for suggestion in suggestions:
                if suggestion.finding == finding:
                    out.append(f"    {word(lang, 'suggestion', text=suggestion.text())}")
    return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """Every check and simulation of a game, its metrics and findings, and whether it can be
    played (decided by :func:`judge`)."""

    game: str
    checks: tuple[Check, ...]
    dynamic: tuple[DynamicRun, ...] = ()
    strict: bool = False
    stall_tolerance: float = DEFAULT_STALL_TOLERANCE
    findings: tuple[Finding, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    metrics: Metrics | None = None
    lineup: str = ""
    skill: SkillRun | None = None

    @property
    def judgement(self) -> Judgement:
        return judge(
            self.checks,
            [(run.game, run.games, run.stalls, run.deadlocks) for run in self.dynamic],
            strict=self.strict,
            stall_tolerance=self.stall_tolerance,
            interrupted=self.interrupted,
        )

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the game cannot be played, one line each; empty when it can."""
        return self.judgement.reasons

    @property
    def playable(self) -> bool:
        return self.judgement.playable

    @property
    def interrupted(self) -> bool:
        return any(run.interrupted for run in self.dynamic)

    @property
    def verdict(self) -> str:
        """``playable``, ``not playable``, or ``interrupted`` when the simulation stopped
        before anything failed (a failure found before the interruption stands)."""
        return self.judgement.verdict

    @property
    def exit_code(self) -> int:
        return self.judgement.exit_code

    def lines(self, lang: str = "en", title: str | None = None) -> list[str]:
        """The report for people: checks, simulations, metrics, findings, verdict — its frame
        in ``lang`` (en, cs), the game named by ``title`` if given; what the game's own checks
        and findings say is the game's text."""
        from runarch_gen.play.words import named, word

        out = [word(lang, "static_checks")]
        indent = word(lang, "failure_indent")
        for check in self.checks:
            status = "ok" if check.ok else ("find" if check.strict_only else "fail")
            out.append(f"  {word(lang, 'status_' + status)}  {check.name}: {check.summary}")
            for failure in check.failures:
                out.append(f"{indent}{failure.text}")
                if failure.proof:
                    out.append(f"{indent}  {word(lang, 'proof', proof=failure.proof)}")
        if self.dynamic:
            first = self.dynamic[0]
            out.append(word(lang, "dynamic", bots=", ".join(first.bots), seed=first.seed))
            if self.lineup:
                out.append(f"  {word(lang, 'lineup', lineup=self.lineup)}")
            for run in self.dynamic:
                out.append(f"  {run.text_in(lang, title)}")
                out += [f"    {line}" for line in run.summary]
        if self.metrics is not None:
            out.append(word(lang, "metrics_intervals"))
            out += self.metrics.lines(lang)
            if self.skill is not None:
                out.append(f"    {word(lang, 'skill_trace', describe=self.skill.describe)}")
        out += finding_lines(self.findings, self.suggestions, lang)
        if not self.playable:
            out.append(word(lang, "verdict_not_playable"))
            out += [f"  {reason}" for reason in self.reasons]
        elif self.interrupted:
            out.append(word(lang, "verdict_interrupted"))
        else:
            n = sum(f.is_finding for f in self.findings)
            notes = word(lang, "balance_findings", n=n, s="s" if n > 1 else "") if n else ""
            out.append(word(lang, "verdict_playable", game=named(self.game, title), notes=notes))
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
            "lineup": self.lineup,
            "metrics": None if self.metrics is None else self.metrics.to_json(),
            "skill": None if self.skill is None else self.skill.to_json(),
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


def default_lineup(registration: Registration, values: Mapping[str, Value]) -> tuple[str, ...]:
    """The bots ``validate`` plays when none are named: the game's design's line-up, else its
    default bot."""
    chosen = design_of(registration.game_type.short_name).lineup(values)
    return tuple(chosen) if chosen else (registration.default_bot,)


def lineup_text(design: Design, bots: Sequence[str], given: bool, lang: str = "en") -> str:
    """What the report says about the bots: where they stand on the ladder and, for the
    default line-up, why it was chosen (in ``lang``; the game's note as the game words it)."""
    from runarch_gen.play.words import word

    if not design.ladder:
        return ""
    ladder = " < ".join(design.ladder)
    if given:
        return word(lang, "lineup_given", bots=", ".join(bots), ladder=ladder)
    note = f"; {design.lineup_note}" if design.lineup_note else ""
    return word(lang, "lineup_default", bots=", ".join(bots), ladder=ladder, note=note)


def measure_skill(
    registration: Registration,
    values: Mapping[str, Value],
    design: Design,
    bots: Sequence[str],
    *,
    seed: int,
    workers: int | None,
    on_progress: Callable[[int], None] | None = None,
) -> SkillRun | None:
    """The skill trace: the strongest of ``bots`` (by the design's ladder) against the bottom
    of the ladder, in ``design.skill_games`` games of their own (:func:`~.ladder.pairing`);
    ``None`` when the game has no ladder, the strongest is the bottom, or the games were
    interrupted."""
    strong, weak = design.strongest(bots), design.bottom
    if strong is None or weak is None or strong == weak or design.skill_games < 1:
        return None
    return pairing(
        registration,
        values,
        strong,
        weak,
        games=design.skill_games,
        seed=seed + 1,  # games of their own, not a copy of the line-up's
        workers=workers,
        on_progress=on_progress,
        stop_above=SKILL_MARGIN,
    )


def skill_findings(skill: SkillRun | None) -> list[Finding]:
    """``skill``: a finding when the skill trace's whole interval lies below
    :data:`SKILL_MARGIN` — a stronger bot hardly gains in this game."""
    if skill is None or skill.index.high is None or skill.index.high >= SKILL_MARGIN:
        return []
    return [
        Finding(
            "skill",
            f"skill hardly matters: {skill.describe}; skill trace {skill.index.text(digits=2)}",
            skill.index.value,
            skill.strong,
            {"strong": skill.strong, "weak": skill.weak, "games": skill.games},
            effect=skill.index,
            margin=SKILL_MARGIN,
            games=skill.games,
            unit="index",
        )
    ]


def findings_of(
    played: PlayReport,
    values: Mapping[str, Value],
    design: Design,
    *,
    alpha: float = SIGNIFICANCE,
    replay: Callable[[Mapping[str, Value]], PlayReport] | None = None,
) -> list[Finding]:
    """Every finding and note of one run: the common families and the game's own
    (``replay(values)`` plays the same games under other rules, for a game's family that
    compares rules)."""
    out = common_findings(
        played.results, played.sides, exclude=played.exclude, values=design.values, alpha=alpha
    )
    if design.findings is not None:
        out += design.findings(played, values, replay)
    return order(out)


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
    skill: bool = True,
    on_progress: Callable[[int], None] | None = None,
    on_report: Callable[[PlayReport], None] | None = None,
) -> Verdict:
    """Validate a registered game with parameter ``values``: the game's own static checks (its
    registration's ``checks``), random games under the conformance suite, then ``games``
    games between ``bots`` (default: the line-up of the game's design, :func:`default_lineup`);
    ``games=0`` skips the simulation. The games' design metrics, with the skill trace from
    games of their own (unless ``skill`` is false), and the balance findings and notes are
    reported beside the verdict; with ``propose`` each finding is given to the registration's
    ``suggestions`` (candidate changes of the parameters, smallest first), which are all
    simulated and the one closest to fair proposed. ``on_report`` receives the games' report
    (for charts) before the findings are made."""
    from runarch_gen.play.playtest import playtest

    design = design_of(registration.game_type.short_name)
    found: list[Check] = list(registration.checks(values)) if registration.checks else []
    found.append(_conformance_check(registration, values, seed))
    game = registration.load(values)
    dynamic: tuple[DynamicRun, ...] = ()
    findings: list[Finding] = []
    proposals: list[Suggestion] = []
    metrics = None
    skill_run = None
    names = list(bots) if bots else list(default_lineup(registration, values))
    lineup = lineup_text(design, names, bool(bots))
    if games:
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
                played.deadlocks,
            ),
        )
        if not played.interrupted:
            if skill:
                skill_run = measure_skill(
                    registration, values, design, played.bots, seed=seed, workers=workers
                )
            metrics = played.metrics(None if skill_run is None else skill_run.index)

            def again(changed: Mapping[str, Value]) -> PlayReport:
                return playtest(
                    registration, changed, names, games=games, seed=seed, workers=workers
                )

            findings = order(
                findings_of(played, values, design, replay=again) + skill_findings(skill_run)
            )
        if propose and registration.suggestions is not None and not played.interrupted:
            for finding in findings:
                if not finding.is_finding:
                    continue

                def replay(change: Mapping[str, str]) -> Any:
                    parsed = registration.game_type.parse_parameters(dict(change), "suggestion")
                    changed = dict(values) | {name: parsed[name] for name in change}
                    return playtest(
                        registration, changed, names, games=games, seed=seed, workers=workers
                    )

                def judged(report: Any, changed: Mapping[str, Value] = values) -> list[Finding]:
                    return findings_of(report, changed, design)

                candidates = registration.suggestions(values, finding)
                proposals.append(
                    suggest(finding, candidates, replay, played.sides, findings=judged)
                )
    return Verdict(
        str(game),
        tuple(found),
        dynamic,
        strict,
        stall_tolerance,
        tuple(findings),
        tuple(proposals),
        metrics,
        lineup,
        skill_run,
    )
