"""The curation settings as the home holds them now, and the home screen's overdue-review banner.

Kept apart from the curation screens so the app's start-up imports only this (no scan machinery).
Scopes are added with ``reverie curate scope add`` while the app may be open, so the ``[curation]``
table is read from the home's ``config.toml`` each time instead of from the settings the app started
with; everything else comes from the session.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from core.config import Config, load_config
from core.curate import overdue_notice
from core.errors import ReverieError
from tui_app.screens.session import Session
from tui_app.views.data import HomeSummary, Notice


def live_config(session: Session) -> Config:
    """The session's settings with the ``[curation]`` table as ``config.toml`` holds it now."""
    if not session.paths.config.exists():
        return session.config
    return dataclasses.replace(session.config, curation=load_config(session.paths.config).curation)


def curation_notices(session: Session, summary: HomeSummary) -> Iterable[Notice]:
    """The weekly review, when a scope is overdue (reads ``runs.jsonl`` only; never moves anything).
    Settings that cannot be read are said here too, instead of failing the whole home screen."""
    try:
        text = overdue_notice(session.paths, live_config(session), session.now())
    except ReverieError as exc:
        yield Notice("error", f"Curation cannot check its weekly review: {exc}")
        return
    if text:
        yield Notice("warning", text, key_hint="c")
