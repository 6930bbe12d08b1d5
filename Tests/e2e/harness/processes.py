"""Stopping child processes for certain, so no test leaves one behind."""

from __future__ import annotations

import signal
import subprocess


def stop_process(process: subprocess.Popen, grace: float = 5.0) -> int:
    """SIGTERM, then SIGKILL after `grace` seconds; always reaps. Returns the exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    return process.returncode
