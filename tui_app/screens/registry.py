"""The sections of the app: one entry per top-level screen, and the home screen's banner providers.

Each :class:`Section` becomes a Textual mode (its own screen stack) once the vault is unlocked, a
global key (``section.<name>``, an F-key), a letter on the home screen (``home.<name>``), an entry
in the section bar at the top, and a command in the palette. Screens are imported only when their
section is first opened, so start-up stays light.

To add a screen, append a ``Section`` here whose ``screen`` names a ``ReverieScreen`` subclass
taking the session as its only argument (see ``tui_app/screens/__init__.py`` for the steps).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui_app.screens.base import ReverieScreen
    from tui_app.views.data import NoticeProvider


@dataclass(frozen=True)
class Section:
    name: str  # the mode name; binding ids are section.<name> and home.<name>
    title: str  # shown in the section bar and the command palette
    key: str  # the global key: an F-key reaches every terminal, over SSH and tmux too
    screen: str  # "package.module:ClassName", imported lazily
    description: str  # the binding's tooltip and the palette's help line
    home_key: str | None = None  # a letter that opens it from the home screen
    short: str = ""  # the section bar's name when the full titles do not fit (80 columns); title if empty

    @property
    def short_title(self) -> str:
        return self.short or self.title

    def load(self) -> type[ReverieScreen]:
        module_name, _, class_name = self.screen.partition(":")
        screen_class: type[ReverieScreen] = getattr(importlib.import_module(module_name), class_name)
        return screen_class


SECTIONS: list[Section] = [
    Section(
        "home",
        "Home",
        "f2",
        "tui_app.screens.home:HomeScreen",
        "Counts of drafts and memories, verification, activity",
    ),
    Section(
        "queue",
        "Review",
        "f3",
        "tui_app.screens.queue:ReviewQueueScreen",
        "Drafts by state: review suggestions, approve, finalize",
        home_key="r",
    ),
    Section(
        "memories",
        "Memories",
        "f4",
        "tui_app.screens.memories:MemoriesScreen",
        "Finalized memories with reviewed badge, verification and provenance",
        home_key="m",
    ),
    Section(
        "search",
        "Search",
        "f5",
        "tui_app.screens.search:SearchScreen",
        "Search turns and memories: time words bound the range, results in order",
        home_key="s",
    ),
    Section(
        "topics",
        "Topics",
        "f6",
        "tui_app.screens.topics:TopicsScreen",
        "Topic markers, newest first: where each conversation is, in your words",
        home_key="t",
    ),
    Section(
        "curation",
        "Curation",
        "f7",
        "tui_app.screens.curation:CurationScreen",
        "Candidates by tier with signals and guards: approve, reject, move after a dry run",
        home_key="c",
    ),
    Section(
        "cold",
        "Cold storage",
        "f8",
        "tui_app.screens.cold:ColdStorageScreen",
        "What curation moved, when and why; restore byte for byte, verified",
        home_key="k",
        short="Cold",
    ),
]

HOME_SECTION = "home"

# Lines for the home screen's banner (approved drafts waiting, verification problems; the curation
# engine adds its overdue-review notice here), as "module:function" of a ``NoticeProvider``: each
# is imported in the home screen's worker, off the first frame, and runs there, reading only.
HOME_NOTICES: list[str] = [
    "tui_app.views.data:verification_notices",
    "tui_app.views.data:review_notices",
    "tui_app.screens.curation_notice:curation_notices",
    "tui_app.views.data:index_notices",
]


def notice_providers(names: list[str] | None = None) -> list[NoticeProvider]:
    """The banner's providers named in ``HOME_NOTICES`` (or ``names``), imported now."""
    providers: list[NoticeProvider] = []
    for name in HOME_NOTICES if names is None else names:
        module_name, _, function = name.partition(":")
        providers.append(getattr(importlib.import_module(module_name), function))
    return providers


def section(name: str) -> Section:
    for candidate in SECTIONS:
        if candidate.name == name:
            return candidate
    raise KeyError(f"no section {name!r}")
