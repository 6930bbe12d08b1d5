"""Where a test leaves its screenshots and logs for a person to look at."""

from __future__ import annotations

import re
import shutil
from pathlib import Path


class ArtifactFolder:
    """A folder per test; files get a running number so they sort in the order they were made."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self._count = 0

    def path(self, name: str) -> Path:
        """A fresh path like `03-after-drag.png` for a file called `name`."""
        self._count += 1
        return self.folder / f"{self._count:02d}-{_safe(name)}"

    def keep_copy(self, source: Path) -> None:
        """Copy a file made elsewhere (e.g. a log) into the folder under its own name."""
        if source.exists() and source.parent.resolve() != self.folder.resolve():
            shutil.copy2(source, self.folder / source.name)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "artifact"


def folder_name_for_test(node_id: str) -> str:
    """`Tests/e2e/test_viewport.py::test_x[p]` -> `test_viewport.test_x-p`."""
    file_part, _, test_part = node_id.partition("::")
    return _safe(f"{Path(file_part).stem}.{test_part.replace('::', '.')}")
