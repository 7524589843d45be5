"""runarch-gen: boards, balanced decks, print-and-play kits and a rules engine for RunArch.

The package is layered; each layer imports only the ones before it:

- :mod:`runarch_gen.errors`, :mod:`runarch_gen.fileio`, :mod:`runarch_gen.progress`: plumbing;
- :mod:`runarch_gen.pnp` (rendering primitives, sheet imposition) and :mod:`runarch_gen.play`
  (engine interface, simulation runner): generic layers shared by every game this tool carries;
- :mod:`runarch_gen.runarch`: the RunArch game itself (atoms, boards, decks, rules, kit);
- :mod:`runarch_gen.cli`: the command line, which nothing imports.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
