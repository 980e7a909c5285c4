"""How many threads an embedding model may use: by default every core this process may run on.

``embedding.threads = 0`` (the default) means "all of them"; a positive setting lowers (or fixes) it,
for a machine where other work must keep a core. The process's CPU affinity counts, not the
machine's core count: inside a container or under ``taskset`` only the allowed cores are used.
"""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (its affinity set), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux: no affinity call
        return max(1, os.cpu_count() or 1)


def resolve_threads(setting: int) -> int:
    """``setting`` when positive, else :func:`available_cores`."""
    if setting < 0:
        raise ValueError(f"embedding.threads must be 0 (all cores) or more, got {setting}")
    return setting if setting > 0 else available_cores()
