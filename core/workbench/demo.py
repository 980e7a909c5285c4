"""The demo home, for ``reverie demo``: sample drafts, memories, a conversation log and a curation
history, built by :mod:`core.demo` in a new or empty folder with cheap key-derivation parameters. The
app opens it like any home, through a :class:`~core.workbench.home.Workbench`."""

from __future__ import annotations

from core.demo.build import DemoHome, build_demo_home

__all__ = ["DemoHome", "build_demo_home"]
