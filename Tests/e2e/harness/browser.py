"""A fake web browser: the default handler for http and https links in one test user's XDG folders.

A link the app opens (gtk_show_uri_on_window → g_app_info_launch_default_for_uri) starts a tiny
script that appends the URL to a file, so a test can read which pages a user would have seen.
GIO reads the desktop file and mimeapps.list itself: no mimeinfo.cache or update-desktop-database
is needed (checked by Tests/e2e/test_on_the_map_harness.py with `gio open` and with GTK).
"""

from __future__ import annotations

import os
from pathlib import Path

from .waiting import wait_until

DESKTOP_ID = "e2e-fake-browser.desktop"
SCHEMES = ("http", "https")


class FakeBrowser:
    """Installs itself into `data_home/applications` and `config_home/mimeapps.list`."""

    def __init__(self, data_home: Path, config_home: Path, folder: Path) -> None:
        self.data_home = data_home
        self.config_home = config_home
        self.record = folder / "opened-urls.txt"
        self.script = folder / "fake-browser"
        folder.mkdir(parents=True, exist_ok=True)
        self.record.touch()
        # One line per URL; GIO passes it as one argument (%u), so spaces or quotes cannot split it.
        self.script.write_text('#!/bin/sh\nprintf \'%s\\n\' "$1" >> "$FAKE_BROWSER_RECORD"\n')
        os.chmod(self.script, 0o755)
        applications = data_home / "applications"
        applications.mkdir(parents=True, exist_ok=True)
        mime_types = "".join(f"x-scheme-handler/{scheme};" for scheme in SCHEMES)
        (applications / DESKTOP_ID).write_text(
            "[Desktop Entry]\n"
            "Type=Application\n"
            "Name=End-to-end Test Browser\n"
            f"Exec=env FAKE_BROWSER_RECORD=\"{self.record}\" \"{self.script}\" %u\n"
            "NoDisplay=true\n"
            f"MimeType={mime_types}\n"
        )
        config_home.mkdir(parents=True, exist_ok=True)
        defaults = "".join(f"x-scheme-handler/{scheme}={DESKTOP_ID}\n" for scheme in SCHEMES)
        (config_home / "mimeapps.list").write_text(f"[Default Applications]\n{defaults}")

    @property
    def environment(self) -> dict[str, str]:
        """What a process needs to open links with this browser (merge into its environment)."""
        return {"XDG_DATA_HOME": str(self.data_home), "XDG_CONFIG_HOME": str(self.config_home)}

    def opened(self) -> list[str]:
        """Every URL opened so far, oldest first."""
        return [line for line in self.record.read_text().splitlines() if line]

    def clear(self) -> None:
        self.record.write_text("")

    def wait_for_url(self, expected: str | None = None, timeout: float = 10.0, count: int = 1) -> str:
        """The `count`-th URL opened (or the first equal to `expected`); fails after `timeout` s."""
        def found():
            urls = self.opened()
            if expected is not None:
                return expected if expected in urls else None
            return urls[count - 1] if len(urls) >= count else None
        what = f"the browser opened {expected!r}" if expected else f"the browser opened {count} URL(s)"
        return wait_until(found, timeout, lambda: f"{what}; it opened {self.opened()}")
