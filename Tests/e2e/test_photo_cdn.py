"""Issue 8: photos from a CDN that speaks HTTP/2, as Flickr's does. The album comes over one multiplexed
connection; a CDN whose certificate the app cannot trust fails each photo with a clear message, and
leaves no file behind."""

from __future__ import annotations

import pytest

from harness.accessibility import AccessibleApp
from harness.photo_cdn import PhotoCDN
from test_album import drop_album_pin, photo_tiles, wait_for_complete_album


@pytest.fixture
def cdn(flickr, tmp_path):
    server = PhotoCDN(flickr.port, tmp_path / "cdn")
    flickr.control({"image_base_url": server.base_url, "all_usable": True, "image_delay": 0.2})
    yield server
    server.stop()


def test_an_album_from_an_http2_cdn_comes_over_one_connection(make_app, flickr, cdn, user, screenshot):
    app = make_app(extra_environment={"SSL_CERT_FILE": str(cdn.ca_file)}).start()
    accessible = AccessibleApp()  # the `accessible` fixture would start an app of its own
    connections_before = cdn.accepted_connections()
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])
    screenshot("album-over-http2")
    # No spare connections (TLS handshakes) either: the client's pool opens one and learns from it that
    # the CDN speaks HTTP/2 before it opens another.
    assert cdn.accepted_connections() - connections_before == 1

    served = [request for request in cdn.requests() if request.path.startswith("/images/")]
    assert len(served) == len(photos) == 30, "every photo came from the CDN, once"
    assert {request.protocol for request in served} == {"HTTP/2.0"}
    assert len({request.connection for request in served}) == 1, "one multiplexed connection, not six"
    assert {request.status for request in served} == {200}
    # Each photo takes the CDN 0.2 s: one round, not six photos first and the rest once one came back.
    spread = max(request.started for request in served) - min(request.started for request in served)
    assert spread < 0.15, f"the whole album was asked for at once (requests spread over {spread:.3f} s)"
    assert len(app.photo_files()) == 30


def test_a_cdn_the_app_cannot_trust_fails_each_photo_and_says_why(make_app, flickr, cdn, user, screenshot):
    app = make_app().start()  # the system's certificate authorities only: the CDN's is not among them
    accessible = AccessibleApp()  # the `accessible` fixture would start an app of its own
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    title = accessible.find("No Photos Could Be Downloaded", "label", timeout=30)
    reason = [label for label in accessible.labels() if "secure connection" in label]
    screenshot("untrusted-cdn")
    assert title.showing
    assert reason == ["Virtual Tourist couldn't set up a secure connection to 127.0.0.1. Check the computer's date "
                      "and time, and whether a proxy or a Wi-Fi sign-in page is in the way."], "what happened, what to do"
    assert all(path is None for _, _, path in app.photos(pin[0])), "no photo is recorded as downloaded"
    assert app.photo_files() == [], "no file is left behind"
    assert not cdn.requests(), "no request was sent over a connection the app could not trust"

    # Try Again asks for every photo again (and, the CDN still untrusted, says so again).
    attempts = app.log_text().count("Photo download failed")
    x, y, width, height = accessible.extents("Try Again", "push button")
    user.click(x + width // 2, y + height // 2)
    app.wait_until(lambda: app.log_text().count("Photo download failed") >= attempts + 30, 30,
                   "every photo was tried again")
    assert accessible.find("No Photos Could Be Downloaded", "label", timeout=10).showing
