"""Curation that never deletes: scopes, a rubric of signals and guards, measured thresholds, cold
storage with tombstones and verified restore, and a rubric that learns from restores.

Delete nothing → move → restore any time → therefore safe. The only ``unlink`` of an original
record in this package happens in :func:`core.curate.cold.move.move_record`, after a verified copy, a
tombstone and a ledger entry exist.

Where things are: ``engine`` puts the pieces together (scan and apply); ``kinds`` and ``scopes`` find
and read each scope's records; ``signals``, ``judge``, ``rubric`` and ``calibration`` decide the tiers;
``cold``, ``tombstone`` and ``dirfd`` move and restore (``integrity``: how ``reverie verify`` checks cold
storage); ``learning``, ``decisions``, ``runs`` and ``schedule`` keep what the person decided, when it
ran and when it is due; ``frontmatter`` and ``mdtext`` read agent memory files.
"""

from core.curate.runs import overdue_notice

__all__ = ["overdue_notice"]
