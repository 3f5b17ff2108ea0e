"""Photos as phones take them, and files that only pretend to be photos, made once by libvips' own
`vips` command (Debian's libvips-tools) into a folder and read back as bytes. Used by
sanitize/pictures.py and bench/lesson.py."""

import os
import subprocess
import tempfile

# Camera sizes: a 12 MP phone photo, the two sizes the apps of 2021-2022 resized to, and a PNG with alpha.
PHOTOS = {
    "12mp.jpg": (4032, 3024), "2016.jpg": (2016, 1512), "1200.jpg": (1200, 900), "alpha.png": (1600, 1200),
    "photo.webp": (2016, 1512), "photo.heic": (2016, 1512),
}


def _vips(*arguments):
    subprocess.run(["vips", *arguments], check=True, capture_output=True)


def _camera_picture(folder, width, height):
    """A gradient under a camera's grain, which weighs what a photo does once compressed: a .v file of libvips'."""
    bands = []
    for band in range(3):
        noise = f"{folder}/noise{band}.v"
        _vips("gaussnoise", noise, str(width), str(height), "--mean", str(96 + 40 * band), "--sigma", "6")
        bands.append(noise)
    _vips("bandjoin", " ".join(bands), f"{folder}/grain.v")
    _vips("xyz", f"{folder}/xy.v", str(width), str(height))
    _vips("extract_band", f"{folder}/xy.v", f"{folder}/x.v", "0")
    _vips("linear", f"{folder}/x.v", f"{folder}/ramp.v", str(96 / width), "0")
    _vips("add", f"{folder}/grain.v", f"{folder}/ramp.v", f"{folder}/sum.v")
    _vips("cast", f"{folder}/sum.v", f"{folder}/photo.v", "uchar")
    return f"{folder}/photo.v"


def camera_jpegs(width, height, count):
    """`count` JPEGs of a camera's size, each of its own grain (so the market keeps each apart), at quality 90."""
    folder = tempfile.mkdtemp(prefix="openmarket-photos-")
    jpegs = []
    for number in range(count):
        _vips("copy", _camera_picture(folder, width, height), f"{folder}/{number}.jpg[Q=90]")
        with open(f"{folder}/{number}.jpg", "rb") as file:
            jpegs.append(file.read())
    subprocess.run(["rm", "-rf", folder], check=False)
    return jpegs


def phone_photos():
    """{name: bytes} for each of PHOTOS."""
    folder = tempfile.mkdtemp(prefix="openmarket-photos-")
    photos = {}
    for name, (width, height) in PHOTOS.items():
        source = _camera_picture(folder, width, height)
        target = f"{folder}/{name}"
        if name.endswith(".png"):
            _vips("bandjoin_const", source, f"{folder}/alpha.v", "200")
            _vips("copy", f"{folder}/alpha.v", target)
        else:
            _vips("copy", source, target + ("[Q=90]" if name.endswith(".jpg") else ""))
        with open(target, "rb") as file:
            photos[name] = file.read()
    subprocess.run(["rm", "-rf", folder], check=False)
    return photos


def hostile_files(photos):
    """{name: bytes} of uploads that must be refused with a 4xx: cut short, made up, or a decompression bomb."""
    folder = tempfile.mkdtemp(prefix="openmarket-hostile-")
    _vips("black", f"{folder}/black.v", "12000", "12000")
    _vips("copy", f"{folder}/black.v", f"{folder}/bomb.png[bitdepth=1]")
    with open(f"{folder}/bomb.png", "rb") as file:
        bomb = file.read()
    subprocess.run(["rm", "-rf", folder], check=False)
    jpeg, png = photos["2016.jpg"], photos["alpha.png"]
    return {
        "truncated.jpg": jpeg[: len(jpeg) // 3], "truncated.png": png[: len(png) // 5],
        "truncated.heic": photos["photo.heic"][: len(photos["photo.heic"]) // 2],
        "made-up.jpg": b"\xff\xd8\xff\xe0" + os.urandom(60_000), "made-up.png": png[:33] + os.urandom(30_000),
        "bomb.png": bomb,
    }
