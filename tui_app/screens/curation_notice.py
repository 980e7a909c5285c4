"""The home screen's overdue-review banner.

Kept apart from the curation screens so the app's start-up imports only this (no scan machinery).
Scopes are added with ``reverie curate scope add`` while the app may be open, so the ``[curation]``
table is read from the home's ``config.toml`` each time (``Curation.live_config``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from core.errors import ReverieError
from tui_app.views.data import HomeSummary, Notice

if TYPE_CHECKING:
    from tui_app.screens.session import Session


def curation_notices(session: Session, summary: HomeSummary) -> Iterable[Notice]:
    """The weekly review, when a scope is overdue (reads ``runs.jsonl`` only; never moves anything).
    Settings that cannot be read are said here too, instead of failing the whole home screen."""
    try:
        text = session.workbench.curation_overdue(session.now(), live=True)
    except ReverieError as exc:
        yield Notice("error", f"Curation cannot check its weekly review: {exc}")
        return
    if text:
        yield Notice("warning", text, key_hint="c")
