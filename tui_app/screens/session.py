"""What every screen of an unlocked app works with: the home's paths, its settings and the open vault.

The app builds one :class:`Session` when the vault is unlocked and drops it when it locks, so
nothing that holds keys or decrypted records outlives the lock. Screens receive it in their
constructor, which is what lets a test hand the app a vault in a temporary folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from core.workbench import when
from tui_app.widgets.editor import ExternalEditor, edit_in_terminal_editor

if TYPE_CHECKING:  # the vault and the workbench load with the session, not with the screens' modules
    from core.config import Config
    from core.paths import HomePaths
    from core.vault.store import MemoryStore
    from core.workbench import Workbench


@dataclass(frozen=True)
class Session:
    paths: HomePaths
    config: Config
    workbench: Workbench = field(repr=False)  # every use case goes through it (capture, search, finalize…)
    zone: tzinfo
    label: str = ""  # shown in the section bar ("demo" for a demo home)
    editor: ExternalEditor = edit_in_terminal_editor  # $EDITOR through App.suspend; tests pass a fake

    @property
    def vault(self) -> MemoryStore:
        """The one vault of the process (the workbench's: locking forgets its keys), opened on first
        use, which is in a screen's worker: the first frame does not wait for the vault code."""
        return self.workbench.vault

    @property
    def reviewer(self) -> str:
        """The name recorded on accept, reject and approve (``general.reviewer``)."""
        return self.config.general.reviewer

    @staticmethod
    def now() -> datetime:
        """The current time, read through the workbench's clock so tests can freeze it."""
        return when.utc_now()
