"""Places files in the shapes other programs write (a GPS logger, Google Takeout, Organic Maps) and hostile ones,
written where a test asks; each comes with the places a reader should find in it."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Place:
    name: str
    latitude: float
    longitude: float
    time: str | None = None  # ISO 8601, as the file gives it


# Every place is over 5 km from every other, so none is taken for another (the album's radius).
LOGGER_WAYPOINTS = [
    Place("Kleine Scheidegg", 46.5850, 7.9613, "2023-06-01T09:15:00Z"),
    Place("Zürich HB", 47.3779, 8.5403, "2023-06-01T14:02:31Z"),
    Place("Matterhorn & Zermatt <Hörnli>", 45.9763, 7.6586, "2023-06-02T07:45:10Z"),
]

OTHER_WAYPOINTS = [
    Place("Torre de Belém", 38.6916, -9.2160, "2024-03-10T11:00:00Z"),
    Place("Ribeira, Porto", 41.1406, -8.6132, "2024-03-12T16:20:00Z"),
]

TAKEOUT_PLACES = [
    Place("Eiffel Tower", 48.8583701, 2.2944813, "2023-05-01T10:00:00Z"),
    Place("Empire State Building", 40.7484405, -73.9856644, "2024-01-15T08:30:00.123Z"),
]

ORGANIC_MAPS_PLACES = [
    Place("Louvre & Pyramide", 48.860611, 2.337644, "2023-05-01T10:00:00Z"),
    Place("Mont-Saint-Michel", 48.636063, -1.511457),
    Place("Café <Les Halles>, Lyon", 45.763420, 4.834277),
]
# The KMZ holds the KML's places and this one more.
ORGANIC_MAPS_EXTRA = Place("Cité du Vin, Bordeaux", 44.862524, -0.550142)

GOOGLE_EARTH_PLACES = [
    Place("Ærøskøbing Havn", 54.8886, 10.4110),
    Place("東京タワー", 35.6586, 139.7454),
    Place("Zürich — Üetliberg", 47.3496, 8.4917),
]

# "Lisbon gpj.exe" behind a right-to-left override shows as "Lisbon exe.jpg"; issue 46 met one of 10,257 characters.
REVERSING_NAME = "Lisbon \u202egpj.exe"
LONG_NAME = ("Praia da Rocha, Portimão " * 500)[:10_257]


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def gps_logger_gpx(path: Path, places: list[Place] = LOGGER_WAYPOINTS) -> Path:
    """Waypoints as GPSLogger for Android writes them ("Log waypoint"), with a time and a name each."""
    points = "".join(
        f'<wpt lat="{p.latitude}" lon="{p.longitude}"><ele>1021.0</ele><time>{p.time}</time>'
        f'<name>{_xml(p.name)}</name><src>gps</src><sat>11</sat><hdop>0.8</hdop></wpt>\n' for p in places)
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n'
        '<gpx version="1.1" creator="GPSLogger 131 - http://gpslogger.mendhak.com/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://www.topografix.com/GPX/1/1" '
        'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n'
        '<metadata><time>2023-06-01T08:00:00.000Z</time></metadata>\n' + points + '</gpx>\n', encoding="utf-8")
    return path


def google_earth_kml(path: Path, places: list[Place] = GOOGLE_EARTH_PLACES) -> Path:
    """Placemarks as Google Earth saves them on systems where it writes UTF-16 (little-endian, with its mark)."""
    placemarks = "".join(f"<Placemark><name>{_xml(p.name)}</name><Point><coordinates>{p.longitude},{p.latitude},0"
                         "</coordinates></Point></Placemark>\n" for p in places)
    path.write_bytes(b"\xff\xfe" + (
        '<?xml version="1.0" encoding="UTF-16"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" '
        'xmlns:gx="http://www.google.com/kml/ext/2.2">\n<Document><name>Saved</name>\n' + placemarks
        + "</Document>\n</kml>\n").encode("utf-16-le"))
    return path


def tricky_names_gpx(path: Path) -> Path:
    """Two waypoints named to hurt: one with a right-to-left override, one of 10,257 characters (the newer)."""
    return gps_logger_gpx(path, [Place(REVERSING_NAME, 38.7223, -9.1393, "2024-05-01T10:00:00Z"),
                                 Place(LONG_NAME, 37.1190, -8.5370, "2024-05-02T10:00:00Z")])


def takeout_saved_places(path: Path) -> Path:
    """Google Takeout's "Saved Places.json" (2023 on), with the [0, 0] feature it writes for a place it lost."""
    import json
    features = [{"geometry": {"coordinates": [p.longitude, p.latitude], "type": "Point"},
                 "properties": {"date": p.time, "google_maps_url": f"http://maps.google.com/?cid={index}",
                                "location": {"address": f"Somewhere {index}", "country_code": "FR", "name": p.name}},
                 "type": "Feature"} for index, p in enumerate(TAKEOUT_PLACES)]
    features.insert(1, {"geometry": {"coordinates": [0, 0], "type": "Point"},
                        "properties": {"date": "2023-05-02T10:00:00Z",
                                       "google_maps_url": "http://maps.google.com/?q=somewhere",
                                       "Comment": "No location information is available for this saved place"},
                        "type": "Feature"})
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}, ensure_ascii=False, indent=2),
                    encoding="utf-8")
    return path


def _organic_maps_placemark(place: Place) -> str:
    when = f"<TimeStamp><when>{place.time}</when></TimeStamp>" if place.time else ""
    return (f"<Placemark><name>{_xml(place.name)}</name>{when}<styleUrl>#placemark-red</styleUrl>"
            f"<Point><coordinates>{place.longitude},{place.latitude}</coordinates></Point>"
            '<ExtendedData xmlns:mwm="https://omaps.app"><mwm:name><mwm:lang code="default">not this</mwm:lang>'
            "</mwm:name><mwm:icon>Museum</mwm:icon><mwm:scale>17</mwm:scale></ExtendedData></Placemark>\n")


def organic_maps_kml_text(places: list[Place]) -> str:
    """A bookmark list as Organic Maps exports it: styles, its mwm: extension data, folders within folders, and
    a line (a track, not a place)."""
    first, *nested = places
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<kml xmlns="http://earth.google.com/kml/2.2">\n<Document>\n'
        '<Style id="placemark-red"><IconStyle><Icon><href>https://omaps.app/placemarks/placemark-red.png</href>'
        '</Icon></IconStyle></Style>\n'
        '<name>France trip</name><visibility>1</visibility>\n'
        '<ExtendedData xmlns:mwm="https://omaps.app"><mwm:name><mwm:lang code="default">France trip</mwm:lang>'
        '</mwm:name><mwm:lastModified>2023-05-03T12:00:00Z</mwm:lastModified></ExtendedData>\n'
        + _organic_maps_placemark(first)
        + "<Folder><name>More</name><Folder><name>Even more</name>\n"
        + "".join(_organic_maps_placemark(p) for p in nested)
        + "</Folder></Folder>\n"
        '<Placemark><name>Walk along the Seine</name><LineString><coordinates>2.33,48.86 2.34,48.85'
        '</coordinates></LineString></Placemark>\n'
        "</Document>\n</kml>\n")


def organic_maps_kml(path: Path, places: list[Place] = ORGANIC_MAPS_PLACES) -> Path:
    path.write_text(organic_maps_kml_text(places), encoding="utf-8")
    return path


def organic_maps_kmz(path: Path, places: list[Place] = ORGANIC_MAPS_PLACES + [ORGANIC_MAPS_EXTRA]) -> Path:
    """A KMZ as Organic Maps shares it: a zip with doc.kml (and, as there, an images folder beside it)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("doc.kml", organic_maps_kml_text(places))
        archive.writestr("images/", "")
    return path


def billion_laughs_gpx(path: Path) -> Path:
    """The entity expansion bomb: a few hundred bytes that grow to gigabytes in a reader that expands entities."""
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{level} "{("&lol" + (str(level - 1) if level > 1 else "") + ";") * 10}">'
        for level in range(1, 10))
    path.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE gpx [{entities}]>\n'
        '<gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">'
        '<wpt lat="10" lon="10"><name>&lol9;</name></wpt></gpx>\n', encoding="utf-8")
    return path


def off_the_map_kml(path: Path) -> Path:
    """One good place and one at longitude 200, latitude 95 (KML writes longitude first)."""
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>'
        '<Placemark><name>Fine</name><Point><coordinates>10.0,50.0</coordinates></Point></Placemark>'
        '<Placemark><name>Nowhere</name><Point><coordinates>200,95</coordinates></Point></Placemark>'
        '</Document></kml>\n', encoding="utf-8")
    return path
