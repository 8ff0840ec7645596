"""The server's work, free of HTTP: games, accounts, races, reviews, boards, live updates."""
