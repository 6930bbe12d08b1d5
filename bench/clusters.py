"""Pin clusters with 10,000 and 100,000 pins: how long the cluster index takes to build (off the main
thread), frame times while panning and zooming, and the longest main-loop stall meanwhile — all from
the app's own trace log ("cluster index built: N pins in X ms", "frame N ms", "main loop stall N ms (…)").

    bench/run clusters.py [--pins 10000 100000]
"""

from __future__ import annotations

import argparse
import re
import time

from benchlib import (App, seed_random_pins, UserInput, longest_stall, percentile, record, stall_note, start_display,
                      summary, temporary_home, TileServer)

FRAME = re.compile(r"frame ([0-9.]+) ms, ([0-9]+) pins drawn(?:, ([0-9]+) cluster markers)?")
BUILT = re.compile(r"cluster index built: ([0-9]+) pins in ([0-9.]+) ms")


def lines_between(app: App, start: float, end: float, pattern: re.Pattern) -> list[re.Match]:
    return [m for stamp, line in app.log.snapshot() if start <= stamp <= end and (m := pattern.search(line))]


def run(pins: int, steps: int) -> None:
    home = temporary_home()
    display = start_display(home)
    tiles = TileServer().start()
    app = App(display.name, tiles, None, home)
    try:
        seed_random_pins(app, pins)
        app.start()
        _, built = app.log.wait_for(rf"cluster index built: {pins} pins in ([0-9.]+) ms", timeout=120)
        record(f"clusters.{pins}_pins.index_build", float(built.group(1)), "ms",
               note="off the main thread; a rebuild after an insert, move or delete costs the same")
        time.sleep(1.5)  # tiles settle
        user = UserInput(display.name)

        def measure(label: str, action) -> None:
            started = time.monotonic()
            action()
            finished = time.monotonic()
            frames = [float(m.group(1)) for m in lines_between(app, started, finished, FRAME)]
            markers = [int(m.group(3) or 0) for m in lines_between(app, started, finished, FRAME)]
            drawn = [int(m.group(2)) for m in lines_between(app, started, finished, FRAME)]
            stall = longest_stall(app, started, finished)
            print(f"{label}, {pins} pins: frame ms {summary(frames)}; pins and markers drawn up to "
                  f"{max(drawn, default=0)} ({max(markers, default=0)} markers)")
            name = f"clusters.{pins}_pins.{label.replace(' ', '_')}"
            if frames:
                record(f"{name}.frame_p95", percentile(frames, 0.95), "ms", goal=8,
                       note=f"max {max(frames):.1f} ms over {len(frames)} frames")
            record(f"{name}.longest_main_loop_stall", stall[0], "ms", goal=8,
                   note=f"stalls under 5 ms are not reported; {stall_note(stall)}")
            time.sleep(0.5)

        measure("pan world view", lambda: user.drag(700, 500, 300, 300, steps=steps, step_delay=0.016))

        def zoom_in_and_out() -> None:
            for _ in range(2):
                user.scroll(640, 420, 4, up=True, delay=0.35)
                user.scroll(640, 420, 4, up=False, delay=0.35)
        measure("zoom in and out", zoom_in_and_out)

        user.scroll(640, 420, 2)
        time.sleep(1.0)
        measure("pan zoomed in twice", lambda: user.drag(700, 500, 300, 300, steps=steps, step_delay=0.016))
        rebuilds = lines_between(app, 0, time.monotonic(), BUILT)
        print(f"index builds in this run: {len(rebuilds)}")
    finally:
        app.stop()
        tiles.stop()
        display.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pins", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--steps", type=int, default=120)
    options = parser.parse_args()
    for pins in options.pins:
        run(pins, options.steps)


if __name__ == "__main__":
    main()
