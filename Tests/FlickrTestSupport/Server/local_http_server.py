"""What the Python test servers share (standard library only): a threaded HTTP server on 127.0.0.1 that prints
its port as the first line of stdout, answers without logging to stderr, and exits when stdin closes if asked."""

import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class QuietHandler(BaseHTTPRequestHandler):
    """Sends whole bodies and JSON, and notes each answer's status in `self.log_entry` when the request has one."""

    log_lock = threading.Lock()  # a server sets its own state's lock: the one its request log is read under
    extra_headers = {}
    json_content_type = "application/json"

    def log_message(self, *args):
        pass  # the tests read the servers' own request logs; stderr stays for real failures

    def path_and_query(self):
        """The request's path, and its query with the last value of each name."""
        parts = urlsplit(self.path)
        return parts.path, {name: values[-1] for name, values in parse_qs(parts.query, keep_blank_values=True).items()}

    def send_body(self, status, body, content_type, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**self.extra_headers, **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.record_status(status)

    def send_json(self, obj, status=200):
        self.send_body(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"), self.json_content_type)

    def record_status(self, status):
        entry = getattr(self, "log_entry", None)
        if entry is not None:
            with self.log_lock:
                entry["status"] = status


class LocalServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # A client that asks for a whole album at once overflowed the default backlog of 5 (each dropped connection
    # was retried a second later).
    request_queue_size = 128

    def handle_error(self, request, client_address):
        pass  # clients that hang up (time-outs, cancellation) are expected here


def command_line(description):
    """The options every test server takes (--port, --host, --exit-on-stdin-eof); a server adds its own."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin closes (so a crashed test run leaves no server behind)")
    return parser


def serve(options, handler):
    """Listens as `options` say, prints the port, and serves until SIGINT (or stdin's end, if asked)."""
    server = LocalServer((options.host, options.port), handler)
    print(server.server_address[1], flush=True)
    if options.exit_on_stdin_eof:
        def watch_stdin():
            while sys.stdin.buffer.read(1024):
                pass
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.05)
    except KeyboardInterrupt:
        pass
