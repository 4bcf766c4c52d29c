"""Statistics: a player's figures and the daily tables."""
