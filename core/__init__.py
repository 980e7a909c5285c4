"""Reverie's core: storage, crypto, review, recall and curation. Never imports a user interface."""
