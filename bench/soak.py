"""Drives a fresh demo market with a mix of what apps and browsers do, for DURATION seconds from
CLIENTS threads, and reports every answer that was not one of the expected ones (an error) and
the server's resident memory from start to end."""

import http.client
import json
import os
import random
import sys
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
from market import Market  # noqa: E402  (the browser tests' market, started the same way)
BINARY = os.environ.get("OPENMARKET_BINARY", os.path.join(ROOT, ".build", "release", "openmarket"))
DURATION = int(os.environ.get("DURATION", "180"))
CLIENTS = int(os.environ.get("CLIENTS", "16"))
PAPRI = ("a09d8d1a-d1b8-11ec-9676-bd41bb2bb233", "80sgmjjk9v")
JUDY = "f27bc126-0335-11ed-9676-1776ba240ec2"


def rss_mb(market):
    """The server's resident memory now."""
    with open(f"/proc/{market.process.pid}/status") as status:
        return int(next(l for l in status if l.startswith("VmRSS:")).split()[1]) / 1024


class Client:
    """One keep-alive connection, as an app holds one."""

    def __init__(self, port, address):
        self.port, self.address = port, address
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def send(self, method, path, body=None, headers=None):
        headers = dict(headers or {}, **{"X-Forwarded-For": self.address})
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, ConnectionError) as error:
                # A keep-alive connection the server closed while idle is reopened once.
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt == 1:
                    return None, str(error).encode()


def multipart(params, pictures, kind="jpeg"):
    """A 2022 register's body, as the apps send it: `params` as JSON, then each picture (of type image/`kind`)."""
    boundary = uuid.uuid4().hex
    body = f'--{boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n{json.dumps(params)}\r\n'.encode()
    for index, picture in enumerate(pictures):
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="images"; filename="{index}.{kind}"\r\n'
                 f"Content-Type: image/{kind}\r\n\r\n").encode() + picture + b"\r\n"
    return body + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


class Soak:
    EXPECTED = {
        "list": {200}, "search": {200}, "detail": {200, 404}, "image": {200}, "page": {200}, "create": {201},
        "edit": {202, 404}, "delete": {200, 404}, "wrong secret": {401, 429}, "burst": {401, 413, 429, 503},
    }

    def __init__(self, server, pictures, image_paths, ids):
        self.server, self.pictures, self.image_paths, self.ids = server, pictures, image_paths, ids
        self.lock = threading.Lock()
        self.counts, self.errors, self.owned, self.burst_statuses = {}, [], [], {}
        self.deadline = time.monotonic() + DURATION

    def record(self, kind, status, body):
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if status not in self.EXPECTED[kind]:
                self.errors.append((kind, status, body[:200]))

    def work(self, number):
        client = Client(self.server.port, f"10.0.{number // 250}.{number % 250 + 1}")
        auth = {"identifier": PAPRI[0], "Content-Type": "application/json"}
        while time.monotonic() < self.deadline:
            roll = random.random()
            if roll < 0.40:
                kind, (status, body) = "list", client.send("GET", f"/api/products?page_no={random.randint(1, 4)}&items_per_page=20")
            elif roll < 0.45:
                kind, (status, body) = "search", client.send("GET", "/api/products?search_value=" + random.choice(["a", "film", "%ED%8C%A5"]))
            elif roll < 0.65:
                kind, (status, body) = "detail", client.send("GET", f"/api/products/{random.choice(self.ids)}")
            elif roll < 0.80:
                kind, (status, body) = "image", client.send("GET", random.choice(self.image_paths))
            elif roll < 0.87:
                kind, (status, body) = "page", client.send("GET", random.choice(["/", "/?view=grid", f"/products/{random.choice(self.ids)}"]))
            elif roll < 0.92:
                body, content_type = multipart(
                    {"name": f"Soak {uuid.uuid4().hex[:8]}", "descriptions": "Made by the soak.", "price": 1000,
                     "currency": "KRW", "stock": 3, "secret": PAPRI[1]},
                    random.sample(self.pictures, random.randint(1, 3)))
                kind, (status, body) = "create", client.send("POST", "/api/products", body, {"identifier": PAPRI[0], "Content-Type": content_type})
                if status == 201:
                    with self.lock:
                        self.owned.append(json.loads(body)["id"])
            elif roll < 0.96:
                target = self.take(keep=True)
                if target is None:
                    continue
                kind, (status, body) = "edit", client.send(
                    "PATCH", f"/api/products/{target}", json.dumps({"stock": random.randint(0, 9), "secret": PAPRI[1]}), auth)
            elif roll < 0.99:
                target = self.take(keep=False)
                if target is None:
                    continue
                status, secret = client.send("POST", f"/api/products/{target}/secret", json.dumps({"secret": PAPRI[1]}), auth)
                if status == 200:
                    status, body = client.send("DELETE", f"/api/products/{target}/{secret.decode()}")
                else:
                    body = secret
                kind = "delete"
            else:
                # A guesser: another vendor's identifier from an address of its own.
                guesser = {"identifier": JUDY, "Content-Type": "application/json", "X-Forwarded-For": "10.9.9.9"}
                kind, (status, body) = "wrong secret", client.send(
                    "PATCH", f"/api/products/{random.choice(self.ids)}", json.dumps({"stock": 1, "secret": "guess"}), guesser)
            self.record(kind, status, body)

    def take(self, keep):
        with self.lock:
            if not self.owned:
                return None
            return random.choice(self.owned) if keep else self.owned.pop(random.randrange(len(self.owned)))

    def burst(self):
        """25 uploads of 52 MB at once from a known vendor (not the one selling) with a wrong secret, as in the report
        that found bodies held without limit."""
        body, content_type = multipart(
            {"name": "Burst", "descriptions": "Too big.", "price": 1, "currency": "KRW", "secret": "wrong-secret"},
            [b"\xff\xd8\xff" + b"x" * (52 * 1024 * 1024)])
        def upload():
            client = Client(self.server.port, "10.8.8.8")
            status, answer = client.send("POST", "/api/products", body, {"identifier": JUDY, "Content-Type": content_type})
            self.record("burst", status, answer)
            with self.lock:
                self.burst_statuses[status] = self.burst_statuses.get(status, 0) + 1
        threads = [threading.Thread(target=upload) for _ in range(25)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def main():
    server = Market(BINARY, ["--log-format", "json"])
    try:
        client = Client(server.port, "10.7.7.7")
        page = json.loads(client.send("GET", "/api/products?items_per_page=64")[1])
        ids = [item["id"] for item in page["pages"]]
        details = [json.loads(client.send("GET", f"/api/products/{i}")[1]) for i in ids[:16]]
        image_paths = ["/" + image["url"].split("/", 3)[3] for d in details for image in d["images"]]
        image_paths += ["/" + item["thumbnail"].split("/", 3)[3] for item in page["pages"]]
        pictures = [client.send("GET", path)[1] for path in image_paths[:8]]

        start_rss = rss_mb(server)
        soak = Soak(server, pictures, image_paths, ids)
        samples = [(0, start_rss)]
        workers = [threading.Thread(target=soak.work, args=(n,)) for n in range(CLIENTS)]
        began = time.monotonic()
        for worker in workers:
            worker.start()
        burst_done = False
        while any(worker.is_alive() for worker in workers):
            time.sleep(2)
            elapsed = time.monotonic() - began
            if not burst_done and elapsed > DURATION / 2:
                soak.burst()
                burst_done = True
                samples.append((time.monotonic() - began, rss_mb(server)))
            samples.append((time.monotonic() - began, rss_mb(server)))
        for worker in workers:
            worker.join()
        end_rss = rss_mb(server)
        warm = [rss for t, rss in samples if DURATION * 0.2 <= t <= DURATION * 0.45]
        late = [rss for t, rss in samples if t >= DURATION * 0.8]
        total = sum(soak.counts.values())
        server_errors = [line for line in server.log if '"level":"error"' in line or '"level":"critical"' in line]

        results = os.path.join(ROOT, "bench", "results", "soak-" + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
        os.makedirs(results, exist_ok=True)
        with open(os.path.join(results, "rss.tsv"), "w") as out:
            out.writelines(f"{t:.0f}\t{rss:.1f}\n" for t, rss in samples)
        with open(os.path.join(results, "server.log"), "w") as out:
            out.writelines(server.log)

        print(f"| soak: {DURATION} s, {CLIENTS} clients, {os.path.basename(os.path.dirname(BINARY))} build | |")
        print("|---|---|")
        print(f"| requests | {total} ({total / DURATION:.0f}/s): " + ", ".join(f"{k} {v}" for k, v in sorted(soak.counts.items())) + " |")
        print("| the 25 × 52 MB burst answered | " + ", ".join(f"{n} × {s}" for s, n in sorted(soak.burst_statuses.items(), key=str)) + " |")
        print(f"| errors (an answer not expected for its kind, or no answer) | {len(soak.errors)} |")
        print(f"| server log lines at error level | {len(server_errors)} |")
        print(f"| RSS at start, after the warm-up (median of 20–45 %), over the last 20 % (median), at the end, highest | "
              f"{start_rss:.0f} MB, {sorted(warm)[len(warm) // 2] if warm else 0:.0f} MB, "
              f"{sorted(late)[len(late) // 2] if late else 0:.0f} MB, {end_rss:.0f} MB, {max(r for _, r in samples):.0f} MB |")
        for kind, status, body in soak.errors[:20]:
            print(f"error: {kind} answered {status}: {body!r}", file=sys.stderr)
        sys.exit(1 if soak.errors or server_errors else 0)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
