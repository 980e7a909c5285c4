"""Reverie's user interfaces: the Textual app, the click CLI, web serving and the MCP server."""
