"""One router per resource: lobby, games (pages and actions), prefs, rules, api, health."""
