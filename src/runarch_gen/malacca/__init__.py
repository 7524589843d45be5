"""Malacca: a pirate card game of hidden action cards and open coin stakes (2–8 players).

Rules: ``docs/rules/malacca.md`` (decisions tagged [M-nn]). Layers: :mod:`.rules` (cards,
characters, equipment, options) → :mod:`.resolve` (one round, a pure function) →
:mod:`.engine` (the game on the family core) → :mod:`.bots` → :mod:`.register`;
:mod:`.script` reads and writes rounds as JSON for ``runarch-gen malacca resolve``.
"""
