"""The systemd unit for on-the-map-server (data/on-the-map-server.service): systemd accepts it, it keeps
its hardening, and the real server works inside the same sandbox — the unit's system call filter, no
memory both writable and executable, an unprivileged user — which systemd itself cannot start here."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from string import Template

import pytest

from harness.on_the_map import Account, OnTheMapServer, server_binary

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "data" / "on-the-map-server.service"
INSTALLED_BINARY = "/usr/local/bin/on-the-map-server"

# What the unit promises (README, "Running under systemd"); deleting one fails the test.
HARDENING = {
    "DynamicUser": "yes", "StateDirectory": "on-the-map-server", "WorkingDirectory": "%S/on-the-map-server",
    "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes", "PrivateDevices": "yes",
    "NoNewPrivileges": "yes", "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
    "SystemCallFilter": "@system-service", "CapabilityBoundingSet": "", "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes", "RestrictNamespaces": "yes", "RestrictRealtime": "yes",
    "ProtectKernelTunables": "yes", "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes", "ProtectClock": "yes", "ProtectHostname": "yes", "UMask": "0077",
    "Restart": "on-failure", "RestartSec": "2", "LimitNOFILE": "65536", "TimeoutStopSec": "30",
    "KillSignal": "SIGTERM", "EnvironmentFile": "-/etc/on-the-map-server.env",
    "Environment": "ON_THE_MAP_SERVER_DATABASE=%S/on-the-map-server/on-the-map.sqlite",
    "ExecStart": f"{INSTALLED_BINARY} serve --trust-proxy-headers --secure-cookies",
}


def settings(unit: Path) -> list[tuple[str, str]]:
    """(key, value) for every setting, in order (a key may repeat)."""
    found = []
    for line in unit.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.append((key.strip(), value.strip()))
    return found


def systemd_analyze() -> str:
    """systemd-analyze's path; skips without it, except on CI, where the check must run."""
    found = shutil.which("systemd-analyze")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing on CI: install systemd to check the server's unit")
        pytest.skip("no systemd-analyze")
    return found


def built_server() -> Path:
    if not server_binary().exists():
        pytest.skip(f"no on-the-map-server at {server_binary()}: swift build, or set ON_THE_MAP_SERVER_BIN")
    return server_binary()


def test_the_unit_keeps_its_hardening() -> None:
    present = settings(UNIT)
    for key, value in HARDENING.items():
        assert (key, value) in present, f"{UNIT.name} lost {key}={value}"


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = systemd_analyze()
    # verify checks that ExecStart exists: point it at the built server in a copy.
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace(INSTALLED_BINARY, str(built_server())))
    result = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=120)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if UNIT.stem in line]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr


def allowed_system_calls(analyze: str) -> list[str]:
    """The unit's SystemCallFilter= lines as one allow list: the groups expanded, `~` lines taken away."""
    def expand(group: str) -> set[str]:
        listing = subprocess.run([analyze, "syscall-filter", group], capture_output=True, text=True,
                                 check=True).stdout.splitlines()[1:]
        names = set()
        for line in (entry.strip() for entry in listing):
            if line and not line.startswith("#"):
                names |= expand(line) if line.startswith("@") else {line}
        return names

    allowed: set[str] = set()
    for key, value in settings(UNIT):
        if key == "SystemCallFilter":
            denied = value.startswith("~")
            names = set().union(*(expand(word) if word.startswith("@") else {word}
                                  for word in value.lstrip("~").split()))
            allowed = allowed - names if denied else allowed | names
    return sorted(allowed)


# Runs in the wrapper process: an unprivileged user, no new privileges, no writable-and-executable memory
# (the kernel's PR_SET_MDWE, what MemoryDenyWriteExecute= asks of seccomp), then the unit's system call
# filter answering EPERM (SystemCallErrorNumber=), then the real server.
SANDBOX = Template("""\
import ctypes, os, sys
server, allowed = $server, $allowed
if os.geteuid() == 0:
    os.setgroups([]); os.setgid(65534); os.setuid(65534)
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0, "PR_SET_NO_NEW_PRIVS"
assert libc.prctl(65, 1, 0, 0, 0) == 0, "PR_SET_MDWE"
seccomp = ctypes.CDLL("libseccomp.so.2")
seccomp.seccomp_init.restype = ctypes.c_void_p
seccomp.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
seccomp.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
seccomp.seccomp_load.argtypes = [ctypes.c_void_p]
context = seccomp.seccomp_init(0x00050000 | 1)  # SCMP_ACT_ERRNO(EPERM)
for name in allowed:
    number = seccomp.seccomp_syscall_resolve_name(name.encode())
    if number >= 0:
        seccomp.seccomp_rule_add(context, 0x7FFF0000, number, 0)  # SCMP_ACT_ALLOW
assert seccomp.seccomp_load(context) == 0, "seccomp_load"
os.execv(server, [server] + sys.argv[1:])
""")


def test_the_server_works_inside_the_units_sandbox() -> None:
    analyze, binary = systemd_analyze(), built_server()
    try:
        ctypes.CDLL("libseccomp.so.2")
    except OSError:
        pytest.skip("no libseccomp to apply the unit's system call filter with")
    if ctypes.CDLL(None).prctl(66, 0, 0, 0, 0) < 0:  # PR_GET_MDWE: Linux 6.3 and later
        pytest.skip("this kernel cannot refuse writable-and-executable memory to one process")

    # Outside pytest's private temporary folder, so the unprivileged user can reach its state folder.
    state = Path(tempfile.mkdtemp(prefix="otm-unit-"))
    try:
        state.chmod(0o777)
        wrapper = state / "sandboxed-on-the-map-server"
        wrapper.write_text(f"#!{sys.executable}\n" + SANDBOX.substitute(
            server=repr(str(binary)), allowed=repr(allowed_system_calls(analyze))))
        wrapper.chmod(0o755)
        server = OnTheMapServer(state / "on-the-map.sqlite", state / "server.log", binary=wrapper,
                                extra_arguments=("--trust-proxy-headers", "--secure-cookies"))
        ada = server.add_user(Account("ada@example.org", "analytical engine", "Ada", "Lovelace"))
        server.start()
        try:
            session = server.session_id(ada)
            status, body = server.post_location({
                "uniqueKey": ada.key, "firstName": "Ada", "lastName": "Lovelace", "mapString": "London",
                "mediaURL": "https://example.org/ada", "latitude": 51.5, "longitude": -0.12}, session)
            assert status == 200, body
            assert [spot["mapString"] for spot in server.locations()] == ["London"]
            backup = subprocess.run([str(wrapper), "backup", "--database", str(server.database),
                                     "--to", str(state / "backup.sqlite")], capture_output=True, text=True, timeout=60)
            assert backup.returncode == 0 and "1 account, 1 location" in backup.stdout, backup.stderr
        finally:
            process = server.process
            server.stop()
        assert process.returncode == 0, f"exit {process.returncode} on SIGTERM:\n{server.log_text()[-3000:]}"
        assert "Operation not permitted" not in server.log_text(), server.log_text()[-3000:]
    finally:
        shutil.rmtree(state, ignore_errors=True)
