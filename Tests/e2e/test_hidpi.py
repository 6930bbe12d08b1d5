"""Issue 3: the pin is drawn at the screen's scale factor, so it stays crisp at scale 2."""

from __future__ import annotations

import time

import pytest

from harness.app import App
from harness.screenshots import capture_screen
from harness.user_input import UserInput
from harness.virtual_display import VirtualDisplay


@pytest.fixture
def large_display(tmp_path):
    virtual = VirtualDisplay(tmp_path / "xvfb-large.log", width=2560, height=1600)
    virtual.start()
    yield virtual.name
    virtual.stop()


def classify(pixel: tuple[int, int, int]) -> str:
    red, green, blue = pixel
    if red > 200 and green > 200 and blue > 200:
        return "white"
    if red > 170 and green < 90 and blue < 90:
        return "red"
    return "between"


def test_a_pin_is_drawn_sharply_at_scale_factor_two(tmp_path, large_display, tiles, flickr, artifacts):
    app = App(tmp_path / "home", large_display, tiles.url_template, flickr_url=flickr.rest_url,
              extra_environment={"GDK_SCALE": "2"})
    try:
        app.start()
        tiles.wait_for_tile_requests(count=4)
        time.sleep(1)
        user = UserInput(large_display)
        tip = (1000, 600)  # device pixels: logical (500, 300)
        user.press_and_hold(*tip, 0.8)
        app.wait_until(app.pins, 5, "the pin was stored")
        user.mousemove(2500, 1550)
        time.sleep(0.5)
        image = capture_screen(large_display, artifacts.path("pin-at-scale-2.png"))
        image.crop((tip[0] - 100, tip[1] - 150, tip[0] + 100, tip[1] + 50)).save(artifacts.path("pin-close-up.png"))

        # The head's white dot is 9 logical px wide: 18 device px at scale 2, with edges one pixel wide.
        row = tip[1] - 51  # the head's centre, 25.5 logical px above the tip
        kinds = [classify(image.getpixel((x, row))) for x in range(tip[0] - 20, tip[0] + 21)]
        whites = kinds.count("white")
        assert 15 <= whites <= 20, f"the white dot spans {whites} device pixels: {kinds}"
        first_white, last_white = kinds.index("white"), len(kinds) - 1 - kinds[::-1].index("white")
        left_edge = kinds[first_white - 3:first_white]
        right_edge = kinds[last_white + 1:last_white + 4]
        assert left_edge.count("between") <= 1 and right_edge.count("between") <= 1, \
            f"blurred edges (an upscaled image): {left_edge} | {right_edge}"
        assert "red" in kinds[first_white - 6:first_white] and "red" in kinds[last_white + 1:last_white + 7]
    finally:
        app.stop()
        for launch in range(1, app.launches + 1):
            artifacts.keep_copy(app.home / f"app-{launch}.log")
