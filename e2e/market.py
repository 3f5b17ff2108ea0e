"""A real market for the browser tests: the built `openmarket serve --demo` on a free port, and
small helpers to reach its API and to make pictures."""

import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import threading
import urllib.request
import uuid
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("OPENMARKET_BINARY", os.path.join(ROOT, ".build", "debug", "openmarket"))

# The demo vendors (DemoCatalogue), whose credentials the reference apps hard-code.
PAPRI = ("a09d8d1a-d1b8-11ec-9676-bd41bb2bb233", "80sgmjjk9v", "papri")
JUDY = ("f27bc126-0335-11ed-9676-1776ba240ec2", "0hvvXjSeAS", "judy")


class Market:
    """Also used by fuzz/fuzz.py and bench/soak.py, with their own binary and serve arguments."""

    def __init__(self, binary=BINARY, arguments=()):
        self.binary = binary
        self.directory = tempfile.mkdtemp(prefix="openmarket-e2e-")
        self.log = []
        self.process = subprocess.Popen(
            [binary, "serve", "--demo", "--host", "127.0.0.1", "--port", "0", "--data-dir", self.directory + "/data",
             *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            self.log.append(line)
            found = re.search(r"Open Market is open at (http://[0-9.]+:(\d+))", line)
            if found:
                self.url, self.port = found.group(1), int(found.group(2))
                break
        else:
            raise RuntimeError("the market did not start:\n" + "".join(self.log))
        self.drainer = threading.Thread(target=self._drain, daemon=True)
        self.drainer.start()

    def _drain(self):
        for line in self.process.stdout:
            self.log.append(line)

    def stop(self):
        if self.process.poll() is not None:
            # It ended before the tests were done: what it said last is why.
            print(f"\nthe market ended early (exit status {self.process.returncode}); its last lines:\n"
                  + "".join(self.log[-60:]), file=sys.stderr)
        self.process.terminate()
        self.process.wait(timeout=30)
        subprocess.run(["rm", "-rf", self.directory], check=False)

    def command(self, *arguments):
        """Runs `openmarket` against this market's folder, as its operator would from a shell."""
        run = subprocess.run([self.binary, *arguments, "--data-dir", self.directory + "/data"],
                             capture_output=True, text=True, check=True)
        return run.stdout

    def api(self, path, identifier=None):
        """The API's JSON answer, asked as an app with that vendor's identifier would when one is given."""
        request = urllib.request.Request(self.url + path, headers={"identifier": identifier} if identifier else {})
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    def get(self, path):
        with urllib.request.urlopen(self.url + path) as response:
            return response.read()

    def create_product(self, name, vendor=PAPRI, price=10000, discount=0, stock=5, pictures=1, photos=()):
        """Registers a product through the 2022 API, as an app would."""
        identifier, secret, _ = vendor
        params = {"name": name, "description": "Made for a browser test.", "price": price,
                  "discounted_price": discount, "currency": "KRW", "stock": stock, "secret": secret}
        boundary = uuid.uuid4().hex
        parts = [("params", "application/json", json.dumps(params).encode())]
        parts += [("images", "image/png", data) for data in photos or [picture(64, 48, seed=n) for n in range(pictures)]]
        body = b""
        for index, (field, kind, data) in enumerate(parts):
            body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
                     f"filename=\"{field}{index}\"\r\nContent-Type: {kind}\r\n\r\n").encode() + data + b"\r\n"
        body += f"--{boundary}--\r\n".encode()
        request = urllib.request.Request(
            self.url + "/api/products", data=body, method="POST",
            headers={"identifier": identifier, "Content-Type": f"multipart/form-data; boundary={boundary}"})
        with urllib.request.urlopen(request) as response:
            return json.load(response)


def picture(width, height, seed=0, noise=False, grain=0):
    """A PNG: a colour gradient, or noise that no encoder can squeeze (to test shrinking); `grain`
    adds a camera's speckle of up to that many levels to the gradient, so it weighs what a photo does."""
    generator = random.Random(seed)
    rows = []
    for y in range(height):
        if noise:
            rows.append(b"\x00" + generator.randbytes(width * 3))
        elif grain:
            speckle = generator.randbytes(width * 3)
            rows.append(b"\x00" + bytes(
                min(255, max(0, value + speckle[index] % (2 * grain + 1) - grain))
                for index, value in enumerate(
                    v for x in range(width) for v in ((x * 255 // width), (y * 255 // height), (seed * 70) % 256))))
        else:
            rows.append(b"\x00" + bytes(
                value for x in range(width) for value in ((x * 255 // width), (y * 255 // height), (seed * 70) % 256)))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
            + chunk(b"IEND", b""))
