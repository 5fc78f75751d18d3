#!/usr/bin/env python3
"""Replays the hostile tests at full size against `fano serve` (not a test: a
report for results/serve-hardening.md). Each attack runs
while a prober asks a cheap question every 0.25 s on a fresh connection; it
prints what held: the probes' worst latency, the server's resident memory
(VmRSS, and its peak VmHWM) and each attack's own outcome.

  bench/serve-attacks.py [--fano build/tools/fano] [--seconds 50] [--second | --third]
  bench/serve-attacks.py --third --sections 13,14,15,16,17,18,20   (results/serve-hardening.md)

--seconds is how long the connection attacks (1-3) last (the first test's
runs: 50 s); --seconds 10 is a quicker look. --second runs only the faults of
the second hostile test (9-12: a long header line, a request line without
its version, a long moves=, file descriptors exhausted, a changed table and
--verify-tables, escapes in fano play). --third runs only the faults of the
third (13-20: stats and puzzles under load, a table dropped in under
--verify-tables, one client asking for every reading, signals during a
background solve, address-space limits at start, a failed solve, the
largest reading under --tables-mb 8), with the cheap requests' p50 and p99
(a probe every 0.05 s) and the load beside each attack, on
readings solved into a folder of its own first (--third-reading, and with
--all-tables every reading, for the start's memory under --tables-mb 1)."""
import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import json
import multiprocessing
import resource
import shutil
import struct

ap = argparse.ArgumentParser()
ap.add_argument("--fano", default="build/tools/fano")
ap.add_argument("--seconds", type=float, default=50)
ap.add_argument("--second", action="store_true", help="only the second hostile test's faults (9-12)")
ap.add_argument("--third", action="store_true", help="only the third hostile test's faults (13-18)")
ap.add_argument("--third-reading", default="cap3-board-2c3t", help="the large reading of --third")
ap.add_argument("--all-tables", action="store_true", help="--third: solve all 72 readings for the start's peak")
ap.add_argument("--sections", default="13,14,15,16,17,18,19,20", help="--third: the sections to run")
ap.add_argument("--flood-seconds", type=float, default=20, help="--third: how long section 13's flood lasts")
ap.add_argument("--expensive", type=int, help="--third: the servers' --expensive (default: fano serve's)")
ap.add_argument("--folder", help="--third: the tables folder (default: a new temporary one; tables "
                                 "already there are not solved again)")
args = ap.parse_args()
tables = args.folder or tempfile.mkdtemp(prefix="fano-attacks-")


def start(extra=()):
    if args.expensive:
        extra = (*extra, "--expensive", str(args.expensive))
    p = subprocess.Popen([args.fano, "serve", "--port", "0", "--tables", tables, "--web", "none", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url = p.stdout.readline().decode().strip()
    if not url:
        sys.exit("serve-attacks: the server did not start")
    return p, int(url.rstrip("/").rsplit(":", 1)[1])


def memory(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM"):
                out[k] = int(v.split()[0]) // 1024
    return "RSS %d MB (peak %d MB)" % (out.get("VmRSS", -1), out.get("VmHWM", -1))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def connect(port, timeout=20):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return s


def ask(port, target, timeout=20, extra=b""):
    """One request on a fresh connection: (status or None, seconds, reply bytes)."""
    t0 = time.monotonic()
    try:
        s = connect(port, timeout)
        s.sendall(b"GET " + target.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra + b"\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        return (int(data[9:12]) if data[:5] == b"HTTP/" else None), time.monotonic() - t0, data
    except OSError:
        return None, time.monotonic() - t0, b""


def probe_loop(port, path, stop, out, interval):
    times, failed = [], 0
    while not stop.is_set():
        status, seconds, _ = ask(port, path)
        if status == 200:
            times.append(seconds)
        else:
            failed += 1
        stop.wait(interval)
    out.put((times, failed))


class Prober:
    """A cheap question every `interval` s (0.25 s; --third: 0.05 s, for a
    p99 of a few hundred samples) while an attack runs, from a process of
    its own (the attackers' threads do not delay it)."""
    def __init__(self, port, path="/api/v2/standard?position=-/-/t/C/-/-/-_w", interval=0.25):
        self.stop, self.out = multiprocessing.Event(), multiprocessing.Queue()
        self.process = multiprocessing.Process(target=probe_loop,
                                               args=(port, path, self.stop, self.out, interval))
        self.process.start()

    def samples(self):
        self.stop.set()
        times, failed = self.out.get()
        self.process.join()
        return times, failed

    def report(self):
        return summary(*self.samples())


def summary(times, failed):
    t = sorted(times) or [float("nan")]
    return "probes: %d answered, %d failed, median %.1f ms, p99 %.1f ms, max %.1f ms" % (
        len(times), failed, 1000 * t[len(t) // 2], 1000 * t[min(len(t) - 1, int(len(t) * 0.99))],
        1000 * t[-1])


def load():
    return "load %s" % " ".join(open("/proc/loadavg").read().split()[:3])


class CheapDuring(Prober):
    """The cheap requests' p50 and p99 during one attack of --third, with the
    machine's load beside them."""
    def __init__(self, port, what):
        super().__init__(port, interval=0.05)
        self.what = what

    def report(self):
        return "cheap requests during %s: %s; %s" % (self.what, super().report(), load())


def cheap_report(what, times, failed):
    return "cheap requests during %s: %s; %s" % (what, summary(times, failed), load())


def hold_connections(port, n, seconds, behaviour):
    """n threads each running behaviour(socket) on a connection, reconnecting
    when the server closes it, for `seconds`; returns the reconnections."""
    end = time.monotonic() + seconds
    closed = [0]

    def worker():
        while time.monotonic() < end:
            try:
                s = connect(port)
                behaviour(s, end)
                s.close()
            except OSError:
                pass
            closed[0] += 1
            time.sleep(0.05)
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return closed[0]


def slowloris(interval):
    def behaviour(s, end):
        head = b"GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n" + b"X-a: b\r\n" * 1000
        for i in range(len(head)):
            if time.monotonic() >= end:
                return
            s.sendall(head[i:i + 1])
            s.settimeout(interval)
            try:
                if s.recv(1) == b"":
                    return  # cut off
            except socket.timeout:
                pass
    return behaviour


def idle(s, end):
    s.settimeout(max(0.1, end - time.monotonic()))
    try:
        s.recv(1)
    except OSError:
        pass


def keep_alive(interval):
    def behaviour(s, end):
        while time.monotonic() < end:
            s.sendall(b"GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n\r\n")
            s.settimeout(20)
            if s.recv(65536) == b"":
                return
            time.sleep(interval)
    return behaviour


def section(title):
    print("\n== " + title, flush=True)


def second_test():
    """The faults of the second hostile test, each answered now (sections 9-12)."""
    global server, port
    section("9. one header line of 40 KB; a request line without its version")
    server, port = start()
    status, seconds, data = ask(port, "/api/v2/standard?moves=C4", extra=b"X-Big: " + b"b" * 40960 + b"\r\n")
    print("a 40 KB header line: status %s in %.3f s" % (status, seconds))
    t0 = time.monotonic()
    s = connect(port)
    s.sendall(b"GET / \r\n\r\n")
    data = s.recv(65536)
    s.close()
    print("GET / without a version: status %s in %.3f s (--read-timeout 5 s)" % (data[9:12].decode() or None,
                                                                               time.monotonic() - t0))
    moves = ",".join(["C4"] * 1400)
    status, _, data = ask(port, "/api/v2/standard?moves=" + moves)
    print("a moves= of %d bytes: status %s, %s" % (len(moves), status, data.split(b"\r\n\r\n", 1)[1].decode()))
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)

    section("10. file descriptors exhausted: ulimit -n 256, 400 idle connections, 44 probes")


    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


    server = subprocess.Popen([args.fano, "serve", "--port", "0", "--tables", tables, "--web", "none"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=low_limit)
    port = int(server.stdout.readline().decode().strip().rstrip("/").rsplit(":", 1)[1])
    idle_sockets = [connect(port) for _ in range(400)]
    times, failed = [], 0
    for i in range(44):
        status, seconds, _ = ask(port, "/api/v2/standard?position=-/-/t/C/-/-/-_w")
        (times.append(seconds) if status == 200 else None)
        failed += status != 200
        time.sleep(0.1)
    closed = 0
    for sock in idle_sockets:
        sock.setblocking(False)
        try:
            closed += sock.recv(1) == b""
        except BlockingIOError:
            pass
        sock.close()
    t = sorted(times) or [float("nan")]
    print("probes: %d answered, %d failed, median %.1f ms, max %.1f ms; idle connections closed by the server: %d of 400"
          % (len(times), failed, 1000 * t[len(t) // 2], 1000 * t[-1], closed))
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)

    section("11. a table changed with its checksum computed again; --verify-tables")


    def fnv1a64(data, h=0xcbf29ce484222325):
        for b in data:
            h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
        return h


    changed = tempfile.mkdtemp(prefix="fano-changed-")
    for name in os.listdir(tables):
        shutil.copy(os.path.join(tables, name), changed)
    path = os.path.join(changed, "standard.fanotb")
    raw = bytearray(open(path, "rb").read())
    win, draw = struct.unpack_from("<QxxxxxxxxQ", raw, 56)
    struct.pack_into("<QxxxxxxxxQ", raw, 56, win - 2, draw + 2)  # two positions counted as drawn, not won
    struct.pack_into("<Q", raw, 96, 0)
    struct.pack_into("<Q", raw, 96, fnv1a64(raw))
    open(path, "wb").write(raw)
    q = subprocess.run([args.fano, "query", "--tb", path, "-/-/-/-/-/-/- w"], capture_output=True, text=True)
    print("fano query on it (the reader accepts it): exit %d" % q.returncode)
    for label, folder in (("true tables", tables), ("the changed table", changed)):
        t0 = time.monotonic()
        p = subprocess.Popen([args.fano, "serve", "--port", "0", "--tables", folder, "--web", "none", "--verify-tables"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = p.stdout.readline().strip()
        seconds = time.monotonic() - t0
        if url:
            p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=120)
        print("--verify-tables, %s: %s after %.2f s; exit %d%s" % (
            label, "served" if url else "not served", seconds, p.returncode,
            "; " + err.strip().splitlines()[-1] if not url and err.strip() else ""))
    t0 = time.monotonic()
    p = subprocess.Popen([args.fano, "serve", "--port", "0", "--tables", tables, "--web", "none"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    p.stdout.readline()
    print("without --verify-tables, true tables: served after %.2f s" % (time.monotonic() - t0))
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)

    section("12. fano play: escape sequences and bytes that are not UTF-8 on its input")
    with tempfile.NamedTemporaryFile() as f:
        subprocess.run([args.fano, "solve", "--out", f.name], capture_output=True, check=True)
        out = subprocess.run([args.fano, "play", "--tb", f.name], input=b"C4\xff\xfe\n\x1b]0;pwned\x07\nquit\n",
                             capture_output=True).stdout
    print("raw ESC, BEL or non-UTF-8 bytes in the output: %s; shown as %s" % (
        any(b in out for b in (b"\x1b", b"\x07", b"\xff")),
        [l for l in out.decode().splitlines() if "not played" in l]))


def fano_json(*argv):
    return json.loads(subprocess.run([args.fano, *argv], check=True, capture_output=True).stdout)


def concurrent(port, targets, timeout=120):
    """Each target asked at once on a connection of its own: [(status, seconds, reply)]."""
    results = [None] * len(targets)

    def one(i):
        results[i] = ask(port, targets[i], timeout=timeout)
    ts = [threading.Thread(target=one, args=(i,)) for i in range(len(targets))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return results


def counts(statuses):
    return ", ".join("%s: %d" % (k, statuses.count(k)) for k in sorted(set(statuses), key=str))


def temporaries(folder):
    return [f for f in os.listdir(folder) if ".tmp." in f]


def third_test():
    """The faults of the third hostile test, each answered now (sections 13-18)."""
    print("load before: %s" % open("/proc/loadavg").read().strip())
    big = args.third_reading
    t0 = time.monotonic()
    if not os.path.exists(os.path.join(tables, big + ".fanotb")):
        subprocess.run([args.fano, "solve", "--rules", big, "--tables", tables], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print("%s solved into the folder in %.1f s" % (big, time.monotonic() - t0))

    wanted = {int(x) for x in args.sections.split(",")}
    if 13 in wanted:
        third_13(big)
    if 14 in wanted:
        third_14()
    if 15 in wanted:
        third_15()
    if 16 in wanted:
        third_16(big)
    if 17 in wanted:
        third_17()
    if 18 in wanted:
        third_18()
    if 19 in wanted and args.all_tables:
        third_19()
    if 20 in wanted:
        third_20()
    print("load after: %s" % open("/proc/loadavg").read().strip())


def third_13(big):
    section("13. stats and puzzles: 64 stats and 64 puzzle requests at once on %s, until every answer is "
            "kept (5 servers, each started cold), then %g s of puzzle requests with new seeds (never kept) "
            "and stats" % (big, args.flood_seconds))
    server, port = start()
    time.sleep(1)  # the tables read (the folder's fit the default bound: read at start)
    p = CheapDuring(port, "10 s with no attack (the machine's own latency)")
    time.sleep(10)
    print(p.report())
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    times, failed, cpu = [], 0, 0.0
    for run in range(5):
        server, port = start()
        time.sleep(1)
        cpu0 = cpu_seconds(server.pid)
        p = Prober(port, interval=0.05)
        # Rounds until every request of a round is answered 200 (the table's
        # statistics counted and its puzzles listed, once, in steps), at most 40.
        t_start = time.monotonic()
        for round_ in range(1, 41):
            t0 = time.monotonic()
            stats = concurrent(port, ["/api/v2/%s/stats" % big] * 64)
            puzzles = concurrent(port, ["/api/v2/%s/puzzle?seed=%d&grade=%s" % (big, i, ("easy", "medium", "hard")[i % 3])
                                        for i in range(64)])
            statuses = [r[0] for r in stats + puzzles]
            print("server %d, round %d: stats %s; puzzles %s; %.1f s" % (
                run + 1, round_, counts([r[0] for r in stats]), counts([r[0] for r in puzzles]),
                time.monotonic() - t0))
            if all(st in (200, 404) for st in statuses):
                print("every answer kept after %.1f s" % (time.monotonic() - t_start))
                break
        t, f = p.samples()
        times += t
        failed += f
        cpu += cpu_seconds(server.pid) - cpu0
        if run < 4:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    print("%s; CPU %.1f s in all; %s" % (cheap_report("the first rounds of 5 servers (statistics counted, "
                                                      "puzzles listed)", times, failed), cpu, memory(server.pid)))
    # The flood goes on: 64 puzzles with seeds never asked (each computed
    # in a slot or refused 503) and 64 stats (kept) at once, round after round.
    cpu0 = cpu_seconds(server.pid)
    p = CheapDuring(port, "%g s of the flood" % args.flood_seconds)
    end, seed, statuses = time.monotonic() + args.flood_seconds, 1000, []
    own0 = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    while time.monotonic() < end:
        targets = ["/api/v2/%s/stats" % big] * 64 + [
            "/api/v2/%s/puzzle?seed=%d&grade=%s" % (big, seed + i, ("easy", "medium", "hard")[i % 3])
            for i in range(64)]
        seed += 64
        statuses += [r[0] for r in concurrent(port, targets)]
    print("flood: %d requests: %s; the attacking process's CPU %.1f s" % (
        len(statuses), counts(statuses), sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - own0))
    print("%s; CPU %.1f s; %s" % (p.report(), cpu_seconds(server.pid) - cpu0, memory(server.pid)))
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)


def third_14():
    section("14. a table dropped into the folder after start, under --verify-tables")
    print("a forged table (a class won stored as a draw, its checksum made again) dropped in after start: "
          "404 'fails its check', logged, never served (tests/test_server.cpp, "
          "FanoServe.VerifyTablesChecksATableDroppedInAfterStart; forging needs the C++ encoder)")


def third_15():
    section("15. one client asks for all 72 readings at once (a fresh folder)")
    fresh = tempfile.mkdtemp(prefix="fano-attacks-fresh-")
    server, port = start_in(fresh)
    names = [r["slug"] for r in fano_json("rules", "--json")["readings"]]
    p = CheapDuring(port, "section 15 (its solves)")
    t0 = time.monotonic()
    replies = concurrent(port, ["/api/v2/%s?position=-/-/-/-/-/-/-_w" % n for n in names])
    states = [json.loads(r[2].split(b"\r\n\r\n", 1)[1]).get("progress", {}).get("state", r[0])
              for r in replies]
    print("72 GETs in %.2f s: %s" % (time.monotonic() - t0, counts(states)))
    status, _, data = ask(port, "/api/v2/%s?position=-/-/-/-/-/-/-_w" % names[-1])
    print("the last reading asked again: %s %s" % (status, data.split(b"\r\n\r\n", 1)[1][:160].decode()))
    time.sleep(10)
    print("after 10 s: %s; tables in the folder: %d" % (memory(server.pid), len(os.listdir(fresh))))
    print(p.report())
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    shutil.rmtree(fresh)


def third_16(big):
    section("16. SIGTERM during a background solve of %s (1 solve thread)" % big)
    for signals in (1, 2):
        fresh = tempfile.mkdtemp(prefix="fano-attacks-fresh-")
        server, port = start_in(fresh, ("--solve-threads", "1"))
        while True:
            _, _, data = ask(port, "/api/v2/%s?moves=C4" % big)
            progress = json.loads(data.split(b"\r\n\r\n", 1)[1]).get("progress", {})
            if progress.get("state") == "solving" and progress.get("stage"):
                break
            time.sleep(0.05)
        time.sleep(1)
        t0 = time.monotonic()
        for _ in range(signals):
            server.send_signal(signal.SIGTERM)
            time.sleep(0.2)  # two signals, not one merged pending signal
        code = server.wait(timeout=120)
        print("%d SIGTERM: exit %d after %.2f s (grace 1.5 s); files left: %s" % (
            signals, code, time.monotonic() - t0, sorted(os.listdir(fresh))))
        shutil.rmtree(fresh)


def third_17():
    section("17. started under RLIMIT_AS 200 MB to 1.5 GB (3 runs each), the folder of section 13")
    for mb in (200, 400, 900, 1500):
        outcomes = []
        for _ in range(3):
            t0 = time.monotonic()
            limit = mb << 20
            server = subprocess.Popen([args.fano, "serve", "--port", "0", "--tables", tables, "--web", "none"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
            url = server.stdout.readline().decode().strip()
            listening = time.monotonic() - t0
            if url:
                t1 = time.monotonic()
                server.send_signal(signal.SIGTERM)
                code = server.wait(timeout=60)
                outcomes.append("listening after %.2f s, SIGTERM: exit %d in %.2f s" % (listening, code,
                                                                                     time.monotonic() - t1))
            else:
                code = server.wait(timeout=60)
                err = server.stderr.read().decode().strip().splitlines()
                outcomes.append("exit %d: %s" % (code, err[-1] if err else "(no message)"))
        print("%4d MB: %s" % (mb, "; ".join(outcomes)))


def third_18():
    section("18. a table that cannot be made (a damaged file): 503 and a retry after a back-off")
    fresh = tempfile.mkdtemp(prefix="fano-attacks-fresh-")
    for n in ("standard", "cap2-projective", "cap3-board", "cap3-projective"):  # nothing solved at start
        shutil.copy(os.path.join(tables, n + ".fanotb"), fresh)
    subprocess.run([args.fano, "solve", "--rules", "standard-1c1t", "--tables", fresh], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = os.path.join(fresh, "standard-1c1t.fanotb")
    good = open(path, "rb").read()
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x40
    os.remove(path)
    server, port = start_in(fresh)  # a damaged table at start ends the start: dropped in after
    open(path, "wb").write(bytes(bad))
    for i in range(3):
        status, _, data = ask(port, "/api/v2/standard-1c1t?moves=C4")
        head, body = data.split(b"\r\n\r\n", 1)
        retry = [h for h in head.split(b"\r\n") if h.lower().startswith(b"retry-after")]
        print("ask %d: %s %s; %s" % (i + 1, status, retry[0].decode() if retry else "(no Retry-After)",
                                     json.loads(body).get("progress")))
        time.sleep(0.5)
    open(path, "wb").write(good)
    t0 = time.monotonic()
    while True:
        status, _, _ = ask(port, "/api/v2/standard-1c1t?moves=C4")
        if status == 200 or time.monotonic() - t0 > 60:
            break
        time.sleep(0.5)
    print("the file mended: %s after %.1f s" % (status, time.monotonic() - t0))
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    shutil.rmtree(fresh)


def third_19():
    if True:
        section("19. the start's peak memory under --tables-mb 1 on a folder of all 72 tables")
        names = [r["slug"] for r in fano_json("rules", "--json")["readings"]]
        t0 = time.monotonic()
        for n in names:
            if not os.path.exists(os.path.join(tables, n + ".fanotb")):
                subprocess.run([args.fano, "solve", "--rules", n, "--tables", tables], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print("72 tables solved in %.0f s" % (time.monotonic() - t0))
        for mb in ("1", "0"):
            server = subprocess.Popen(["/usr/bin/time", "-f", "%M", args.fano, "serve", "--port", "0", "--tables",
                                       tables, "--web", "none", "--tables-mb", mb],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            server.stdout.readline()
            time.sleep(3)
            with open("/proc/%d/task/%d/children" % (server.pid, server.pid)) as f:
                child = int(f.read().split()[0])  # the server, timed by /usr/bin/time
            os.kill(child, signal.SIGTERM)
            server.wait(timeout=60)
            peak = server.stderr.read().decode().strip().splitlines()[-1]
            print("--tables-mb %s: peak %d MB at start" % (mb, int(peak) // 1024))


def third_20():
    section("20. the largest reading asked of a server with --tables-mb 8 (its size known from the rules)")
    fresh = tempfile.mkdtemp(prefix="fano-attacks-fresh-")
    for n in ("standard", "cap2-projective", "cap3-board", "cap3-projective"):  # nothing solved at start
        shutil.copy(os.path.join(tables, n + ".fanotb"), fresh)
    server, port = start_in(fresh, ("--tables-mb", "8"))
    cpu0 = cpu_seconds(server.pid)
    status, seconds, data = ask(port, "/api/v2/cap3-board-colour-3c3t?moves=C4")
    print("%s in %.1f ms: %s" % (status, 1000 * seconds, json.loads(data.split(b"\r\n\r\n", 1)[1])["error"]))
    time.sleep(2)
    print("2 s later: server CPU %.2f s since, %s; files in the folder: %s" % (
        cpu_seconds(server.pid) - cpu0, memory(server.pid), sorted(os.listdir(fresh))))
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    shutil.rmtree(fresh)


def start_in(folder, extra=()):
    p = subprocess.Popen([args.fano, "serve", "--port", "0", "--tables", folder, "--web", "none", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url = p.stdout.readline().decode().strip()
    if not url:
        sys.exit("serve-attacks: the server did not start")
    return p, int(url.rstrip("/").rsplit(":", 1)[1])


if args.second:
    second_test()
    sys.exit(0)
if args.third:
    third_test()
    sys.exit(0)

server, port = start()
baseline = memory(server.pid)
print("fano serve pid %d, port %d; baseline %s" % (server.pid, port, baseline))

section("1. slowloris: 64 connections, a header byte every 4 s, %g s" % args.seconds)
p = Prober(port)
cut = hold_connections(port, 64, args.seconds, slowloris(4))
print("%s; connections cut off and reopened: %d; %s" % (p.report(), cut, memory(server.pid)))

section("2. 640 idle connections, %g s" % args.seconds)
p = Prober(port)
cut = hold_connections(port, 640, args.seconds, idle)
print("%s; idle connections closed by the server and reopened: %d; %s" % (p.report(), cut, memory(server.pid)))

section("3. 64 keep-alive connections, a request every 4 s each, %g s" % args.seconds)
p = Prober(port)
hold_connections(port, 64, args.seconds, keep_alive(4))
print("%s; %s" % (p.report(), memory(server.pid)))

section("5. GET / with 2,700 ranges, 16 at once")
ranges = b"Range: bytes=0-" + b",0-" * 2700 + b"\r\n"
results = []
ts = [threading.Thread(target=lambda: results.append(ask(port, "/", extra=ranges))) for _ in range(16)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("statuses %s, largest reply %d bytes; %s" % (sorted(set(r[0] for r in results)), max(len(r[2]) for r in results),
                                                 memory(server.pid)))


def send_until_answer(head, body_chunk, limit):
    """Sends head then body chunks until the server answers or closes:
    (status, bytes sent (most of them still in the kernel's socket buffers), seconds)."""
    t0 = time.monotonic()
    s = connect(port)
    s.sendall(head)
    sent = 0
    s.setblocking(False)
    reply = b""
    while sent < limit and time.monotonic() - t0 < 60:
        try:
            reply += s.recv(65536)
            if reply:
                break
        except BlockingIOError:
            pass
        except OSError:
            break
        try:
            sent += s.send(body_chunk)
        except BlockingIOError:
            time.sleep(0.001)
        except OSError:
            break
    s.setblocking(True)
    s.settimeout(5)
    try:
        reply += s.recv(65536)
    except OSError:
        pass
    s.close()
    status = int(reply[9:12]) if reply[:5] == b"HTTP/" else None
    return status, sent, time.monotonic() - t0


section("6. bodies: a chunked PUT of 1 GiB, a Content-Length of 10^12")
chunk = b"%x\r\n" % 65536 + b"b" * 65536 + b"\r\n"
print("chunked PUT: status %s after %d bytes sent, %.2f s" % send_until_answer(
    b"PUT /api/v2/standard HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", chunk, 1 << 30))
print("Content-Length 10^12: status %s after %d bytes sent, %.2f s" % send_until_answer(
    b"PUT /api/v2/standard HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n", b"b" * 65536, 1 << 40))
print(memory(server.pid))

section("7. one million header lines")
print("status %s after %d bytes sent, %.2f s" % send_until_answer(
    b"GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n", b"X-Flood: y\r\n" * 5000, 12 * 1000000))
print(memory(server.pid))

section("8. pipelining, a request in a GET's body, a half-close")
s = connect(port)
s.sendall(b"GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n\r\n"
          b"GET /api/v2/standard?moves=t3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
data = b""
while True:
    c = s.recv(65536)
    if not c:
        break
    data += c
print("two pipelined GETs: %d answers" % data.count(b"HTTP/1.1 "))
inner = b"GET /api/v2/standard?moves=t3 HTTP/1.1\r\nHost: x\r\n\r\n"
_, _, data = ask(port, "/api/v2/standard?moves=C4", extra=b"Content-Length: %d\r\n\r\n" % len(inner) + inner)
print("a request in a GET's body: %d answer(s), first %s" % (data.count(b"HTTP/1.1 "), data[:12].decode()))
s = connect(port)
s.sendall(b"GET /api/v2/standard?moves=C4 HTTP/1.1\r\nHost: x\r\n\r\n")
s.shutdown(socket.SHUT_WR)
data = s.recv(65536)
print("a request then a half-close: answered %s" % data[:12].decode())


def long_game(variant, plies, seed=1):
    """A game of `plies` moves without a repetition and without an end, walked
    on the server with position= (no history): (moves, text)."""
    rng = random.Random(seed)
    position, moves, seen = "-/-/-/-/-/-/- w", [], set()
    while len(moves) < plies:
        _, _, data = ask(port, "/api/v2/%s?position=%s" % (variant, position.replace(" ", "_")))
        j = json.loads(data.split(b"\r\n\r\n", 1)[1])
        options = [m for m in j["moves"] if m["position"] not in seen]
        rng.shuffle(options)
        for m in options:
            _, _, d = ask(port, "/api/v2/%s?position=%s" % (variant, m["position"].replace(" ", "_")))
            if json.loads(d.split(b"\r\n\r\n", 1)[1])["game_over"] is None:
                break
        else:
            return moves
        seen.add(position)
        moves.append(m["move"])
        position = m["position"]
    return moves


section("expensive requests: 64 clients asking the main line of a long game (104 moves, cap3-projective) "
        "again and again, cheap probes meanwhile")
games = [long_game("cap3-projective", 104, seed) for seed in range(1, 9)]
game = ",".join(games[0])
target = "/api/v2/cap3-projective/mainline?moves=" + game
print("request of %d bytes, %d moves" % (len(target), game.count(",") + 1))
status, seconds, _ = ask(port, target + "&n=alone", timeout=120)
print("one alone: status %s in %.2f s" % (status, seconds))
p = Prober(port)
results = []
end = time.monotonic() + min(args.seconds, 20)


def expensive_client(k):
    n = 0
    while time.monotonic() < end:
        # A history of its own each time (one of 8 long games, cut after 50 to
        # 104 moves: 440 different requests), so that the answers are computed
        # and fill the cache until they repeat (an unused parameter no longer
        # defeats the cache: its key is the normalised request).
        moves = games[(k + n) % len(games)]
        cut = 50 + (k * 7 + n) % (len(moves) - 49)
        results.append(ask(port, "/api/v2/cap3-projective/mainline?moves=" + ",".join(moves[:cut]),
                           timeout=120)[:2])
        n += 1
        time.sleep(0.05)


ts = [threading.Thread(target=expensive_client, args=(k,)) for k in range(64)]
for t in ts:
    t.start()
for t in ts:
    t.join()
statuses = [r[0] for r in results]
print("64 clients for %g s: %d answered 200, %d refused 503 (Retry-After), others %s; %s" % (
    min(args.seconds, 20), statuses.count(200), statuses.count(503), [s for s in statuses if s not in (200, 503)], p.report()))
s = connect(port)  # a request not asked before (the position's report): computed, not cached
s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % target.replace("/mainline?", "?")).encode())
time.sleep(1)
s.close()
cpu1 = cpu_seconds(server.pid)
time.sleep(5)
print("a client gone after 1 s: the server used %.2f s of CPU in the 5 s after" % (cpu_seconds(server.pid) - cpu1))
print(memory(server.pid))

final = memory(server.pid)
section("4. SIGTERM under slowloris (64 connections)")
threading.Thread(target=hold_connections, args=(port, 64, 30, slowloris(4)), daemon=True).start()
time.sleep(2)
t0 = time.monotonic()
server.send_signal(signal.SIGTERM)
code = server.wait(timeout=60)
print("exit %d after %.2f s" % (code, time.monotonic() - t0))
print("resident memory: %s at the start, %s before SIGTERM" % (baseline, final))

second_test()
