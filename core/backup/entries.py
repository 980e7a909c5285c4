"""What a backup holds: every top-level entry of a data home, classified as backed up or derived.

One table, :data:`HOME_ENTRIES`. A test lists every top-level name the code writes into a home and
fails when one is missing here, so a new kind of file is classified when it is added. An entry the
table does not know (written by a newer version, or by hand) is backed up anyway and reported: a
backup errs on the side of keeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["backed up", "derived"]


@dataclass(frozen=True)
class Entry:
    kind: Kind
    what: str


HOME_ENTRIES: dict[str, Entry] = {
    "config.toml": Entry("backed up", "settings"),
    "vault.json": Entry("backed up", "the vault header: the wrapped key every record needs"),
    "vault.json.v1-backup": Entry("backed up", "a version 1 header kept until its migration is proven"),
    "vault": Entry("backed up", "finalized memories and tombstones, and intents in vault/.pending"),
    "drafts": Entry("backed up", "review drafts"),
    "ledger.jsonl": Entry("backed up", "the hash chain"),
    "ledger.head.json": Entry("backed up", "the signed ledger head"),
    "logs": Entry("backed up", "the lossless conversation log"),
    "quarantine": Entry("backed up", "malformed lines kept with their line numbers"),
    "topics.jsonl": Entry("backed up", "topic markers"),
    "cold": Entry("backed up", "cold storage"),
    "curation": Entry("backed up", "rubric, calibration, changelog, runs, restores, decisions"),
    "exports": Entry("backed up", "what the person saved out of the app"),
    "sdk": Entry("backed up", "drafts rejected through the SDK"),
    "api-token": Entry("backed up", "the REST API's bearer token, which tools are configured with"),
    "claude": Entry("backed up", "the demo home's agent memory folder (a curation scope)"),
    "remotes.json": Entry("backed up", "the home machines this one ships its turns to"),
    "spool": Entry("backed up", "turns captured here and not yet shipped to the home machine"),
    ".cache": Entry("derived", "the search index and other caches: `reverie reindex` rebuilds them"),
    ".locks": Entry("derived", "lock files, meaningful only to running processes"),
}


def is_backed_up(name: str) -> bool:
    """Whether the top-level entry ``name`` goes into a backup (an unknown one does)."""
    entry = HOME_ENTRIES.get(name)
    return entry is None or entry.kind == "backed up"


def is_temporary(name: str) -> bool:
    """A temporary file an atomic write left (``.<name>.<random>.tmp``): not part of any state."""
    return name.startswith(".") and name.endswith(".tmp") and name.count(".") >= 3
