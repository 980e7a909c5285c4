"""A stylesheet that parses the app's CSS again only when something it depends on changed.

Textual refreshes the whole stylesheet (``App.refresh_css``: set the variables, re-parse every
source, restyle) whenever a mode's screen is shown for the first time, twice per new mode in
Textual 8, and each refresh starts from an empty parse cache. With the app's ``app.tcss`` (500
lines) that was 20–50 ms per refresh on this machine, two or three times before the first frame and
twice on each section's first switch, for rules that came out identical every time.

Parsed rules depend only on the CSS sources and the CSS variables (the theme). This stylesheet
keeps both from its last parse and skips a re-parse that would see the same ones; a new source is
still parsed when it is added (Textual's own ``parse`` on demand), a new theme still re-parses
everything, and the restyle that follows a refresh always runs.
"""

from __future__ import annotations

from textual.css.stylesheet import CssSource, Stylesheet
from textual.css.types import CSSLocation


class ReusingStylesheet(Stylesheet):
    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.variables_now: dict[str, str] = dict(variables or {})
        self.parsed_from: tuple[dict[str, str], dict[CSSLocation, CssSource]] | None = None
        self.full_parses = 0  # parses that started from an empty cache (the tests read it)

    def set_variables(self, variables: dict[str, str]) -> None:
        """Textual's, which also empties the parse cache: only when the variables changed."""
        if variables == self.variables_now:
            return
        self.variables_now = dict(variables)
        super().set_variables(variables)

    def parse(self) -> None:
        """Textual's parse, through the stylesheet's cache (one entry per source, its text, priority and
        scope: only a new or changed source is parsed)."""
        if self.parsed_from is None or self.parsed_from[0] != self.variables_now:
            self.full_parses += 1
        super().parse()
        self.parsed_from = (dict(self.variables_now), dict(self.source))

    def reparse(self) -> None:
        """Nothing when neither the variables nor the sources changed since the last parse; otherwise a
        parse of what changed. (Textual's own re-parses every source into a new, empty stylesheet.)"""
        if self.parsed_from != (self.variables_now, self.source):
            self.parse()
