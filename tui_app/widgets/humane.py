"""Ages and sizes as a person says them, through ``humanize`` (a design dependency), in the person's
language where humanize has it (Korean, Japanese; English otherwise).

The language is the first of ``general.languages``; the app calls :func:`use_language` once when it
starts. ``humanize`` keeps the active locale per process, which is what one TUI process needs.
"""

from __future__ import annotations

from datetime import datetime

import humanize

from tui_app.widgets.format import parse_time

HUMANIZE_LOCALES = {"ko": "ko_KR", "ja": "ja_JP"}  # languages Reverie speaks that humanize translates
_active = {"language": "en"}
JUST_NOW = {"ja": "たった今"}  # humanize 4.x has no Japanese word for "now"


def use_language(language: str) -> str:
    """Ages in ``language`` from now on (a language humanize lacks falls back to English); returns
    the language in use."""
    locale = HUMANIZE_LOCALES.get(language)
    if locale is None:
        humanize.i18n.deactivate()
        _active["language"] = "en"
    else:
        humanize.i18n.activate(locale)
        _active["language"] = language
    return _active["language"]


def language() -> str:
    return _active["language"]


def age(stamp: str | None, now: datetime) -> str:
    """How long ago ``stamp`` was, without "ago": ``5 minutes``, ``3 days``, ``a month`` (``in 4 days``
    for a future time; ``just now`` under a minute; ``—`` for none)."""
    if not stamp:
        return "—"
    delta = now - parse_time(stamp)
    if abs(delta.total_seconds()) < 60:
        return ago(stamp, now)
    if delta.total_seconds() < 0:
        return humanize.naturaltime(parse_time(stamp), when=now)
    return humanize.naturaldelta(delta)


def ago(stamp: str | None, now: datetime) -> str:
    """``5 minutes ago``, ``2日前``, ``3일 후``; ``just now`` (or its translation) under a minute."""
    if not stamp:
        return "—"
    moment = parse_time(stamp)
    if abs((now - moment).total_seconds()) < 60:
        word = humanize.naturaltime(now, when=now)  # "now" in the language in use
        return JUST_NOW.get(_active["language"], word) if word == "now" else word
    return humanize.naturaltime(moment, when=now)


def size_text(size: int) -> str:
    """``117.7 MiB``: binary units, as file sizes are counted."""
    return humanize.naturalsize(size, binary=True)
