"""Screenshots of the virtual display and the few image comparisons the tests need."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Callable

from PIL import Image, ImageChops

Box = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive, as Pillow)


def capture_screen(display: str, path: Path) -> Image.Image:
    """Save the whole screen as a PNG at `path` (imagemagick's `import`) and return it loaded."""
    path.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        ["import", "-window", "root", str(path)],
        capture_output=True, text=True, timeout=30, env={**os.environ, "DISPLAY": display},
    )
    if result.returncode != 0:
        raise RuntimeError(f"import -window root failed: {result.stderr.strip()}")
    with Image.open(path) as image:
        return image.convert("RGB")


def crop(image: Image.Image, box: Box) -> Image.Image:
    return image.crop(box)


def dominant_colour_fraction(image: Image.Image) -> float:
    """Share of the pixels that have the image's most common colour."""
    width, height = image.size
    colours = image.convert("RGB").getcolors(maxcolors=width * height)
    assert colours, "empty image"
    return max(count for count, _ in colours) / (width * height)


def is_blank(image: Image.Image, threshold: float = 0.95) -> bool:
    """True when nearly the whole image is one colour (an empty or unpainted map)."""
    return dominant_colour_fraction(image) >= threshold


def _differing_pixel_count(a: Image.Image, b: Image.Image, tolerance: int) -> int:
    difference = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    red, green, blue = difference.split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return largest.point(lambda value: 255 if value > tolerance else 0).histogram()[255]


def fraction_differing(a: Image.Image, b: Image.Image, tolerance: int = 24, max_shift: int = 0) -> float:
    """Fraction of pixels whose colour differs by more than `tolerance` in some channel.

    With `max_shift`, `b` may be offset by up to that many pixels in x and y, and the best
    alignment counts (the inner area of `a` is compared, so edges never count as different).
    """
    if a.size != b.size:
        raise ValueError(f"images differ in size: {a.size} vs {b.size}")
    width, height = a.size
    inner = (max_shift, max_shift, width - max_shift, height - max_shift)
    reference = a.crop(inner)
    area = reference.size[0] * reference.size[1]
    best = area
    for dx in range(-max_shift, max_shift + 1):
        for dy in range(-max_shift, max_shift + 1):
            shifted = b.crop((inner[0] + dx, inner[1] + dy, inner[2] + dx, inner[3] + dy))
            best = min(best, _differing_pixel_count(reference, shifted, tolerance))
    return best / area


def shows_near(image: Image.Image, point: tuple[int, int], is_colour: Callable[[tuple], bool],
               radius: int = 6) -> bool:
    """Whether `image` has a pixel of the colour within `radius` pixels of `point` (e.g. a pin's head)."""
    x, y = point
    return any(is_colour(image.getpixel((x + dx, y + dy)))
               for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1))


def wait_until_screen_shows(app, shows: Callable[[Image.Image], bool], message: str, timeout: float = 15.0):
    """Captures the screen until `shows` holds for what it shows (e.g. the map has drawn a pin); returns that
    capture. `app` is either app of the harness (its display and its own folder for the captures)."""
    path = app.home / "screen-check.png"

    def capture_showing() -> Image.Image | None:
        image = capture_screen(app.display, path)
        return image if shows(image) else None
    return app.wait_until(capture_showing, timeout, message)
