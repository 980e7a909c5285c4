"""The vault subsystem: sealed memory records, review drafts, the signed ledger and the keys.

``store`` (MemoryStore: drafts, memories, finalization), ``review`` (drafts, suggestions,
decisions), ``records`` and ``sealed`` (encrypted, signed envelopes), ``crypto`` and ``passphrase``
(keys), ``ledger`` and ``ledger_prefix`` (the hash chain and its verified-prefix note),
``canonical`` (the bytes that are hashed and signed) and ``portable`` (``.dvmem`` files). The
whole-home check, which also runs the log's and cold storage's checks, is ``core.workbench.verify``.
"""
