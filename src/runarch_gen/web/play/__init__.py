"""Playing the family's games in the browser against the bots (the workshop's ``/play``).

- :mod:`.session` — one game: its state on the server, the seats, the bots and their delay,
  undo, and each seat's answers made from its observation only;
- :mod:`.store` — the server's games: ids, owners, limits, idle games ended;
- :mod:`.setup` — a new game's form checked in full;
- :mod:`.view` — how a game is shown (the generic renderer) and :mod:`.games` the games with a
  page of their own;
- :mod:`.routes` — the play API.
"""
