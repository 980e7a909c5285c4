"""``reverie mcp``: the assistant surface as a Model Context Protocol server over stdio.

Tools: ``recall``, ``where_are_we``, ``context``, ``propose_memory``, ``suggest`` (see
:mod:`core.assist.surface`); none accepts, rejects, approves, finalizes, edits a confirmed memory,
curates, restores, deletes or reads the passphrase. Reads pass the sharing profile given with
``--profile``. The server needs the vault's keys and never asks for them on stdio (stdin and stdout
carry the protocol): the passphrase comes from ``REVERIE_PASSPHRASE`` or the OS keyring, else the
server exits at once with one line on stderr.

It uses the official SDK's low-level ``Server`` (why: tests/bench/README.md, ``bench_assist.py``), so
the tools keep the JSON Schemas of :mod:`core.assist.schemas`, which the REST API's OpenAPI document
publishes too. The ``mcp`` package costs about a second to import: it loads only when serving.
"""

from __future__ import annotations

import io
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

import anyio

from core.assist.surface import INPUTS, OUTPUTS, TOOLS, AssistantSurface, Caller, SurfaceError, limit_figures
from core.workbench import Workbench
from tui_app.mcp.wire import ScreenedLines, WireError
from tui_app.notices import on_stderr

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from core.config import AssistantsConfig, Config
    from core.paths import HomePaths

SERVER_NAME = "reverie"
INSTRUCTIONS = (
    "Reverie is the person's local memory: their past conversations with assistants and the memories they "
    "confirmed. Use recall to find what was said or decided (a time expression in the query bounds the search), "
    "where_are_we for the topics the person marked most recently, and context for a ready-made prompt block. "
    "Results marked reviewed were confirmed by the person; others are raw conversation or unreviewed notes. "
    "You can propose a memory (propose_memory) or add a suggestion to an open draft (suggest); the person "
    "reviews every proposal and alone decides what becomes a memory. You only see what the person shares. "
    "Proposals are limited (per hour, drafts awaiting review, suggestions per draft; see the tools): propose "
    "what the person would want to keep, not everything, and when a limit is reached wait as the error says."
)
DESCRIPTIONS = {
    "recall": ("Recall", "Search the person's conversations and memories. A time expression in the query "
               "(\"last Tuesday night\", \"지난주\", \"先週\", \"since Monday\") bounds the range; the answer "
               "gives the range as understood, the search mode used, and each result marked reviewed or not."),
    "where_are_we": ("Where are we", "The latest topic markers the person wrote, latest first: what they are "
                     "working on now."),
    "context": ("Context block", "A block for your prompt: the latest topic markers, the most relevant "
                "confirmed memories, then matching conversation turns, within a token budget."),
    "propose_memory": ("Propose a memory", "Create a draft memory with suggested fields (tags, occurred_at, "
                       "people, location, title…) for the person to review. Returns the draft id. Nothing becomes "
                       "a memory until the person accepts and approves it. Limits: new drafts from you, at "
                       "most {proposals_per_hour} per hour; drafts from assistants awaiting the person's review, "
                       "at most {open_proposals} at once; over a limit the call fails, writes nothing, and says "
                       "which limit, the count and when the next one fits."),
    "suggest": ("Suggest a field", "Add one suggested field value to an open draft (from propose_memory). "
                "The person accepts, edits or rejects it. Suggestions from assistants on one draft: at most "
                "{suggestions_per_draft}."),
}
READ_ONLY = frozenset({"recall", "where_are_we", "context"})


def tool_list(limits: AssistantsConfig | None = None) -> list[Any]:
    """The tools, their descriptions stating the limits in force (the defaults without ``limits``)."""
    import mcp_types as types  # heavy: mcp, ~1 s with the SDK; serve_stdio imports it while the keys derive

    numbers = limit_figures(limits)
    return [
        types.Tool(
            name=name,
            title=DESCRIPTIONS[name][0],
            description=DESCRIPTIONS[name][1].format(**numbers),
            input_schema=INPUTS[name],
            output_schema=OUTPUTS[name],
            annotations=types.ToolAnnotations(
                title=DESCRIPTIONS[name][0], read_only_hint=name in READ_ONLY, destructive_hint=False,
                idempotent_hint=name in READ_ONLY, open_world_hint=False,
            ),
        )
        for name in TOOLS
    ]


def _caller(ctx: Any, assistant: str | None) -> Caller:
    """The assistant's name: ``--assistant`` if given, else the client's own name from ``initialize``."""
    info = None
    params = getattr(getattr(ctx, "session", None), "client_params", None)
    if params is not None:
        info = params.client_info
    name = assistant or (info.name if info is not None else None)
    version = info.version if info is not None and not assistant else None
    return Caller.named("mcp", name, version)


def build_server(surface: AssistantSurface, assistant: str | None = None) -> Server[Any]:
    import mcp_types as types  # heavy: mcp, ~1 s with the SDK; loaded when serving
    from mcp.server.lowlevel import Server  # heavy: mcp, the SDK itself

    tools = tool_list(surface.config.assistants)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        caller = _caller(ctx, assistant)
        try:
            result = await anyio.to_thread.run_sync(surface.call, params.name, params.arguments or {}, caller)
        except SurfaceError as exc:
            return types.CallToolResult(content=[types.TextContent(type="text", text=str(exc))], is_error=True)
        except Exception as exc:  # never crash the session; the detail goes to stderr, not to the assistant
            print(f"reverie mcp: {params.name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"{params.name}: internal error (see the server log)")],
                is_error=True,
            )
        text = json.dumps(result, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=result)

    try:
        ours = version("reverie")
    except PackageNotFoundError:  # running from a source tree
        ours = "0"
    return Server(SERVER_NAME, version=ours, instructions=INSTRUCTIONS, on_list_tools=list_tools,
                  on_call_tool=call_tool)


def serve_stdio(paths: HomePaths, config: Config, profile: str = "default", assistant: str | None = None) -> None:
    """Serve until the client closes stdin. Bad settings, a missing or wrong passphrase: a
    ``ReverieError`` before anything is served (the CLI prints it as one line on stderr).

    Argon2id runs in a thread while the SDK is imported (both take a few hundred milliseconds to a
    second; the key derivation releases the GIL), so unlocking adds nothing to the start-up."""
    workbench = Workbench(paths, config, notice=on_stderr("reverie mcp"))
    surface = AssistantSurface.open(workbench, profile)
    passphrase = workbench.access.server_passphrase()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="reverie-unlock") as pool:
        pending = pool.submit(workbench.unlock, passphrase)
        import mcp.server.lowlevel  # noqa: F401  # heavy: the SDK, ~0.7 s, imported while the keys derive
        from mcp.server.stdio import stdio_server

        pending.result()
    server = build_server(surface, assistant)

    async def run() -> None:
        await _serve_screened(server, stdio_server)

    try:
        anyio.run(run)
    finally:
        surface.close()


async def _serve_screened(server: Server[Any], stdio_server: Any) -> None:
    """``server`` over stdio, each line screened first (:mod:`tui_app.mcp.wire`): a line the SDK would
    drop unanswered (not JSON, not JSON-RPC, nested too deep) gets its JSON-RPC error on stdout,
    written by the SDK's own writer, and the session goes on."""
    import mcp_types as types  # heavy: mcp (loaded by now, when serving)
    from mcp.shared.message import SessionMessage  # heavy: mcp (loaded by now, when serving)

    errors_in, errors_out = anyio.create_memory_object_stream[WireError](64)
    raw = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    async with stdio_server(stdin=ScreenedLines(raw, errors_in)) as (read_stream, write_stream):

        async def answer_refused() -> None:
            async with errors_out:
                async for refused in errors_out:
                    message = types.JSONRPCError(jsonrpc="2.0", id=refused.id,
                                                 error=types.ErrorData(code=refused.code, message=refused.message))
                    try:
                        await write_stream.send(SessionMessage(message))
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return

        async with anyio.create_task_group() as group:
            group.start_soon(answer_refused)
            await server.run(read_stream, write_stream, server.create_initialization_options())
