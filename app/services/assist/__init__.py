"""The solver's part: hints, "still winnable?", analysis, winnable-only deals, par, the odds."""
