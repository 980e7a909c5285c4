"""Shared builders for vault tests: a vault in the test home with a few reviewed memories."""

from __future__ import annotations

from core.paths import HomePaths
from core.vault.crypto import KdfParams
from core.vault.records import MemoryRecord
from core.vault.store import MemoryStore

PASSPHRASE = "correct horse battery staple"
SENTENCES = [
    "She laughed when the dog sneezed.",
    "We planted tomatoes on the balcony after the rain.",
    "Grandpa told the story about the night train to Busan.",
    "The first snow fell while we were walking in Seoul Forest.",
]


def make_vault(paths: HomePaths) -> MemoryStore:
    """The test home's vault: created with cheap Argon2id parameters the first time, opened after."""
    if paths.vault_header.exists():
        return MemoryStore.unlock(paths, PASSPHRASE)
    return MemoryStore.create(paths, PASSPHRASE, KdfParams.for_tests())


def finalize_reviewed(vault: MemoryStore, content: str, location: str = "Seoul") -> MemoryRecord:
    draft = vault.create_draft(content, ["family"])
    draft = draft.add_suggestion("location", location, "echo", model="example-model", process_version="v1",
                                 confidence=0.8, suggestion_id="s-loc")
    draft = draft.add_suggestion("title", "A title", "echo", suggestion_id="s-title")
    draft = draft.accept("s-loc", reviewer="parent", value=f"{location} Forest")
    draft = draft.reject_suggestion("s-title", reviewer="parent").approve(reviewer="parent")
    vault.save_draft(draft)
    return vault.finalize_draft(draft)


def populated(paths: HomePaths) -> tuple[MemoryStore, list[MemoryRecord]]:
    vault = make_vault(paths)
    memories = [finalize_reviewed(vault, s) for s in SENTENCES[:3]]
    memories.append(vault.add_memory(SENTENCES[3], ["winter"]))
    return vault, memories
