"""The bonus-action tokens as data (RULES.md §1.4): the default set, the rules option
``tokens=PATH``, and games dealt from another set."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from runarch_gen.errors import InputError, ParseError
from runarch_gen.runarch.engine import RunArchGame, Setup
from runarch_gen.runarch.engine.sample import sample_board, sample_deck
from runarch_gen.runarch.engine.tokens import (
    BonusTokens,
    default_tokens,
    load_tokens,
    parse_tokens,
)
from runarch_gen.runarch.rules import load_rules, parse_rules


def test_the_default_set_is_the_table_of_rules_1_4() -> None:
    tokens = default_tokens()
    assert tokens.values == ((5, 6, 7), (7, 8, 9), (9, 10, 11), (11, 12, 13))
    assert [tokens.values_of(s) for s in "DXFN"] == list(tokens.values)
    assert load_tokens("default") == tokens


def test_every_stack_has_its_probability() -> None:
    stacks = default_tokens().stacks()
    assert len(stacks) == 3**4 and sum(p for _, p in stacks) == 1
    assert len({stack for stack, _ in stacks}) == 81


def test_the_rules_option_carries_token_values_and_reads_a_file_only_when_allowed(
    tmp_path: Path,
) -> None:
    config = parse_rules("complex(tokens=d5 x7/8 f9/10 n12)")
    assert config.tokens == "D5 X7/8 F9/10 N12"
    assert str(config) == 'complex(tokens="D5 X7/8 F9/10 N12")'
    assert parse_rules(str(config)) == config
    # The default values are written as 'default', however they were given.
    assert parse_rules("complex(tokens=D5/6/7 X7/8/9 F9/10/11 N11/12/13)").tokens == "default"
    (tmp_path / "sets").mkdir()
    (tmp_path / "sets" / "t.toml").write_text(
        "[tokens]\nD = [6]\nX = [8]\nF = [10]\nN = [12]\n", encoding="utf-8"
    )
    (tmp_path / "sets" / "rules.toml").write_text(
        'variant = "classic"\ntokens = "t.toml"\n', encoding="utf-8"
    )
    # A rules file names a file beside it; it is read once, into values.
    assert load_rules(tmp_path / "sets" / "rules.toml").tokens == "D6 X8 F10 N12"
    assert parse_rules("complex(tokens=t.toml)", files=tmp_path / "sets").tokens == "D6 X8 F10 N12"
    # A rules string from a record or a manifest never reads a file.
    with pytest.raises(ParseError, match="a file may be named only on the command line"):
        parse_rules(f"complex(tokens={tmp_path}/sets/t.toml)")
    with pytest.raises(ParseError, match="'tokens' does not apply to the simple game"):
        parse_rules("simple(tokens=t.toml)")


def test_a_game_deals_its_stacks_from_its_token_set(tmp_path: Path) -> None:
    path = tmp_path / "f11.toml"
    path.write_text("[tokens]\nD = [6]\nX = [8, 9]\nF = [11]\nN = [12]\n", encoding="utf-8")
    rules = parse_rules(f"complex(tokens={path})", files=Path("."))
    game = RunArchGame(rules, sample_board(), sample_deck())
    assert game.tokens == BonusTokens(((6,), (8, 9), (11,), (12,)))
    for seed in range(20):
        for stack in game.new_initial_state(random.Random(seed)).setup.stacks:
            assert stack[0] == 6 and stack[1] in (8, 9) and stack[2:] == (11, 12)
    # A setup whose stack is not from the game's set is refused.
    setup = game.deal(random.Random(1))
    wrong = Setup(
        setup.stones,
        setup.order,
        ((5, 7, 9, 11), (6, 8, 11, 12)),
        setup.conditions,
        setup.frame_bets,
        setup.first,
    )
    with pytest.raises(InputError, match="not one token of each of D 6, X 8/9, F 11, N 12"):
        game.new_state(wrong)


def test_the_simple_game_has_no_tokens() -> None:
    assert RunArchGame(parse_rules("simple"), sample_board(), sample_deck()).tokens is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tokens", "malformed TOML"),
        ("x = 1", "expected a table [tokens]"),
        ("[tokens]\nD=[5]\nX=[7]\nF=[9]\nN=[11]\nQ=[1]", "unknown token symbol 'Q'"),
        ("[tokens]\nD=[5]\nX=[7]\nF=[9]", "N: expected a non-empty list"),
        ("[tokens]\nD=[5]\nX=[]\nF=[9]\nN=[11]", "X: expected a non-empty list"),
        ("[tokens]\nD=[5]\nX=[7]\nF=['9']\nN=[11]", "F: values must be whole numbers"),
        ("[tokens]\nD=[0]\nX=[7]\nF=[9]\nN=[11]", "D: values must be whole numbers from 1"),
    ],
)
def test_bad_token_files_are_named(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as caught:
        parse_tokens(text, source="t.toml")
    assert str(caught.value).startswith("t.toml")
