"""Encrypted, verifiable backups of everything in a home that is not derived.

:mod:`~core.backup.entries` says what a backup holds, :mod:`~core.backup.repository` is the encrypted
repository format (``docs/backup.md``), :mod:`~core.backup.take` takes a snapshot while the home's
writers wait, :mod:`~core.backup.check` verifies a repository without restoring it, and
:mod:`~core.backup.restore` restores a snapshot into an empty home.
"""
