"""Cold storage: move a record out of its scope with a tombstone, restore it byte for byte, and
finish or roll back whatever a crash interrupted.

By concern: ``site`` holds a move's folders open (never through a symlink), ``journal`` records an
operation in progress, ``move`` and ``restore`` do the work step by step, ``ledger_entries`` says
what the signed ledger records and checks a restore against it, ``recovery`` finishes what a kill
interrupted, ``locate`` finds a tombstone from what the person names, ``listing`` lists cold storage.
Callers hold the curation lock. The names callers use are importable from this package.
"""

from core.curate.cold.journal import StepHook, no_steps, pending_operations
from core.curate.cold.listing import ColdItem, list_cold
from core.curate.cold.locate import sha256_of
from core.curate.cold.move import MOVE_STEPS, Moved, move_record
from core.curate.cold.recovery import Recovery, recover
from core.curate.cold.restore import RESTORE_STEPS, Restored, restore_record

__all__ = [
    "MOVE_STEPS", "RESTORE_STEPS", "ColdItem", "Moved", "Recovery", "Restored", "StepHook", "list_cold",
    "move_record", "no_steps", "pending_operations", "recover", "restore_record", "sha256_of",
]
