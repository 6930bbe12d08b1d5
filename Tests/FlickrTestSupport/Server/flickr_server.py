#!/usr/bin/env python3
"""A Flickr-compatible HTTP server for the FlickrClient tests (standard library only).

    python3 flickr_server.py [--port 0] [--host 127.0.0.1] [--exit-on-stdin-eof]

Prints the port it listens on (127.0.0.1 unless --host says otherwise) as the first line of stdout, then serves:

  GET  /services/rest/?method=flickr.photos.search&...   Flickr's JSON for the search
  GET  /images/<name>.jpg      a real 32x24 JPEG (names starting with "missing" are 404)
  POST /__control              JSON: fault injection and settings (see `apply_control`)
  GET  /__log                  JSON: every request so far, and the peak of simultaneous image requests

Search results are deterministic, computed from lat/lon/page/per_page. By default every place has
95 photos; lat 0, lon 0 has none. Among the photos of a result (global index i):
  i % 10 == 9   no url_* fields (clients must skip it)
  i % 20 == 12  malformed entry: "id" is an object (clients must skip it, not fail the page)
  i % 10 == 4   only url_q (150 px), width_q as a string
  i % 11 == 0   no "title" and no "ownername"
  otherwise     url_n (320 px) and url_q; width_n a string for even i, a number for odd i
  i % 7 != 6    also url_z (640 px); and url_b (1024 px) unless i % 3 == 2
Photo i was taken on taken_date(i) (mid-June of 2000 + i % 26, sent as "datetaken"); min_taken_date and
max_taken_date (MySQL datetimes or Unix times, both inclusive) keep a place's photos of those dates, in order.
On odd pages "total" is a string and the other paging numbers are numbers; on even pages the other
way round. "farm" alternates number/string. {"insecure_url_n": true} (POST /__control) makes every
url_n a plain-http address on another host, which clients must not use.
"""

import functools
import hashlib
import json
import math
import os
import socket
import threading
import time
from urllib.parse import urlsplit

from local_http_server import QuietHandler, command_line, serve

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "tiny.jpg"), "rb") as image_file:
    JPEG = image_file.read()
with open(os.path.join(HERE, "tiny.png"), "rb") as image_file:
    PNG = image_file.read()  # a real 64x48 PNG, served where a JPEG is expected
with open(os.path.join(HERE, "bomb.png"), "rb") as image_file:
    BOMB = image_file.read()  # 110 KB that decode to 30,000 x 30,000 pixels (2.7 GB as RGB)

@functools.lru_cache(maxsize=512)
def photo_jpeg(name):
    """A distinct, recognisable 320x240 JPEG per photo when Pillow is available (screenshots show
    which photo is which); the small shared JPEG otherwise, so the server stays stdlib-only.
    Made once per name: drawing one holds Python's lock for milliseconds, which would otherwise be
    part of every client's figure (the benchmarks compare the app with curl on this server, and have
    the photos drawn before either asks: bench/album_download.py's warm_server)."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        return JPEG
    import colorsys
    import io
    digest = hashlib.sha1(name.encode()).digest()
    red, green, blue = colorsys.hsv_to_rgb(digest[0] / 255.0, 0.55, 0.85)
    # The size suffix says how big (Flickr's _z is 640 wide, _b 1024); the picture is the same.
    scale = {"z": 2, "b": 3.2}.get(name.rsplit(".", 1)[0].rsplit("_", 1)[-1], 1)
    width, height = int(320 * scale), int(240 * scale)
    image = Image.new("RGB", (width, height), (int(red * 255), int(green * 255), int(blue * 255)))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, int(170 * scale), width, height), fill=(40, 60, 40))  # a horizon, so it reads as a photo
    draw.ellipse(tuple(int(v * scale) for v in (230, 30, 290, 90)), fill=(250, 230, 140))
    label = "#" + name.split("_")[0][-4:]
    try:
        from PIL import ImageFont
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", int(40 * scale))
    except (ImportError, OSError):
        font = None
    draw.text((int(56 * scale), int(20 * scale)), label, fill=(255, 255, 255), font=font)  # inside the square the app crops
    output = io.BytesIO()
    image.save(output, format="JPEG", quality=85)
    return output.getvalue()


HTML = b"<!DOCTYPE html><html><head><title>Oops</title></head><body>Something went wrong</body></html>"
DEFAULT_TOTAL = 95
MAX_REACHABLE = 4000


class State:
    """Everything the control endpoint can change, guarded by one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.faults = []
        self.default_total = DEFAULT_TOTAL
        self.totals = {}
        self.image_delay = 0.0
        self.distinct_images = False
        self.all_usable = False
        self.insecure_url_n = False
        self.image_base_url = None
        self.requests = []
        self.active_images = 0
        self.max_active_images = 0

    def take_fault(self, target, path):
        """The first active fault for `target` (and `path`), counting it as used."""
        with self.lock:
            for fault in self.faults:
                if fault.get("target", "search") != target:
                    continue
                if fault.get("match") and fault["match"] not in path:
                    continue
                remaining = fault.get("times")
                if remaining is not None:
                    if remaining <= 0:
                        continue
                    fault["times"] = remaining - 1
                return dict(fault)
        return None


STATE = State()


def place_key(lat, lon):
    return "%.4f,%.4f" % (lat, lon)


def apply_control(body):
    """{"reset": true} clears faults, settings and the log.
    {"faults": [...]} replaces the fault list. A fault is
        {"target": "search" | "image", "kind": KIND, "times": N (omit: forever), "match": "path part"}
    with KIND one of
        stat_fail {"code": 100, "message": "..."}      (search)
        http_status {"status": 500, "retry_after": "0"}
        delay {"seconds": 2.0}                          (then answers normally)
        bad_json | jsonp | html                         (search: broken or wrong bodies)
        truncate                                         (image: full Content-Length, half the body, close)
        cut_short                                        (image: the first 2/3 of a JPEG, Content-Length to match)
        bomb                                             (image: a 30,000 x 30,000 PNG of 110 KB)
        png                                              (image: a real PNG where a JPEG is expected)
        hang                                             (image: accept, read the request, never answer)
        stall    {"after_bytes": 100}                    (image: headers and a few bytes, then nothing)
        huge     {"length": 60000000}                    (image: announces and streams a body that large)
        html                                             (image: 200 with an HTML page)
        redirect {"location": "/images/b.jpg", "status": 301}  (image: moved elsewhere)
        duplicate_ids                                    (search: every photo of the page listed twice)
    {"all_usable": true} leaves out the url-less and malformed entries (every photo is usable);
    {"distinct_images": true} serves a different 320x240 JPEG per photo (needs Pillow);
    {"image_delay": 0.1} delays every image answer; {"image_base_url": "https://127.0.0.1:8443"} puts the
    images at another address (a CDN in front of this server, as Flickr's are); {"total": 95} sets the photo count of every place,
    {"totals": {"48.8566,2.3522": 7}} of particular places (lat,lon with 4 decimals).
    """
    with STATE.lock:
        if body.get("reset"):
            STATE.reset()
        if "faults" in body:
            STATE.faults = [dict(fault) for fault in body["faults"]]
        if "insecure_url_n" in body:
            STATE.insecure_url_n = bool(body["insecure_url_n"])
        if "image_base_url" in body:
            STATE.image_base_url = body["image_base_url"] or None
        if "all_usable" in body:
            STATE.all_usable = bool(body["all_usable"])
        if "distinct_images" in body:
            STATE.distinct_images = bool(body["distinct_images"])
        if "image_delay" in body:
            STATE.image_delay = float(body["image_delay"])
        if "total" in body:
            STATE.default_total = int(body["total"])
        for key, value in body.get("totals", {}).items():
            lat, lon = (float(part) for part in key.split(","))
            STATE.totals[place_key(lat, lon)] = int(value)


def total_for(lat, lon):
    with STATE.lock:
        key = place_key(lat, lon)
        if key in STATE.totals:
            return STATE.totals[key]
        if abs(lat) < 1e-9 and abs(lon) < 1e-9:
            return 0
        return STATE.default_total


def taken_date(index):
    """When the place's photo `index` was taken, as Flickr writes dates: "2015-06-15 12:00:00"."""
    return "%04d-06-15 12:00:00" % (2000 + index % 26)


def mysql_datetime(value):
    """A min/max_taken_date as a comparable MySQL datetime (Flickr takes both forms); ValueError if neither."""
    if value.isdigit():
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(int(value)))
    time.strptime(value[:10], "%Y-%m-%d")
    return value


def photo_entry(base_url, lat, lon, index):
    digest = hashlib.sha1(("%s#%d" % (place_key(lat, lon), index)).encode()).hexdigest()
    seed = int(hashlib.sha1(place_key(lat, lon).encode()).hexdigest()[:6], 16)
    photo_id = "5%08d%05d" % (seed % 100000000, index)
    secret = digest[:10]
    server = str(1000 + index % 50)
    owner = "%d@N0%d" % (10000000 + index % 3, index % 3)
    entry = {
        "id": photo_id,
        "owner": owner,
        "secret": secret,
        "server": server,
        "farm": 66 if index % 2 else "66",
        "ispublic": 1,
        "isfriend": 0,
        "isfamily": 0,
        "license": str(index % 11),
        "datetaken": taken_date(index),
    }
    if index % 11 != 0:
        entry["title"] = "Photo %d near %.2f, %.2f" % (index, lat, lon)
        entry["ownername"] = "Photographer %d" % (index % 3)
    if index % 20 == 12 and not STATE.all_usable:
        entry["id"] = {"malformed": True}
        return entry
    if index % 10 == 9 and not STATE.all_usable:
        return entry
    stem = "%s/images/%s_%s" % (STATE.image_base_url or base_url, photo_id, secret)
    entry["url_q"] = stem + "_q.jpg"
    entry["height_q"] = 150
    entry["width_q"] = "150"
    if index % 10 != 4:
        entry["url_n"] = stem + "_n.jpg"
        if STATE.insecure_url_n:
            entry["url_n"] = "http://farm66.staticflickr.example/%s/%s_%s_n.jpg" % (server, photo_id, secret)
        entry["width_n"] = "320" if index % 2 == 0 else 320
        entry["height_n"] = 240
    # Bigger sizes for the photo viewer, as Flickr sends them: url_b (1024) for most photos, only
    # url_z (640) for every third one, neither for every seventh (a small original).
    if index % 7 != 6:
        entry["url_z"] = stem + "_z.jpg"
        entry["width_z"], entry["height_z"] = 640, 480
        if index % 3 != 2:
            entry["url_b"] = stem + "_b.jpg"
            entry["width_b"], entry["height_b"] = "1024", "768"
    return entry


def flickr_fail(code, message):
    return {"stat": "fail", "code": code, "message": message}


def search(base_url, query):
    """The body (dict) Flickr would send for `query` (a dict of single values)."""
    method = query.get("method")
    if method != "flickr.photos.search":
        return flickr_fail(112, 'Method "%s" not found' % method)
    api_key = query.get("api_key", "")
    if not api_key or api_key == "bad-key":
        return flickr_fail(100, "Invalid API Key (Key has invalid format)")
    if query.get("format") != "json":
        return flickr_fail(111, 'Format "%s" not found' % query.get("format"))
    try:
        lat = float(query["lat"])
        lon = float(query["lon"])
    except (KeyError, ValueError):
        return flickr_fail(3, "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead.")
    try:
        radius = float(query.get("radius", "5"))
        per_page = int(query.get("per_page", "100"))
        page = int(query.get("page", "1"))
        taken_from = mysql_datetime(query["min_taken_date"]) if "min_taken_date" in query else None
        taken_to = mysql_datetime(query["max_taken_date"]) if "max_taken_date" in query else None
    except ValueError:
        return flickr_fail(18, "Illogical arguments")
    if not 0 < radius < 32:
        return flickr_fail(18, "Illogical arguments")
    per_page = max(1, min(per_page, 500))
    page = max(1, page)
    indices = range(total_for(lat, lon))
    if taken_from is not None or taken_to is not None:
        indices = [i for i in indices if (taken_from is None or taken_date(i) >= taken_from)
                   and (taken_to is None or taken_date(i) <= taken_to)]
    total = len(indices)
    pages = int(math.ceil(total / per_page)) if total else 0
    first = (page - 1) * per_page
    last = min(page * per_page, total, MAX_REACHABLE)
    photos = [photo_entry(base_url, lat, lon, indices[i]) for i in range(first, last)]
    if page % 2:
        paging = {"page": page, "pages": pages, "perpage": per_page, "total": str(total)}
    else:
        paging = {"page": str(page), "pages": str(pages), "perpage": str(per_page), "total": total}
    return {"photos": dict(paging, photo=photos), "stat": "ok"}


class Handler(QuietHandler):
    server_version = "FakeFlickr/1.0"
    log_lock = STATE.lock

    # MARK: plumbing

    def begin(self, kind):
        path, query = self.path_and_query()
        self.log_entry = {
            "kind": kind,
            "method": self.command,
            "path": path,
            "query": query,
            "user_agent": self.headers.get("User-Agent"),
            "time": time.time(),
            "status": None,
        }
        with STATE.lock:
            STATE.requests.append(self.log_entry)
        return path, query

    def base_url(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    # MARK: routes

    def do_GET(self):
        try:
            path = urlsplit(self.path).path
            if path == "/__log":
                with STATE.lock:
                    body = {
                        "requests": list(STATE.requests),
                        "max_concurrent_images": STATE.max_active_images,
                        "active_images": STATE.active_images,
                    }
                    body = json.loads(json.dumps(body))
                self.send_json(body)
            elif path.startswith("/images/"):
                self.serve_image()
            elif path.rstrip("/").endswith("/rest"):
                self.serve_search()
            else:
                self.begin("other")
                self.send_body(404, b"not found", "text/plain")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):
        try:
            path = urlsplit(self.path).path
            if path != "/__control":
                self.send_body(404, b"not found", "text/plain")
                return
            length = int(self.headers.get("Content-Length", "0"))
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                apply_control(body)
            except (ValueError, TypeError, AttributeError) as error:
                self.send_json({"ok": False, "error": str(error)}, status=400)
                return
            self.send_json({"ok": True})
        except (BrokenPipeError, ConnectionResetError):
            pass

    def serve_search(self):
        path, query = self.begin("search")
        fault = STATE.take_fault("search", path)
        kind = fault and fault.get("kind")
        if kind == "delay":
            time.sleep(float(fault.get("seconds", 1)))
        elif kind == "http_status":
            headers = {"Retry-After": str(fault["retry_after"])} if "retry_after" in fault else None
            self.send_body(int(fault.get("status", 500)), HTML, "text/html", headers)
            return
        elif kind == "stat_fail":
            code = int(fault.get("code", 105))
            messages = {100: "Invalid API Key (Key has invalid format)", 105: "Service currently unavailable",
                        10: "Sorry, the Flickr search API is not currently available."}
            self.send_json(flickr_fail(code, fault.get("message", messages.get(code, "Something failed"))))
            return
        elif kind == "bad_json":
            self.send_body(200, b'{"photos": {"page": 1, "photo": [', "application/json")
            return
        elif kind == "html":
            self.send_body(200, HTML, "text/html")
            return

        result = search(self.base_url(), query)
        if kind == "duplicate_ids" and "photos" in result:
            photos = result["photos"]["photo"]
            result["photos"]["photo"] = [entry for photo in photos for entry in (photo, dict(photo))]
        text = json.dumps(result)
        if kind == "jsonp" or query.get("nojsoncallback") != "1":
            self.send_body(200, ("jsonFlickrApi(%s)" % text).encode(), "text/javascript")
        else:
            self.send_body(200, text.encode(), "application/json")

    def serve_image(self):
        path, _ = self.begin("image")
        with STATE.lock:
            STATE.active_images += 1
            STATE.max_active_images = max(STATE.max_active_images, STATE.active_images)
            delay = STATE.image_delay
        counted = True
        try:
            fault = STATE.take_fault("image", path)
            kind = fault and fault.get("kind")
            if kind == "delay":
                delay = float(fault.get("seconds", 1))
            if delay:
                time.sleep(delay)
            # No longer waiting: it counts as active only until its answer starts, so a client that sends its
            # next request the moment this body arrives is never counted twice.
            with STATE.lock:
                STATE.active_images -= 1
            counted = False
            name = os.path.basename(path)
            if kind == "http_status":
                headers = {"Retry-After": str(fault["retry_after"])} if "retry_after" in fault else None
                self.send_body(int(fault.get("status", 500)), HTML, "text/html", headers)
            elif kind == "html":
                self.send_body(200, HTML, "text/html")
            elif kind == "redirect":
                self.send_body(int(fault.get("status", 301)), b"", "text/plain", {"Location": fault["location"]})
            elif kind == "truncate":
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", str(len(JPEG)))
                self.end_headers()
                self.wfile.write(JPEG[: len(JPEG) // 2])
                self.wfile.flush()
                self.record_status(200)
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
            elif kind == "cut_short":
                body = photo_jpeg(name) if STATE.distinct_images else JPEG
                self.send_body(200, body[: len(body) * 2 // 3], "image/jpeg")
            elif kind == "bomb":
                self.send_body(200, BOMB, "image/png")
            elif kind == "png":
                self.send_body(200, PNG, "image/png")
            elif kind == "hang":
                _hold(self, seconds=float(fault.get("seconds", 120)))
            elif kind == "stall":
                body = photo_jpeg(name) if STATE.distinct_images else JPEG
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: int(fault.get("after_bytes", 100))])
                self.wfile.flush()
                self.record_status(200)
                _hold(self, seconds=float(fault.get("seconds", 120)))
            elif kind == "huge":
                _stream_zeros(self, int(fault.get("length", 60_000_000)))
            elif name.startswith("missing") or not name.endswith(".jpg"):
                self.send_body(404, b"not found", "text/plain")
            else:
                self.send_body(200, photo_jpeg(name) if STATE.distinct_images else JPEG, "image/jpeg")
        finally:
            if counted:
                with STATE.lock:
                    STATE.active_images -= 1


def _hold(handler, seconds):
    """Keeps the connection open, saying nothing, until the client goes or `seconds` pass."""
    handler.close_connection = True
    deadline = time.time() + seconds
    handler.connection.settimeout(0.2)
    while time.time() < deadline:
        try:
            if handler.connection.recv(1024) == b"":
                return  # the client hung up
        except socket.timeout:
            continue
        except OSError:
            return


def _stream_zeros(handler, length):
    handler.send_response(200)
    handler.send_header("Content-Type", "image/jpeg")
    handler.send_header("Content-Length", str(length))
    handler.end_headers()
    handler.record_status(200)
    handler.close_connection = True
    block = bytes(64 * 1024)
    sent = 0
    try:
        while sent < length:
            handler.wfile.write(block[: min(len(block), length - sent)])
            sent += len(block)
    except OSError:
        pass  # the client refused the body, as it should


def main():
    parser = command_line(__doc__)
    parser.add_argument("--distinct-images", action="store_true",
                        help="a different JPEG per photo (needs Pillow), as /__control's distinct_images")
    options = parser.parse_args()
    STATE.distinct_images = options.distinct_images
    if options.distinct_images:
        photo_jpeg("warm-up.jpg")  # Pillow's import and its font, before the first client waits for them
    serve(options, Handler)


if __name__ == "__main__":
    main()
