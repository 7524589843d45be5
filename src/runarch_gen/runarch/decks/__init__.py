"""Cards and decks: the Card/Deck/Goal values, goals and their odds, the CP-SAT deck generator, the
checker and the readers and writers.
"""
