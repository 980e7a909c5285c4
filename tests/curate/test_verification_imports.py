"""Verifying a home reads tombstones without importing the record kinds' readers (yaml and the
front-matter parser): the TUI imports the verification while the keys are derived."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_verification_modules_do_not_import_the_record_kinds() -> None:
    code = ("import sys, core.workbench.verify, core.curate.integrity, core.curate.tombstone\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] == 'yaml'"
            " or m in ('core.curate.kinds', 'core.curate.scopes', 'core.curate.frontmatter'))))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    assert not loaded, f"the verification imports {loaded[:5]}"


def test_the_tombstone_suffix_is_still_skipped_by_the_kinds() -> None:
    from core.curate import kinds, tombstone

    assert kinds.TOMBSTONE_SUFFIX == tombstone.TOMBSTONE_SUFFIX == ".tombstone"
