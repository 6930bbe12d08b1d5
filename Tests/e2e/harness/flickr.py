"""The Flickr-compatible test server (Tests/FlickrTestSupport/Server/flickr_server.py) as a
process: the app reaches it through VIRTUAL_TOURIST_FLICKR_URL, like any other endpoint."""

from __future__ import annotations

import json
import urllib.request

from .local_servers import PythonTestServer


class FlickrServer(PythonTestServer):
    def __init__(self, distinct_images: bool = True) -> None:
        super().__init__("flickr_server.py", ["--distinct-images"] if distinct_images else [])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def rest_url(self) -> str:
        return f"{self.base_url}/services/rest/"

    def control(self, body: dict) -> None:
        """Fault injection and settings: see `apply_control` in the script."""
        request = urllib.request.Request(f"{self.base_url}/__control", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=5).read()

    def log(self) -> dict:
        with urllib.request.urlopen(f"{self.base_url}/__log", timeout=5) as answer:
            return json.loads(answer.read())

    def requests(self, kind: str | None = None) -> list[dict]:
        entries = self.log()["requests"]
        return [entry for entry in entries if kind is None or entry["kind"] == kind]
