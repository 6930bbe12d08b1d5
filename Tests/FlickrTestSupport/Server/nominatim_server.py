#!/usr/bin/env python3
"""A Nominatim-compatible HTTP server for place-search tests (standard library only).

    python3 nominatim_server.py [--port 0] [--host 127.0.0.1] [--exit-on-stdin-eof] [--places FILE]

Prints the port it listens on as the first line of stdout (then flushes), and serves until
SIGTERM/SIGINT, or until stdin closes when --exit-on-stdin-eof is given (so a crashed test run
leaves no server behind). This command line is relied on by other test suites: keep it stable.

  --places FILE   a JSON list of {"query", "lat", "lon", "display_name"} (optional "category",
                  "type", and "address": an object like Nominatim's addressdetails) added to the
                  built-in table below.

Nominatim's API (what the apps use):
  GET /search?q=TEXT&format=jsonv2[&limit=N]
        200 with a JSON list of matches, [] when nothing matches. lat and lon are STRINGS, as on
        the real server. A table entry matches when its query, compared case- and
        space-insensitively, equals q or is contained in it ("…, Mountain View, CA 94043" finds
        "1600 Amphitheatre Parkway, Mountain View"). format=json names "category" "class".
        A missing or unknown format gets 400 with {"error": …}, as Nominatim does.
  GET /reverse?lat=…&lon=…&format=jsonv2
        the nearest table entry within 5 km as one object (with its "address" unless
        addressdetails=0, as on the real server), else {"error": "Unable to geocode"}.
  GET /status   "OK"

Test controls (GET or POST; never recorded):
  /__requests              JSON list of every API request so far, oldest first:
                           {"time": unix seconds (float), "path", "q", "query": {name: value},
                            "user_agent", "accept_language", "status"}
  /__fail?status=500       every following API request answers that HTTP status (an HTML page)
  /__fail?mode=badjson     … answers 200 with truncated JSON
  /__fail?mode=html        … answers 200 with an HTML page
  /__fail?mode=slow&seconds=3   … waits that long, then answers normally
        optional &times=N: only the next N requests fail (default: all until /__ok)
  /__ok                    answer normally again
  /__reset                 answer normally and forget the recorded requests
  /__places  (POST)        a JSON list like --places FILE, added to the table
"""

import json
import math
import threading
import time

from local_http_server import QuietHandler, command_line, serve

BUILT_IN_PLACES = [
    {"query": "1600 Amphitheatre Parkway, Mountain View", "lat": 37.4220, "lon": -122.0841,
     "display_name": "Google Building 41, 1600, Amphitheatre Parkway, Mountain View, Santa Clara County, "
                     "California, 94043, United States",
     "category": "building", "type": "office"},
    {"query": "Eiffel Tower", "lat": 48.8584, "lon": 2.2945,
     "display_name": "Tour Eiffel, 5, Avenue Anatole France, Quartier du Gros-Caillou, Paris 7e Arrondissement, "
                     "Paris, Île-de-France, France métropolitaine, 75007, France",
     "category": "tourism", "type": "attraction"},
    {"query": "Udacity, 2465 Latham Street", "lat": 37.3996, "lon": -122.1083,
     "display_name": "2465, Latham Street, Mountain View, Santa Clara County, California, 94040, United States",
     "category": "building", "type": "yes"},
    {"query": "Brandenburger Tor", "lat": 52.5163, "lon": 13.3777,
     "display_name": "Brandenburger Tor, Pariser Platz, Mitte, Berlin, 10117, Deutschland",
     "category": "historic", "type": "monument"},
    {"query": "Montmartre", "lat": 48.8867, "lon": 2.3431,
     "display_name": "Montmartre, Paris 18e Arrondissement, Paris, Île-de-France, France métropolitaine, "
                     "75018, France",
     "category": "place", "type": "quarter",
     "address": {"quarter": "Montmartre", "suburb": "Paris 18e Arrondissement", "city": "Paris",
                 "ISO3166-2-lvl6": "FR-75C", "state": "Île-de-France", "ISO3166-2-lvl4": "FR-IDF",
                 "region": "France métropolitaine", "postcode": "75018", "country": "France",
                 "country_code": "fr"}},
]

HTML = b"<!DOCTYPE html><html><head><title>Error</title></head><body>Internal Server Error</body></html>"


def normalize(text):
    return " ".join(text.lower().split())


class State:
    """The table, the failure mode and the request log, guarded by one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.places = []
        self.requests = []
        self.failure = None  # {"status": int} or {"mode": str, ...}, plus "times" (None: until /__ok)

    def add_places(self, entries):
        with self.lock:
            for entry in entries:
                self.places.append({
                    "id": len(self.places),
                    "query": str(entry["query"]),
                    "lat": float(entry["lat"]),
                    "lon": float(entry["lon"]),
                    "display_name": str(entry.get("display_name") or entry["query"]),
                    "category": str(entry.get("category", "place")),
                    "type": str(entry.get("type", "yes")),
                    "address": {str(k): str(v) for k, v in entry["address"].items()}
                    if isinstance(entry.get("address"), dict) else None,
                })

    def take_failure(self):
        with self.lock:
            failure = self.failure
            if failure is None:
                return None
            if failure.get("times") is not None:
                failure["times"] -= 1
                if failure["times"] <= 0:
                    self.failure = None
            return dict(failure)

    def matches(self, q):
        wanted = normalize(q)
        if not wanted:
            return []
        with self.lock:
            exact = [p for p in self.places if normalize(p["query"]) == wanted]
            inside = [p for p in self.places if normalize(p["query"]) in wanted and p not in exact]
        return exact + inside


STATE = State()


def result(place, rank, format_name, address=False):
    """One entry shaped like Nominatim's (lat/lon as strings, boundingbox as strings); with `address`, the
    "address" object addressdetails=1 asks for (when the table has one for the place)."""
    lat, lon = place["lat"], place["lon"]
    entry = {
        "place_id": 100000 + place["id"],
        "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
        "osm_type": "way",
        "osm_id": 200000 + place["id"],
        "lat": "%.7f" % lat,
        "lon": "%.7f" % lon,
        "place_rank": 30,
        "importance": round(0.5 - rank * 0.01, 4),
        "addresstype": place["type"],
        "name": place["query"].split(",")[0],
        "display_name": place["display_name"],
        "boundingbox": ["%.7f" % (lat - 0.001), "%.7f" % (lat + 0.001),
                        "%.7f" % (lon - 0.001), "%.7f" % (lon + 0.001)],
    }
    entry["category" if format_name == "jsonv2" else "class"] = place["category"]
    entry["type"] = place["type"]
    if address and place.get("address"):
        entry["address"] = place["address"]
    return entry


def distance_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371 * 2 * math.asin(math.sqrt(a))


class Handler(QuietHandler):
    server_version = "FakeNominatim/1.0"
    protocol_version = "HTTP/1.1"
    log_lock = STATE.lock
    extra_headers = {"Access-Control-Allow-Origin": "*"}
    json_content_type = "application/json; charset=utf-8"

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def route(self):
        try:
            path, query = self.path_and_query()
            body = b""
            if self.command == "POST":
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            path = path.rstrip("/") or "/"
            if path.startswith("/__"):
                self.control(path, query, body)
            else:
                self.api(path, query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    # MARK: test controls

    def control(self, path, query, body):
        if path == "/__requests":
            with STATE.lock:
                requests = json.loads(json.dumps(STATE.requests))
            self.send_json(requests)
        elif path == "/__fail":
            try:
                failure = {
                    "mode": query.get("mode", "status"),
                    "status": int(query.get("status", "500")),
                    "seconds": float(query.get("seconds", "3")),
                    "times": int(query["times"]) if "times" in query else None,
                }
            except ValueError as error:
                self.send_json({"ok": False, "error": str(error)}, status=400)
                return
            with STATE.lock:
                STATE.failure = failure
            self.send_json({"ok": True, "failure": failure})
        elif path == "/__ok":
            with STATE.lock:
                STATE.failure = None
            self.send_json({"ok": True})
        elif path == "/__reset":
            with STATE.lock:
                STATE.failure = None
                STATE.requests = []
            self.send_json({"ok": True})
        elif path == "/__places" and self.command == "POST":
            try:
                STATE.add_places(json.loads(body or b"[]"))
            except (ValueError, KeyError, TypeError) as error:
                self.send_json({"ok": False, "error": str(error)}, status=400)
                return
            self.send_json({"ok": True})
        else:
            self.send_json({"error": "unknown control %s" % path}, status=404)

    # MARK: Nominatim

    def api(self, path, query):
        self.log_entry = {
            "time": time.time(),
            "path": path,
            "q": query.get("q"),
            "query": query,
            "user_agent": self.headers.get("User-Agent"),
            "accept_language": self.headers.get("Accept-Language"),
            "status": None,
        }
        with STATE.lock:
            STATE.requests.append(self.log_entry)

        if path in ("/search", "/reverse"):
            failure = STATE.take_failure()
            if failure:
                mode = failure["mode"]
                if mode == "badjson":
                    self.send_body(200, b'[{"lat": "48.85", "lon": ', "application/json")
                    return
                if mode == "html":
                    self.send_body(200, HTML, "text/html")
                    return
                if mode == "slow":
                    time.sleep(failure["seconds"])
                else:
                    self.send_body(failure["status"], HTML, "text/html")
                    return

        if path == "/status":
            self.send_body(200, b"OK", "text/plain")
            return
        format_name = query.get("format")
        if path in ("/search", "/reverse") and format_name not in ("json", "jsonv2"):
            self.send_json({"error": {"code": 400, "message": "Parameter 'format' must be json or jsonv2 here"}},
                           status=400)
        elif path == "/search":
            try:
                limit = max(1, min(int(query.get("limit", "10")), 40))
            except ValueError:
                limit = 10
            found = STATE.matches(query.get("q", ""))[:limit]
            details = query.get("addressdetails") == "1"
            self.send_json([result(place, rank, format_name, address=details) for rank, place in enumerate(found)])
        elif path == "/reverse":
            self.reverse(query, format_name)
        else:
            self.send_json({"error": {"code": 404, "message": "Unknown path"}}, status=404)

    def reverse(self, query, format_name):
        try:
            lat, lon = float(query["lat"]), float(query["lon"])
        except (KeyError, ValueError):
            self.send_json({"error": {"code": 400, "message": "Need coordinates"}}, status=400)
            return
        with STATE.lock:
            nearby = sorted((distance_km(lat, lon, p["lat"], p["lon"]), p["id"], p) for p in STATE.places)
        if not nearby or nearby[0][0] > 5:
            self.send_json({"error": "Unable to geocode"})
            return
        # Nominatim's /reverse gives address details unless addressdetails=0.
        self.send_json(result(nearby[0][2], 0, format_name, address=query.get("addressdetails", "1") != "0"))


def main():
    parser = command_line(__doc__)
    parser.add_argument("--places", metavar="FILE",
                        help='JSON list of {"query", "lat", "lon", "display_name", ["address"]} added to the built-in table')
    options = parser.parse_args()

    STATE.add_places(BUILT_IN_PLACES)
    if options.places:
        with open(options.places, encoding="utf-8") as places_file:
            STATE.add_places(json.load(places_file))
    serve(options, Handler)


if __name__ == "__main__":
    main()
