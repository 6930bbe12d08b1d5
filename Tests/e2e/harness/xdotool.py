"""Running xdotool against one X display."""

from __future__ import annotations

import os
import subprocess


class XdotoolError(RuntimeError):
    pass


def xdotool(display: str, *args: object, timeout: float = 15.0, check: bool = True) -> subprocess.CompletedProcess:
    command = ["xdotool", *(str(arg) for arg in args)]
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env={**os.environ, "DISPLAY": display}
        )
    except subprocess.TimeoutExpired as error:
        raise XdotoolError(f"`{' '.join(command)}` did not finish within {timeout} s") from error
    if check and result.returncode != 0:
        raise XdotoolError(f"`{' '.join(command)}` failed ({result.returncode}): {result.stderr.strip()}")
    return result
