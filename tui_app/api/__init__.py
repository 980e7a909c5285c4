"""``reverie api``: the assistant surface over HTTP for tools that do not speak MCP (editor plugins,
launchers, bots). Starlette on uvicorn, 127.0.0.1 only, a bearer token on every request, an
OpenAPI 3.1 document (``/v1/openapi.json``, kept as ``openapi.json`` in the repository).

Modules: ``app`` (routes and the guard), ``openapi`` (the document), ``token`` (the bearer token in
the home), ``serve`` (binding and running).
"""
