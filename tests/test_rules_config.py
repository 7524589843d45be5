"""The rules configuration: variants, every [R-nn] option, the rules string and TOML."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runarch_gen.errors import ParseError
from runarch_gen.runarch.archives import ArchiveRule
from runarch_gen.runarch.rules import (
    OPTIONS,
    ArchiveOrder,
    LineDirection,
    MatchBonus,
    OptionValueError,
    RulesConfig,
    UnknownOptionError,
    UnknownVariantError,
    Variant,
    load_rules,
    parse_rules,
    rules_from_toml,
)


def test_defaults_of_each_variant() -> None:
    complex_ = parse_rules("complex")
    assert complex_ == RulesConfig()
    assert (complex_.deal, complex_.capacity, complex_.stall) == (5, 5, 500)  # R-04 R-14 R-18
    assert complex_.direction is LineDirection.READING
    assert complex_.match_bonus is MatchBonus.BOARD
    assert complex_.archive_rules == (ArchiveRule.SAME, ArchiveRule.SHAPES, ArchiveRule.COLOURS)
    assert complex_.conditions == "default" and complex_.has_bets
    simple = parse_rules("simple")
    assert (simple.minimum, simple.target) == (5, 75) and not simple.has_archives  # R-10 R-17
    classic = parse_rules("classic")
    assert (classic.capacity, classic.archive_bonus, classic.has_bets) == (4, 10, False)
    solo = parse_rules("solo")
    assert solo.has_automa and solo.has_bets


@pytest.mark.parametrize(
    ("text", "canonical", "field", "value"),
    [
        (
            "complex(conditions=1.1.1|total 5)",
            'complex(conditions="1·1·1|total 5")',
            "conditions",
            "1·1·1|total 5",
        ),
        ("complex(deal=4)", "complex(deal=4)", "deal", 4),
        (
            "simple(direction=reversible)",
            "simple(direction=reversible)",
            "direction",
            LineDirection.REVERSIBLE,
        ),
        ("solo(match_bonus=line)", "solo(match_bonus=line)", "match_bonus", MatchBonus.LINE),
        ("classic(match_bonus=off)", "classic(match_bonus=off)", "match_bonus", MatchBonus.OFF),
        ("simple(minimum=7)", "simple(minimum=7)", "minimum", 7),
        (
            "complex(archive_order=article)",
            "complex(archive_order=article)",
            "archive_order",
            ArchiveOrder.ARTICLE,
        ),
        ("classic(capacity=5)", "classic(capacity=5)", "capacity", 5),
        ("simple(target=60)", "simple(target=60)", "target", 60),
        ("solo(stall=900)", "solo(stall=900)", "stall", 900),
        ("classic(archive_bonus=12)", "classic(archive_bonus=12)", "archive_bonus", 12),
    ],
)
def test_every_option_parses_and_prints_back(
    text: str, canonical: str, field: str, value: object
) -> None:
    config = parse_rules(text)
    assert getattr(config, field) == value
    assert str(config) == canonical and parse_rules(str(config)) == config


def test_every_option_is_tagged_and_documented() -> None:
    from runarch_gen.games import rules_document

    assert [spec.tag for spec in OPTIONS] == sorted(spec.tag for spec in OPTIONS)
    document = rules_document("runarch")
    for spec in OPTIONS:
        # each R-numbered option is a decision of the rules document, marked **[R-nn]**
        assert spec.tag.startswith("§") or f"[{spec.tag}]" in document, spec.name
    assert OPTIONS[-1].tag == "§1.4"  # the bonus-action tokens' values, after the R-numbers


def test_canonical_form_orders_options_by_r_number_and_drops_defaults() -> None:
    config = parse_rules(" Complex ( MATCH_BONUS = Line , deal=4, stall=500 ) ")
    assert str(config) == "complex(deal=4,match_bonus=line)"
    assert str(parse_rules("complex(capacity=5)")) == "complex"
    assert str(parse_rules("classic(capacity=4)")) == "classic"


def test_values_with_commas_or_spaces_are_quoted() -> None:
    config = parse_rules('complex(conditions="2·1·0 any order|total 5")')
    assert config.conditions == "2·1·0 any order|total 5"
    assert str(config) == 'complex(conditions="2·1·0 any order|total 5")'
    assert parse_rules(str(config)) == config


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("chess", UnknownVariantError, "unknown variant 'chess'"),
        ("complex(colour=red)", UnknownOptionError, "unknown option 'colour'"),
        ("simple(deal=4)", UnknownOptionError, "'deal' does not apply to the simple game"),
        ("complex(minimum=6)", UnknownOptionError, "'minimum' does not apply to the complex game"),
        (
            "classic(conditions=x.toml)",
            UnknownOptionError,
            "'conditions' does not apply to the classic",
        ),
        ("complex(deal=3)", OptionValueError, "deal .R-04. cannot be '3': expected 4 or 5"),
        ("complex(match_bonus=half)", OptionValueError, "board, line or off"),
        ("complex(capacity=3)", OptionValueError, "an integer 4-10"),
        ("simple(minimum=11)", OptionValueError, "an integer 5-10"),
        ("complex(deal=4,deal=5)", UnknownOptionError, "given twice"),
        ("complex(deal)", ParseError, "expected name=value"),
        ("complex(", ParseError, "bad rules string"),
    ],
)
def test_bad_rules_strings_raise_typed_errors_naming_the_option(text, error, message) -> None:
    with pytest.raises(error, match=message) as caught:
        parse_rules(text)
    assert isinstance(caught.value, ParseError) and isinstance(caught.value, ValueError)
    if isinstance(caught.value, UnknownOptionError | OptionValueError):
        assert caught.value.option in text


def test_constructor_checks_like_the_parser() -> None:
    with pytest.raises(UnknownOptionError, match="target"):
        RulesConfig(variant=Variant.COMPLEX, target=60)
    with pytest.raises(OptionValueError, match="stall"):
        RulesConfig(stall=0)
    assert RulesConfig(variant=Variant.CLASSIC).capacity == 4


def test_toml_round_trip_and_rules_table() -> None:
    config = parse_rules("complex(deal=4,match_bonus=line,archive_order=article)")
    assert rules_from_toml(config.to_toml()) == config
    nested = rules_from_toml('[rules]\nvariant = "simple"\ntarget = 50\n')
    assert str(nested) == "simple(target=50)"


def test_toml_errors_name_the_file_and_key(tmp_path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('variant = "complex"\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(UnknownOptionError, match="colour") as caught:
        load_rules(path)
    assert str(caught.value).startswith(str(path))
    path.write_text('variant = "complex"\ndeal = \n', encoding="utf-8")
    with pytest.raises(ParseError, match="malformed TOML") as malformed:
        load_rules(path)
    assert malformed.value.line == 2
    path.write_text("deal = 4\n", encoding="utf-8")
    with pytest.raises(ParseError, match='missing key "variant"'):
        load_rules(path)
    path.write_text('variant = "complex"\ndeal = true\n', encoding="utf-8")
    with pytest.raises(OptionValueError, match="number or a string"):
        load_rules(path)


def test_toml_conditions_path_is_relative_to_the_file_and_read_into_values(tmp_path) -> None:
    (tmp_path / "sets").mkdir()
    path = tmp_path / "sets" / "rules.toml"
    path.write_text('variant = "solo"\nconditions = "mine.toml"\n', encoding="utf-8")
    (tmp_path / "sets" / "mine.toml").write_text('conditions = ["1.1.1", "total 4"]\n')
    assert load_rules(path).conditions == "1·1·1|total 4"


def _config(variant: Variant, values: dict[str, object]) -> RulesConfig:
    allowed = {spec.name for spec in OPTIONS if variant in spec.variants}
    return RulesConfig(variant=variant, **{k: v for k, v in values.items() if k in allowed})  # type: ignore[arg-type]


configs = st.builds(
    _config,
    st.sampled_from(list(Variant)),
    st.fixed_dictionaries(
        {
            "deal": st.sampled_from([4, 5]),
            "direction": st.sampled_from(list(LineDirection)),
            "match_bonus": st.sampled_from(list(MatchBonus)),
            "minimum": st.integers(5, 10),
            "archive_order": st.sampled_from(list(ArchiveOrder)),
            "capacity": st.integers(4, 10),
            "target": st.integers(1, 1000),
            "stall": st.integers(1, 100_000),
            "archive_bonus": st.integers(0, 100),
            "conditions": st.sampled_from(["default", "1·1·1", "2·1·0 any order|total 5"]),
            "tokens": st.sampled_from(["default", "D5 X7 F9 N11", "D5/6 X7/8/9 F10/11 N12/13"]),
        }
    ),
)


@settings(max_examples=150, deadline=None)
@given(configs)
def test_any_config_round_trips_through_its_string_and_toml(config: RulesConfig) -> None:
    text = str(config)
    assert parse_rules(text) == config and str(parse_rules(text)) == text
    assert rules_from_toml(config.to_toml()) == config
