#!/usr/bin/env python3
"""A tile server for the map tiles' HTTP caching tests (standard library only): it says what the test tells it
about caching, answers conditional requests as a real one does, and records every header each request carried.

    python3 caching_tile_server.py [--port 0] [--host 127.0.0.1] [--exit-on-stdin-eof]

  GET /<z>/<x>/<y>.png    a PNG (tiny.png, then "tile z/x/y v<version>" after its end, so versions differ)
                          with ETag "v<version>-z-x-y" and a Last-Modified of its version's own day; a
                          request whose If-None-Match names the current ETag, or (without If-None-Match)
                          whose If-Modified-Since is no older than Last-Modified, gets 304 Not Modified
                          with the same caching headers and no body
  POST /__control         JSON, every field optional:
                            {"reset": true}            the settings below back to their defaults, log emptied
                            {"version": 2}             tiles change (new bytes, ETag and Last-Modified)
                            {"cache_control": "max-age=60"}   sent as Cache-Control (null: none)
                            {"expires_in": 2592000}    Expires this many seconds after Date (null: none)
                            {"date_offset": -864000}   Date this many seconds off the real time (a skewed clock)
                            {"etag": false} / {"last_modified": false}   leave that validator out
  GET /__log              JSON {"requests": [{"path", "headers": {lower-cased name: value}, "status"}]}
"""

import email.utils
import json
import re
import threading
import time
from pathlib import Path

from local_http_server import QuietHandler, command_line, serve

PNG = (Path(__file__).parent / "tiny.png").read_bytes()
TILE_PATH = re.compile(r"^/(\d+)/(\d+)/(\d+)\.png$")
FIRST_VERSION_DAY = 1_700_000_000  # Last-Modified of version 1; each later version a day on


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.version = 1
        self.cache_control = None
        self.expires_in = None
        self.date_offset = 0
        self.etag = True
        self.last_modified = True
        self.requests = []


STATE = State()


def http_date(seconds):
    return email.utils.formatdate(seconds, usegmt=True)


class Handler(QuietHandler):
    server_version = "CachingTileServer/1.0"
    log_lock = STATE.lock

    def do_GET(self):
        path, _ = self.path_and_query()
        if path == "/__log":
            with STATE.lock:
                body = json.dumps({"requests": STATE.requests}).encode()
            return self.send_body(200, body, "application/json")
        self.log_entry = {"path": path, "headers": {name.lower(): value for name, value in self.headers.items()},
                          "status": None}
        with STATE.lock:
            STATE.requests.append(self.log_entry)
            settings = dict(vars(STATE))
        match = TILE_PATH.match(path)
        if not match:
            return self.send_body(404, b"no such tile\n", "text/plain")
        z, x, y = match.groups()
        version = settings["version"]
        etag = f'"v{version}-{z}-{x}-{y}"'
        modified = FIRST_VERSION_DAY + 86_400 * (version - 1)
        now = time.time() + settings["date_offset"]
        headers = {"Date": http_date(now)}
        if settings["etag"]:
            headers["ETag"] = etag
        if settings["last_modified"]:
            headers["Last-Modified"] = http_date(modified)
        if settings["cache_control"] is not None:
            headers["Cache-Control"] = settings["cache_control"]
        if settings["expires_in"] is not None:
            headers["Expires"] = http_date(now + settings["expires_in"])
        if self.not_modified(settings, etag, modified):
            return self.answer(304, headers, b"")
        body = PNG + f"tile {z}/{x}/{y} v{version}".encode()
        self.answer(200, {**headers, "Content-Type": "image/png", "Content-Length": str(len(body))}, body)

    def not_modified(self, settings, etag, modified):
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            if not settings["etag"]:
                return False
            tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
            return "*" in tags or etag in tags
        if_modified_since = self.headers.get("If-Modified-Since")
        if if_modified_since is None or not settings["last_modified"]:
            return False
        try:
            since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError):
            return False
        return since >= modified

    def answer(self, status, headers, body):
        self.record_status(status)  # before the answer: a test reading the log once it has its answer sees it
        # send_response would add a Date of its own: a skewed one is the test's to send.
        self.send_response_only(status)
        self.send_header("Server", self.version_string())
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        path, _ = self.path_and_query()
        if path != "/__control":
            return self.send_body(404, b"", "text/plain")
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        with STATE.lock:
            if body.get("reset"):
                STATE.reset()
            for name in ("version", "cache_control", "expires_in", "date_offset", "etag", "last_modified"):
                if name in body:
                    setattr(STATE, name, body[name])
        self.send_json({"ok": True})


def main():
    serve(command_line(__doc__).parse_args(), Handler)


if __name__ == "__main__":
    main()
