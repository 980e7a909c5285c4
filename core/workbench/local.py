"""What an interface does on this machine by itself, with the same helpers core uses: write a file it
owns (the UI state, the REST token, an export) atomically, and check that an address is loopback
before serving on it. Stateless, so they are functions here rather than methods of a Workbench: the
REST token and the UI state are written where no workbench need be open."""

from __future__ import annotations

from core.fsutil import atomic_write_bytes, atomic_write_text
from core.loopback import is_loopback_address

__all__ = ["atomic_write_bytes", "atomic_write_text", "is_loopback_address"]
