"""A user's Pictures folder for the own-photos tests: real JPEGs geotagged by exiftool and exiv2 around a place,
next to the files a real folder also holds (untagged, broken, truncated, not photos, hidden), and the desktop's
user-dirs.dirs that names it, as xdg-user-dirs writes it."""

from __future__ import annotations

import hashlib
import math
import os
import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

EARTH_KM_PER_DEGREE = 111.195  # along a meridian, for the mean Earth radius the app's distances use


def offset(latitude: float, longitude: float, north_km: float, east_km: float) -> tuple[float, float]:
    """The point `north_km` north and `east_km` east of (latitude, longitude)."""
    return (latitude + north_km / EARTH_KM_PER_DEGREE,
            longitude + east_km / (EARTH_KM_PER_DEGREE * math.cos(math.radians(latitude))))


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine) between two (latitude, longitude) points."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def write_user_dirs(config_home: Path, pictures: str = "$HOME/Pictures") -> None:
    """$XDG_CONFIG_HOME/user-dirs.dirs naming the Pictures folder, in xdg-user-dirs-update's own format."""
    config_home.mkdir(parents=True, exist_ok=True)
    (config_home / "user-dirs.dirs").write_text(
        "# This file is written by xdg-user-dirs-update\n"
        "# If you want to change or add directories, just edit the line you're\n"
        "# interested in. All local changes will be retained on the next run.\n"
        'XDG_DESKTOP_DIR="$HOME/Desktop"\n'
        'XDG_DOWNLOAD_DIR="$HOME/Downloads"\n'
        f'XDG_PICTURES_DIR="{pictures}"\n')


def plain_jpeg(path: Path, colour: tuple[int, int, int], size: tuple[int, int] = (320, 240)) -> Path:
    """A small JPEG of one colour with a white diagonal, so no two test photos look alike."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", size, colour)
    ImageDraw.Draw(image).line((0, 0, size[0], size[1]), fill=(255, 255, 255), width=6)
    image.save(path, "JPEG", quality=90)
    return path


def sideways_jpeg(path: Path) -> Path:
    """A landscape JPEG stored on its side: left half near-black, right half near-white. With EXIF orientation 6
    (turn 90° clockwise to show) it stands up as a portrait whose top half is dark and bottom half bright."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", (400, 200), (20, 20, 20))
    image.paste((235, 235, 235), (200, 0, 400, 200))
    image.save(path, "JPEG", quality=95)
    return path


def exiftool_tag(path: Path, position: tuple[float, float] | None, taken: str | None = None,
                 orientation: int | None = None) -> None:
    """Writes GPS position, DateTimeOriginal ("2019:06:01 12:00:00") and Orientation with exiftool."""
    arguments = ["exiftool", "-q", "-overwrite_original"]
    if position:
        latitude, longitude = position
        arguments += [f"-GPSLatitude={abs(latitude)}", f"-GPSLatitudeRef={'N' if latitude >= 0 else 'S'}",
                      f"-GPSLongitude={abs(longitude)}", f"-GPSLongitudeRef={'E' if longitude >= 0 else 'W'}"]
    if taken:
        arguments.append(f"-DateTimeOriginal={taken}")
    if orientation:
        arguments += ["-n", f"-Orientation={orientation}"]
    subprocess.run([*arguments, str(path)], check=True, capture_output=True, timeout=30)


def _rational_dms(value: float) -> str:
    """Degrees as exiv2's rational triple, e.g. 48.8584 -> "48/1 51/1 3024/100"."""
    value = abs(value)
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    hundredths_of_seconds = round(((value - degrees) * 60 - minutes) * 60 * 100)
    return f"{degrees}/1 {minutes}/1 {hundredths_of_seconds}/100"


def exiv2_tag(path: Path, position: tuple[float, float], taken: str) -> None:
    """Writes the GPS position and DateTimeOriginal with the exiv2 command, as a second tool's spelling."""
    latitude, longitude = position
    commands = [
        "set Exif.GPSInfo.GPSVersionID 2 2 0 0",
        f"set Exif.GPSInfo.GPSLatitude {_rational_dms(latitude)}",
        f"set Exif.GPSInfo.GPSLatitudeRef {'N' if latitude >= 0 else 'S'}",
        f"set Exif.GPSInfo.GPSLongitude {_rational_dms(longitude)}",
        f"set Exif.GPSInfo.GPSLongitudeRef {'E' if longitude >= 0 else 'W'}",
        f"set Exif.Photo.DateTimeOriginal Ascii {taken}",
    ]
    subprocess.run(["exiv2", *[f"-M{command}" for command in commands], "mo", str(path)], check=True,
                   capture_output=True, timeout=30)


@dataclass
class OwnPicture:
    """A photo file the test made, and what the app should make of it."""
    relative: str
    position: tuple[float, float] | None
    taken: str | None = None

    @property
    def name(self) -> str:
        return self.relative.rsplit("/", 1)[-1]


class PicturesFolder:
    """`home`/Pictures, named by `home`/config/user-dirs.dirs (the App's XDG_CONFIG_HOME)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.folder = home / "Pictures"
        self.folder.mkdir(parents=True, exist_ok=True)
        write_user_dirs(home / "config")
        self.tagged: list[OwnPicture] = []

    def path(self, relative: str) -> Path:
        return self.folder / relative

    def add_tagged(self, relative: str, position: tuple[float, float], taken: str | None,
                   colour: tuple[int, int, int] = (90, 140, 200), orientation: int | None = None,
                   tool: str = "exiftool", into: Path | None = None) -> OwnPicture:
        """A geotagged JPEG; `into` writes it elsewhere first (then moved in by the test, as a camera import does)."""
        target = (into or self.folder) / relative
        if orientation:
            sideways_jpeg(target)
        else:
            plain_jpeg(target, colour)
        if tool == "exiv2":
            exiv2_tag(target, position, taken)
        else:
            exiftool_tag(target, position, taken, orientation)
        picture = OwnPicture(relative, position, taken)
        if into is None:
            self.tagged.append(picture)
        return picture

    def add_untagged(self, relative: str, colour: tuple[int, int, int] = (120, 120, 60)) -> None:
        """A photo without a position (a scan, or a camera without GPS); it has a date, which is not enough."""
        exiftool_tag(plain_jpeg(self.path(relative), colour), None, "2018:02:02 10:00:00")

    def add_broken(self, relative: str) -> None:
        """Random bytes with a photo's name."""
        self.path(relative).parent.mkdir(parents=True, exist_ok=True)
        self.path(relative).write_bytes(random.Random(35).randbytes(4096))

    def add_truncated(self, relative: str, position: tuple[float, float]) -> None:
        """A geotagged JPEG cut off inside its EXIF block (a copy that stopped), so no metadata can be read."""
        whole = self.path(relative)
        exiftool_tag(plain_jpeg(whole, (200, 60, 60)), position, "2016:01:01 08:00:00")
        data = whole.read_bytes()
        whole.write_bytes(data[:60])

    def add_cut_picture(self, relative: str, position: tuple[float, float]) -> None:
        """A geotagged JPEG whose tags are whole but whose picture stops 40 bytes into its image data (a download cut
        short): exiv2 reads its position and date, gdk-pixbuf "decodes" it to grey."""
        whole = self.path(relative)
        exiftool_tag(plain_jpeg(whole, (60, 60, 200)), position, "2018:02:02 08:00:00")
        data = whole.read_bytes()
        offset = 2
        while data[offset + 1] != 0xDA:  # the segments up to the start of scan, each by its length
            offset += 2 + int.from_bytes(data[offset + 2:offset + 4], "big")
        scan_data = offset + 2 + int.from_bytes(data[offset + 2:offset + 4], "big")
        whole.write_bytes(data[:scan_data + 40])

    def add_text(self, relative: str) -> None:
        self.path(relative).parent.mkdir(parents=True, exist_ok=True)
        self.path(relative).write_text("Packing list: camera, charger, map.\n")

    def hashes(self) -> dict[str, str]:
        """SHA-256 of every file under the folder, hidden ones too, by relative path."""
        return {str(path.relative_to(self.folder)): hashlib.sha256(path.read_bytes()).hexdigest()
                for path in sorted(self.folder.rglob("*")) if path.is_file()}

    def stamps(self) -> dict[str, tuple[int, int]]:
        """Modification times and sizes: an app that only reads leaves them as they were."""
        return {str(path.relative_to(self.folder)): (os.stat(path).st_mtime_ns, os.stat(path).st_size)
                for path in sorted(self.folder.rglob("*")) if path.is_file()}
