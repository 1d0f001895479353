#!/usr/bin/env python3
"""The figures of issue 22 ("doors that hold under attack") against one
burraco-td binary, so that the same command measures the code before and
after a change (run by .ci/doors-figures; standard library only).

Each part starts fresh servers on a fresh database (SQLite, or PostgreSQL
with DOORS_DB=postgres and two instances on it with INSTANCES=2) and prints
one line per figure:

- bursts of concurrent wrong passwords for one account from one address,
  and of wrong pair codes at one table from one address: how many were
  checked (401 / 403) and how many refused (429) or turned away (503);
  then whether the owner, from another address, still logs in;
- 300 concurrent logins with unknown names from 300 addresses (the server
  trusts X-Forwarded-For): the server's peak RSS (VmHWM), its RSS 5 s
  after, the slowest /healthz answer during the burst;
- 200 request bodies sent one byte every 2 s: how many the server cut
  within WINDOW seconds and when, what it answered, and the slowest
  /healthz answer meanwhile (asked from another loopback address);
- log bytes per request at the default level (RUST_LOG unset): public
  reads (standings, pair card, static file, health check, JSON standings)
  and failed logins;
- issue 32's holes (PARTS=holes): ten concurrent 40 MiB bodies from a
  referee's session to the administrator's import (the server's peak RSS),
  twenty concurrent correct logins of one account from one address (how
  many get in), twenty concurrent `nextRound` calls without a round and
  with a force reason (how many rounds they draw).
"""

import collections
import http.client
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BIN = os.environ["BTD_BIN"]
DB = os.environ.get("DOORS_DB", "sqlite")
INSTANCES = int(os.environ.get("INSTANCES", "1"))
WINDOW = float(os.environ.get("WINDOW", "45"))
PARTS = os.environ.get("PARTS", "bursts,memory,slow,logs").split(",")
PASSWORD = "a long password 42"

work = tempfile.mkdtemp(prefix="doors-figures.")
children = []
pg_dbs = []


def pg_server():
    return subprocess.run(
        ["bash", ".ci/postgres"], capture_output=True, text=True, check=True
    ).stdout.strip()


def fresh_db(name):
    if DB == "sqlite":
        return os.path.join(work, f"{name}.db")
    server = pg_server()
    db = f"doors_{name}_{os.getpid()}"
    subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {db}"], check=True)
    pg_dbs.append((server, db))
    base = server.split("?")[0].rsplit("/", 1)[0]
    return f"{base}/{db}?sslmode=disable"


def cli(db_url, *args, stdin=None):
    env = dict(os.environ, DATABASE_URL=db_url, RUST_LOG="error")
    out = subprocess.run(
        [BIN, *args], input=stdin, capture_output=True, text=True, env=env
    )
    if out.returncode != 0:
        raise RuntimeError(f"{args}: {out.stderr}")
    return out.stdout


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    def __init__(self, db_url, log, env=None):
        self.db_url = db_url
        self.port = free_port()
        e = dict(os.environ, DATABASE_URL=db_url, BIND=f"127.0.0.1:{self.port}")
        e.pop("RUST_LOG", None)
        e.update(env or {})
        self.log = log
        self.proc = subprocess.Popen(
            [BIN, "serve"],
            env=e,
            stdin=subprocess.DEVNULL,
            stdout=open(log, "ab"),
            stderr=subprocess.STDOUT,
        )
        children.append(self.proc)
        for _ in range(200):
            try:
                if get(self.port, "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start: " + open(log).read()[-2000:])

    def status(self, field):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # MiB
        return 0.0

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def conn(port, source="127.0.0.1", timeout=60):
    return http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0)
    )


def request(port, method, path, body=None, headers=None, source="127.0.0.1", timeout=60):
    c = conn(port, source, timeout)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        return r.status, r.getheaders(), r.read()
    finally:
        c.close()


def get(port, path, source="127.0.0.1", headers=None):
    return request(port, "GET", path, headers=headers, source=source, timeout=10)


def login_form(port, source="127.0.0.1"):
    """The anonymous cookie and the CSRF token of the login form."""
    status, headers, body = get(port, "/login", source)
    cookies = [v.split(";")[0] for k, v in headers if k.lower() == "set-cookie"]
    token = re.search(rb'name="csrf_token" value="([^"]+)"', body).group(1).decode()
    return "; ".join(cookies), token


def login(port, cookie, token, user, password, source="127.0.0.1", xff=None):
    from urllib.parse import urlencode

    body = urlencode({"username": user, "password": password, "csrf_token": token})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    if xff:
        headers["X-Forwarded-For"] = xff
    try:
        return request(port, "POST", "/login", body, headers, source)[0]
    except OSError:
        return 0


def all_at_once(jobs):
    """Runs the callables together (threads behind one barrier)."""
    barrier = threading.Barrier(len(jobs))
    out = [None] * len(jobs)

    def run(i, job):
        barrier.wait()
        out[i] = job()

    threads = [threading.Thread(target=run, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def tally(statuses):
    c = collections.Counter(statuses)
    return " ".join(f"{k if k else 'err'}×{v}" for k, v in sorted(c.items(), key=lambda kv: str(kv[0])))


def seeded(name, env=None, instances=1, planned_rounds=None):
    """A fresh database with an administrator, her token and a running
    tournament imported through the API (so that its tables have codes);
    the servers on it and the table codes."""
    db_url = fresh_db(name)
    cli(db_url, "create-user", "--role", "admin", "anna", stdin=PASSWORD + "\n")
    token = cli(db_url, "create-token", "anna", "--name", "figures").strip()
    sample = cli(db_url, "sample-tournament", "--pairs", "16", "--rounds", "3", "--running")
    if planned_rounds:
        # More Mitchell rounds to play (a Danish round never follows an
        # unfinished one, forced or not).
        file = json.loads(sample)
        file["planned_rounds"] = planned_rounds
        file["movements"] = ["mitchell"] * planned_rounds
        sample = json.dumps(file)
    servers = [
        Server(db_url, os.path.join(work, f"{name}-{i}.log"), env) for i in range(instances)
    ]
    status, _, body = request(
        servers[0].port,
        "POST",
        "/api/v1/tournaments/import",
        sample,
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    if status not in (200, 201):
        raise RuntimeError(f"import: {status} {body[:300]}")
    tid = json.loads(body)["id"]
    if DB == "sqlite":
        import sqlite3

        rows = sqlite3.connect(db_url).execute(
            "SELECT code FROM table_codes WHERE tournament_id = ? ORDER BY table_no", (tid,)
        )
        codes = [r[0] for r in rows]
    else:
        out = subprocess.run(
            ["psql", db_url, "-tAc", f"SELECT code FROM table_codes WHERE tournament_id = {tid} ORDER BY table_no"],
            capture_output=True, text=True, check=True,
        ).stdout
        codes = out.split()
    return servers, tid, codes


def bursts():
    servers, _, codes = seeded("bursts", instances=INSTANCES)
    ports = [s.port for s in servers]
    backend = f"{DB}, {len(ports)} instance(s)"
    forms = {p: login_form(p) for p in ports}
    for n, source in ((60, "127.0.0.2"), (1000, "127.0.0.3")):
        jobs = []
        for i in range(n):
            p = ports[i % len(ports)]
            cookie, token = forms[p]
            jobs.append(lambda p=p, c=cookie, t=token, i=i: login(p, c, t, "anna", f"wrong {i:04}", source))
        started = time.monotonic()
        out = all_at_once(jobs)
        print(
            f"login burst: {n} concurrent wrong passwords for one account from {source} "
            f"({backend}): checked (401) {out.count(401)}, refused (429) {out.count(429)}, "
            f"busy (503) {out.count(503)} [{tally(out)}] in {time.monotonic() - started:.1f} s",
            flush=True,
        )
        cookie, token = login_form(ports[-1], "127.0.0.9")
        owner = login(ports[-1], cookie, token, "anna", PASSWORD, "127.0.0.9")
        print(f"  the owner from 127.0.0.9 right after: {owner}", flush=True)
    for n, source in ((100, "127.0.0.4"), (1000, "127.0.0.5")):
        code = codes[0] if n == 100 else codes[1]
        body = lambda i: json.dumps({"pair_code": f"{i:06}", "sheet": {"hands": []}})
        jobs = [
            lambda i=i: request(
                ports[i % len(ports)], "POST", f"/api/v1/score/{code}/sheet", body(i),
                {"Content-Type": "application/json"}, source,
            )[0]
            for i in range(n)
        ]
        out = all_at_once(jobs)
        print(
            f"pair-code burst: {n} concurrent wrong codes at one table from {source} "
            f"({backend}): checked (403) {out.count(403)}, refused (429) {out.count(429)} "
            f"[{tally(out)}]",
            flush=True,
        )
    for s in servers:
        s.stop()


def memory():
    servers, _, _ = seeded("memory", env={"TRUST_FORWARDED_FOR": "true"})
    s = servers[0]
    cookie, token = login_form(s.port)
    time.sleep(1)
    base = s.status("VmRSS")
    stop = threading.Event()
    worst = [0.0, 0]

    def poll():
        while not stop.is_set():
            t = time.monotonic()
            try:
                ok = get(s.port, "/healthz", "127.0.0.2")[0] == 200
            except OSError:
                ok = False
            dt = time.monotonic() - t
            worst[0] = max(worst[0], dt)
            worst[1] += 0 if ok else 1
            time.sleep(0.1)

    poller = threading.Thread(target=poll)
    poller.start()
    jobs = [
        lambda i=i: login(
            s.port, cookie, token, f"nobody{i:04}", "a wrong password", xff=f"10.9.{i // 250}.{i % 250 + 1}"
        )
        for i in range(300)
    ]
    started = time.monotonic()
    out = all_at_once(jobs)
    took = time.monotonic() - started
    time.sleep(0.5)
    stop.set()
    poller.join()
    peak = s.status("VmHWM")
    time.sleep(5)
    after = s.status("VmRSS")
    print(
        f"300 concurrent logins, unknown names, 300 addresses ({DB}): RSS {base:.0f} MiB before, "
        f"peak {peak:.0f} MiB, {after:.0f} MiB 5 s after; /healthz slowest {worst[0]:.2f} s, "
        f"failed {worst[1]}; answers [{tally(out)}] in {took:.1f} s",
        flush=True,
    )
    s.stop()


def slow_bodies():
    servers, _, _ = seeded("slow")
    s = servers[0]
    n = 200
    head = (
        "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n"
    ).encode()
    sel = selectors.DefaultSelector()
    socks = []
    for i in range(n):
        k = socket.create_connection(("127.0.0.1", s.port), source_address=("127.0.0.1", 0))
        k.sendall(head)
        k.setblocking(False)
        sel.register(k, selectors.EVENT_READ, i)
        socks.append(k)
    start = time.monotonic()
    cut = {}
    answer = collections.Counter()
    stop = threading.Event()
    worst = [0.0, 0]

    def poll():
        while not stop.is_set():
            t = time.monotonic()
            try:
                ok = get(s.port, "/healthz", "127.0.0.2")[0] == 200
            except OSError:
                ok = False
            worst[0] = max(worst[0], time.monotonic() - t)
            worst[1] += 0 if ok else 1
            time.sleep(1)

    poller = threading.Thread(target=poll)
    poller.start()
    next_byte = start
    while time.monotonic() - start < WINDOW and len(cut) < n:
        now = time.monotonic()
        if now >= next_byte:
            for i, k in enumerate(socks):
                if i not in cut:
                    try:
                        k.send(b"a")
                    except OSError:
                        cut[i] = now - start
                        answer["reset"] += 1
            next_byte += 2
        for key, _ in sel.select(timeout=0.2):
            i = key.data
            if i in cut:
                continue
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            cut[i] = time.monotonic() - start
            first = data.split(b"\r\n", 1)[0].decode(errors="replace") if data else "closed"
            answer[first] += 1
            sel.unregister(key.fileobj)
    stop.set()
    poller.join()
    for k in socks:
        k.close()
    times = sorted(cut.values())
    if times:
        when = f"median {statistics.median(times):.1f} s, last {times[-1]:.1f} s"
    else:
        when = "none"
    print(
        f"200 slow bodies (1 byte / 2 s, {DB}): cut {len(cut)} of {n} within {WINDOW:.0f} s ({when}); "
        f"answers {dict(answer)}; /healthz slowest {worst[0]:.2f} s, failed {worst[1]}",
        flush=True,
    )
    s.stop()


def logs():
    servers, tid, _ = seeded("logs")
    s = servers[0]
    _, _, page = get(s.port, f"/t/{tid}")
    static = re.search(rb'/static/[^"]+', page).group(0).decode()
    paths = [f"/t/{tid}", f"/t/{tid}/pairs/1", static, "/healthz", f"/api/v1/tournaments/{tid}/standings"]
    n = 2000
    c = conn(s.port)
    time.sleep(0.5)
    before = os.path.getsize(s.log)
    for i in range(n):
        c.request("GET", paths[i % len(paths)])
        c.getresponse().read()
    c.close()
    time.sleep(0.5)
    reads = (os.path.getsize(s.log) - before) / n
    cookie, token = login_form(s.port)
    m = 20
    time.sleep(0.2)
    before = os.path.getsize(s.log)
    for i in range(m):
        login(s.port, cookie, token, "anna", f"wrong {i}", source=f"127.0.1.{i + 1}")
    time.sleep(0.5)
    writes = (os.path.getsize(s.log) - before) / m
    print(
        f"log bytes per request at the default level ({DB}): {reads:.1f} for public reads "
        f"({n} GETs of {', '.join(paths)}), {writes:.1f} for failed logins ({m})",
        flush=True,
    )
    s.stop()


def signed_in(port, user, password):
    """A session cookie and its CSRF token (from the home page's logout form)."""
    cookie, token = login_form(port)
    from urllib.parse import urlencode

    body = urlencode({"username": user, "password": password, "csrf_token": token})
    status, headers, _ = request(
        port, "POST", "/login", body,
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
    )
    if status != 303:
        raise RuntimeError(f"{user} does not sign in: {status}")
    session = [v.split(";")[0] for k, v in headers if k.lower() == "set-cookie"]
    cookie = "; ".join([cookie] + session)
    _, _, page = get(port, "/account", headers={"Cookie": cookie})
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    return cookie, token


def holes():
    servers, tid, _ = seeded("holes", planned_rounds=6)
    s = servers[0]
    db = s.db_url
    cli(db, "create-user", "--role", "referee", "rita", stdin=PASSWORD + "\n")
    cli(db, "create-user", "--role", "director", "desk", stdin=PASSWORD + "\n")
    cookie, token = signed_in(s.port, "rita", PASSWORD)
    time.sleep(1)
    base = s.status("VmRSS")
    # The token inside the body, as a form sends it: whoever checks it
    # reads the body.
    body = f"csrf_token={token}&json=".encode() + b"a" * (40 * 1024 * 1024)

    def post_big():
        try:
            return request(
                s.port, "POST", "/admin/import", body,
                {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
                timeout=120,
            )[0]
        except OSError:
            return 0

    started = time.monotonic()
    out = all_at_once([post_big for _ in range(10)])
    took = time.monotonic() - started
    peak = s.status("VmHWM")
    print(
        f"10 concurrent 40 MiB bodies from a referee to /admin/import ({DB}): RSS {base:.0f} MiB before, "
        f"peak {peak:.0f} MiB; answers [{tally(out)}] in {took:.1f} s",
        flush=True,
    )
    forms = [login_form(s.port) for _ in range(20)]
    out = all_at_once(
        [lambda f=f: login(s.port, f[0], f[1], "desk", PASSWORD) for f in forms]
    )
    print(f"20 concurrent correct logins of one account from one address ({DB}): [{tally(out)}] (303: in)", flush=True)
    admin = cli(db, "create-token", "anna", "--name", "holes").strip()

    def next_round():
        try:
            status, _, answer = request(
                s.port, "POST", f"/api/v1/tournaments/{tid}/rounds",
                json.dumps({"force_reason": "the hall is late"}),
                {"Authorization": f"Bearer {admin}", "Content-Type": "application/json"},
            )
            code = json.loads(answer).get("error", {}).get("code") if status >= 400 else None
            return f"{status} {code}" if code else status
        except OSError:
            return 0

    _, _, before = request(s.port, "GET", f"/api/v1/tournaments/{tid}/export", headers={"Authorization": f"Bearer {admin}"})
    out = all_at_once([next_round for _ in range(20)])
    _, _, after = request(s.port, "GET", f"/api/v1/tournaments/{tid}/export", headers={"Authorization": f"Bearer {admin}"})
    drawn = len(json.loads(after)["rounds"]) - len(json.loads(before)["rounds"])
    print(f"20 concurrent nextRound without a round, forced ({DB}): {drawn} round(s) drawn; answers [{tally(out)}]", flush=True)
    s.stop()


def main():
    print(f"== {BIN} ({DB})", flush=True)
    try:
        if "bursts" in PARTS:
            bursts()
        if "memory" in PARTS:
            memory()
        if "slow" in PARTS:
            slow_bodies()
        if "logs" in PARTS:
            logs()
        if "holes" in PARTS:
            holes()
    finally:
        for p in children:
            if p.poll() is None:
                p.kill()
                p.wait()
        for server, db in pg_dbs:
            subprocess.run(
                ["psql", server, "-qc", f"DROP DATABASE IF EXISTS {db} WITH (FORCE)"],
                capture_output=True,
            )
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
