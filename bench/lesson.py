"""A lesson of TEAMS teams on one market for DURATION seconds, as a bootcamp class runs it, and what the market
kept of it. Each team's app behaves as the reference apps do (lists with endless scrolling and each card's
thumbnail, details with their pictures, registers with photos, edits, delete secrets and deletes), with the
learners' mistakes (camelCase keys, page_no=0, a wrong secret now and then; one team guessing secrets), through
each of the URL shapes real apps build: half the teams at their team address, half at their team port. Each team
has a live inspector that follows its requests and reconnects now and then with Last-Event-ID; the teacher's
projector and console are read as a projector and a teacher do; the class and a few teams rehearse latency,
failures and broken answers for a while.

STORE=sqlite runs one server on a data folder. STORE=postgres runs two servers on one PostgreSQL database behind
deploy/nginx: every request goes through nginx to either server, and each team's follower listens on one server
(team ports are the servers' own, so every team uses its team address there). ADDRESSES=many gives each team's
app an address of its own (a loopback source address), ADDRESSES=one sends every team from one, as a class
behind one NAT.

At the end it counts, per team: requests sent, requests its inspector kept (and said it could not keep), live
events received (each once, in order), and the board's count; 5xx and 429 outside rehearsals; the p50 and p99 of
the apps' requests outside rehearsals; the servers' memory every 10 s and their CPU per request. Prints one
Markdown row for BENCHMARKS.md and keeps the details in bench/results/."""

import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
from photos import camera_jpegs  # noqa: E402  (photos as phones take them)
from soak import multipart  # noqa: E402  (a register's body, as bench/soak sends it)

BINARY = os.environ.get("OPENMARKET_BINARY", os.path.join(ROOT, ".build", "release", "openmarket"))
TEAMS = int(os.environ.get("TEAMS", "40"))
DURATION = int(os.environ.get("DURATION", "600"))
STORE = os.environ.get("STORE", "sqlite")
ADDRESSES = os.environ.get("ADDRESSES", "many")
PORT = int(os.environ.get("PORT", "8300"))
KEPT = 300
ONE_ADDRESS = "127.0.0.1"
# The apps' requests that present a right secret: bcrypt checks it once, then the market recognises it.
RIGHT_SECRETS = {"edit", "delete secret", "delete"}


def free_port_range(count):
    return PORT + 10, PORT + 10 + count - 1


class Server:
    """One `openmarket serve` process, started as deploy/systemd starts it, its log drained into memory."""

    def __init__(self, arguments, port):
        self.port = port
        self.log = []
        self.process = subprocess.Popen([BINARY, "serve", "--port", str(port), *arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            self.log.append(line)
            if "Open Market is open at" in line:
                break
        else:
            raise RuntimeError("the market did not start:\n" + "".join(self.log))
        threading.Thread(target=lambda: [self.log.append(line) for line in self.process.stdout], daemon=True).start()

    def status(self, field):
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(next(line for line in status if line.startswith(field)).split()[1])

    def rss_mb(self):
        """The resident size, and the server's own part of it (what is not SQLite's file mapped in)."""
        return self.status("VmRSS:") / 1024, self.status("RssAnon:") / 1024

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)


class Connection:
    """A keep-alive connection from one source address, reopened once if the server closed it while idle."""

    def __init__(self, port, address):
        self.port, self.address = port, address
        self.http = None

    def send(self, method, path, body=None, headers=None):
        for attempt in range(2):
            try:
                if self.http is None:
                    self.http = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                                           source_address=(self.address, 0))
                self.http.request(method, path, body=body, headers=headers or {})
                answer = self.http.getresponse()
                return answer.status, answer.read(), answer.getheaders()
            except (http.client.HTTPException, ConnectionError, TimeoutError) as error:
                self.http.close()
                self.http = None
                if attempt == 1:
                    return None, str(error).encode(), []


class Windows:
    """When rehearsals were on, for whom: a request sent while its team (or every team) rehearsed, or within the
    second the market takes to follow, is the rehearsal's, not the market's."""

    def __init__(self):
        self.lock = threading.Lock()
        self.spans = []  # (team or None for every team, start, end)

    def add(self, team, start, end):
        with self.lock:
            self.spans.append((team, start - 1.5, end + 1.5))

    def rehearsed(self, team, at):
        with self.lock:
            return any((who is None or who == team) and start <= at <= end for who, start, end in self.spans)


class Team:
    """One team: its vendor, how its app reaches the market, and what its app and its live inspector saw."""

    def __init__(self, number, vendor_id, identifier, secret, address, base, port):
        self.number, self.vendor_id, self.identifier, self.secret = number, vendor_id, identifier, secret
        self.address, self.base, self.port = address, base, port
        self.lock = threading.Lock()
        self.sent = 0
        self.answers = []  # (sent at, seconds, status, what)
        self.events = []  # record ids, as they arrived
        self.reconnects = 0
        self.owned = []
        self.guesses = 0
        self.following = threading.Event()

    def path(self, rest):
        return self.base + rest


class Lesson:
    def __init__(self, entry_port, follow_ports, teams, pictures, windows, deadline):
        self.entry_port, self.follow_ports, self.teams = entry_port, follow_ports, teams
        self.pictures, self.windows, self.deadline = pictures, windows, deadline

    # An app, as the reference apps behave: a user scrolls, opens products, sells and changes their mind.
    def app(self, team):
        rng = random.Random(team.number)
        client = Connection(team.port, team.address)
        auth = {"identifier": team.identifier}
        camel = team.number % 3 == 0
        guesser = team.number == 1

        def send(what, method, rest, body=None, headers=None):
            began = time.monotonic()
            status, answer, _ = client.send(method, team.path(rest), body, headers)
            with team.lock:
                team.sent += 1
                team.answers.append((began, time.monotonic() - began, status, what))
            return status, answer

        def pictures_of(items, count):
            for item in items[:count]:
                url = item.get("thumbnail") or ""
                if "/images/" in url:
                    send("picture", "GET", "/images/" + url.rsplit("/images/", 1)[1])

        def pause(low, high):
            time.sleep(rng.uniform(low, high))

        send("health", "GET", "/healthChecker")
        while time.monotonic() < self.deadline:
            status, body = send("list", "GET", "/api/products?page_no=1&items_per_page=20")
            items = json.loads(body).get("pages", []) if status == 200 else []
            pictures_of(items, 10)
            pause(1, 3)
            for page in (2, 3):
                if rng.random() < 0.6:
                    status, body = send("list", "GET", f"/api/products?page_no={page}&items_per_page=20")
                    pictures_of(json.loads(body).get("pages", []) if status == 200 else [], 8)
                    pause(1, 3)
            if items:
                product = rng.choice(items)
                status, body = send("detail", "GET", f"/api/products/{product['id']}")
                if status == 200:
                    for image in json.loads(body).get("images", [])[:3]:
                        send("picture", "GET", "/images/" + image["url"].rsplit("/images/", 1)[1])
                pause(2, 5)
            if rng.random() < 0.25:
                params = {"name": f"팀 {team.number} 상품 {uuid.uuid4().hex[:6]}", "description": "수업에서 등록",
                          "price": 12000, "currency": "KRW", "stock": 3, "secret": team.secret}
                if camel:
                    params["discountedPrice"] = 1000
                body, kind = multipart(params, rng.sample(self.pictures, rng.randint(1, 2)), "jpeg")
                status, answer = send("register", "POST", "/api/products", body, {**auth, "Content-Type": kind})
                if status == 201:
                    team.owned.append(json.loads(answer)["id"])
                pause(2, 4)
            if team.owned and rng.random() < 0.5:
                key = "discountedPrice" if camel else "discounted_price"
                edit = {"price": rng.randint(10000, 20000), key: 500, "secret": team.secret}
                send("edit", "PATCH", f"/api/products/{team.owned[-1]}", json.dumps(edit),
                     {**auth, "Content-Type": "application/json"})
                pause(1, 3)
            if len(team.owned) > 2 and rng.random() < 0.5:
                product = team.owned.pop(0)
                status, secret = send("delete secret", "POST", f"/api/products/{product}/secret",
                                      json.dumps({"secret": team.secret}), {**auth, "Content-Type": "application/json"})
                if status == 200:
                    send("delete", "DELETE", f"/api/products/{product}/{secret.decode()}", None, auth)
                pause(1, 3)
            if rng.random() < 0.05:
                send("mistake", "GET", "/api/products?page_no=0&items_per_page=20")
            if guesser or rng.random() < 0.04:
                # A wrong secret: now and then for any team, every round for the one guessing.
                for _ in range(3 if guesser else 1):
                    team.guesses += 1
                    send("wrong secret", "PATCH", f"/api/products/{team.owned[-1] if team.owned else 1}",
                         json.dumps({"price": 1, "secret": f"guess-{rng.randint(0, 10**6)}"}),
                         {**auth, "Content-Type": "application/json"})
            pause(3, 8)

    # A live inspector: the learner's inspector page, signed in once, following the team's requests and reloading
    # now and then with the last id it saw, as EventSource does.
    def follower(self, team, port):
        browser = Browser(port, team.address)
        browser.get("/sign-in")
        browser.post("/sign-in", {"identifier": team.identifier, "secret": team.secret, "next": "/inspector"})
        last = None
        while time.monotonic() < self.deadline + 20:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(team.address, 0))
            headers = dict(browser.headers(), Accept="text/event-stream")
            if last is not None:
                headers["Last-Event-ID"] = str(last)
            try:
                connection.request("GET", "/inspector/live", headers=headers)
                answer = connection.getresponse()
                if answer.status != 200:
                    time.sleep(1)
                    continue
                until = time.monotonic() + random.uniform(60, 180)
                current = None
                while time.monotonic() < until and time.monotonic() < self.deadline + 20:
                    line = answer.fp.readline()
                    if not line:
                        break
                    line = line.decode().rstrip("\n")
                    if line.startswith("retry:"):
                        team.following.set()
                    elif line.startswith("id: "):
                        current = int(line[4:])
                    elif line == "" and current is not None:
                        with team.lock:
                            team.events.append(current)
                        last, current = current, None
            except (OSError, http.client.HTTPException):
                time.sleep(0.5)
            finally:
                connection.close()
            team.reconnects += 1


def run(command, *arguments, store):
    output = subprocess.run([BINARY, *command, *store, *arguments], capture_output=True, text=True, check=True)
    return output.stdout


def main():
    work = tempfile.mkdtemp(prefix="openmarket-lesson-")
    os.chmod(work, 0o755)  # nginx's workers (not root) write request bodies into their folder inside
    servers, nginx, cluster = [], None, None
    first_team_port, last_team_port = free_port_range(TEAMS + 3)
    try:
        if STORE == "postgres":
            cluster = os.path.join(work, "postgres")
            url = subprocess.run([os.path.join(ROOT, "scripts", "postgres"), "start", cluster], capture_output=True,
                                 text=True, check=True).stdout.strip()
            store = ["--database", url]
            servers.append(Server([*store, "--demo"], PORT + 1))
            servers.append(Server([*store], PORT + 2))
            nginx = start_nginx(work, PORT, [PORT + 1, PORT + 2])
            entry, follow_ports = PORT, [PORT + 1, PORT + 2]
        else:
            store = ["--data-dir", os.path.join(work, "data")]
            servers.append(Server([*store, "--demo",
                                   "--team-ports", f"{first_team_port}-{last_team_port}"], PORT))
            entry, follow_ports = PORT, [PORT]

        teams = []
        for number in range(TEAMS):
            added = run(["vendors", "add"], "--name", f"team {number + 1}", store=store)
            fields = dict(re.findall(r"^([a-z_ ]+):\s+(\S+)$", added, re.MULTILINE))
            vendor_id = int(fields["vendor_id"])
            address = ONE_ADDRESS if ADDRESSES == "one" else f"127.1.{number // 200}.{number % 200 + 1}"
            shape = number % 4
            if STORE == "sqlite" and number % 2:
                base, port = "", int(fields["own port"].rsplit(":", 1)[1])  # its apps drop the path
            else:
                base, port = f"/teams/{vendor_id}" + ("/" if shape == 1 else ""), entry
            teams.append(Team(number, vendor_id, fields["identifier"], fields["secret"], address, base, port))
        teacher = Teacher(entry, store)
        # The sizes the apps of 2021-2022 resize phone photos to, as JPEGs of a camera's grain.
        pictures = camera_jpegs(2016, 1512, 4) + camera_jpegs(1200, 900, 4)
        windows = Windows()
        began = time.monotonic()
        lesson = Lesson(entry, follow_ports, teams, pictures, windows, began + DURATION)

        followers = [threading.Thread(target=lesson.follower, args=(team, follow_ports[team.number % len(follow_ports)]),
                                      daemon=True) for team in teams]
        for follower in followers:
            follower.start()
        for team in teams:
            team.following.wait(timeout=30)
        cpu_start = sum(server.cpu_seconds() for server in servers)
        apps = [threading.Thread(target=lesson.app, args=(team,)) for team in teams]
        for app in apps:
            app.start()
        samples = []
        rehearsals = Rehearsals(teacher, teams, windows, began)
        while any(app.is_alive() for app in apps):
            now = time.monotonic() - began
            if not samples or now - samples[-1][0] >= 9.9:
                samples.append((now, [server.rss_mb() for server in servers]))
            rehearsals.step(now)
            teacher.look()
            time.sleep(max(0.5, 5 - (time.monotonic() - began - now)))
        rehearsals.end()
        cpu = sum(server.cpu_seconds() for server in servers) - cpu_start
        samples.append((time.monotonic() - began, [server.rss_mb() for server in servers]))
        # Requests are kept just after their answers and followers hear within a second: let them finish.
        time.sleep(8)
        report(teams, teacher, windows, samples, cpu, servers, work, records_kept(work, store))
    finally:
        for server in servers:
            server.stop()
        if nginx:
            nginx.terminate()
            nginx.wait()
        if cluster:
            subprocess.run([os.path.join(ROOT, "scripts", "postgres"), "stop", cluster], check=False)
        shutil.rmtree(work, ignore_errors=True)


def records_kept(work, store):
    """How many requests the inspectors keep, their bytes, and the store's size on disk."""
    if STORE == "postgres":
        query = ("SELECT count(*), coalesce(sum(length(detail)), 0), pg_total_relation_size('request_record'), "
                 "pg_database_size(current_database()) FROM request_record")
        line = subprocess.run(["psql", "-At", "-F", " ", store[1], "-c", query], capture_output=True, text=True).stdout
        count, detail, table, total = (int(field) for field in line.split())
        return count, detail, table, total
    database = os.path.join(store[1], "market.sqlite")
    line = subprocess.run(["sqlite3", database, "SELECT count(*), coalesce(sum(length(detail)), 0) FROM requestRecord"],
                          capture_output=True, text=True).stdout.strip()
    count, detail = (int(field) for field in line.split("|"))
    size = sum(os.path.getsize(os.path.join(store[1], name)) for name in os.listdir(store[1])
               if name.startswith("market.sqlite"))
    return count, detail, None, size


def start_nginx(work, listen, ports):
    """deploy/nginx/openmarket.conf in front of `ports`, on 127.0.0.1:`listen`."""
    folder = os.path.join(work, "nginx")
    os.makedirs(folder)
    with open(os.path.join(ROOT, "deploy", "nginx", "openmarket.conf")) as source:
        conf = source.read()
    upstreams = "".join(f"\n    server 127.0.0.1:{port};" for port in ports)
    conf = re.sub(r"^    server 127\.0\.0\.1:\d+ .*\n", "", conf, flags=re.MULTILINE)
    conf = conf.replace("upstream openmarket {", "upstream openmarket {" + upstreams)
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    conf = conf.replace("/var/cache/nginx/openmarket", os.path.join(folder, "cache"))
    with open(os.path.join(folder, "openmarket.conf"), "w") as out:
        out.write(conf)
    shutil.copytree(os.path.join(ROOT, "deploy", "nginx", "snippets"), os.path.join(folder, "snippets"))
    with open(os.path.join(folder, "nginx.conf"), "w") as out:
        out.write(f"""daemon off;
worker_processes auto;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    include {folder}/openmarket.conf;
}}
""")
    process = subprocess.Popen(["/usr/sbin/nginx", "-p", folder, "-c", os.path.join(folder, "nginx.conf")])
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", listen, timeout=2).request("GET", "/healthChecker")
            return process
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("nginx did not start")


class Browser:
    """A browser reduced to its cookies, on one connection from one address."""

    def __init__(self, port, address):
        self.connection = Connection(port, address)
        self.cookies = {}
        self.slowest = 0

    def headers(self):
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "Accept": "text/html"}

    def keep(self, headers):
        for name, value in headers:
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0].split("=", 1)
                self.cookies[pair[0]] = pair[1] if len(pair) > 1 else ""

    def get(self, path):
        began = time.monotonic()
        status, body, headers = self.connection.send("GET", path, None, self.headers())
        self.slowest = max(self.slowest, time.monotonic() - began)
        self.keep(headers)
        return status, body

    def post(self, path, fields):
        fields = dict(fields, form_token=self.cookies.get("market_form_token", ""))
        body = "&".join(f"{k}={urllib_quote(v)}" for k, v in fields.items())
        status, answer, headers = self.connection.send(
            "POST", path, body, dict(self.headers(), **{"Content-Type": "application/x-www-form-urlencoded"}))
        self.keep(headers)
        return status


class Teacher(Browser):
    """The teacher's browser: signed in to the console, the projector read every 5 s as its page does."""

    def __init__(self, port, store):
        super().__init__(port, ONE_ADDRESS)
        name = f"teacher-{uuid.uuid4().hex[:6]}"
        secret = re.search(r"secret:\s+(\S+)", run(["operators", "add"], "--name", name, store=store)).group(1)
        self.looks = 0
        self.get("/operator")
        self.post("/operator/sign-in", {"name": name, "secret": secret})

    def look(self):
        """The projector reads itself every 5 s; the teacher opens the board and the console now and then."""
        self.get("/operator/board?view=projector")
        self.looks += 1
        if self.looks % 12 == 0:
            self.get("/operator/board")
            self.get("/operator")

    def board(self):
        status, body = self.get("/operator/board.json")
        if status != 200:
            raise RuntimeError(f"the board's JSON answered {status}: {body[:200]}")
        return {team["vendor_id"]: team for team in json.loads(body)["teams"]}


def urllib_quote(text):
    from urllib.parse import quote
    return quote(str(text), safe="")


class Rehearsals:
    """The class's rehearsal (from the console) and a few teams' own (from their inspector's JSON twin), each
    switched on and off once during the lesson."""

    def __init__(self, teacher, teams, windows, began):
        self.teacher, self.teams, self.windows, self.began = teacher, teams, windows, began
        own = {"fail_percent": 20, "status": 503, "seed": 5}
        slow = {"latency_ms": 500, "jitter_ms": 200}
        self.plan = [
            (0.20, 0.40, teams[2:5], own), (0.60, 0.75, teams[5:7], slow), (0.35, 0.50, None, None),
        ]
        self.on = {}

    def step(self, now):
        for index, (start, end, who, settings) in enumerate(self.plan):
            at = now / DURATION
            if start <= at < end and index not in self.on:
                self.on[index] = time.monotonic()
                self.switch(who, settings, True)
            elif at >= end and index in self.on and self.on[index] is not None:
                self.switch(who, settings, False)
                for team in who or [None]:
                    self.windows.add(team.number if team else None, self.on[index], time.monotonic())
                self.on[index] = None

    def end(self):
        self.step(DURATION * 2)

    def switch(self, who, settings, on):
        if who is None:
            fields = {"latency": "300", "broken": "10", "broken_number_as_text": "1"} if on else {"clear": "1"}
            self.teacher.post("/operator/rehearsal", fields)
            return
        for team in who:
            connection = Connection(team.port, team.address)
            headers = {"identifier": team.identifier, "secret": team.secret, "Content-Type": "application/json"}
            connection.send("PUT" if on else "DELETE", "/inspector/faults", json.dumps(settings) if on else None,
                            headers)


def report(teams, teacher, windows, samples, cpu, servers, work, kept_records):
    board = teacher.board()
    rows, problems = [], []
    latencies, total, five_hundreds, throttled = [], 0, 0, 0
    reads, right, wrong, registers = [], [], [], []
    for team in teams:
        connection = Connection(team.port, team.address)
        status, body, _ = connection.send("GET", "/inspector/requests?limit=300",
                                          None, {"identifier": team.identifier, "secret": team.secret})
        card = board.get(team.vendor_id, {})
        # The team guessing secrets waits for its inspector's JSON too: its board card says what was kept.
        kept = len(json.loads(body)["requests"]) if status == 200 else card.get("requests", 0)
        not_kept = json.loads(body).get("not_kept", 0) if status == 200 else None
        events = team.events
        unique = len(set(events))
        in_order = all(a < b for a, b in zip(events, events[1:]))
        expected_kept = min(team.sent, KEPT)
        total += team.sent
        for began, seconds, status, what in team.answers:
            rehearsed = windows.rehearsed(team.number, began)
            if status is not None and status >= 500 and not rehearsed:
                five_hundreds += 1
                problems.append(f"team {team.number + 1}: {status} for {what} outside rehearsals")
            if status == 429 and team.number != 1:
                throttled += 1
                problems.append(f"team {team.number + 1}: 429 for {what}")
            if status is None:
                problems.append(f"team {team.number + 1}: no answer for {what}")
            if not rehearsed and team.number not in (2, 3, 4, 5, 6):
                if what == "register":
                    registers.append(seconds)
                    continue
                latencies.append(seconds)
                (right if what in RIGHT_SECRETS else wrong if what == "wrong secret" else reads).append(seconds)
        ok = kept == expected_kept and unique == team.sent and len(events) == unique and in_order \
            and card.get("requests") == expected_kept
        if not ok:
            problems.append(f"team {team.number + 1}: sent {team.sent}, kept {kept}, not kept {not_kept}, "
                            f"events {len(events)} ({unique} unique, {'in order' if in_order else 'OUT OF ORDER'}), "
                            f"board {card.get('requests')}")
        rows.append((team, kept, not_kept, len(events), unique, in_order, card.get("requests")))
    def percentile(share, among=None):
        among = sorted(latencies if among is None else among)
        return among[min(len(among) - 1, int(share * len(among)))] * 1000 if among else 0

    def rss_at(seconds):
        near = min(samples, key=lambda sample: abs(sample[0] - seconds))
        return near[1]

    results = os.path.join(ROOT, "bench", "results", "lesson-" + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "rss.tsv"), "w") as out:
        out.write("seconds\t" + "\t".join(f"server {i + 1} RSS\tserver {i + 1} RssAnon" for i in range(len(servers)))
                  + "\n")
        out.writelines(f"{t:.0f}\t" + "\t".join(f"{rss:.1f}\t{anon:.1f}" for rss, anon in rss_list) + "\n"
                       for t, rss_list in samples)
    with open(os.path.join(results, "teams.tsv"), "w") as out:
        out.write("team\tvendor_id\taddress\tbase\tport\tsent\tkept\tnot kept\tevents\tunique\tin order\tboard\t"
                  "reconnects\tguesses\n")
        for team, kept, not_kept, events, unique, in_order, card in rows:
            out.write(f"{team.number + 1}\t{team.vendor_id}\t{team.address}\t{team.base or '(own port)'}\t{team.port}\t"
                      f"{team.sent}\t{kept}\t{not_kept}\t{events}\t{unique}\t{in_order}\t{card}\t{team.reconnects}\t"
                      f"{team.guesses}\n")
    began_all = min(answer[0] for team in teams for answer in team.answers)
    with open(os.path.join(results, "answers.tsv"), "w") as out:
        out.write("team\tsent at (s)\tms\tstatus\twhat\trehearsed\n")
        out.writelines(f"{team.number + 1}\t{began - began_all:.3f}\t{seconds * 1000:.1f}\t{status}\t{what}\t"
                       f"{windows.rehearsed(team.number, began)}\n"
                       for team in teams for began, seconds, status, what in team.answers)
    with open(os.path.join(results, "problems.txt"), "w") as out:
        out.writelines(line + "\n" for line in problems)
    for index, server in enumerate(servers):
        with open(os.path.join(results, f"server-{index + 1}.log"), "w") as out:
            out.writelines(server.log)

    every_match = sum(1 for team, kept, _, events, unique, in_order, card in rows
                      if kept == min(team.sent, KEPT) and unique == team.sent == events and in_order
                      and card == min(team.sent, KEPT))
    middle, end = rss_at(DURATION / 2), rss_at(DURATION)
    peak = [max(sample[1][index][0] for sample in samples) for index in range(len(servers))]

    def memory(index):
        start, half, last = samples[0][1][index][0], middle[index][0], end[index][0]
        own_half, own_last = middle[index][1], end[index][1]
        return (f"{start:.0f} / {half:.0f} / {last:.0f} / {peak[index]:.0f} MB ({(last - half) / half * 100:+.0f} % "
                f"in the second half; own {own_last:.0f} MB, {(own_last - own_half) / own_half * 100:+.0f} %)")
    label = f"{'SQLite, 1 server' if STORE == 'sqlite' else 'PostgreSQL, 2 servers behind nginx'}, " \
            f"{'an address a team' if ADDRESSES == 'many' else 'one address'}"
    if os.environ.get("HEADER", "1") == "1":
        print("| run | teams, minutes | requests sent | sent = kept (≤ 300) = live events = board, every team | "
          "5xx outside rehearsals | 429 to teams not guessing | p50 / p99 outside rehearsals | "
              "RSS at start / half / end / peak | CPU an app's request |")
        print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {label} | {TEAMS}, {DURATION / 60:.0f} | {total} ({total / DURATION:.0f}/s) | "
          f"{every_match} of {TEAMS} | {five_hundreds} | {throttled} | "
          f"{percentile(0.5):.1f} / {percentile(0.99):.1f} ms | "
          + " · ".join(memory(i) for i in range(len(servers)))
          + f" | {cpu / max(total, 1) * 1e6:.0f} µs |")
    count, detail, _, size = kept_records
    print(f"\nDetails in {os.path.relpath(results, ROOT)}: {len(problems)} problems listed; the projector's slowest "
          f"reading took {teacher.slowest * 1000:.0f} ms. The inspectors kept {count} requests, "
          f"{detail / 1e6:.1f} MB of records ({detail / max(count, 1) / 1024:.1f} KB each); the store took "
          f"{size / 1e6:.0f} MB on disk. Reads (lists, details, pictures): p50 {percentile(0.5, reads):.1f}, p99 "
          f"{percentile(0.99, reads):.1f} ms; requests with a right secret ({len(right)}): p50 "
          f"{percentile(0.5, right):.1f}, p99 {percentile(0.99, right):.1f} ms; wrong secrets ({len(wrong)}, bcrypt "
          f"every time): p50 {percentile(0.5, wrong):.1f}, p99 {percentile(0.99, wrong):.1f} ms; registers with phone "
          f"photos ({len(registers)}, not in the table's p99): p50 {percentile(0.5, registers):.1f}, p99 "
          f"{percentile(0.99, registers):.1f} ms.")
    return not problems


if __name__ == "__main__":
    main()
