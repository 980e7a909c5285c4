"""Headless Chromium driven through the DevTools protocol, with aiohttp (no browser download, no npm).

:class:`Chromium` starts the system's Chromium headless with a fresh profile, remote debugging on a
loopback port it chooses itself, and everything that would reach the network switched off.
:class:`Tab` drives one page: keys, screenshots, and what the page's terminal received. xterm.js
draws on a canvas, so the terminal's text is read from the WebSocket instead: a script added
before the page loads records every message the app sends; :meth:`Tab.wait_for` looks for text
among what arrived after a mark.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tests.e2e.remote import ToolMissing, stop_process

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)
RECORD_TERMINAL = r"""
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  window.__terminalOutput = "";
  class Recording extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const data = event.data;
        if (typeof data === "string") window.__terminalOutput += data;
        else if (data instanceof ArrayBuffer) window.__terminalOutput += decoder.decode(data, {stream: true});
        else if (data instanceof Blob) data.text().then((text) => { window.__terminalOutput += text; });
      });
    }
  }
  window.WebSocket = Recording;
})();
"""
ANSI = re.compile(r"\x1b(\[[0-9;?$<>=]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|.)")
# DevTools key events: (key, code, Windows virtual key code, text it types)
KEYS: dict[str, tuple[str, str, int, str]] = {
    "enter": ("Enter", "Enter", 13, "\r"),
    "escape": ("Escape", "Escape", 27, ""),
    "down": ("ArrowDown", "ArrowDown", 40, ""),
    "up": ("ArrowUp", "ArrowUp", 38, ""),
    "tab": ("Tab", "Tab", 9, "\t"),
    **{f"f{n}": (f"F{n}", f"F{n}", 111 + n, "") for n in range(1, 13)},
}


def find_chromium() -> str | None:
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


@dataclass
class Chromium:
    folder: Path
    process: subprocess.Popen[bytes] | None = None
    port: int = 0

    def start(self, width: int, height: int, timeout: float = 40.0) -> None:
        binary = find_chromium()
        if binary is None:
            raise ToolMissing("chromium is not installed (apt-get install chromium)")
        profile = self.folder / "profile"
        profile.mkdir(parents=True)
        log = self.folder / "chromium.log"
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [
                    binary,
                    *CHROMIUM_FLAGS,
                    f"--user-data-dir={profile}",
                    f"--window-size={width},{height}",
                    "about:blank",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while not (active.exists() and active.read_text().strip()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = " / ".join(log.read_text(errors="replace").strip().splitlines()[-3:])
                raise ToolMissing(f"chromium did not start: {tail or 'no output'}")
            time.sleep(0.1)
        self.port = int(active.read_text().split()[0])

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)


@dataclass
class Tab:
    """One page of the browser, opened with :meth:`open` and closed with :meth:`close`."""

    http: aiohttp.ClientSession
    socket: aiohttp.ClientWebSocketResponse
    target: str
    port: int
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, port: int) -> Tab:
        async with http.put(f"http://127.0.0.1:{port}/json/new?about:blank") as answer:
            page = await answer.json()
        socket = await http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        tab = cls(http, socket, page["id"], port)
        await tab.call("Page.enable")
        await tab.call("Page.addScriptToEvaluateOnNewDocument", source=RECORD_TERMINAL)
        return tab

    async def close(self) -> None:
        await self.socket.close()
        async with self.http.get(f"http://127.0.0.1:{self.port}/json/close/{self.target}"):
            pass

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.socket.send_json({"id": number, "method": method, "params": params})
        async for message in self.socket:
            data = json.loads(message.data)
            if data.get("id") == number:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                result: dict[str, Any] = data["result"]
                return result
        raise RuntimeError(f"{method}: the DevTools connection closed")

    async def show(self, url: str, width: int, height: int) -> None:
        await self.call(
            "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False
        )
        await self.call("Page.navigate", url=url)

    async def output(self) -> str:
        """Everything the page's terminal has received from the app so far (escape codes included)."""
        answer = await self.call("Runtime.evaluate", expression="window.__terminalOutput || ''", returnByValue=True)
        return str(answer["result"].get("value", ""))

    async def mark(self) -> int:
        return len(await self.output())

    async def wait_for(self, *texts: str, since: int = 0, timeout: float = 30.0) -> str:
        """Wait until each of ``texts`` arrived after ``since``; return what arrived after it."""
        deadline = time.monotonic() + timeout
        while True:
            arrived = (await self.output())[since:]
            if all(text in arrived for text in texts):
                return arrived
            if time.monotonic() > deadline:
                seen = " ".join(ANSI.sub(" ", arrived).split())[-600:]
                raise AssertionError(
                    f"timed out after {timeout:.0f}s waiting for {texts!r} in the browser tab; "
                    f"the last text it received: {seen!r}"
                )
            await asyncio.sleep(0.1)

    async def click(self, x: int, y: int) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    async def type(self, text: str) -> None:
        for char in text:
            await self.call("Input.dispatchKeyEvent", type="keyDown", key=char, text=char)
            await self.call("Input.dispatchKeyEvent", type="keyUp", key=char)

    async def press(self, name: str) -> None:
        """A named key (``enter``, ``down``, ``f3``) or one character."""
        if name not in KEYS:
            await self.type(name)
            return
        key, code, virtual, text = KEYS[name]
        down: dict[str, Any] = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": virtual}
        if text:
            down["text"] = text
        await self.call("Input.dispatchKeyEvent", **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=virtual)

    async def screenshot(self, path: Path) -> Path:
        shot = await self.call("Page.captureScreenshot", format="png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path
