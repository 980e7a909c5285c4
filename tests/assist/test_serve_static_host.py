"""``reverie serve`` applies its Host check to static files too (issue 11, F7): before, ``/static/…``
was answered for any ``Host``, so a DNS-rebinding page could read what the server hands out there."""

from __future__ import annotations

import aiohttp

from core.demo.build import DemoHome


async def test_static_files_are_refused_for_a_foreign_host(served: tuple[DemoHome, int]) -> None:
    _, port = served
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(base + "/static/css/xterm.css", headers={"Host": "localhost:9000"}) as ok:
            assert ok.status == 200 and "xterm" in await ok.text()
        for path in ("/static/css/xterm.css", "/static/", "/download/anything", "/no-such-page"):
            async with http.get(base + path, headers={"Host": "rebound.example"}) as refused:
                assert refused.status == 403, path  # was 200 for the static files
                assert "not a loopback name" in await refused.text()
