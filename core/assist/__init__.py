"""What assistants reach: the read-and-propose surface that MCP and the REST API both adapt, its
argument schemas, the sharing profiles every answer passes, and the limits on proposals."""
