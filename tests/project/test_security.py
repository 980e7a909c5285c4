"""Security checks (SECURITY.md): the modes of every file a home and its cache hold after a realistic
session; the passphrase and the keys never reach output, logs, exception messages, reprs, files or the
screen; the network surfaces refuse anything but loopback.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.config import Config
from core.errors import ReverieError, WrongPassphrase
from core.paths import HomePaths
from core.vault.crypto import KdfParams, create_header, unlock
from core.vault.store import MemoryStore
from core.workbench.verify import verify_home
from tests.faults.homebuild import SECRET_SENTENCES, BuiltHome, build_home

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "conversation"
PASSPHRASE = "Tr0ub4dor&3 violet-anchor-5ecret"


class Session:
    """A home used through the real CLI, as a person would, with every output kept."""

    def __init__(self, base: Path) -> None:
        self.home = base / "home"
        self.cache_root = base / "cache"
        self.outputs: list[str] = []
        self.env = {**os.environ, "REVERIE_HOME": str(self.home), "REVERIE_CACHE": str(self.cache_root),
                    "REVERIE_PASSPHRASE": PASSPHRASE, "REVERIE_KDF": "test", "PYTHONPATH": str(ROOT)}

    def run(self, *args: str, ok: tuple[int, ...] = (0,)) -> str:
        done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=180, preexec_fn=lambda: os.umask(0o022))
        self.outputs.append(done.stdout + done.stderr)
        assert done.returncode in ok, f"reverie {' '.join(args)} -> {done.returncode}: {done.stderr[-1500:]}"
        return done.stdout

    @property
    def paths(self) -> HomePaths:
        digest = HomePaths.at(self.home).cache.name  # the cache folder name HomePaths gives this home
        return HomePaths(root=self.home, cache=self.cache_root / digest)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """A realistic session: init, ingest of all three formats (a bad line quarantined, days sealed), a
    reviewed draft finalized, a topic marker, an unreviewed draft, reindex and search, curation scopes
    scanned, an API token, a .dvmem export, verify. Run with umask 022: modes must not rely on it."""
    base = tmp_path_factory.mktemp("session")
    s = Session(base)
    s.run("init")
    s.run("ingest", str(FIXTURES / "generic" / "chat.jsonl"), str(FIXTURES / "claude-code"),
          str(FIXTURES / "chatgpt" / "conversations.json"), ok=(0, 2))
    draft_id = json.loads(s.run("draft", "new", SECRET_SENTENCES[0], "--tag", "family", "--json"))["draft_id"]
    s.run("draft", "suggest", draft_id, "location", "Seoul", "--source", "echo", "--model", "m", "--id", "s1")
    s.run("draft", "accept", draft_id, "s1", "--reviewer", "me", "--value", "Seoul Forest")
    s.run("draft", "approve", draft_id, "--reviewer", "me")
    memory_id = json.loads(s.run("draft", "finalize", draft_id, "--json"))["memory_id"]
    s.run("draft", "new", SECRET_SENTENCES[1], "--json")
    s.run("mark", "planning the ski trip")
    s.run("seal")
    s.run("reindex", "--no-embed")
    s.run("search", "서울숲", "--mode", "exact", "--json")
    notes = base / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# a note\n")
    s.run("curate", "scope", "add", "notes", "--kind", "markdown", "--path", str(notes))
    s.run("curate", "scope", "add", "mine", "--kind", "vault")
    s.run("curate", "scan")
    s.run("curate", "apply", "--dry-run")
    s.run("api", "token")
    s.run("export", "dvmem", "--memory", memory_id, "--out", str(base / "shared.dvmem"))
    s.run("memory", "list")
    s.run("verify")
    s.run("verify", "--checkpoint")
    return s


def _tree(root: Path) -> Iterator[Path]:
    yield root
    yield from root.rglob("*")


def _modes(root: Path) -> list[str]:
    """Every entry under ``root`` whose mode is not 0700 (folders) or 0600 (files)."""
    wrong = []
    for path in _tree(root):
        mode = stat.S_IMODE(path.lstat().st_mode)
        if path.is_symlink():
            wrong.append(f"{path}: a symlink in the home")
        elif path.is_dir() and mode != 0o700:
            wrong.append(f"{path}: folder {mode:o}")
        elif path.is_file() and mode != 0o600:
            wrong.append(f"{path}: file {mode:o}")
    return wrong


def test_every_file_of_the_home_and_its_cache_is_private(session: Session) -> None:
    files = [p for p in _tree(session.home) if p.is_file()]
    names = {p.name for p in files}
    assert {"vault.json", "config.toml", "ledger.jsonl", "ledger.head.json", "topics.jsonl", "api-token"} <= names
    assert any(p.parent.name == "quarantine" for p in files) and any(p.parent.name == "drafts" for p in files)
    assert any(".locks" in p.parts for p in files) and any("logs" in p.parts for p in files)
    assert _modes(session.home) == []
    cache = session.paths.cache
    assert (cache / "index.db").is_file()
    assert _modes(cache) == []
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE((session.home.parent / "shared.dvmem").stat().st_mode) == 0o600


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuiltHome:
    return build_home(tmp_path_factory.mktemp("built"))


def test_cold_storage_tombstones_and_curation_files_are_private_too(built: BuiltHome) -> None:
    assert list(built.paths.cold.rglob("tombstone.json")) and list(built.paths.vault.glob("*.tombstone"))
    assert _modes(built.paths.root) == []


def _forms(secret: bytes) -> list[bytes]:
    return [secret, secret.hex().encode(), base64.b64encode(secret), base64.urlsafe_b64encode(secret).rstrip(b"=")]


def _secrets(session: Session) -> list[bytes]:
    keys = unlock(session.paths.vault_header, PASSPHRASE)
    return [PASSPHRASE.encode(), *_forms(keys.encryption_key), *_forms(keys.signing_key)]


def test_the_passphrase_and_keys_reach_no_output_and_no_file(session: Session) -> None:
    secrets = _secrets(session)
    said = "\n".join(session.outputs).encode()
    assert said and not [s for s in secrets if s in said]
    for root in (session.home, session.cache_root, session.home.parent / "notes"):
        for path in (p for p in _tree(root) if p.is_file()):
            data = path.read_bytes()
            assert not [s for s in secrets if s in data], f"{path} holds a secret"


def test_no_memory_content_sits_in_plaintext_outside_the_log(built: BuiltHome) -> None:
    """A stolen copy of the home: memories and drafts are encrypted everywhere they are kept. The
    conversation log, the quarantine and topic markers are plaintext by design (SECURITY.md); the
    curation files (candidates, decisions, runs) must not quote a vault memory."""
    by_design = {built.paths.logs, built.paths.quarantine, built.paths.topics}
    leaks = []
    for path in (p for p in _tree(built.paths.root) if p.is_file()):
        if any(path == d or d in path.parents for d in by_design):
            continue
        data = path.read_bytes()
        leaks += [f"{path.relative_to(built.paths.root)}: {s[:30]}" for s in SECRET_SENTENCES if s.encode() in data]
    assert leaks == []  # curation/candidates.json held vault memories' text until curation left it out


def test_reprs_and_error_messages_never_show_a_secret(paths: HomePaths, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    keys = create_header(paths.vault_header, PASSPHRASE, KdfParams.for_tests())
    shown = [repr(keys), str(keys), repr(unlock(paths.vault_header, PASSPHRASE))]
    from tui_app.cli.state import CliState

    state = CliState(paths=paths)
    state.workbench.adopt_keys(keys)  # as after an unlock
    shown.append(repr(state))
    vault = MemoryStore.unlock(paths, PASSPHRASE)
    shown.append(repr(vault))
    for wrong in ("nope", PASSPHRASE[:-1], PASSPHRASE + " "):
        with pytest.raises(WrongPassphrase) as caught:
            unlock(paths.vault_header, wrong)
        shown.append(str(caught.value))
        shown.append(repr(caught.value))
    vault.add_memory(SECRET_SENTENCES[2])
    record = next(paths.vault.glob("mem_*.json"))
    record.write_bytes(record.read_bytes().replace(b'"nonce"', b'"nonce" '))
    with pytest.raises(ReverieError) as damaged:
        vault.get_memory(record.stem)
    shown.append(str(damaged.value))
    shown += [str(p) for p in verify_home(paths, keys).problems]
    shown += [r.getMessage() for r in caplog.records]
    secrets = [PASSPHRASE.encode(), *_forms(keys.encryption_key), *_forms(keys.signing_key)]
    text = "\n".join(shown).encode()
    assert not [s for s in secrets if s in text]
    assert "encryption_key" not in repr(keys) and "signing_key" not in repr(keys)


async def test_the_screen_never_shows_the_passphrase(paths: HomePaths) -> None:
    from tui_app.app import ReverieApp
    from tui_app.screens.unlock import UnlockScreen

    MemoryStore.create(paths, PASSPHRASE, KdfParams.for_tests())
    app = ReverieApp(paths, Config())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, UnlockScreen)
        await pilot.press(*PASSPHRASE[:-1])
        typed = app.export_screenshot()
        await pilot.press("enter")
        for _ in range(20):
            await app.workers.wait_for_complete()
            await pilot.pause()
        wrong = app.export_screenshot()
        await pilot.press(*PASSPHRASE, "enter")
        for _ in range(20):
            await app.workers.wait_for_complete()
            await pilot.pause()
        unlocked = app.export_screenshot()
        assert not isinstance(app.screen, UnlockScreen)
    for screen in (typed, wrong, unlocked):
        assert PASSPHRASE[:-1] not in screen and PASSPHRASE[:8] not in screen


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "127.0.0.1.nip.io",
                                  "localhost.example.com", "[::1]:80", ""])
def test_the_api_refuses_any_address_but_loopback(host: str, paths: HomePaths) -> None:
    from tui_app.api.serve import ApiError, check_host

    with pytest.raises(ApiError, match="loopback"):
        check_host(host)


def test_reverie_api_on_a_public_address_exits_without_listening(session: Session) -> None:
    done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "api", "--host", "0.0.0.0", "--port", "0"],
                          cwd=ROOT, env=session.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "loopback" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost"])
def test_the_api_accepts_loopback(host: str) -> None:
    from tui_app.api.serve import check_host

    assert check_host(host)


def test_serve_refuses_non_loopback_addresses(session: Session) -> None:
    from tui_app.cli.main import cli

    assert "serve" in cli.commands, "`reverie serve` (the TUI in a browser) is missing"
    done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "serve", "--host", "0.0.0.0"], cwd=ROOT,
                          env=session.env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "loopback" in done.stderr and "Traceback" not in done.stderr


def _socket_inodes(pid: int) -> set[str]:
    """Inodes of the sockets process ``pid`` holds open (its ``/proc/PID/fd`` links ``socket:[N]``)."""
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(target[len("socket:["):-1])
    return found


def _network_sockets(pid: int, held: set[str]) -> list[str]:
    """Of the sockets in ``held``: every TCP/UDP one (IPv4 or IPv6, listening or not), and every listening
    Unix one, as lines of ``/proc/PID/net/*`` (a socketpair the event loop keeps for itself is neither)."""
    bad = []
    for table in ("tcp", "tcp6", "udp", "udp6", "raw", "raw6"):
        path = Path(f"/proc/{pid}/net/{table}")
        for line in path.read_text().splitlines()[1:] if path.exists() else []:
            fields = line.split()
            if len(fields) > 9 and fields[9] in held:
                bad.append(f"{table}: {line.strip()}")
    unix = Path(f"/proc/{pid}/net/unix")
    for line in unix.read_text().splitlines()[1:] if unix.exists() else []:
        fields = line.split()  # Num RefCount Protocol Flags Type St Inode Path
        if len(fields) > 6 and fields[6] in held and int(fields[3], 16) & 0x10000:  # __SO_ACCEPTCON: listening
            bad.append(f"unix (listening): {line.strip()}")
    return bad


def test_the_mcp_server_opens_no_socket(paths: HomePaths) -> None:
    """The MCP server speaks over stdio only: while a client drives it (initialize, list, recall, propose),
    the running process holds no TCP, UDP or raw socket and no listening Unix socket (``/proc/PID``)."""
    if not Path("/proc/self/net/tcp").exists():
        pytest.fail("this check reads /proc/PID/net (Linux); it cannot pass here")
    MemoryStore.create(paths, PASSPHRASE, KdfParams.for_tests()).add_memory("The pier picnic.", ["plans"])
    env = {**os.environ, "REVERIE_HOME": str(paths.root), "REVERIE_CACHE": str(paths.cache.parent),
           "REVERIE_PASSPHRASE": PASSPHRASE, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "tui_app.cli.main", "mcp"], cwd=ROOT, env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdin is not None and server.stdout is not None
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "socket-check", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "recall", "arguments": {"query": "pier"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
         "params": {"name": "propose_memory", "arguments": {"content": "The pier picnic was lovely."}}},
    ]
    checked = 0
    try:
        for request in requests:
            server.stdin.write(json.dumps(request) + "\n")
            server.stdin.flush()
            if "id" not in request:
                continue
            answer = json.loads(server.stdout.readline())
            assert answer.get("id") == request["id"] and "error" not in answer, answer
            held = _socket_inodes(server.pid)
            assert _network_sockets(server.pid, held) == [], f"after {request['method']}"
            checked += 1
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    assert checked == 4


ASSISTANT_TOOLS = ["recall", "where_are_we", "context", "propose_memory", "suggest", "approve", "finalize",
                   "restore", "accept", "curate_apply", ""]


def test_an_assistant_cannot_confirm_anything_whatever_it_sends(paths: HomePaths) -> None:
    """An assistant over MCP or the REST API (the same surface): any tool name and any arguments end in
    an answer or a one-line refusal, and afterwards nothing is accepted, approved, finalized, moved or
    restored: every draft it made is open, with its suggestions pending, and the ledger did not move."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from core.assist.surface import AssistantSurface, Caller, SurfaceError
    from core.embed.hashing import HashingEmbedder
    from core.sharing import SharePolicy
    from core.workbench import Workbench
    from tests.faults.fuzzing import JSON, TEXT, assert_one_line

    vault = MemoryStore.create(paths, PASSPHRASE, KdfParams.for_tests())
    vault.add_memory("The picnic moved to the pier.", ["plans"])
    config = Config()
    workbench = Workbench(paths, config, embedder=HashingEmbedder)
    workbench.adopt_keys(vault.keys)
    surface = AssistantSurface(workbench, SharePolicy.from_config(config))
    head = vault.ledger.read().head()
    draft_ids: list[str] = []
    proposal = st.fixed_dictionaries({"content": st.text(min_size=1, max_size=80)}, optional={
        "tags": st.lists(st.sampled_from(["plans", "family", "work"]), max_size=2),
        "suggestions": st.lists(st.fixed_dictionaries({
            "field": st.sampled_from(["location", "title", "people", "occurred_at"]),
            "value": st.one_of(st.text(min_size=1, max_size=20), st.just("2026-01-01T10:00:00+09:00"))},
            optional={"confidence": st.floats(0, 1)}), max_size=2)})
    arguments = st.one_of(
        proposal, proposal,
        st.fixed_dictionaries({"content": TEXT}, optional={
            "tags": st.lists(TEXT, max_size=3), "suggestions": st.lists(st.dictionaries(
                st.sampled_from(["field", "value", "confidence", "state", "approved", "reviewer", "accepted"]),
                JSON, max_size=5), max_size=3), "state": JSON, "approval": JSON, "reviewer": JSON}),
        st.fixed_dictionaries({"draft_id": st.one_of(st.sampled_from(["draft_x"]), TEXT), "field": TEXT,
                               "value": JSON}),
        st.fixed_dictionaries({"query": TEXT}), st.dictionaries(TEXT, JSON, max_size=4), JSON)

    @settings(max_examples=60, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.sampled_from(ASSISTANT_TOOLS), arguments, st.sampled_from(["mcp", "api"]))
    def call(tool: str, args: object, channel: str) -> None:
        try:
            answer = surface.call(tool, args, Caller.named(channel, "fuzzing-assistant", "1"))
        except SurfaceError as exc:
            assert_one_line(exc)
            return
        if isinstance(answer, dict) and isinstance(answer.get("draft_id"), str):
            draft_ids.append(answer["draft_id"])

    call()
    assert draft_ids, "no proposal got through: the fuzzing never reached the drafts"
    for draft_id in draft_ids[:10]:  # suggestions on its own drafts, with fields that try to decide them
        for args in ({"draft_id": draft_id, "field": "state", "value": "approved"},
                     {"draft_id": draft_id, "field": "title", "value": "A title", "accepted": True},
                     {"draft_id": draft_id, "field": "location", "value": "Busan", "confidence": 1.0}):
            try:
                surface.call("suggest", args, Caller.named("mcp", "fuzzing-assistant", "1"))
            except SurfaceError as exc:
                assert_one_line(exc)
    assert vault.ledger.read().head() == head
    for draft in vault.list_drafts():
        assert draft.state == "open" and not draft.decisions and draft.approval is None, draft.draft_id
    assert {d.draft_id for d in vault.list_drafts()} >= set(draft_ids)
    assert verify_home(paths, vault.keys).problems == []
