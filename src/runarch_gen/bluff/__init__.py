"""Bluff, the Czech Liar's Dice: rules, engine, odds, bots and the exact solver.

The rules as implemented are ``docs/rules/bluff.md``; decisions carry ``[L-nn]`` tags.
"""
