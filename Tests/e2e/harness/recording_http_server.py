"""A loopback HTTP server that answers through a plain function and records every request.

The tile server uses it; a fake Flickr API for the photo-album tests can reuse it the same way.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import urlsplit


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # without the query string
    query: str
    headers: dict[str, str]  # header names lower-cased
    received_at: float  # time.monotonic() when the request line was read
    status: int  # what the server answered

    @property
    def user_agent(self) -> str:
        return self.headers.get("user-agent", "")


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def not_found(what: str = "") -> "Response":
        return Response(404, f"not found: {what}\n".encode())


# Answers one request: (method, path, query, lower-cased headers) -> Response.
Responder = Callable[[str, str, str, dict[str, str]], Response]


class RequestLog:
    """Thread-safe record of the requests a server received, with waits for tests."""

    def __init__(self) -> None:
        self._requests: list[RecordedRequest] = []
        self._changed = threading.Condition()

    def append(self, request: RecordedRequest) -> None:
        with self._changed:
            self._requests.append(request)
            self._changed.notify_all()

    def snapshot(self) -> list[RecordedRequest]:
        with self._changed:
            return list(self._requests)

    def clear(self) -> None:
        with self._changed:
            self._requests.clear()

    def __len__(self) -> int:
        with self._changed:
            return len(self._requests)

    def wait_for(
        self,
        count: int = 1,
        matching: Callable[[RecordedRequest], bool] = lambda _: True,
        timeout: float = 20.0,
    ) -> list[RecordedRequest]:
        """Wait until at least `count` recorded requests satisfy `matching`; return those."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = [r for r in self._requests if matching(r)]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(
                        f"Timed out after {timeout:.1f} s: {len(found)} of {count} expected requests "
                        f"arrived ({len(self._requests)} requests in all)"
                    )
                self._changed.wait(remaining)

    def seconds_since_last_request(self) -> float:
        """Seconds since the newest request arrived (infinity when there was none)."""
        with self._changed:
            if not self._requests:
                return float("inf")
            return time.monotonic() - self._requests[-1].received_at

    def as_text(self) -> str:
        start = self._requests[0].received_at if self._requests else 0.0
        return "".join(
            f"{r.received_at - start:8.3f}s {r.status} {r.method} {r.path} UA={r.user_agent!r}\n"
            for r in self.snapshot()
        )


class _QuietHTTPServer(ThreadingHTTPServer):
    """A client that hangs up mid-request (the app cancels tile fetches that left the view) is routine,
    not a traceback on stderr; anything else is still reported."""

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class RecordingHTTPServer:
    """Serves `respond` on 127.0.0.1 at a free port, one thread per connection."""

    def __init__(self, respond: Responder, latency: float = 0.0) -> None:
        self.respond = respond
        self.latency = latency  # seconds to wait before each answer; may be changed while running
        self.log = RequestLog()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "RecordingHTTPServer":
        server = _QuietHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        server.owner = self  # type: ignore[attr-defined]  # how the handler finds us
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.1}, name=f"http-{self.port}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> "RecordingHTTPServer":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like a real tile server
    timeout = 30  # idle keep-alive connections end instead of holding a thread forever

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _answer(self, send_body: bool) -> None:
        received_at = time.monotonic()
        owner: RecordingHTTPServer = self.server.owner  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            response = owner.respond(self.command, parts.path, parts.query, headers)
        except Exception as error:  # a broken responder must show up in the log, not kill the thread
            response = Response(500, f"responder failed: {error!r}\n".encode())
        # Logged before the injected latency, so tests see a request as soon as it arrives.
        owner.log.append(
            RecordedRequest(self.command, parts.path, parts.query, headers, received_at, response.status)
        )
        if owner.latency > 0:
            time.sleep(owner.latency)
        self.send_response(response.status)
        if response.status != 304:  # a 304 has no body: its headers would describe the client's kept copy
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # the RequestLog is the record; stderr stays quiet
