"""Home's counts and activity are read through the workbench's review service, and the interfaces'
clock is the one core reads (a frozen ``core.clock`` freezes it too)."""

from __future__ import annotations

from datetime import datetime

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from core.workbench import Workbench, when
from tests.helpers.tui import demo_fixture, frozen_clock_fixture, tui_config  # noqa: F401 (fixtures)
from tui_app.screens.session import Session
from tui_app.views.data import load_home_summary


class _NoVaultSession(Session):
    """A session whose vault is out of reach: every read has to go through the workbench."""

    @property
    def vault(self) -> MemoryStore:
        raise AssertionError("Home read session.vault instead of the workbench")


def test_home_summary_reads_drafts_and_memories_through_the_workbench(demo: DemoHome) -> None:
    config = tui_config()
    workbench = Workbench(demo.paths, config)
    workbench.adopt_keys(demo.keys)
    session = _NoVaultSession(paths=demo.paths, config=config, workbench=workbench, zone=config.zone())
    summary = load_home_summary(session, verify=False)
    drafts = workbench.vault.list_drafts()
    memories = workbench.vault.list_memories()
    assert summary.memories == len(memories) > 0
    assert summary.open_drafts == sum(1 for d in drafts if d.state == "open") > 0
    assert summary.approved_drafts == sum(1 for d in drafts if d.state == "approved")
    assert summary.reviewed_memories == sum(1 for m in memories if m.reviewed)
    assert sum(summary.activity) > 0
    assert summary.verification is None


def test_the_interfaces_clock_follows_a_frozen_core_clock(frozen_clock: datetime) -> None:
    assert when.utc_now() == frozen_clock
    assert Session.now() == frozen_clock
    assert when.parse_now(None, frozen_clock.tzinfo) == frozen_clock  # type: ignore[arg-type]
