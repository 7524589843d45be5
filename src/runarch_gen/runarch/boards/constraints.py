"""What a generated board must meet beyond B-1: B-2, pinned tiles and banned tiles (RULES.md §2).

Both board engines read these values: the exact sampler (:mod:`.generate`) and the CP-SAT
model (:mod:`.cpsat`).

>>> BoardConstraints.parse(diagonals=True, fixes=["c3=y5"]).describe()
'B-1 and B-2 with --fix c3=5Y'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from runarch_gen.errors import InputError, ParseError
from runarch_gen.runarch.atoms import Piece, parse_piece, parse_square, square_name

__all__ = ["UNCONSTRAINED", "BoardConstraints", "Placement", "parse_placement"]


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """A tile on a square: the value of ``--fix a1=5Y`` or ``--forbid c3=0R``."""

    square: int
    piece: Piece

    @property
    def text(self) -> str:
        """``a1=5Y``, as the option takes it."""
        return f"{square_name(self.square)}={self.piece.code}"

    def __str__(self) -> str:
        return self.text


def parse_placement(text: str, option: str = "--fix") -> Placement:
    """A placement from ``SQUARE=CODE``; a :class:`ParseError` names ``option`` and the text.

    >>> parse_placement("c3=y5").text
    'c3=5Y'
    """
    where = f"{option} {text}"
    square_text, sep, code = text.partition("=")
    if not sep:
        raise ParseError("expected SQUARE=CODE, e.g. a1=5Y", source=where)
    try:
        return Placement(parse_square(square_text), parse_piece(code))
    except ParseError as exc:
        raise ParseError(exc.message, source=where) from None


@dataclass(frozen=True, slots=True)
class BoardConstraints:
    """What a generated board must meet beyond B-1 (RULES.md §2).

    ``diagonals`` asks for B-2; ``fixes`` pin tiles to squares; ``forbids`` keep tiles off
    squares. Two fixes on one square are refused here (:class:`InputError`); other
    contradictions are found when counting or generating (:class:`ConstraintError`).
    """

    diagonals: bool = False
    fixes: tuple[Placement, ...] = ()
    forbids: tuple[Placement, ...] = ()

    def __post_init__(self) -> None:
        seen: dict[int, Placement] = {}
        for fix in self.fixes:
            other = seen.get(fix.square)
            if other is not None:
                if other == fix:
                    raise InputError(f"--fix {fix} is given twice")
                raise InputError(
                    f"--fix {other} and --fix {fix} both fix square {square_name(fix.square)}"
                )
            seen[fix.square] = fix

    @classmethod
    def parse(
        cls, *, diagonals: bool = False, fixes: Iterable[str] = (), forbids: Iterable[str] = ()
    ) -> BoardConstraints:
        """Constraints from option texts: ``parse(fixes=["a1=5Y"], forbids=["c3=0R"])``."""
        return cls(
            diagonals,
            tuple(parse_placement(text, "--fix") for text in fixes),
            tuple(parse_placement(text, "--forbid") for text in forbids),
        )

    @property
    def options(self) -> tuple[str, ...]:
        """The constraints as command-line options, in the order given."""
        return (
            (("--diagonals",) if self.diagonals else ())
            + tuple(f"--fix {fix}" for fix in self.fixes)
            + tuple(f"--forbid {forbid}" for forbid in self.forbids)
        )

    def to_json(self) -> dict[str, object]:
        return {
            "diagonals": self.diagonals,
            "fix": [fix.text for fix in self.fixes],
            "forbid": [forbid.text for forbid in self.forbids],
        }

    def describe(self) -> str:
        """``B-1`` or ``B-1 and B-2``, followed by the options: for messages."""
        rules = "B-1 and B-2" if self.diagonals else "B-1"
        pins = [o for o in self.options if o != "--diagonals"]
        return rules + (" with " + " ".join(pins) if pins else "")


UNCONSTRAINED = BoardConstraints()
