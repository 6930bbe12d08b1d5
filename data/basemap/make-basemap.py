#!/usr/bin/env python3
"""Renders the built-in world basemap (data/basemap/world.mbtiles) from Natural Earth's 1:110m countries.

The apps draw these tiles wherever no map tile can be had (offline, first start on a plane). Land and sea in
colours close to OpenStreetMap's, coastlines, country borders; zoom 0 to MAX_ZOOM; paletted PNGs in one
MBTiles file (TMS row order, as the MBTiles spec says).

Needs pyshp and Pillow (e.g. `pip install --target /tmp/basemap-tools pyshp pillow` and PYTHONPATH=/tmp/basemap-tools)
and the Natural Earth countries shapefile, e.g. the naturalearth_lowres copy inside the geopandas<1.0 wheel:

    python3 data/basemap/make-basemap.py path/to/naturalearth_lowres.shp data/basemap/world.mbtiles
"""
import io
import math
import os
import sqlite3
import sys

import shapefile  # pyshp
from PIL import Image, ImageDraw

MAX_ZOOM = 5
TILE = 256
SUPERSAMPLE = 2  # drawn at twice the size and scaled down: smooth edges
SEA = (170, 211, 223)       # OSM's water, #aad3df
LAND = (242, 239, 233)      # OSM's land, #f2efe9
COAST = (126, 166, 186)     # a darker sea for the shore line
BORDER = (176, 150, 176)    # a quiet version of OSM's purple boundaries
MAX_LATITUDE = 85.0511287798


def project(lon, lat, zoom):
    """Web Mercator: degrees to world pixels at `zoom` (256-pixel tiles)."""
    lat = max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))
    size = TILE * (1 << zoom)
    x = (lon + 180.0) / 360.0 * size
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * size
    return x, y


def read_rings(path):
    """Outer and inner rings of every country, as lists of (lon, lat)."""
    rings = []
    for shape in shapefile.Reader(path).shapes():
        parts = list(shape.parts) + [len(shape.points)]
        for start, end in zip(parts, parts[1:]):
            rings.append([tuple(p) for p in shape.points[start:end]])
    return rings


def border_segments(rings):
    """Edges that two countries share (the same two points in both rings): the land borders."""
    seen = {}
    for ring in rings:
        for a, b in zip(ring, ring[1:]):
            key = (min(a, b), max(a, b))
            seen[key] = seen.get(key, 0) + 1
    return [key for key, count in seen.items() if count > 1]


def render_tile(rings, borders, zoom, x, y):
    scale = SUPERSAMPLE
    image = Image.new("RGB", (TILE * scale, TILE * scale), SEA)
    draw = ImageDraw.Draw(image)
    ox, oy = x * TILE, y * TILE

    def local(points):
        out = []
        for lon, lat in points:
            px, py = project(lon, lat, zoom)
            out.append(((px - ox) * scale, (py - oy) * scale))
        return out

    def visible(points):
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        limit = TILE * scale
        return max(xs) >= -4 and min(xs) <= limit + 4 and max(ys) >= -4 and min(ys) <= limit + 4

    line = max(1, round(scale * (0.6 + zoom * 0.15)))
    projected = [local(ring) for ring in rings]
    for ring in projected:
        if len(ring) > 2 and visible(ring):
            draw.polygon(ring, fill=LAND)
    for ring in projected:
        if len(ring) > 2 and visible(ring):
            draw.line(ring, fill=COAST, width=line)
    for a, b in borders:
        segment = local([a, b])
        if visible(segment):
            draw.line(segment, fill=BORDER, width=line)
    image = image.resize((TILE, TILE), Image.LANCZOS)
    paletted = image.quantize(colors=32, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    rings = read_rings(source)
    borders = border_segments(rings)
    if os.path.exists(target):
        os.remove(target)
    db = sqlite3.connect(target)
    db.executescript("""
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
    """)
    metadata = {
        "name": "World basemap",
        "format": "png",
        "type": "baselayer",
        "version": "1",
        "minzoom": "0",
        "maxzoom": str(MAX_ZOOM),
        "bounds": "-180,-85.0511,180,85.0511",
        "description": "Land, sea, coastlines and country borders for when no map tile can be had.",
        "attribution": "Made with Natural Earth",
    }
    db.executemany("INSERT INTO metadata VALUES (?, ?)", metadata.items())
    for zoom in range(MAX_ZOOM + 1):
        count = 1 << zoom
        for x in range(count):
            for y in range(count):
                data = render_tile(rings, borders, zoom, x, y)
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (zoom, x, count - 1 - y, data))
        db.commit()
        print(f"zoom {zoom}: {count * count} tiles", file=sys.stderr)
    db.execute("VACUUM")
    db.close()
    print(f"{target}: {os.path.getsize(target)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
