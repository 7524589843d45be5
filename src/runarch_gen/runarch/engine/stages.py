"""The stages of a RunArch position: choosing the setup, playing turns, placing a gained bet
token (§6.2, at once) and the end."""

SETUP_STAGE, PLAY, BET, OVER = 0, 1, 2, 3

__all__ = ["BET", "OVER", "PLAY", "SETUP_STAGE"]
