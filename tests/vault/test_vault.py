"""MemoryStore: drafts at rest, once-only finalization across restarts, no plaintext on disk."""

from __future__ import annotations

import os
import stat

import pytest

from core.errors import NotFound, RecordError, ReviewError, WrongPassphrase
from core.paths import HomePaths
from core.vault.crypto import KdfParams
from core.vault.records import RecordMetadata, new_record
from core.vault.store import MemoryStore
from tests.helpers.vault import PASSPHRASE, SENTENCES, finalize_reviewed, make_vault, populated


def test_seed_api_end_to_end(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft(content="She laughed when the dog sneezed.", tags=["family"])
    draft = draft.add_suggestion("location", "Seoul", source="echo", model="example-model",
                                 process_version="memory-card-v1", confidence=0.88,
                                 suggestion_id="suggestion-location")
    vault.save_draft(draft)
    restored = vault.get_draft(draft.draft_id)
    assert restored == draft
    assert [d.draft_id for d in vault.list_drafts(state="open")] == [draft.draft_id]
    draft = restored.accept("suggestion-location", reviewer="parent", value="Seoul Forest").approve(reviewer="parent")
    memory = vault.finalize_draft(draft)
    assert memory.metadata.location == "Seoul Forest"
    review = memory.metadata.custom["review"]
    assert review["original_content"] == "She laughed when the dog sneezed."
    assert review["suggestions"][0]["value"] == "Seoul" and review["suggestions"][0]["model"] == "example-model"
    assert review["decisions"][0]["value"] == "Seoul Forest" and review["approved_by"] == "parent"
    assert vault.finalized_memory_id(draft.draft_id) == memory.memory_id
    assert vault.list_drafts(state="finalized")[0].finalized_memory_id == memory.memory_id
    assert vault.get_memory(memory.memory_id) == memory


def test_only_approved_drafts_finalize(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft("not yet")
    with pytest.raises(ReviewError, match="approve it"):
        vault.finalize_draft(draft)
    assert vault.list_memories() == []


def test_finalized_once_also_after_a_restart(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft("one time only").approve(reviewer="me")
    memory = vault.finalize_draft(draft)
    with pytest.raises(ReviewError, match="already finalized"):
        vault.finalize_draft(draft)
    reopened = MemoryStore.unlock(paths, PASSPHRASE)
    with pytest.raises(ReviewError, match="already finalized"):
        reopened.finalize_draft(draft)
    assert reopened.finalized_memory_id(draft.draft_id) == memory.memory_id
    assert len(reopened.list_memories()) == 1


def test_a_finalized_draft_is_neither_replaced_nor_deleted(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft("provenance").approve(reviewer="me")
    vault.finalize_draft(draft)
    with pytest.raises(ReviewError, match="cannot be replaced"):
        vault.save_draft(draft)
    with pytest.raises(ReviewError, match="cannot be deleted"):
        vault.delete_draft(draft.draft_id)
    assert vault.get_draft(draft.draft_id).state == "finalized"


def test_open_drafts_can_be_deleted(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft("scratch")
    vault.delete_draft(draft.draft_id)
    with pytest.raises(NotFound):
        vault.get_draft(draft.draft_id)


def test_nothing_is_plaintext_at_rest(paths: HomePaths) -> None:
    vault, _memories = populated(paths)
    open_draft = vault.create_draft("A secret draft about the lighthouse keeper.", ["secret-tag"])
    vault.save_draft(open_draft.add_suggestion("location", "Jeju lighthouse", "echo"))
    needles = [*SENTENCES, "lighthouse keeper", "Jeju lighthouse", "Seoul Forest", "parent", "secret-tag", "family"]
    for folder in (paths.vault, paths.drafts):
        for file in folder.rglob("*"):
            if file.is_file():
                raw = file.read_bytes()
                for needle in needles:
                    assert needle.encode() not in raw, f"{needle!r} in plaintext in {file}"
    # the content hash is not in the clear either (it would be a guessing oracle)
    from core.vault.records import content_sha256

    for file in paths.vault.glob("*.json"):
        assert content_sha256(SENTENCES[0]).encode() not in file.read_bytes()


def test_files_are_private(paths: HomePaths) -> None:
    populated(paths)
    for path in [paths.root, *paths.root.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), f"{path} has mode {oct(mode)}"


def test_wrong_passphrase_is_refused_and_writes_nothing(paths: HomePaths) -> None:
    populated(paths)
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in paths.root.rglob("*") if p.is_file()}
    with pytest.raises(WrongPassphrase, match="wrong passphrase"):
        MemoryStore.unlock(paths, "not the passphrase")
    after = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in paths.root.rglob("*") if p.is_file()}
    assert before == after


def test_interrupted_finalization_is_completed_by_the_next_run(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft("interrupted").approve(reviewer="me")
    vault.save_draft(draft)
    # simulate a crash after step 1: the memory file exists, the ledger does not know it
    from core.vault.records import seal_memory

    memory = vault._memory_from_draft(draft, vault.memory_id_for_draft(draft.draft_id))
    vault.memory_path(memory.memory_id).write_bytes(seal_memory(memory, vault.keys))
    reopened = MemoryStore.unlock(paths, PASSPHRASE)
    done = reopened.complete_interrupted()
    assert done and "recorded interrupted finalization" in done[0]
    assert reopened.finalized_memory_id(draft.draft_id) == memory.memory_id
    assert reopened.get_draft(draft.draft_id).state == "finalized"
    with pytest.raises(ReviewError, match="already finalized"):
        reopened.finalize_draft(draft)


def test_finalize_after_ledger_entry_but_before_draft_update_is_completed(paths: HomePaths) -> None:
    vault = make_vault(paths)
    draft = vault.create_draft("half done").approve(reviewer="me")
    vault.save_draft(draft)
    memory = vault.finalize_draft(draft)
    vault._write_draft(draft)  # the draft file as it was before step 3
    assert vault.get_draft(draft.draft_id).state == "approved"
    assert vault.complete_interrupted() == [f"marked draft {draft.draft_id} finalized as {memory.memory_id}"]
    assert vault.get_draft(draft.draft_id).state == "finalized"


def test_memory_ids_are_not_path_tricks(paths: HomePaths) -> None:
    vault = make_vault(paths)
    for bad in ("../vault.json", "mem_../../x", "draft/../../etc"):
        with pytest.raises((NotFound, RecordError)):
            vault.get_memory(bad)
        with pytest.raises(NotFound):
            vault.get_draft(bad)


def test_unreviewed_memories_are_marked(paths: HomePaths) -> None:
    _vault, memories = populated(paths)
    assert [m.reviewed for m in memories] == [True, True, True, False]
    assert memories[3].review_summary() == {"reviewed": False}


def test_drafts_never_appear_among_memories(paths: HomePaths) -> None:
    vault, _memories = populated(paths)
    vault.create_draft("still a draft")
    assert "still a draft" not in [m.content for m in vault.list_memories()]


def test_kdf_parameters_and_salt_live_in_the_header(paths: HomePaths) -> None:
    import json

    make_vault(paths)
    header = json.loads(paths.vault_header.read_text())
    assert header["kdf"]["algorithm"] == "argon2id" and len(header["kdf"]["salt"]) >= 20
    assert header["kdf"]["memory_cost_kib"] == KdfParams.for_tests().memory_cost_kib
    assert PASSPHRASE not in paths.vault_header.read_text()


def test_a_memory_finalized_by_another_process_is_seen(paths: HomePaths) -> None:
    one = make_vault(paths)
    two = MemoryStore.unlock(paths, PASSPHRASE)
    draft = one.create_draft("shared").approve(reviewer="me")
    finalize_reviewed(one, "another")
    one.finalize_draft(draft)
    with pytest.raises(ReviewError, match="already finalized"):
        two.finalize_draft(draft)
    assert os.path.exists(one.memory_path(one.finalized_memory_id(draft.draft_id) or ""))


def test_a_header_with_a_short_salt_is_a_one_line_error(paths: HomePaths) -> None:
    import base64
    import json

    from core.errors import HomeError

    make_vault(paths)
    header = json.loads(paths.vault_header.read_text())
    header["kdf"]["salt"] = base64.b64encode(b"four").decode()
    paths.vault_header.write_text(json.dumps(header))
    with pytest.raises(HomeError, match=r"kdf\.salt is 4 bytes, not 8 to 1024") as caught:
        MemoryStore.unlock(paths, PASSPHRASE)
    assert str(paths.vault_header) in str(caught.value) and "\n" not in str(caught.value)


def test_a_passphrase_that_is_not_utf8_is_refused_without_echoing_it(paths: HomePaths) -> None:
    make_vault(paths)
    undecodable = b"caf\xe9 secret".decode("utf-8", "surrogateescape")  # what os.environ holds for such bytes
    with pytest.raises(WrongPassphrase, match="not valid UTF-8 text") as caught:
        MemoryStore.unlock(paths, undecodable)
    assert "secret" not in str(caught.value)


def test_a_save_from_a_stale_read_never_drops_what_another_process_added(paths: HomePaths) -> None:
    from core.errors import DraftChanged

    vault = make_vault(paths)
    draft = vault.create_draft("we moved the meeting to Thursday")
    seen_by_person = vault.get_draft(draft.draft_id)  # the TUI opened it
    assistant = MemoryStore.unlock(paths, PASSPHRASE)
    assistant.save_draft(assistant.get_draft(draft.draft_id).add_suggestion(
        "title", "Meeting moved", "mcp:claude", suggestion_id="s-new"))
    with pytest.raises(DraftChanged, match=r"suggestion for 'title' from mcp:claude was added.*nothing was written"):
        vault.save_draft(seen_by_person.approve(reviewer="me"))  # would have approved past an unseen suggestion
    stored = vault.get_draft(draft.draft_id)
    assert stored.state == "open" and [s.suggestion_id for s in stored.suggestions] == ["s-new"]

    fresh = vault.get_draft(draft.draft_id)
    stale_for_assistant = assistant.get_draft(draft.draft_id)
    vault.save_draft(fresh.reject_suggestion("s-new", reviewer="me"))
    with pytest.raises(DraftChanged, match="me rejected suggestion 's-new'"):
        assistant.save_draft(stale_for_assistant.add_suggestion("mood", "calm", "mcp:claude"))
    assert vault.get_draft(draft.draft_id).decision_for("s-new") is not None
    vault.save_draft(vault.get_draft(draft.draft_id).approve(reviewer="me"))  # a fresh read saves as before


def test_a_new_record_is_checked_as_a_loaded_one_is() -> None:
    """What the SDK creates and imports goes through the vault's own checks (id, field types, times)."""
    at = "2026-11-03T10:00:00+00:00"
    assert new_record("mem_x1", "text", RecordMetadata(tags=("a",)), at, "here").content_sha256
    with pytest.raises(RecordError, match=r"here: metadata malformed: .*location"):
        new_record("mem_x1", "text", RecordMetadata(location=5), at, "here")  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="here: field 'created_at'"):
        new_record("mem_x1", "text", RecordMetadata(), "soon", "here")
    with pytest.raises(RecordError, match="here: memory_id"):
        new_record("mem_../x", "text", RecordMetadata(), at, "here")
