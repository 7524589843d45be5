"""RunArch: the game's atoms, boards, decks, rules engine and print-and-play kit."""
