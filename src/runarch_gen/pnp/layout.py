"""Layouts as data: component boxes (cut line, bleed, safe zone, named areas) and the TOML
templates they are read from, with designer overrides merged on top.

A component's areas are measured in mm from the top-left corner of its cut line, as in
Squib's layouts; a template file holds tables like::

    [components.card]
    width = 88.9
    height = 63.5
    safe = 3.0
    corner_radius = 3.0
    double_sided = true

    [components.card.areas]
    goal = { x = 4.0, y = 4.0, width = 64.0, height = 16.0 }

>>> layout = ComponentLayout.from_table("chip", {"width": 20, "height": 20, "shape": "circle"})
>>> layout.cut, layout.is_round
(Box(x=0.0, y=0.0, width=20.0, height=20.0), True)
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from runarch_gen.errors import InputError
from runarch_gen.fileio import display_name, read_text
from runarch_gen.pnp.geometry import Box
from runarch_gen.textdata import loads_toml

Table = dict[str, Any]

_RESERVED = {"width", "height", "shape", "safe", "corner_radius", "double_sided", "areas"}


def templates_dir() -> Path:
    """Where the bundled templates live: inside the installed package first (a wheel carries
    them as ``runarch_gen/templates``), else the source tree's ``templates/`` folder."""
    installed = resources.files("runarch_gen") / "templates"
    if isinstance(installed, Path) and installed.is_dir():
        return installed
    source = Path(__file__).resolve().parents[3] / "templates"
    if source.is_dir():
        return source
    raise InputError("the bundled templates folder is missing: reinstall runarch-gen")


def read_toml(path: str | os.PathLike[str]) -> Table:
    """A TOML file as a dict; a syntax error becomes a :class:`ParseError` naming the file."""
    return loads_toml(read_text(path), display_name(path))


def merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> Table:
    """``base`` with ``override`` laid over it: tables merge key by key, anything else is
    replaced. Neither argument is changed."""
    out: Table = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def number(table: Mapping[str, Any], key: str, where: str, *, positive: bool = False) -> float:
    """``table[key]`` as a float, or an :class:`InputError` naming ``where`` and the key."""
    if key not in table:
        raise InputError(f"{where}: missing '{key}'")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: '{key}' must be a number, not {value!r}")
    if value < 0 or (positive and value == 0):
        sign = "positive" if positive else "zero or more"
        raise InputError(f"{where}: '{key}' must be {sign}, not {value!r}")
    return float(value)


@dataclass(frozen=True, slots=True)
class ComponentLayout:
    """One component's geometry: cut size, outline shape, safe inset, corner radius, named
    areas, whether it has a back, and any further values its drawing reads."""

    name: str
    width: float
    height: float
    shape: str = "rect"
    safe: float = 3.0
    corner_radius: float = 0.0
    double_sided: bool = False
    areas: dict[str, Box] = field(default_factory=dict, hash=False, compare=False)
    values: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def cut(self) -> Box:
        return Box(0.0, 0.0, self.width, self.height)

    @property
    def safe_box(self) -> Box:
        return self.cut.inset(self.safe)

    @property
    def is_round(self) -> bool:
        return self.shape == "circle"

    def bleed_box(self, bleed: float) -> Box:
        return self.cut.inset(-bleed)

    def area(self, name: str) -> Box:
        try:
            return self.areas[name]
        except KeyError:
            raise InputError(f"component '{self.name}' has no area '{name}'") from None

    def value(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def resized(self, width: float, height: float) -> ComponentLayout:
        """The same layout with another cut size (areas kept as they are)."""
        return ComponentLayout(
            self.name,
            width,
            height,
            self.shape,
            self.safe,
            self.corner_radius,
            self.double_sided,
            self.areas,
            self.values,
        )

    @staticmethod
    def from_table(name: str, table: Mapping[str, Any]) -> ComponentLayout:
        """Read ``[components.NAME]``; errors name the component and the key."""
        where = f"component '{name}'"
        width = number(table, "width", where, positive=True)
        height = number(table, "height", where, positive=True)
        shape = table.get("shape", "rect")
        if shape not in ("rect", "circle"):
            raise InputError(f'{where}: \'shape\' must be "rect" or "circle", not {shape!r}')
        safe = number(table, "safe", where) if "safe" in table else 3.0
        radius = number(table, "corner_radius", where) if "corner_radius" in table else 0.0
        if 2 * safe >= min(width, height):
            raise InputError(f"{where}: 'safe' {safe} leaves no room inside {width} × {height}")
        double_sided = table.get("double_sided", False)
        if not isinstance(double_sided, bool):
            raise InputError(f"{where}: 'double_sided' must be true or false")
        areas: dict[str, Box] = {}
        raw_areas = table.get("areas", {})
        if not isinstance(raw_areas, Mapping):
            raise InputError(f"{where}: 'areas' must be a table")
        cut = Box(0.0, 0.0, width, height)
        for area_name, spec in raw_areas.items():
            area_where = f"{where} area '{area_name}'"
            if not isinstance(spec, Mapping):
                raise InputError(f"{area_where}: expected {{ x, y, width, height }}")
            box = Box(
                number(spec, "x", area_where),
                number(spec, "y", area_where),
                number(spec, "width", area_where, positive=True),
                number(spec, "height", area_where, positive=True),
            )
            if not cut.contains(box):
                raise InputError(f"{area_where}: lies outside the {width} × {height} cut line")
            areas[area_name] = box
        values = {k: v for k, v in table.items() if k not in _RESERVED}
        return ComponentLayout(
            name, width, height, shape, safe, radius, double_sided, areas, values
        )
