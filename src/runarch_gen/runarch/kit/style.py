"""How much ink the kit uses: full colour, or print-friendly (light fills and outlines).

>>> from runarch_gen.runarch.atoms import Colour
>>> cfg = load_kit_config()
>>> full, friendly = Style.make(cfg, friendly=False), Style.make(cfg, friendly=True)
>>> full.field(Colour.RED).rgb, friendly.field(Colour.RED).rgb
((213, 94, 0), (235, 177, 131))
"""

from __future__ import annotations

from dataclasses import dataclass

from runarch_gen.pnp.paint import WHITE, Paint
from runarch_gen.runarch.atoms import Colour
from runarch_gen.runarch.kit.config import KitConfig, load_kit_config
from runarch_gen.runarch.kit.glyphs import PALETTE

__all__ = ["Style", "load_kit_config"]


@dataclass(frozen=True, slots=True)
class Style:
    """The paints of one kit. ``friendly`` swaps solid fields for light tints with coloured
    outlines, and dark full-bleed areas (card backs, the black player) for white with lines."""

    friendly: bool
    ink: Paint
    paper: Paint
    line: Paint
    card_back: Paint
    accent: Paint
    frame: Paint
    milestone: Paint
    gold: Paint
    silver: Paint
    players: tuple[tuple[Paint, Paint], ...]

    @staticmethod
    def make(config: KitConfig, *, friendly: bool) -> Style:
        players = tuple(config.player_paints())
        if friendly:
            # A dark player colour becomes a light grey with dark ink to save toner, still
            # telling the players apart.
            players = tuple(
                (Paint((196, 196, 196)), config.ink("ink")) if fill.luminance < 0.3 else (fill, ink)
                for fill, ink in players
            )
        return Style(
            friendly=friendly,
            ink=config.ink("ink"),
            paper=config.ink("paper"),
            line=config.ink("friendly_line") if friendly else config.ink("ink"),
            card_back=WHITE if friendly else config.ink("card_back"),
            accent=config.ink("card_back_accent"),
            frame=WHITE if friendly else config.ink("frame"),
            milestone=config.ink("frame_milestone").mix(WHITE, 0.6)
            if friendly
            else config.ink("frame_milestone"),
            gold=config.ink("gold").mix(WHITE, 0.55) if friendly else config.ink("gold"),
            silver=config.ink("silver").mix(WHITE, 0.55) if friendly else config.ink("silver"),
            players=players,
        )

    def colour(self, colour: Colour) -> Paint:
        """The colour at full strength (outlines, swatches)."""
        ink = PALETTE[colour]
        return Paint(ink.rgb, ink.cmyk)

    def field(self, colour: Colour) -> Paint:
        """The fill of a coloured area: full colour, or its light tint when print-friendly."""
        ink = PALETTE[colour]
        return Paint(ink.light) if self.friendly else Paint(ink.rgb, ink.cmyk)

    def shade(self, colour: Colour) -> Paint:
        """A darker shade of the colour, for lines drawn on its own field."""
        return self.colour(colour).mix(Paint((0, 0, 0)), 0.3)
