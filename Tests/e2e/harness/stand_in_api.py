"""A stand-in for the On the Map API on loopback: a server on a free port that answers through the handler class a
test gives it, for services that misbehave in ways the real on-the-map-server never does (a database down, a flood)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StandInApi:
    """Serves `handler` on 127.0.0.1 in a daemon thread until stop(); the app finds it at `api_url`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
