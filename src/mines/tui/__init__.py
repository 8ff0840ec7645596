"""The terminal front end: the Textual game, replays, saved records and stats, games on a server."""

THEME_NAMES = ("classic", "colorblind", "mono")
"""The names of `themes.THEMES`, here so that option parsing need not import Textual."""
