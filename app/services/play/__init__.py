"""Playing: games and their stored moves, the life of a game, deals, the daily deal, replays."""
