"""Whether a set can be played (RULES.md §9): static checks with proofs, the dynamic check and the
verdict.
"""
