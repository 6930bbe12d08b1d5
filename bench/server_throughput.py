"""On the Map server read throughput under write load, beside a static-file floor.

wrk (64 connections, 2 threads, 10 s) on GET /v1/StudentLocation?limit=100&order=-updatedAt against the
release server on (a) SQLite and (b) a throw-away PostgreSQL cluster, while a second load posts and updates
50 locations per second on a fixed schedule (four connections of one logged-in account, so a slow write does
not slow the load down); then nginx serving the same response body as a static file with the same wrk
settings (the floor). Prints requests/s, p99 latency and the ratio to the floor, and the writes' p99; checks
that no request failed, every write due was made and none was lost. Loopback only.

    bench/run server_throughput.py [--duration SECONDS]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CONNECTIONS = 64
WRITES_PER_SECOND = 50
LIST_PATH = "/v1/StudentLocation?limit=100&order=-updatedAt"
PASSWORD = "throughput trial 7"


def server_binary() -> str:
    return os.environ.get("ON_THE_MAP_SERVER_BIN", str(REPO / ".build-server-release" / "release" / "on-the-map-server"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def as_unprivileged(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: drop to nobody when we are root (CI)."""
    if os.geteuid() != 0:
        return command
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + command


class PostgresCluster:
    """initdb into a temporary folder, pg_ctl start on a free loopback port; stop() removes it."""

    def __init__(self, root: Path) -> None:
        versions = sorted((p for p in Path("/usr/lib/postgresql").glob("*/bin/initdb")), key=lambda p: int(p.parent.parent.name))
        if not versions:
            raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = versions[-1].parent
        self.folder = root / "postgres"
        self.folder.mkdir()
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            shutil.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
        self.port = free_port()
        self.data = self.folder / "data"
        subprocess.run(as_unprivileged([str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                                        "-E", "UTF8", "--no-sync", "--no-instructions"]), check=True, stdout=subprocess.DEVNULL)
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c max_connections=200"
        subprocess.run(as_unprivileged([str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"),
                                        "-o", options, "-w", "start"]), check=True, stdout=subprocess.DEVNULL)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres?sslmode=disable"

    def stop(self) -> None:
        subprocess.run(as_unprivileged([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"]),
                       check=False, stdout=subprocess.DEVNULL)


class Server:
    """The release on-the-map-server on a free port, logging warnings only."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.port = free_port()
        self.process = subprocess.Popen([server_binary(), "serve", "--database", database, "--port", str(self.port),
                                         "--log-level", "warning"], stdin=subprocess.DEVNULL)
        wait_for_port(self.port)

    def add_user(self, email: str) -> None:
        subprocess.run([server_binary(), "user", "add", "--database", self.database, "--email", email,
                        "--first-name", "Bench", "--last-name", "Mark", "--log-level", "error"],
                       input=PASSWORD + "\n", text=True, check=True, stdout=subprocess.DEVNULL)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


class Writer:
    """Posts and updates locations through one connection and session; remembers what each should hold."""

    def __init__(self, port: int, email: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        login = self.request("POST", "/v1/session", {"udacity": {"username": email, "password": PASSWORD}})
        body = json.loads(login[5:])
        self.session, self.key = body["session"]["id"], body["account"]["key"]
        self.expected: dict[str, str] = {}  # objectId -> last mapString written (only this writer's objects)
        self.failures = 0
        self.writes = 0
        self.latencies: list[float] = []

    def request(self, method: str, path: str, body: dict | None = None) -> bytes:
        headers = {"Content-Type": "application/json"}
        if getattr(self, "session", None):
            headers["X-Session-Id"] = self.session
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return data

    def write(self, index: int) -> None:
        map_string = f"Place {index}"
        body = {"uniqueKey": self.key, "firstName": "Bench", "lastName": "Mark", "mapString": map_string,
                "mediaURL": f"https://example.org/{index}", "latitude": (index % 170) - 85.0,
                "longitude": (index % 350) - 175.0}
        started = time.monotonic()
        try:
            if index % 2 == 0 or not self.expected:
                object_id = json.loads(self.request("POST", "/v1/StudentLocation", body))["objectId"]
            else:
                object_id = list(self.expected)[index % len(self.expected)]
                self.request("PUT", f"/v1/StudentLocation/{object_id}", body)
            self.expected[object_id] = map_string
            self.writes += 1
            self.latencies.append(time.monotonic() - started)
        except Exception as error:  # noqa: BLE001 - counted and reported
            self.failures += 1
            print(f"   write failed: {error}", file=sys.stderr)

    def lost_writes(self) -> int:
        stored = json.loads(self.request("GET", f"/v1/StudentLocation?limit=1000&uniqueKey={self.key}"))["results"]
        by_id = {row["objectId"]: row["mapString"] for row in stored}
        return sum(1 for object_id, map_string in self.expected.items() if by_id.get(object_id) != map_string)


class WriteLoad:
    """WRITES_PER_SECOND writes on a fixed schedule, whatever the server's latency (an open loop, as students
    posting do not wait for each other): a few writers, each on its own connection and updating only the
    locations it posted, so "lost" is exact. Reports how many writes were due and how many were made."""

    WORKERS = 4

    def __init__(self, port: int, email: str) -> None:
        self.writers = [Writer(port, email) for _ in range(self.WORKERS)]
        self.due = 0
        self.seeded = 0

    def seed(self, count: int) -> None:
        self.seeded += count
        for index in range(count):
            self.writers[index % self.WORKERS].write(100_000 + index * 2)  # even: posts

    def run_for(self, seconds: float, stop: threading.Event) -> None:
        import queue
        work: queue.Queue[int | None] = queue.Queue()

        def drain(writer: Writer) -> None:
            while (index := work.get()) is not None:
                writer.write(index)

        threads = [threading.Thread(target=drain, args=(writer,)) for writer in self.writers]
        for thread in threads:
            thread.start()
        start = time.monotonic()
        while not stop.is_set() and time.monotonic() - start < seconds:
            work.put(self.due)
            self.due += 1
            time.sleep(max(0.0, start + self.due / WRITES_PER_SECOND - time.monotonic()))
        for _ in threads:
            work.put(None)
        for thread in threads:
            thread.join()

    @property
    def writes(self) -> int:
        """Writes made by `run_for` (not the seed)."""
        return sum(writer.writes for writer in self.writers) - self.seeded

    @property
    def failures(self) -> int:
        return sum(writer.failures for writer in self.writers)

    def write_p99_ms(self) -> float:
        latencies = sorted(latency for writer in self.writers for latency in writer.latencies)
        return latencies[int(len(latencies) * 0.99)] * 1000 if latencies else float("nan")

    def lost_writes(self) -> int:
        return sum(writer.lost_writes() for writer in self.writers)


def wrk(port: int, duration: int) -> dict:
    output = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency",
                             f"http://127.0.0.1:{port}{LIST_PATH}"], check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", output)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", output))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    return {"rate": rate, "p99": p99_ms, "failed": errors + (int(non_2xx.group(1)) if non_2xx else 0),
            "requests": requests}


def measure_server(name: str, database: str, duration: int) -> tuple[dict, bytes]:
    server = Server(database)
    try:
        server.add_user(f"writer-{name}@example.org")
        writer = WriteLoad(server.port, f"writer-{name}@example.org")
        writer.seed(120)
        body = http.client.HTTPConnection("127.0.0.1", server.port)
        body.request("GET", LIST_PATH)
        response_body = body.getresponse().read()
        stop = threading.Event()
        loop = threading.Thread(target=writer.run_for, args=(duration + 2, stop))
        loop.start()
        result = wrk(server.port, duration)
        stop.set()
        loop.join()
        result.update(writes=writer.writes, due=writer.due, write_failures=writer.failures,
                      write_p99=writer.write_p99_ms(), lost=writer.lost_writes())
        return result, response_body
    finally:
        server.stop()


def measure_nginx(body: bytes, root: Path, duration: int) -> dict:
    site = root / "nginx"
    (site / "v1").mkdir(parents=True)
    (site / "v1" / "StudentLocation").write_bytes(body)
    for folder in (site, site / "v1"):
        folder.chmod(0o755)
    port = free_port()
    config = site / "nginx.conf"
    config.write_text(f"""
worker_processes 2;
daemon off;
pid {site}/nginx.pid;
error_log {site}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {site}/tmp; proxy_temp_path {site}/tmp; fastcgi_temp_path {site}/tmp;
    uwsgi_temp_path {site}/tmp; scgi_temp_path {site}/tmp;
    server {{
        listen 127.0.0.1:{port};
        root {site};
        location = /v1/StudentLocation {{ default_type application/json; }}
    }}
}}
""")
    process = subprocess.Popen(["nginx", "-c", str(config), "-e", str(site / "error.log")])
    try:
        wait_for_port(port)
        return wrk(port, duration)
    finally:
        process.terminate()
        process.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run (default 10)")
    arguments = parser.parse_args()
    for tool in ("wrk", "nginx"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install wrk nginx-light)")
    root = Path(tempfile.mkdtemp(prefix="otm-bench-"))
    root.chmod(0o755)  # PostgreSQL and nginx's workers run as nobody when we are root
    cluster = PostgresCluster(root)
    try:
        results = {}
        results["SQLite"], body = measure_server("sqlite", str(root / "bench.sqlite"), arguments.duration)
        results["PostgreSQL"], _ = measure_server("postgres", cluster.url, arguments.duration)
        floor = measure_nginx(body, root, arguments.duration)
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)

    print(f"\nGET {LIST_PATH} ({len(body)} bytes), wrk -t2 -c{CONNECTIONS} -d{arguments.duration}s, "
          f"{WRITES_PER_SECOND} writes/s alongside")
    print(f"{'target':<12} {'req/s':>9} {'p99 ms':>8} {'× floor':>8} {'failed':>7} {'writes/due':>11} "
          f"{'write p99 ms':>13} {'lost':>5}")
    print(f"{'nginx floor':<12} {floor['rate']:>9.0f} {floor['p99']:>8.2f} {1:>8.2f} {floor['failed']:>7} {'-':>11} "
          f"{'-':>13} {'-':>5}")
    ok = floor["failed"] == 0
    for name, result in results.items():
        print(f"{name:<12} {result['rate']:>9.0f} {result['p99']:>8.2f} {result['rate'] / floor['rate']:>8.2f} "
              f"{result['failed']:>7} {str(result['writes']) + '/' + str(result['due']):>11} "
              f"{result['write_p99']:>13.1f} {result['lost']:>5}")
        ok = (ok and result["failed"] == 0 and result["lost"] == 0 and result["write_failures"] == 0
              and result["writes"] == result["due"])
    print("goal: ≥ 0.50 × floor, p99 ≤ 20 ms, no failed request, no lost write")
    print("no failed request, every write made, no lost write" if ok
          else "FAILED REQUESTS, MISSED OR LOST WRITES (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
