"""A fake OpenStreetMap tile server: real 256x256 PNGs that show where they belong.

Each tile is "land" or "sea" by a smooth function of its position, its colour shifts with x, y
and z, adjacent tiles alternate in brightness, it has a dark 1-pixel border and its address
"z/x/y" (plus its north-west corner) written in the middle, so a screenshot shows at a glance
whether tiles were drawn, which ones, and where.

Each tile has an ETag and a Last-Modified (tiles never change), and a request that names them
(If-None-Match, or If-Modified-Since alone) gets 304 Not Modified, as from OpenStreetMap's servers.
"""

from __future__ import annotations

import email.utils
import functools
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .geo import TILE_SIZE, tile_north_west_corner
from .recording_http_server import RecordedRequest, RecordingHTTPServer, Response, _Handler

MAX_ZOOM = 20
_TILE_PATH = re.compile(r"^/(\d{1,2})/(\d{1,7})/(\d{1,7})\.png$")
_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",  # fonts-dejavu-core
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)

SEA = (78, 130, 196)
LAND = (132, 178, 96)
BORDER = (40, 40, 40)
LABEL_BACKGROUND = (250, 250, 250)
LABEL_TEXT = (20, 20, 20)
LAST_MODIFIED = "Tue, 14 Nov 2023 22:13:20 GMT"  # every tile's: they never change


@dataclass(frozen=True)
class TileAddress:
    z: int
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.z}/{self.x}/{self.y}"


def tile_etag(z: int, x: int, y: int) -> str:
    return f'"tile-{z}-{x}-{y}"'


def parse_tile_path(path: str) -> TileAddress | None:
    """`/z/x/y.png` with x and y inside the zoom level's grid, else None."""
    match = _TILE_PATH.match(path)
    if not match:
        return None
    z, x, y = (int(group) for group in match.groups())
    if z > MAX_ZOOM or x >= 2**z or y >= 2**z:
        return None
    return TileAddress(z, x, y)


@functools.lru_cache(maxsize=None)
def _font(size: int) -> ImageFont.ImageFont:
    for candidate in _FONT_FILES:
        if Path(candidate).exists():
            return ImageFont.truetype(candidate, size)
    return ImageFont.load_default()  # tiny bitmap font; tiles still differ by colour


def _background(tile: TileAddress) -> tuple[int, int, int]:
    n = 2**tile.z
    u, v = (tile.x + 0.5) / n, (tile.y + 0.5) / n  # tile centre, 0..1 across the world
    is_land = math.sin(u * 2 * math.pi * 3) + math.cos(v * 2 * math.pi * 2) > 0.3
    red, green, blue = LAND if is_land else SEA
    red += int(50 * u)  # east is redder
    green += int(40 * (1 - v))  # north is greener
    blue += 6 * (tile.z % 5)  # each zoom level a slightly different tint
    if (tile.x + tile.y) % 2:  # checkerboard so neighbours differ even at high zoom
        red, green, blue = (int(c * 0.88) for c in (red, green, blue))
    return (min(red, 255), min(green, 255), min(blue, 255))


def _draw_centred_label(draw: ImageDraw.ImageDraw, lines: list[tuple[str, int]]) -> None:
    sizes = []
    for text, font_size in lines:
        font = _font(font_size)
        while font_size > 8 and draw.textlength(text, font=font) > TILE_SIZE - 24:
            font_size -= 2  # long addresses at high zoom shrink to fit
            font = _font(font_size)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        sizes.append((text, font, right - left, bottom - top, left, top))
    gap = 4
    total_height = sum(height for _, _, _, height, _, _ in sizes) + gap * (len(sizes) - 1)
    box_width = max(width for _, _, width, _, _, _ in sizes)
    top_y = (TILE_SIZE - total_height) // 2
    draw.rectangle(
        ((TILE_SIZE - box_width) // 2 - 6, top_y - 6, (TILE_SIZE + box_width) // 2 + 6, top_y + total_height + 6),
        fill=LABEL_BACKGROUND,
        outline=BORDER,
    )
    y = top_y
    for text, font, width, height, offset_x, offset_y in sizes:
        draw.text(((TILE_SIZE - width) // 2 - offset_x, y - offset_y), text, font=font, fill=LABEL_TEXT)
        y += height + gap


@functools.lru_cache(maxsize=4096)
def render_tile(z: int, x: int, y: int) -> bytes:
    """The PNG bytes served for tile z/x/y (always the same for the same tile)."""
    tile = TileAddress(z, x, y)
    image = Image.new("RGB", (TILE_SIZE, TILE_SIZE), _background(tile))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, TILE_SIZE - 1, TILE_SIZE - 1), outline=BORDER)
    for corner_x, corner_y in ((0, 0), (TILE_SIZE - 12, 0), (0, TILE_SIZE - 12), (TILE_SIZE - 12, TILE_SIZE - 12)):
        draw.rectangle((corner_x, corner_y, corner_x + 11, corner_y + 11), fill=BORDER)  # corner marks
    latitude, longitude = tile_north_west_corner(z, x, y)
    _draw_centred_label(draw, [(str(tile), 30), (f"NW {latitude:.2f}, {longitude:.2f}", 12)])
    output = io.BytesIO()
    image.save(output, format="PNG")
    return output.getvalue()


class TileServer(RecordingHTTPServer):
    """Serves `render_tile` at /{z}/{x}/{y}.png; anything else is a 404."""

    def __init__(self, latency: float = 0.0) -> None:
        super().__init__(self._respond, latency=latency)
        self.cache_control = "public, max-age=604800"  # a week, as OSM's tile servers say; may be changed

    @property
    def url_template(self) -> str:
        """The osm-gps-map repo-uri for this server (what VIRTUAL_TOURIST_TILE_URL expects)."""
        return f"{self.base_url}/#Z/#X/#Y.png"

    def restart_on(self, port: int) -> "TileServer":
        """Starts serving on a given port: a tile server that went away (the app was offline) and came back."""
        import threading
        from http.server import ThreadingHTTPServer

        assert self._server is None, "stop it first"
        server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        server.daemon_threads = True
        server.owner = self  # type: ignore[attr-defined]  # how the handler finds us
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                                        name=f"http-{port}", daemon=True)
        self._thread.start()
        return self

    def tile_requests(self) -> list[tuple[TileAddress, RecordedRequest]]:
        """Every well-formed tile request so far, oldest first."""
        found = []
        for request in self.log.snapshot():
            tile = parse_tile_path(request.path)
            if tile is not None:
                found.append((tile, request))
        return found

    def conditional_requests(self) -> list[RecordedRequest]:
        """Tile requests that asked for the tile only if it changed."""
        return [request for _, request in self.tile_requests()
                if "if-none-match" in request.headers or "if-modified-since" in request.headers]

    def not_modified_answers(self) -> list[RecordedRequest]:
        """Tile requests answered 304 Not Modified."""
        return [request for _, request in self.tile_requests() if request.status == 304]

    def wait_for_tile_requests(self, count: int = 1, zoom: int | None = None, timeout: float = 20.0) -> list[RecordedRequest]:
        def is_wanted_tile(request: RecordedRequest) -> bool:
            tile = parse_tile_path(request.path)
            return tile is not None and (zoom is None or tile.z == zoom)

        return self.log.wait_for(count, is_wanted_tile, timeout)

    def _respond(self, method: str, path: str, query: str, headers: dict[str, str]) -> Response:
        tile = parse_tile_path(path)
        if tile is None:
            return Response.not_found(path)
        caching = {"Cache-Control": self.cache_control, "ETag": tile_etag(tile.z, tile.x, tile.y),
                   "Last-Modified": LAST_MODIFIED}
        if _not_modified(headers, caching["ETag"]):
            return Response(304, headers=caching)
        return Response(200, render_tile(tile.z, tile.x, tile.y), content_type="image/png", headers=caching)


def _not_modified(headers: dict[str, str], etag: str) -> bool:
    """RFC 9110's order: If-None-Match decides when present; If-Modified-Since only without it."""
    if "if-none-match" in headers:
        tags = [tag.strip().removeprefix("W/") for tag in headers["if-none-match"].split(",")]
        return "*" in tags or etag in tags
    try:
        since = email.utils.parsedate_to_datetime(headers["if-modified-since"])
    except (KeyError, TypeError, ValueError):
        return False
    return since >= email.utils.parsedate_to_datetime(LAST_MODIFIED)
