"""Game records in the manner of PGN: a header of ``[Name "value"]`` tags, a blank line, then
one line of moves per turn. This module handles the parts every game shares — the tag syntax,
comments, line numbers for error messages — and leaves the move text to each game.

>>> text = format_record([("Variant", "simple"), ("Seed", "7")], ["1. white b2-b3"])
>>> print(text, end="")
[Variant "simple"]
[Seed "7"]
<BLANKLINE>
1. white b2-b3
>>> record = split_record(text)
>>> record.tags["Seed"], record.body
('7', [(4, '1. white b2-b3')])
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from runarch_gen.errors import ParseError

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*\Z')
COMMENT = ";"
"""A semicolon starts a comment that runs to the end of the line (as in PGN)."""


def format_tag(name: str, value: str) -> str:
    """One header line; backslashes and quotes in ``value`` are escaped."""
    if not _TAG_NAME.match(name):
        raise ValueError(f"bad tag name {name!r}")
    if "\n" in value or "\r" in value:
        raise ValueError(f"tag {name} spans several lines")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def format_record(tags: Iterable[tuple[str, str]], lines: Sequence[str]) -> str:
    """The header, a blank line and the body lines, each ending in a newline."""
    header = "".join(format_tag(name, value) + "\n" for name, value in tags)
    return header + "\n" + "".join(line + "\n" for line in lines)


@dataclass(slots=True)
class RecordText:
    """A record split into its tags (in file order) and its body lines with their numbers."""

    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    body: list[tuple[int, str]] = field(default_factory=list)
    source: str | None = None

    def error(self, message: str, line: int | None = None) -> ParseError:
        """A :class:`ParseError` located in this record."""
        return ParseError(message, source=self.source, line=line)

    def require(self, name: str) -> str:
        """The value of tag ``name``; a :class:`ParseError` when the header lacks it."""
        if name not in self.tags:
            raise self.error(f"the header has no [{name} ...] tag")
        return self.tags[name]


def split_record(text: str, source: str | None = None) -> RecordText:
    """Split ``text`` into header tags and body lines; comments and blank lines are dropped.

    Raises :class:`ParseError` with the line for a malformed or repeated tag, or a tag after
    the body has begun.
    """
    record = RecordText(source=source)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        if line.startswith("["):
            if record.body:
                raise record.error("a header tag after the moves", number)
            match = _TAG_LINE.match(line)
            if match is None:
                raise record.error(f'malformed tag {line!r}: expected [Name "value"]', number)
            name, value = match.group(1), _unescape(match.group(2))
            if name in record.tags:
                raise record.error(
                    f"tag {name} repeats (first on line {record.tag_lines[name]})", number
                )
            record.tags[name] = value
            record.tag_lines[name] = number
        else:
            record.body.append((number, line))
    return record


def _strip_comment(line: str) -> str:
    # A ';' inside a quoted tag value is text, not a comment.
    in_quotes = escaped = False
    for i, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = in_quotes
        elif char == '"':
            in_quotes = not in_quotes
        elif char == COMMENT and not in_quotes:
            return line[:i]
    return line


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
