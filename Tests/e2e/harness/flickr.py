"""The Flickr-compatible test server (Tests/FlickrTestSupport/Server/flickr_server.py) as a
process: the app reaches it through VIRTUAL_TOURIST_FLICKR_URL, like any other endpoint."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from .processes import stop_process

SCRIPT = Path(__file__).resolve().parents[2] / "FlickrTestSupport" / "Server" / "flickr_server.py"


class FlickrServer:
    def __init__(self, distinct_images: bool = True) -> None:
        command = [sys.executable, str(SCRIPT), "--port", "0", "--exit-on-stdin-eof"]
        if distinct_images:
            command.append("--distinct-images")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        line = self.process.stdout.readline()
        if not line.strip():
            stop_process(self.process)
            raise RuntimeError("flickr_server.py did not print its port")
        self.port = int(line)

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

    def stop(self) -> None:
        stop_process(self.process)
