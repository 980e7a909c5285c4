"""A PostgreSQL + pgvector mirror of what a sharing profile lets leave the home."""
