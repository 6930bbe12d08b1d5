"""Web Mercator arithmetic for 256-pixel tiles: the projection osm-gps-map draws with."""

from __future__ import annotations

import math

TILE_SIZE = 256
MAX_LATITUDE = 85.0511287798  # the latitude where the square Web Mercator world ends


def degrees_per_pixel(zoom: int) -> float:
    """Degrees of longitude covered by one screen pixel at `zoom`."""
    return 360.0 / (TILE_SIZE * 2**zoom)


def world_pixel(latitude: float, longitude: float, zoom: int) -> tuple[float, float]:
    """Position of a point in the whole-world bitmap at `zoom` (x to the east, y to the south)."""
    size = TILE_SIZE * 2**zoom
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, latitude))
    sin_lat = math.sin(math.radians(lat))
    x = (longitude + 180.0) / 360.0 * size
    y = (0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)) * size
    return x, y


def pixel_offset(
    start: tuple[float, float], end: tuple[float, float], zoom: int
) -> tuple[float, float]:
    """How many pixels at `zoom` the point `end` (lat, lon) lies east and south of `start`."""
    x0, y0 = world_pixel(start[0], start[1], zoom)
    x1, y1 = world_pixel(end[0], end[1], zoom)
    return x1 - x0, y1 - y0


def tile_north_west_corner(z: int, x: int, y: int) -> tuple[float, float]:
    """Latitude and longitude of a tile's top-left corner."""
    n = 2**z
    longitude = x / n * 360.0 - 180.0
    latitude = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / n))))
    return latitude, longitude


def screen_point(latitude: float, longitude: float, centre: tuple[float, float], zoom: int,
                 map_box: tuple[int, int, int, int]) -> tuple[float, float]:
    """Where a coordinate appears on screen, for a map widget at `map_box` (left, top, right,
    bottom) centred on `centre` (lat, lon) at `zoom`."""
    left, top, right, bottom = map_box
    cx, cy = world_pixel(centre[0], centre[1], zoom)
    x, y = world_pixel(latitude, longitude, zoom)
    return left + (right - left) / 2 + (x - cx), top + (bottom - top) / 2 + (y - cy)
