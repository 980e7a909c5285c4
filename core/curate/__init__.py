"""Curation that never deletes: scopes, a rubric of signals and guards, measured thresholds, cold
storage with tombstones and verified restore, and a rubric that learns from restores.

Delete nothing → move → restore any time → therefore safe. The only ``unlink`` of an original
record in this package happens in :func:`core.curate.cold.move_record`, after a verified copy, a
tombstone and a ledger entry exist.

Modules, one concern each:

``model``        the record, candidate and threshold types shared by every module
``frontmatter``  the small YAML subset agent memory files use, and dates in it
``mdtext``       links, wiki links, imports and supersession phrases in markdown text
``kinds``        how each scope kind (vault, claude-code, codex, markdown) finds and reads records
``scopes``       scopes from ``config.toml``, adding them, and path validation inside a scope
``rubric``       ``curation/rubric.toml``: signal parameters, tiers, version, tightening
``signals``      which signals and guards fire for a record
``judge``        tiers from signals, guards and thresholds
``calibration``  natural breaks, ``curation/calibration.json``, shift detection, histograms
``tombstone``    the tombstone format and its validation
``dirfd``        folders held open by descriptor (no symlink followed) for every write of a move or restore
``cold``         move, verified restore, crash recovery, cold listing
``integrity``    cold storage as ``reverie verify`` checks it (copies, tombstones, journals)
``learning``     ``curation/restores.jsonl``, tightening, ``curation/changelog.md``
``decisions``    the person's approve / reject decisions
``runs``         ``curation/runs.jsonl``, status, overdue reminders
``schedule``     a systemd user timer or a cron line for the weekly run
``engine``       scan and apply: the pieces above put together
"""

from core.curate.runs import overdue_notice

__all__ = ["overdue_notice"]
