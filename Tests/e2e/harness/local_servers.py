"""The Python test servers (Tests/FlickrTestSupport/Server) as processes on a free port: started with
--port 0 --exit-on-stdin-eof, known by the port they print first, ended by closing their stdin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .processes import stop_process

FOLDER = Path(__file__).resolve().parents[2] / "FlickrTestSupport" / "Server"


class PythonTestServer:
    def __init__(self, script: str, arguments: list[str]) -> None:
        command = [sys.executable, str(FOLDER / script), "--port", "0", "--exit-on-stdin-eof", *arguments]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        line = self.process.stdout.readline().decode().strip()
        if not line.isdigit():
            stop_process(self.process)
            raise RuntimeError(f"{script} did not print its port (got {line!r})")
        self.port = int(line)

    def stop(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()  # --exit-on-stdin-eof: it exits by itself
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            stop_process(self.process)
