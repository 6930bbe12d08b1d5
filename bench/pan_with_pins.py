"""How long a map frame takes while panning with 5,000 pins (tiles plus the pin layer), measured
by the app itself (trace log: "frame N ms") while xdotool drags the map.

    bench/run pan_with_pins.py [--pins 5000]
"""

from __future__ import annotations

import argparse
import re
import time

from benchlib import App, seed_random_pins, UserInput, percentile, record, start_display, summary, temporary_home, TileServer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pins", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=120)
    options = parser.parse_args()

    home = temporary_home()
    display = start_display(home)
    tiles = TileServer().start()
    app = App(display.name, tiles, None, home)
    try:
        seed_random_pins(app, options.pins)
        app.start()
        time.sleep(1.5)  # tiles and pins settle
        user = UserInput(display.name)
        for label, zoom_clicks in (("world view", 0), ("zoomed in twice", 2)):
            if zoom_clicks:
                user.scroll(500, 400, zoom_clicks)
                time.sleep(1.0)
            started = time.monotonic()
            user.drag(700, 500, 300, 300, steps=options.steps, step_delay=0.016)
            finished = time.monotonic()
            frames, pins = [], []
            for stamp, line in app.log.snapshot():
                match = re.search(r"frame ([0-9.]+) ms, ([0-9]+) pins drawn", line)
                if match and started <= stamp <= finished:
                    frames.append(float(match.group(1)))
                    pins.append(int(match.group(2)))
            print(f"pan, {options.pins} pins, {label}: frame ms {summary(frames)}; "
                  f"pins drawn per frame up to {max(pins) if pins else 0}")
            if frames:
                record(f"pan.{options.pins}_pins.{label.replace(' ', '_')}.frame_p95", percentile(frames, 0.95), "ms",
                       goal=8, note=f"max {max(frames):.1f} ms over {len(frames)} frames")
            time.sleep(0.5)
    finally:
        app.stop()
        tiles.stop()
        display.stop()


if __name__ == "__main__":
    main()
