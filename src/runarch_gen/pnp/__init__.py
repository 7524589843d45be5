"""Generic print-and-play: draw a component once, print it as PDF and preview it as PNG.

Free of any one game: a game's kit supplies component layouts (from TOML templates) and drawing
callbacks; this package supplies the drawing surface (:mod:`.surface`, with the PDF and raster
backends :mod:`.pdf` and :mod:`.raster`), fonts and text fitting (:mod:`.fonts`, :mod:`.text`),
layouts as data (:mod:`.layout`) and sheet imposition (:mod:`.sheets`).
"""

from runarch_gen.pnp.geometry import Affine, Box, Point
from runarch_gen.pnp.paint import BLACK, WHITE, Paint
from runarch_gen.pnp.surface import RecordingSurface, Stroke, Surface
from runarch_gen.pnp.text import TextStyle

__all__ = [
    "BLACK",
    "WHITE",
    "Affine",
    "Box",
    "Paint",
    "Point",
    "RecordingSurface",
    "Stroke",
    "Surface",
    "TextStyle",
]
