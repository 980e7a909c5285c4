"""Helpers shared by tests: homes with memories, API clients, search worlds, TUI pilots."""
