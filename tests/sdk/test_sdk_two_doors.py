"""One vault, two front doors: what the SDK stores is an ordinary Reverie memory or draft, and what
Reverie stores (the TUI, the CLI) is visible through the SDK."""

from __future__ import annotations

import json

from click.testing import CliRunner

from core.export import HomeExporter
from core.paths import HomePaths
from core.sdk import MemoryVault, ReviewState
from core.vault.crypto import unlock
from core.vault.store import MemoryStore
from tests.sdk.conftest import KEY, open_vault
from tui_app.cli.main import cli


def reverie(isolated_home: HomePaths, *args: str) -> CliRunner:
    result = CliRunner().invoke(cli, ["--home", str(isolated_home.root), *args], env={"REVERIE_PASSPHRASE": KEY})
    return result


def store_of(paths: HomePaths) -> MemoryStore:
    return MemoryStore.open(paths, unlock(paths.vault_header, KEY))


def test_the_cli_lists_and_verifies_what_the_sdk_created(vault: MemoryVault, isolated_home: HomePaths) -> None:
    plain = vault.create("Made by an application.", tags=["sdk"])
    draft = vault.create_draft("Reviewed through the SDK.", tags=["family"])
    draft = draft.add_suggestion("location", "Seoul", "echo", suggestion_id="s").accept("s", reviewer="parent")
    reviewed = vault.finalize_draft(draft.approve(reviewer="parent"))
    listed = reverie(isolated_home, "memory", "list", "--json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.output)
    assert len(rows) == 2 and plain.id in listed.output and reviewed.id in listed.output
    assert "Made by an application." in listed.output and "parent" in listed.output  # content, approver
    checked = reverie(isolated_home, "verify")  # exit 0: every record, the ledger and the drafts check
    assert checked.exit_code == 0, checked.output


def test_cli_verify_names_a_record_changed_behind_the_sdk(vault: MemoryVault, isolated_home: HomePaths) -> None:
    memory = vault.create("Will be damaged.", tags=["a"])
    path = isolated_home.vault / f"{memory.id}.json"
    path.write_bytes(path.read_bytes().replace(b'"record_version": 1', b'"record_version": 2'))
    result = reverie(isolated_home, "verify")
    assert result.exit_code == 1 and memory.id in result.output
    assert not vault.verify(memory)


def test_reverie_drafts_are_visible_to_the_sdk(vault: MemoryVault, isolated_home: HomePaths) -> None:
    store = store_of(isolated_home)
    made = store.create_draft("Captured in the TUI.", ["family"])
    made = made.add_suggestion("title", "A title", "local-suggester", suggestion_id="t")
    store.save_draft(made)
    seen = vault.get_draft(made.draft_id)
    assert seen is not None and seen.state is ReviewState.OPEN and seen.pending_suggestion_ids == ("t",)
    assert seen.suggestions[0].source == "local-suggester"
    decided = vault.save_draft(seen.accept("t", reviewer="me", value="A better title").approve(reviewer="me"))
    again = store.get_draft(made.draft_id)  # and Reverie reads the SDK's decisions
    assert again.state == "approved" and again.approval is not None and again.approval.reviewer == "me"
    assert again.decisions[0].edited and again.resolved_fields()["title"] == "A better title"
    assert again.created_by == made.created_by
    memory = store.finalize_draft(again)  # finalized by Reverie …
    assert vault.finalized_memory_id(decided.draft_id) == memory.memory_id  # … is finalized for the SDK
    assert vault.get_draft(decided.draft_id).state is ReviewState.APPROVED  # type: ignore[union-attr]
    view = vault.get(memory.memory_id)
    assert view is not None and vault.verify(view) and view.metadata.custom["review"]["completed_by"] == "me"


def test_sdk_drafts_are_in_reverie_review_queue(vault: MemoryVault, isolated_home: HomePaths) -> None:
    draft = vault.create_draft("Proposed through the SDK.", tags=["family"])
    vault.save_draft(draft.add_suggestion("mood", "happy", "echo", model="m", confidence=0.5, suggestion_id="m"))
    queued = store_of(isolated_home).list_drafts(state="open")
    assert [d.draft_id for d in queued] == [draft.draft_id]
    assert queued[0].suggestions[0].model == "m" and queued[0].pending_suggestions()[0].suggestion_id == "m"
    listed = reverie(isolated_home, "draft", "list")
    assert listed.exit_code == 0 and draft.draft_id in listed.output


def test_reverie_exports_and_memories_include_sdk_memories(vault: MemoryVault, isolated_home: HomePaths) -> None:
    memory = vault.create("Exported by Reverie too.", tags=["sdk"])
    store = store_of(isolated_home)
    assert memory.id in store.verified_ids()
    chunks = HomeExporter(store).to_rag_chunks()
    assert [c.metadata["memory_id"] for c in chunks] == [memory.id] and chunks[0].metadata["verified"]
    later = store.add_memory("Added through Reverie.", ["cli"])
    assert vault.get(later.memory_id) is not None  # the SDK picks up memories added meanwhile
    assert vault.verify(later.memory_id)


def test_a_memory_moved_away_leaves_the_sdk_view(vault: MemoryVault, isolated_home: HomePaths) -> None:
    memory = vault.create("Will move to cold storage.", tags=["old"])
    target = isolated_home.root / "moved.json"
    (isolated_home.vault / f"{memory.id}.json").rename(target)
    assert vault.get(memory.id) is None and vault.list() == [] and not vault.verify(memory.id)
    reopened: MemoryVault = open_vault(isolated_home)
    assert len(reopened) == 0


def test_the_sdk_opens_the_home_through_the_workbench(vault: MemoryVault, isolated_home: HomePaths) -> None:
    assert isolated_home.config.exists()  # made as `reverie init` makes a home
    memory = vault.create("Checked by the application layer.", tags=["sdk"])
    assert vault.workbench.vault is vault.store
    report = vault.workbench.verify()
    assert not report.problems and memory.id in vault.store.verified_ids()
