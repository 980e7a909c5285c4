"""Encrypted, verifiable backups of everything in a home that is not derived."""
