"""On the Map server read throughput under write load, beside a static-file floor.

wrk (64 connections, 2 threads, 10 s) on GET /v1/StudentLocation?limit=100&order=-updatedAt against the
release server on (a) SQLite and (b) a throw-away PostgreSQL cluster, while a second load posts and updates
50 locations per second on a fixed schedule (four connections of one logged-in account, so a slow write does
not slow the load down); then nginx serving the same response body as a static file with the same wrk
settings (the floor). Prints requests/s, p99 latency and the ratio to the floor, and the writes' p99; checks
that no request failed, every write due was made and none was lost. Loopback only.

The scale-out part runs the same loads through nginx load-balancing one, then three instances on one
PostgreSQL (Tests/e2e/harness/server_cluster.py, the README's set-up): on two cores, wrk, nginx, the
instances and PostgreSQL share the same two, so three instances cannot triple anything here.

    bench/run server_throughput.py [--duration SECONDS] [--only single|scale-out]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "e2e"))

from harness.server_cluster import (PostgresCluster, ServerCluster, ServerInstance, add_account,  # noqa: E402
                                    free_port, wait_for_port)

CONNECTIONS = 64
WRITES_PER_SECOND = 50
LIST_PATH = "/v1/StudentLocation?limit=100&order=-updatedAt"
PASSWORD = "throughput trial 7"


def server_binary() -> Path:
    return Path(os.environ.get("ON_THE_MAP_SERVER_BIN", REPO / ".build-server-release" / "release" / "on-the-map-server"))


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


def measure_under_writes(port: int, email: str, duration: int, settle: float = 0.0) -> tuple[dict, bytes]:
    """wrk on the list at `port` while WriteLoad writes there; `settle` waits before counting lost writes, for
    reads that may reach an instance whose list is up to LocationLists' maximumAge (100 ms) behind."""
    writer = WriteLoad(port, email)
    writer.seed(120)
    body = http.client.HTTPConnection("127.0.0.1", port)
    body.request("GET", LIST_PATH)
    response_body = body.getresponse().read()
    stop = threading.Event()
    loop = threading.Thread(target=writer.run_for, args=(duration + 2, stop))
    loop.start()
    result = wrk(port, duration)
    stop.set()
    loop.join()
    time.sleep(settle)
    result.update(writes=writer.writes, due=writer.due, write_failures=writer.failures,
                  write_p99=writer.write_p99_ms(), lost=writer.lost_writes())
    return result, response_body


def measure_server(name: str, database: str, root: Path, duration: int) -> tuple[dict, bytes]:
    server = ServerInstance(server_binary(), database, root / f"{name}.log", log_level="warning").start()
    try:
        add_account(server_binary(), database, f"writer-{name}@example.org", PASSWORD, "Bench", "Mark")
        return measure_under_writes(server.port, f"writer-{name}@example.org", duration)
    finally:
        server.stop()


def measure_scale_out(count: int, root: Path, duration: int) -> tuple[dict, bytes]:
    """`count` instances on one PostgreSQL behind nginx (two workers, as the floor's); wrk and the writes go to nginx."""
    logs = root / f"scale-out-{count}"
    logs.mkdir()
    with ServerCluster(count, logs, binary=server_binary(), nginx_workers=2, log_level="warning") as cluster:
        cluster.add_account("writer-scale-out@example.org", PASSWORD, "Bench", "Mark")
        return measure_under_writes(cluster.nginx.port, "writer-scale-out@example.org", duration, settle=0.3)


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
    parser.add_argument("--only", choices=["single", "scale-out"],
                        help="single: one server on SQLite and on PostgreSQL; scale-out: one and three behind nginx")
    arguments = parser.parse_args()
    for tool in ("wrk", "nginx"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install wrk nginx-light)")
    root = Path(tempfile.mkdtemp(prefix="otm-bench-"))
    root.chmod(0o755)  # nginx's workers run as nobody when we are root
    try:
        results = {}
        if arguments.only in (None, "single"):
            results["SQLite"], body = measure_server("sqlite", str(root / "bench.sqlite"), root, arguments.duration)
            with PostgresCluster() as cluster:
                results["PostgreSQL"], _ = measure_server("postgres", cluster.url, root, arguments.duration)
        if arguments.only in (None, "scale-out"):
            results["1 behind nginx"], body = measure_scale_out(1, root, arguments.duration)
            results["3 behind nginx"], _ = measure_scale_out(3, root, arguments.duration)
        floor = measure_nginx(body, root, arguments.duration)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    print(f"\nGET {LIST_PATH} ({len(body)} bytes), wrk -t2 -c{CONNECTIONS} -d{arguments.duration}s, "
          f"{WRITES_PER_SECOND} writes/s alongside; \"behind nginx\": instances on one PostgreSQL")
    print(f"{'target':<16} {'req/s':>9} {'p99 ms':>8} {'× floor':>8} {'failed':>7} {'writes/due':>11} "
          f"{'write p99 ms':>13} {'lost':>5}")
    print(f"{'nginx floor':<16} {floor['rate']:>9.0f} {floor['p99']:>8.2f} {1:>8.2f} {floor['failed']:>7} {'-':>11} "
          f"{'-':>13} {'-':>5}")
    ok = floor["failed"] == 0
    for name, result in results.items():
        print(f"{name:<16} {result['rate']:>9.0f} {result['p99']:>8.2f} {result['rate'] / floor['rate']:>8.2f} "
              f"{result['failed']:>7} {str(result['writes']) + '/' + str(result['due']):>11} "
              f"{result['write_p99']:>13.1f} {result['lost']:>5}")
        ok = (ok and result["failed"] == 0 and result["lost"] == 0 and result["write_failures"] == 0
              and result["writes"] == result["due"])
    if "3 behind nginx" in results:
        gain = results["3 behind nginx"]["rate"] / results["1 behind nginx"]["rate"]
        print(f"three instances / one: {gain:.2f}× (on {os.cpu_count()} cores shared with wrk, nginx and PostgreSQL)")
    print("goal: ≥ 0.50 × floor, p99 ≤ 20 ms, no failed request, no lost write")
    print("no failed request, every write made, no lost write" if ok
          else "FAILED REQUESTS, MISSED OR LOST WRITES (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
