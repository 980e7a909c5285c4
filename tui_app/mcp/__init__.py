"""Reverie for assistants: the read-and-propose surface (``surface``), its JSON Schemas (``schemas``)
and the MCP server over stdio (``server``). The REST API (``tui_app.api``) serves the same surface.

Importing this package is cheap: the MCP SDK loads only in ``server``.
"""
