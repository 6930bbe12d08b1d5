"""A photo CDN in front of the Flickr test server, as Flickr's images sit behind one: nginx on 127.0.0.1
speaking HTTPS with HTTP/2 (and HTTP/1.1 to clients that ask for it), proxying /images/ to the server.
Its certificate is signed by a throw-away certificate authority made with openssl; a client trusts it
through `ca_file` (the app through SSL_CERT_FILE). Its access log says, per request, the connection it
came on and the protocol, so a test can tell six HTTP/1.1 connections from one multiplexed HTTP/2 one.
"""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .processes import stop_process


@dataclass(frozen=True)
class CDNRequest:
    connection: int  # nginx's connection serial number
    protocol: str  # "HTTP/2.0" or "HTTP/1.1"
    status: int
    path: str
    started: float  # when nginx read its first byte (seconds since the epoch, to the millisecond)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _openssl(*arguments: str) -> None:
    subprocess.run(["openssl", *arguments], check=True, capture_output=True)


class PhotoCDN:
    def __init__(self, origin_port: int, folder: Path | None = None) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="photo-cdn-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "tmp").mkdir(exist_ok=True)
        # nginx's workers run as nobody when the tests run as root.
        self.folder.chmod(0o755)
        (self.folder / "tmp").chmod(0o777)
        self._make_certificates()
        self.port = _free_port()
        self.status_port = _free_port()
        self._status_fetches = 0
        config = self.folder / "nginx.conf"
        config.write_text(f"""
worker_processes 1;
daemon off;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format cdn '$connection $server_protocol $status $msec $request_time $request_uri';
    access_log {self.folder}/access.log cdn;
    client_body_temp_path {self.folder}/tmp; proxy_temp_path {self.folder}/tmp;
    fastcgi_temp_path {self.folder}/tmp; uwsgi_temp_path {self.folder}/tmp; scgi_temp_path {self.folder}/tmp;
    server {{
        listen 127.0.0.1:{self.status_port};
        location = /status {{ stub_status; }}
    }}
    server {{
        listen 127.0.0.1:{self.port} ssl http2;
        ssl_certificate {self.folder}/server.pem;
        ssl_certificate_key {self.folder}/server.key;
        location /images/ {{
            proxy_pass http://127.0.0.1:{origin_port};
            proxy_buffering off;
        }}
    }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-c", str(config), "-e", str(self.folder / "error.log")],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self._wait_until_listening()

    def _make_certificates(self) -> None:
        folder = self.folder
        curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
        _openssl("req", "-x509", *curve, "-days", "2", "-subj", "/CN=Virtual Tourist test CA",
                 "-keyout", str(folder / "ca.key"), "-out", str(folder / "ca.pem"))
        _openssl("req", *curve, "-subj", "/CN=127.0.0.1",
                 "-keyout", str(folder / "server.key"), "-out", str(folder / "server.csr"))
        extensions = folder / "server.ext"
        extensions.write_text("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                              "extendedKeyUsage=serverAuth\n")
        _openssl("x509", "-req", "-days", "2", "-in", str(folder / "server.csr"), "-CA", str(folder / "ca.pem"),
                 "-CAkey", str(folder / "ca.key"), "-CAcreateserial", "-extfile", str(extensions),
                 "-out", str(folder / "server.pem"))

    def _wait_until_listening(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.folder / 'error.log').read_text(errors='replace')}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def ca_file(self) -> Path:
        """The certificate authority that signed the CDN's certificate (PEM)."""
        return self.folder / "ca.pem"

    def requests(self) -> list[CDNRequest]:
        log = self.folder / "access.log"
        if not log.exists():
            return []
        entries = []
        for line in log.read_text().splitlines():
            connection, protocol, status, ended, duration, path = line.split(" ", 5)
            entries.append(CDNRequest(int(connection), protocol, int(status), path, float(ended) - float(duration)))
        return entries

    def accepted_connections(self) -> int:
        """Connections nginx has accepted from clients (TLS handshakes begun), not counting its own status
        requests (nor the probe that waited for it to listen, which the first status request absorbs)."""
        self._status_fetches += 1
        with urllib.request.urlopen(f"http://127.0.0.1:{self.status_port}/status", timeout=5) as response:
            status = response.read().decode()
        # "Active connections: 1 \nserver accepts handled requests\n 7 7 9 \nReading: …"
        accepts = int(status.splitlines()[2].split()[0])
        return accepts - self._status_fetches

    def stop(self) -> None:
        stop_process(self.process)
