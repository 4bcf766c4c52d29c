"""Players: who they are, their profiles, pruning, limits on new arrivals."""
