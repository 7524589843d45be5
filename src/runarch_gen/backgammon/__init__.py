"""Vrhcáby (backgammon): rules, move generation, the engine with the doubling cube and match
play, gnubg Position and Match IDs, notation, match records, bots and probability tables.

The rules as implemented are in ``docs/rules/backgammon.md`` (decisions tagged ``[V-nn]``).

>>> from runarch_gen.backgammon.board import START, legal_plays
>>> len(legal_plays(START, START, 3, 1))
16
"""
