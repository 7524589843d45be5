"""Board layouts: the Board value, the checker, the exact sampler, the CP-SAT model and the readers
and writers.
"""
