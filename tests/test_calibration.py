"""Goal rewards calibrated from simulated play [R-23]: harder goals pay more, the result is
deterministic, and the deck file records how it was made."""

from __future__ import annotations

import itertools
import math

import pytest

from runarch_gen.errors import ParseError
from runarch_gen.runarch.analysis.calibration import calibrate_deck
from runarch_gen.runarch.decks.cards import Deck
from runarch_gen.runarch.decks.io import deck_to_csv, deck_to_json, parse_deck, parse_deck_json
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.rules import parse_rules


def reward_from_the_rule(rate: float) -> int:
    """R-23 as the deck generator documents it, written here independently: 3 points for a
    sure goal, 1.5 more for every halving of the chance, rounded half up, between 3 and 12."""
    if rate <= 0:
        return 12
    halvings = math.log2(1 / min(rate, 1.0))
    return max(3, min(12, math.floor(3 + 1.5 * halvings + 0.5)))


@pytest.mark.parametrize(
    ("rate", "reward"),
    # 1/2: 3 + 1.5 = 4.5 -> 5; 1/4: 3 + 3 = 6; 1/8: 7.5 -> 8; 1/64: 3 + 9 = 12; 1/128: 13.5,
    # capped at 12; a rate above 1 (rounding) is a sure goal; a goal never met pays the most.
    [(1.0, 3), (0.5, 5), (0.25, 6), (0.125, 8), (1 / 64, 12), (1 / 128, 12), (1.2, 3), (0.0, 12)],
)
def test_R23_reward_oracle_worked_values(rate: float, reward: int) -> None:
    assert reward_from_the_rule(rate) == reward


def calibrated(workers: int = 1, games: int = 40) -> tuple[Deck, object]:
    return calibrate_deck(
        sample_deck(),
        sample_board(),
        rules=parse_rules("complex"),
        bots=["greedy"],
        games=games,
        seed=5,
        board_source="sample",
        workers=workers,
    )


@pytest.fixture(scope="module")
def deck_and_report() -> tuple[Deck, object]:
    return calibrated()


def test_R23_calibrated_rewards_rise_with_difficulty(deck_and_report) -> None:
    deck, report = deck_and_report
    measured = [(ch.rate, ch.after) for ch in report.changes if ch.rate is not None]
    assert len(measured) >= 10
    for rate, reward in measured:
        assert reward == reward_from_the_rule(rate), rate
    # Rarer in play, never cheaper: rewards fall as the measured rate rises.
    ordered = sorted(measured)
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(ordered))
    # A goal asking for more of the same pays at least as much as the easier one.
    goals = {c.goal.text: c.goal for c in deck}
    for a in goals.values():
        for b in goals.values():
            if (a.kind, a.colour, a.shape) == (b.kind, b.colour, b.shape) and (
                a.colour_count <= b.colour_count and a.shape_count <= b.shape_count
            ):
                assert a.reward <= b.reward, (a.text, b.text)


def test_calibration_is_deterministic_whatever_the_workers(deck_and_report) -> None:
    deck, _ = deck_and_report
    again, _ = calibrated(workers=2)
    assert deck_to_json(again) == deck_to_json(deck)


def test_the_deck_file_records_how_it_was_calibrated(deck_and_report) -> None:
    deck, report = deck_and_report
    c = deck.calibration
    assert c is not None and (c.variant, c.bots, c.games, c.seed, c.board) == (
        "complex",
        ("greedy",),
        40,
        5,
        "sample",
    )
    assert {goal for goal, _, _ in c.rates} == {ch.goal for ch in report.changes if ch.players}
    text = deck_to_json(deck)
    assert '"calibration": {"variant": "complex"' in text
    assert deck_to_json(parse_deck(text)) == text  # reading and writing is the identity
    assert "calibration" not in deck_to_csv(deck)  # CSV has no place for it: rewards only


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ('"games": 0', "calibration.games: must be at least 1"),
        ('"games": "many"', "calibration.games: expected a whole number"),
        ('"rates": {"blue>=2": [5, 3]}', "expected 0 <= times met <= players counted"),
        ('"colour": "x"', "calibration.colour: unknown field"),
    ],
)
def test_a_bad_calibration_record_is_named(field: str, message: str) -> None:
    base = {
        '"variant": "complex"',
        '"bots": ["greedy"]',
        '"games": 4',
        '"seed": 1',
        '"board": "b"',
    }
    key = field.split(":", maxsplit=1)[0]
    fields = [f for f in base if not f.startswith(key)] + [field]
    text = (
        '{"format": "runarch-deck", "version": 1, "calibration": {'
        + ", ".join(sorted(fields))
        + '}, "cards": []}'
    )
    with pytest.raises(ParseError, match=message.replace("[", r"\[")):
        parse_deck_json(text, source="d.json")
