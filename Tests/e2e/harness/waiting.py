"""Polling with a deadline: the one way the e2e tests wait for anything."""

from __future__ import annotations

import time
from typing import Callable, TypeVar

T = TypeVar("T")


class GiveUp(AssertionError):
    """Raised by a predicate when waiting longer cannot help (e.g. the app has exited): ends the wait at once."""


class WaitTimeout(AssertionError):
    """A condition did not become true in time. An AssertionError so pytest reports it as a failure."""


def wait_until(
    predicate: Callable[[], T],
    timeout: float,
    message: str | Callable[[], str],
    interval: float = 0.1,
) -> T:
    """Call `predicate` until it returns something truthy and return that value.

    `message` (or a function building it, called only on failure, so it can include
    fresh diagnostics) explains what was awaited.
    """
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while True:
        try:
            value = predicate()
            if value:
                return value
            last_error = None
        except GiveUp:
            raise
        except Exception as error:  # a predicate may race with the app writing its files
            last_error = error
        if time.monotonic() >= deadline:
            text = message() if callable(message) else message
            detail = f" (last error: {last_error!r})" if last_error else ""
            raise WaitTimeout(f"Timed out after {timeout:.1f} s waiting until {text}{detail}")
        time.sleep(interval)
