"""A screen composed and laid out before it is first shown, so that showing it only paints it.

Textual composes a screen when it is registered with the app, which it does on the screen's first
showing (``App._get_screen``), and lays it out when it becomes current (``Screen._on_screen_resume``):
for one of the app's sections that was 100-250 ms of a first switch under load, against 10-30 ms to
show it again (``tests/bench/bench_tui_start.py``). There is no public API to do either earlier, so
this module holds the private Textual calls that do (``App._register``, ``Screen._refresh_layout``),
each looked up by name: with a Textual that lacks one, nothing is done ahead and the screen is made
on its first switch as before.

The screen is registered without being put on any screen stack: it is not current, so nothing is
drawn and no key reaches it; its compose, mount and worker handlers run as they would on screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widget import AwaitMount

if TYPE_CHECKING:
    from textual.app import App
    from textual.geometry import Size
    from textual.screen import Screen


async def compose_offscreen(app: App[object], screen: Screen[object]) -> bool:
    """Register ``screen`` with ``app`` and wait until it is composed and mounted (what Textual does
    on its first showing). False, and nothing done, when this Textual has no way to."""
    register = getattr(app, "_register", None)
    if register is None or screen.is_running:
        return False
    await AwaitMount(screen, register(app, screen))
    return True


def lay_out_offscreen(screen: Screen[object], size: Size) -> bool:
    """Lay ``screen`` out at ``size`` while it is not shown: its widgets get their sizes (``Resize``
    and ``Show`` events, as on screen), and the screen's first showing finds it laid out at that
    size (Textual lays it out again only when the window's size differs by then)."""
    refresh_layout = getattr(screen, "_refresh_layout", None)
    if refresh_layout is None or screen.is_current or not screen.is_attached:
        return False
    refresh_layout(size)
    return True


def paint_now(screen: Screen[object], size: Size) -> bool:
    """Lay out and paint ``screen``, just made current, now. Textual does this on a screen's first
    showing (in ``Screen._on_screen_resume``, since its size is new) but not for one laid out ahead,
    which it then painted only at the next layout a widget asked for (40-60 ms later)."""
    refresh_layout = getattr(screen, "_refresh_layout", None)
    if refresh_layout is None or not screen.is_current:
        return False
    refresh_layout(size)
    return True
