"""The betting scale as text [L-04]: every rule of the format and every refusal written out in
full (file, line and words), so a scale file from another person is read exactly as documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from runarch_gen.bluff.rules import (
    MAX_FIELDS,
    MAX_QUANTITY,
    MAX_SCALE_BYTES,
    default_scale,
    parse_scale,
    parse_scale_inline,
    read_scale,
    scale_value,
)
from runarch_gen.errors import InputError, ParseError


def test_L04_a_comment_runs_from_the_first_hash_and_the_scale_keeps_its_source() -> None:
    scale = parse_scale("3  # a # b\n*2\n", source="mine.txt")
    assert str(scale) == "3 ★2" and scale.name == "mine.txt"


def test_L04_a_bad_field_is_named_with_its_first_40_characters() -> None:
    line = "x" * 45
    with pytest.raises(ParseError) as caught:
        parse_scale(f"1\n  {line}\n", source="s.txt")
    assert str(caught.value) == (f"s.txt:2:3: expected a field like '7' or '★4', not {'x' * 40!r}")


def test_L04_quantities_run_to_the_maximum_and_every_distinct_field_fits() -> None:
    assert str(parse_scale(f"{MAX_QUANTITY}\n")) == str(MAX_QUANTITY)
    # Each field at most once: 99 numbers and 99 stars are every scale there can be (198),
    # within the bound of MAX_FIELDS.
    every = [str(q) for q in range(1, MAX_QUANTITY + 1)] + [f"*{q}" for q in range(1, 100)]
    assert len(parse_scale("\n".join(every)).fields) == 2 * MAX_QUANTITY <= MAX_FIELDS


def test_L04_an_empty_scale_is_refused_naming_the_file() -> None:
    with pytest.raises(ParseError) as caught:
        parse_scale("# nothing\n\n", source="empty.txt")
    assert str(caught.value) == "empty.txt: a scale needs at least one field"


def test_L04_inline_scales_name_themselves_and_their_refusals() -> None:
    scale = parse_scale_inline("1/*1/2")
    assert scale.name == scale_value(scale) == "1/★1/2"
    with pytest.raises(ParseError) as caught:
        parse_scale_inline("y" * 45, source="--rules")
    assert str(caught.value) == (
        f"--rules: expected 'default' or fields such as 1/★1/2/3/★2/4, not {'y' * 40!r}"
        " (a scale file may be named only on the command line)"
    )
    with pytest.raises(ParseError) as zero:
        parse_scale_inline("1/0", source="bluff")
    assert str(zero.value).startswith("bluff:2:1: a quantity is 1 to 99")


def test_L04_read_scale_takes_default_in_any_case_and_bounds_the_file(tmp_path: Path) -> None:
    assert read_scale(" DEFAULT ").fields == default_scale().fields
    exact = tmp_path / "exact.txt"
    exact.write_text("1\n" + "#" * (MAX_SCALE_BYTES - 3) + "\n")
    assert exact.stat().st_size == MAX_SCALE_BYTES
    assert str(read_scale(exact)) == "1" and read_scale(exact).name == str(exact)
    big = tmp_path / "big.txt"
    big.write_text("1\n" + "#" * MAX_SCALE_BYTES + "\n")
    with pytest.raises(InputError, match=f"big.txt: a scale file is at most {MAX_SCALE_BYTES}"):
        read_scale(big)
    bad = tmp_path / "bad.txt"
    bad.write_text("1\nq\n")
    with pytest.raises(ParseError, match=r"bad.txt:2:1: expected a field"):
        read_scale(bad)
