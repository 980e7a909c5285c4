"""A small fake OpenAI-compatible embedding server on loopback (what a local Ollama, llama.cpp or LM
Studio answers at ``/v1/embeddings``), for the tests of the embedding backend and of ``reverie suggest``
(this module holds no tests)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable
from typing import Any

from core.embed.hashing import HashingEmbedder

Reply = Callable[[dict[str, Any], dict[str, str]], tuple[int, dict[str, str], bytes]]
HASHING = HashingEmbedder()


def openai_reply(body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """What /v1/embeddings answers: rows in shuffled order, each with its index (as real servers may)."""
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    vectors = HASHING.embed(texts)
    data = [{"object": "embedding", "index": i, "embedding": vectors[i].tolist()} for i in range(len(texts))]
    payload = {"object": "list", "data": data[::-1], "model": body["model"],
               "usage": {"prompt_tokens": 1, "total_tokens": 1}}
    return 200, {"Content-Type": "application/json"}, json.dumps(payload).encode()


class FakeServer:
    def __init__(self) -> None:
        self.reply: Reply = openai_reply
        self.requests: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                headers = {k.lower(): v for k, v in self.headers.items()}
                outer.requests.append((self.path, body, headers))
                status, extra, payload = outer.reply(body, headers)
                self.send_response(status)
                for key, value in extra.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
