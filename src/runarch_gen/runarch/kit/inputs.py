"""The kit's inputs: a board and a deck, read from files or generated from a seed, and the
JSON documents stored beside the PDF so a kit can be rebuilt from its own folder."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runarch_gen.errors import InputError, ParseError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.runarch.atoms import parse_direction, parse_piece
from runarch_gen.runarch.board import Board
from runarch_gen.runarch.cards import Card, Deck, parse_goal, parse_pattern


def load_board(path: str | os.PathLike[str]) -> Board:
    """The one board in ``path`` (any format :mod:`~runarch_gen.runarch.boardio` reads),
    which must be valid (B-1)."""
    return parse_board(read_text(path), source=display_name(path))


def parse_board(text: str, *, source: str) -> Board:
    from runarch_gen.runarch.boardcheck import check_board
    from runarch_gen.runarch.boardio import parse_boards

    boards = parse_boards(text, source=source)
    if len(boards) != 1:
        raise InputError(f"{source}: holds {len(boards)} boards, expected one")
    findings = check_board(boards[0])
    if findings:
        shown = "; ".join(f.message for f in findings[:3])
        more = f" (and {len(findings) - 3} more)" if len(findings) > 3 else ""
        raise InputError(f"{source}: not a valid board: {shown}{more}")
    return boards[0]


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """The deck in ``path`` (JSON ``{"cards": [...]}``)."""
    return parse_deck(read_text(path), source=display_name(path))


def parse_deck(text: str, *, source: str) -> Deck:
    data = _json(text, source)
    cards = []
    try:
        for entry in data["cards"]:
            cards.append(
                Card(
                    int(entry["id"]),
                    parse_pattern(entry["pattern"]),
                    parse_piece(entry["match"]),
                    parse_goal(entry["goal"], int(entry["reward"])),
                    tuple(parse_direction(d) for d in entry["arrows"]),
                )
            )
    except ParseError as exc:
        raise exc.located(source=source) from None
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{source}: card {len(cards) + 1} is malformed") from None
    return Deck(tuple(cards))


def _json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(exc.msg, source=source, line=exc.lineno, column=exc.colno) from None


def board_document(board: Board, meta: dict[str, Any] | None = None) -> str:
    from runarch_gen.runarch.boardio import format_board

    return format_board(board, "json", meta)


def deck_document(deck: Deck) -> str:
    cards = [
        {
            "id": c.id,
            "pattern": c.pattern.text,
            "match": c.match.code,
            "goal": c.goal.text,
            "reward": c.goal.reward,
            "arrows": [d.name for d in c.arrows],
        }
        for c in deck
    ]
    return json.dumps({"cards": cards}, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True, slots=True)
class KitInputs:
    """The board and deck of a kit, the JSON documents stored with it, and where each came
    from (``{"file": name, "sha256": …}`` or ``{"generated": True, "seed": …}``)."""

    board: Board
    deck: Deck
    board_json: str
    deck_json: str
    sources: dict[str, dict[str, Any]]

    @property
    def generated(self) -> bool:
        return any(source.get("generated") for source in self.sources.values())


def _source(path: str | os.PathLike[str], text: str) -> dict[str, Any]:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return {"file": os.path.basename(display_name(path)), "sha256": digest}


def kit_inputs(
    board_path: str | os.PathLike[str] | None,
    deck_path: str | os.PathLike[str] | None,
    *,
    seed: int,
) -> KitInputs:
    """Read the given files; generate from ``seed`` whatever is not given."""
    from runarch_gen.runarch.boardgen import generate_board
    from runarch_gen.runarch.kit.samples import sample_deck

    sources: dict[str, dict[str, Any]] = {}
    if board_path is not None:
        text = read_text(board_path)
        board = parse_board(text, source=display_name(board_path))
        sources["board"] = _source(board_path, text)
    else:
        board = generate_board(seed=seed)
        sources["board"] = {"generated": True, "seed": seed}
    if deck_path is not None:
        text = read_text(deck_path)
        deck = parse_deck(text, source=display_name(deck_path))
        sources["deck"] = _source(deck_path, text)
    else:
        deck = sample_deck(50)
        sources["deck"] = {"generated": True, "seed": seed}
    board_meta = {"seed": seed} if board_path is None else None
    return KitInputs(board, deck, board_document(board, board_meta), deck_document(deck), sources)


def bench_inputs(folder: Path, *, seed: int) -> tuple[Path, Path, Deck]:
    """A board file, a 50-card deck file and a 100-card deck, for benchmarks."""
    from runarch_gen.runarch.kit.samples import sample_board, sample_deck

    del seed
    board_path = folder / "board.json"
    deck_path = folder / "deck.json"
    board_path.write_text(board_document(sample_board()), encoding="utf-8")
    deck_path.write_text(deck_document(sample_deck(50)), encoding="utf-8")
    return board_path, deck_path, sample_deck(100)
