"""The picture path of a market built with a sanitizer (OPENMARKET_BINARY): FILLS demo fills, then
REGISTERS registers of phone photos and hostile files AT_ONCE at a time while resized copies are
served, a snapshot saved and restored, and `migrate` into PostgreSQL when OPENMARKET_TEST_POSTGRES
names a server. Fails on any report of the sanitizer, any crash, any 5xx and any answer a photo or a
hostile file should not get."""

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from market import PAPRI, Market  # noqa: E402
from photos import hostile_files, phone_photos  # noqa: E402
from soak import multipart  # noqa: E402

BINARY = os.environ["OPENMARKET_BINARY"]
FILLS = int(os.environ.get("FILLS", "3"))
REGISTERS = int(os.environ.get("REGISTERS", "400"))
AT_ONCE = 8
REPORTED = re.compile(r"ERROR: \w+Sanitizer|runtime error:|WARNING: ThreadSanitizer|openmarket crashed|Program crashed")
problems = []


def check_log(market, what):
    log = "".join(market.log)
    found = REPORTED.search(log)
    if found:
        problems.append(f"{what}: the sanitizer or the crash report spoke:\n{log[max(0, found.start() - 2000):][:20000]}")


def stop(market, what):
    """Stops the market as SIGTERM does, keeping its folder, and checks what it said."""
    market.process.terminate()
    status = market.process.wait(timeout=120)
    market.drainer.join(timeout=60)
    check_log(market, what)
    if status != 0:
        problems.append(f"{what}: exit status {status}")


def demo_fills():
    for number in range(1, FILLS + 1):
        market = Market(BINARY)
        stop(market, f"demo fill {number}")
        subprocess.run(["rm", "-rf", market.directory], check=False)
        print(f"demo fill {number} of {FILLS}: {'clean' if not problems else 'PROBLEM'}", flush=True)
        if problems:
            return


class Registers:
    """AT_ONCE apps registering products, and a browser asking for the resized copies of their pictures meanwhile."""

    def __init__(self, market, photos, hostile):
        self.market, self.photos, self.hostile = market, photos, hostile
        self.uploads = list(photos) + list(hostile)
        self.lock = threading.Lock()
        self.sent, self.counts, self.keys = 0, {}, []

    def count(self, what):
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.market.port, timeout=600)

    def app(self):
        connection = self.connection()
        while True:
            with self.lock:
                if self.sent == REGISTERS:
                    return
                number, self.sent = self.sent, self.sent + 1
            first = self.uploads[number % len(self.uploads)]
            pictures = [first] + [list(self.photos)[(number + n) % len(self.photos)] for n in range(number % 3)]
            body, content_type = multipart(
                {"name": f"Photo {number}", "description": first, "price": 1000, "currency": "KRW", "stock": 1,
                 "secret": PAPRI[1]},
                [self.photos.get(name) or self.hostile[name] for name in pictures])
            while True:
                try:
                    connection.request("POST", "/api/products", body=body,
                                       headers={"identifier": PAPRI[0], "Content-Type": content_type})
                    answer = connection.getresponse()
                    data = answer.read()
                except (http.client.HTTPException, OSError) as error:
                    problems.append(f"register {number} ({first}): {error}")
                    return
                if answer.status != 503 or answer.getheader("Retry-After") is None:
                    break
                # Every picture slot taken (a machine of one core): sent again when the market says, as apps do.
                self.count("busy 503")
                time.sleep(int(answer.getheader("Retry-After")))
            expected = {201} if first in self.photos else {400, 413}
            self.count(f"{'photo' if first in self.photos else 'hostile'} {answer.status}")
            if answer.status not in expected:
                problems.append(f"register {number} ({first}): {answer.status} {data[:300]!r}")
            elif answer.status == 201:
                with self.lock:
                    self.keys += [image["url"].rsplit("/", 1)[1] for image in json.loads(data)["images"]]

    def browser(self, done):
        connection = self.connection()
        asked = 0
        while not done.is_set():
            with self.lock:
                key = self.keys[asked % len(self.keys)] if self.keys else None
            if key is None:
                time.sleep(0.05)
                continue
            name = key.split(".")[0]
            for copy in [f"{name}-w400.webp", f"{name}-w800.jpg", f"{name}-w1600.webp", f"{name}.webp", key]:
                try:
                    connection.request("GET", "/images/" + copy)
                    answer = connection.getresponse()
                    answer.read()
                except (http.client.HTTPException, OSError) as error:
                    problems.append(f"picture {copy}: {error}")
                    return
                self.count(f"resized {answer.status}")
                if answer.status != 200:
                    problems.append(f"picture {copy}: {answer.status}")
            asked += 1

    def run(self):
        done = threading.Event()
        apps = [threading.Thread(target=self.app) for _ in range(AT_ONCE)]
        browser = threading.Thread(target=self.browser, args=(done,))
        for thread in apps + [browser]:
            thread.start()
        for thread in apps:
            thread.join()
        done.set()
        browser.join()
        print(f"{REGISTERS} registers, {AT_ONCE} at a time: {json.dumps(self.counts, sort_keys=True)}", flush=True)


def snapshot_and_migrate(market, key):
    folder = tempfile.mkdtemp(prefix="openmarket-sanitize-")
    saved = f"{folder}/market.snapshot"
    for command in (["snapshot", "save", "--data-dir", market.directory + "/data", saved],
                    ["snapshot", "restore", "--data-dir", f"{folder}/restored", saved]):
        run = subprocess.run([BINARY, *command, "--quiet"], capture_output=True, text=True)
        if run.returncode != 0 or REPORTED.search(run.stdout + run.stderr):
            problems.append(f"{' '.join(command[:2])}: {run.returncode}\n{run.stdout}{run.stderr}"[:20000])
    restored = Market(BINARY, ["--data-dir", f"{folder}/restored"])
    name = key.split(".")[0]
    for copy in [key, f"{name}-w400.webp"]:
        answer = urlopen_status(restored.port, "/images/" + copy)
        if answer != 200:
            problems.append(f"restored picture {copy}: {answer}")
    stop(restored, "the restored market")
    server = os.environ.get("OPENMARKET_TEST_POSTGRES")
    if server:
        database = f"sanitize_{uuid.uuid4().hex[:12]}"
        subprocess.run(["psql", server, "-q", "-c", f"CREATE DATABASE {database}"], check=True, capture_output=True)
        url = server.rsplit("/", 1)[0] + "/" + database
        run = subprocess.run([BINARY, "migrate", "--data-dir", f"{folder}/restored", "--to", url, "--quiet"],
                             capture_output=True, text=True)
        if run.returncode != 0 or REPORTED.search(run.stdout + run.stderr):
            problems.append(f"migrate: {run.returncode}\n{run.stdout}{run.stderr}"[:20000])
        print(f"migrate: {run.stdout.strip()}", flush=True)
    subprocess.run(["rm", "-rf", folder], check=False)


def urlopen_status(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    return answer.status


def main():
    started = time.monotonic()
    photos = phone_photos()
    hostile = hostile_files(photos)
    demo_fills()
    if not problems:
        market = Market(BINARY)
        registers = Registers(market, photos, hostile)
        registers.run()
        stop(market, "the market of the registers")
        if registers.keys:
            snapshot_and_migrate(market, registers.keys[0])
        subprocess.run(["rm", "-rf", market.directory], check=False)
    print(f"{time.monotonic() - started:.0f} s", flush=True)
    for problem in problems:
        print("PROBLEM " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
