"""A class that outgrows one machine, rehearsed on one: a throw-away PostgreSQL cluster, several
on-the-map-server instances sharing it, and a real nginx load-balancing them, as the README's server
section sets them up. Everything here is stopped by `stop()` or by leaving its `with` block,
also when the block raises. Used by test_server_scale_out.py and bench/server_throughput.py.
"""

from __future__ import annotations

import functools
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .processes import stop_process
from .waiting import GiveUp, wait_until

REPO = Path(__file__).resolve().parents[3]
PREFIX = b")]}'\n"  # starts every /v1/session and /v1/users answer
NGINX = "/usr/sbin/nginx"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30) -> None:
    def listening() -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    wait_until(listening, timeout, f"something listens on 127.0.0.1:{port}", interval=0.05)


def as_unprivileged(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: drop to nobody when we are root (CI)."""
    if os.geteuid() != 0:
        return command
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + command


def postgres_tools() -> Path | None:
    """The newest installed PostgreSQL's bin folder (initdb, pg_ctl), or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: int(path.parent.parent.name))
    return found[-1].parent if found else None


def nginx_installed() -> bool:
    return os.access(NGINX, os.X_OK)


def shared_folder(prefix: str) -> Path:
    """A fresh folder under /tmp that nobody (PostgreSQL, nginx's workers) can reach: pytest's are root's only."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    return folder


# MARK: - HTTP


@dataclass(frozen=True)
class Answer:
    status: int
    body: object  # the JSON answer (prefix skipped), else the text
    headers: dict[str, str]


def call(method: str, url: str, body: object | None = None, headers: dict[str, str] | None = None,
         timeout: float = 10) -> Answer:
    """One request on a connection of its own (closed after it), so no request inherits another's socket."""
    match = re.match(r"http://([^:/]+):(\d+)(/.*)$", url)
    assert match, f"not a plain http URL: {url}"
    connection = http.client.HTTPConnection(match.group(1), int(match.group(2)), timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, match.group(3), body=data, headers={
            "Accept": "application/json", **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()
    raw = raw[len(PREFIX):] if raw.startswith(PREFIX) else raw
    try:
        parsed: object = json.loads(raw)
    except ValueError:
        parsed = raw.decode(errors="replace")
    return Answer(response.status, parsed, answer_headers)


# MARK: - PostgreSQL


class PostgresCluster:
    """initdb into a fresh folder, pg_ctl start on a free loopback port (trust auth: throw-away);
    stop() stops it and removes the folder."""

    def __init__(self) -> None:
        tools = postgres_tools()
        if tools is None:
            raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql")
        self.tools = tools
        self.folder = shared_folder("otm-postgres-")
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            shutil.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
        self.data = self.folder / "data"
        self.log = self.folder / "log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres?sslmode=disable"
        self.running = False

    def start(self) -> "PostgresCluster":
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync",
                  "--no-instructions")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        self.running = True
        return self

    def _run(self, tool: str, *arguments: str) -> None:
        result = subprocess.run(as_unprivileged([str(self.tools / tool), *arguments]), capture_output=True, text=True,
                                timeout=120)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed ({result.returncode}): {result.stderr.strip()}\n{log}")

    def stop(self) -> None:
        if self.running:
            subprocess.run(as_unprivileged([str(self.tools / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                                            "stop"]), capture_output=True, timeout=120)
            self.running = False
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "PostgresCluster":
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()


# MARK: - Server instances


def server_binary() -> Path:
    """ON_THE_MAP_SERVER_BIN, else SwiftPM's debug build."""
    return Path(os.environ.get("ON_THE_MAP_SERVER_BIN", REPO / ".build" / "debug" / "on-the-map-server"))


@functools.cache
def has_metrics_listener(binary: Path) -> bool:
    """Whether `serve` takes --metrics-port (its default port, 9464, would clash between instances)."""
    result = subprocess.run([str(binary), "serve", "--help"], capture_output=True, text=True, timeout=30)
    return "--metrics-port" in result.stdout


def add_account(binary: Path, database: str, email: str, password: str, first_name: str = "Scale",
                last_name: str = "Out") -> str:
    """`user add` (the password on stdin); returns the new account's key."""
    result = subprocess.run([str(binary), "user", "add", "--database", database, "--email", email,
                             "--first-name", first_name, "--last-name", last_name, "--log-level", "error"],
                            input=password + "\n", capture_output=True, text=True, timeout=60)
    found = re.search(r"with key (\S+?)\.?$", result.stdout.strip())
    if result.returncode != 0 or not found:
        raise RuntimeError(f"user add {email} failed: {result.stdout}{result.stderr}")
    return found.group(1)


class ServerInstance:
    """One `on-the-map-server serve` on a fixed loopback port, behind a proxy (--trust-proxy-headers); keeps its
    port (and metrics port) across restarts, and appends every run's output to one log."""

    def __init__(self, binary: Path, database: str, log_path: Path, log_level: str = "notice",
                 extra_arguments: tuple[str, ...] = ()) -> None:
        self.binary = binary
        self.database = database
        self.log_path = log_path
        self.port = free_port()
        self.metrics_port = free_port() if has_metrics_listener(binary) else None
        self.arguments = ["serve", "--database", database, "--host", "127.0.0.1", "--port", str(self.port),
                          "--trust-proxy-headers", "--log-level", log_level, *extra_arguments]
        if self.metrics_port is not None:
            self.arguments += ["--metrics-port", str(self.metrics_port)]
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.running else None

    def start(self, timeout: float = 30) -> "ServerInstance":
        assert not self.running, f"the instance on port {self.port} is already running"
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([str(self.binary), *self.arguments], stdin=subprocess.DEVNULL,
                                            stdout=log, stderr=subprocess.STDOUT)

        def listening() -> bool:
            if self.process.poll() is not None:
                raise GiveUp(f"on-the-map-server exited ({self.process.returncode}):\n{self.log_text(offset)[-3000:]}")
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        wait_until(listening, timeout, lambda: f"the instance listens on {self.port}:\n{self.log_text(offset)[-3000:]}",
                   interval=0.05)
        return self

    def stop(self, grace: float = 30) -> None:
        """SIGTERM: the server stops accepting and finishes the requests in flight before it exits."""
        if self.process is not None:
            stop_process(self.process, grace)
            self.process = None

    def kill9(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: nothing is finished."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def restart(self) -> "ServerInstance":
        self.stop()
        return self.start()

    def wait_until_ready(self, timeout: float = 30) -> None:
        """GET /readyz answers 200 (the database answers too); on a server without /readyz, a list read does."""
        def ready() -> bool:
            if not self.running:
                raise GiveUp(f"the instance on port {self.port} exited:\n{self.log_text()[-3000:]}")
            status = call("GET", self.base_url + "/readyz", timeout=2).status
            if status == 404:
                status = call("GET", self.base_url + "/v1/StudentLocation?limit=1", timeout=2).status
            return status == 200
        wait_until(ready, timeout, f"the instance on port {self.port} is ready", interval=0.05)

    def log_text(self, offset: int = 0) -> str:
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                return log.read().decode(errors="replace")
        except OSError:
            return ""


# MARK: - nginx


class LoadBalancer:
    """nginx on a free loopback port with an upstream of the given ports: round-robin, a GET that meets a
    connection error, a timeout, 502 or 503 is retried on the next instance (never a POST, PUT or DELETE that
    reached one: it could be written twice), an instance that failed is left out for 2 s, keep-alive to
    the instances. Each answer names the instance that gave it in `X-Upstream` (for the tests only)."""

    def __init__(self, upstream_ports: list[int], worker_processes: int = 1) -> None:
        if not nginx_installed():
            raise RuntimeError(f"nginx is not installed at {NGINX}: apt-get install nginx-light")
        self.upstream_ports = list(upstream_ports)
        self.worker_processes = worker_processes
        self.folder = shared_folder("otm-nginx-")
        (self.folder / "tmp").mkdir()
        (self.folder / "tmp").chmod(0o777)  # the workers (nobody) buffer large answers here
        self.config = self.folder / "nginx.conf"
        self.log_path = self.folder / "error.log"
        self.port = free_port()
        self.down: frozenset[int] = frozenset()
        self.process: subprocess.Popen | None = None
        self._globals = f"daemon off; pid {self.folder}/nginx.pid; error_log stderr;"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "LoadBalancer":
        self._write_config()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([NGINX, "-p", str(self.folder), "-c", str(self.config), "-g", self._globals],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)

        def listening() -> bool:
            if self.process.poll() is not None:
                raise GiveUp(f"nginx exited ({self.process.returncode}): {self.log_text()[-3000:]}")
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        wait_until(listening, 15, lambda: f"nginx listens on {self.port}: {self.log_text()[-3000:]}", interval=0.05)
        wait_until(self._workers, 15, "nginx started its workers", interval=0.05)
        return self

    def reload(self, down: set[int] | frozenset[int] = frozenset()) -> None:
        """Rewrites the upstream with the instances on the ports in `down` marked `down` and reloads (`nginx -s
        reload`); returns once every old worker has exited, that is, when no request is sent the old way."""
        assert self.process is not None and self.process.poll() is None, "nginx is not running"
        self.down = frozenset(down)
        self._write_config()
        old_workers = self._workers()
        subprocess.run([NGINX, "-p", str(self.folder), "-c", str(self.config), "-g", self._globals, "-s", "reload"],
                       check=True, capture_output=True, timeout=30)

        def new_generation() -> bool:
            workers = self._workers()
            return bool(workers) and not workers & old_workers
        wait_until(new_generation, 30, lambda: f"nginx replaced its workers: {self.log_text()[-2000:]}", interval=0.02)

    def _workers(self) -> set[int]:
        """The master's children (its workers), from /proc."""
        workers = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if self.process is not None and int(fields[1]) == self.process.pid:
                workers.add(int(stat.parent.name))
        return workers

    def _write_config(self) -> None:
        servers = "\n".join(f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=2s"
                            f"{' down' if port in self.down else ''};" for port in self.upstream_ports)
        user = "user nobody nogroup;" if os.geteuid() == 0 else ""
        temporary = self.folder / "tmp"
        self.config.write_text(f"""\
{user}
worker_processes {self.worker_processes};
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {temporary}; proxy_temp_path {temporary}; fastcgi_temp_path {temporary};
    uwsgi_temp_path {temporary}; scgi_temp_path {temporary};
    upstream on_the_map {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://on_the_map;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 1s;
            proxy_read_timeout 10s;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
""")

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, grace=10)
            self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


# MARK: - The whole


class ServerCluster:
    """PostgreSQL, `count` instances on it, nginx in front. Instances start one after another (the first
    migrates the schema). Use as a context manager, or call stop() in a finalizer."""

    def __init__(self, count: int, log_folder: Path, binary: Path | None = None, nginx_workers: int = 1,
                 log_level: str = "notice") -> None:
        self.binary = binary or server_binary()
        self.count = count
        self.log_folder = log_folder
        self.nginx_workers = nginx_workers
        self.log_level = log_level
        self.postgres: PostgresCluster | None = None
        self.instances: list[ServerInstance] = []
        self.nginx: LoadBalancer | None = None

    def start(self) -> "ServerCluster":
        try:
            self.postgres = PostgresCluster().start()
            for number in range(1, self.count + 1):
                instance = ServerInstance(self.binary, self.postgres.url, self.log_folder / f"instance-{number}.log",
                                          self.log_level)
                self.instances.append(instance)
                instance.start()
            self.nginx = LoadBalancer([instance.port for instance in self.instances], self.nginx_workers).start()
        except BaseException:
            self.stop()
            raise
        return self

    @property
    def database_url(self) -> str:
        assert self.postgres is not None
        return self.postgres.url

    @property
    def url(self) -> str:
        """nginx's address: where clients go."""
        assert self.nginx is not None
        return self.nginx.base_url

    def add_account(self, email: str, password: str, first_name: str = "Scale", last_name: str = "Out") -> str:
        return add_account(self.binary, self.database_url, email, password, first_name, last_name)

    def ensure_all_running(self) -> None:
        """Restarts any instance that is not running and puts every one back in nginx's upstream."""
        for instance in self.instances:
            if not instance.running:
                instance.start()
                instance.wait_until_ready()
        if self.nginx is not None and self.nginx.down:
            self.nginx.reload(down=frozenset())

    def logs(self) -> str:
        """The tail of every log, for a failing test's message."""
        parts = [f"--- instance {number} ({instance.port}):\n{instance.log_text()[-1500:]}"
                 for number, instance in enumerate(self.instances, 1)]
        if self.nginx is not None:
            parts.append(f"--- nginx:\n{self.nginx.log_text()[-1500:]}")
        return "\n".join(parts)

    def stop(self) -> None:
        """Everything this started, nginx first (so nothing is sent to an instance going away), PostgreSQL last."""
        if self.nginx is not None:
            self.nginx.stop()
            self.nginx = None
        for instance in self.instances:
            instance.stop()
        if self.postgres is not None:
            self.postgres.stop()
            self.postgres = None

    def __enter__(self) -> "ServerCluster":
        return self.start()

    def __exit__(self, *_) -> None:
        self.stop()
