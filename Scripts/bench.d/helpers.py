#!/usr/bin/env python3
"""Small helpers for Scripts/bench, where parsing or timing is easier in Python than in bash.

Each subcommand prints plain values on stdout (space-separated) or JSON, and exits non-zero on error.
"""
import datetime
import json
import math
import os
import re
import socket
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import playback


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def wait_http(url, timeout, pid=None):
    """Waits until `url` answers with any HTTP status (the server listens), while process `pid` lives."""
    deadline = time.monotonic() + float(timeout)
    while time.monotonic() < deadline:
        if pid and not os.path.exists(f"/proc/{pid}"):
            sys.exit(f"process {pid} exited before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                print(response.status)
                return
        except urllib.error.HTTPError as error:
            print(error.code)
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"{url} did not answer within {timeout} s")


def json_field(path, field):
    """Prints one top-level field of a JSON file (objects and lists printed as JSON)."""
    with open(path) as f:
        value = json.load(f).get(field)
    print(value if isinstance(value, (str, int, float)) else json.dumps(value))


def parse_wrk(path):
    """Prints `requests_per_second p99_ms requests non2xx socket_errors` from `wrk --latency` output."""
    text = open(path).read()
    rps = re.search(r"Requests/sec:\s*([\d.]+)", text)
    p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    total = re.search(r"(\d+) requests in", text)
    if not (rps and p99 and total):
        sys.exit(f"cannot parse wrk output {path}:\n{text}")
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    non2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    socket_errors = sum(int(g) for g in errors.groups()) if errors else 0
    print(rps.group(1), f"{float(p99.group(1)) * scale:.3f}", total.group(1),
          non2xx.group(1) if non2xx else 0, socket_errors)


def parse_psnr(path):
    """Prints the `average` and `y` PSNR of the psnr filter's summary line in an ffmpeg log."""
    lines = [l for l in open(path, errors="replace") if "PSNR y:" in l]
    if not lines:
        sys.exit(f"no PSNR line in {path}")
    line = lines[-1]
    average = re.search(r"average:(\S+)", line).group(1)
    y = re.search(r"PSNR y:(\S+)", line).group(1)
    print(average, y)


def watch_ready(base, media_id, t_end, timeout, output_dir=None, snapshot=None):
    """After an upload ended at wall-clock `t_end`, polls GET /api/media/:id every 0.2 s until "ready", and
    notes the first answer that says "playable": true (the stream plays while the title is processing).
    Given an `output_dir`, a thread also watches it every 20 ms, in the folders that were not in the `snapshot`
    listing (which covers the engine's hidden staging folder), for the first segment_*.ts file to be created
    and for the first segment to be complete: the engine creates a segment's file when the segment starts, so
    segment 000 of a rung is complete once segment 001 or the rung's index.m3u8 exists (or the item is ready).
    Prints JSON {ready_s, playable_s, status}, with first_segment_s and first_complete_s when it watched."""
    t_end = float(t_end)
    seen = {}
    done = threading.Event()

    def watch():
        before = set(open(snapshot).read().split()) if os.path.exists(snapshot) else set()
        while not done.is_set() and "complete" not in seen:
            try:
                entries = [e for e in os.listdir(output_dir) if e not in before]
            except OSError:
                entries = []
            now = time.time() - t_end
            for entry in entries:
                for _, _, files in os.walk(os.path.join(output_dir, entry)):
                    segments = [f for f in files if f.startswith("segment_") and f.endswith(".ts")]
                    if segments:
                        seen.setdefault("created", now)
                    if len(segments) >= 2 or (segments and "index.m3u8" in files):
                        seen.setdefault("complete", now)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    if output_dir:
        watcher.start()
    deadline = time.monotonic() + float(timeout)
    status = None
    playable = None
    try:
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{base}/api/media/{media_id}", timeout=10) as response:
                    item = json.load(response)
            except (OSError, ValueError) as error:  # a busy server may answer late: ask again
                status = f"no answer: {error}"
                time.sleep(0.2)
                continue
            status = item.get("status")
            if item.get("playable") and playable is None:
                playable = time.time() - t_end
            if status == "ready":
                ready = time.time() - t_end
                break
            if status == "failed":
                sys.exit(f"media {media_id} failed: {json.dumps(item)}")
            time.sleep(0.2)
        else:
            sys.exit(f"media {media_id} not ready after {timeout} s (last status {status})")
    finally:
        done.set()
    result = {"ready_s": round(ready, 3), "playable_s": round(playable if playable is not None else ready, 3),
              "status": status}
    if output_dir:
        watcher.join(1)
        created = seen.get("created")
        result["first_segment_s"] = round(created, 3) if created is not None else None
        result["first_complete_s"] = round(min(seen.get("complete", ready), ready), 3)
    print(json.dumps(result))


def figures(text):
    """Prints `key value` for each number in the JSON object `text`, the keys of nested objects joined by dots
    (`{"stall_s": {"720p": 1.5}}` gives `stall_s.720p 1.5`)."""
    def walk(prefix, value):
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}{key}.", inner)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            print(prefix[:-1], value)

    walk("", json.loads(text))


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields


def rss(pid):
    """Prints `VmRSS VmHWM` of process `pid`, in KiB."""
    fields = proc_status(pid)
    print(fields["VmRSS"], fields["VmHWM"])


def sample_rss(pid, out, interval):
    """Samples VmRSS of `pid` every `interval` s until the process or the file `out`.stop goes away;
    writes the largest sample, in KiB, to `out`."""
    peak = 0
    while not os.path.exists(out + ".stop"):
        try:
            peak = max(peak, proc_status(pid)["VmRSS"])
        except (OSError, KeyError):
            break
        with open(out + ".tmp", "w") as f:
            f.write(str(peak))
        os.replace(out + ".tmp", out)
        time.sleep(float(interval))


def http_sink(port_file):
    """Answers one HTTP request on a free loopback port (written to `port_file`) after reading and discarding
    its Content-Length body: how fast the client alone can send, with no server work behind it."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.getsockname()[1]))
        os.replace(port_file + ".tmp", port_file)
        server.settimeout(120)
        connection, _ = server.accept()
        with connection:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the client closed before the end of the headers")
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            lengths = [l.split(b":", 1)[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
            length, received = int(lengths[0]), len(rest)
            buffer = memoryview(bytearray(1 << 20))
            while received < length:
                n = connection.recv_into(buffer)
                if not n:
                    break
                received += n
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")


def mark_live(database, media_id):
    """Sets item `media_id` of the SQLite catalog `database` back to processing, under a lease that a worker
    named `bench` holds for a day, with its stream published: what a title being transcoded looks like to an
    API node. Prints the number of rows changed."""
    with sqlite3.connect(database) as db:
        changed = db.execute(
            "UPDATE media SET status = 'processing', lease_worker = 'bench', lease_expires_at = ?, "
            "lease_token = lease_token + 1 WHERE id = ? AND published_at IS NOT NULL AND hls_path IS NOT NULL",
            (time.time() + 86400, int(media_id))).rowcount
    if changed != 1:
        sys.exit(f"media {media_id} is not a published item of {database}")
    print(changed)


def fill_catalog(database, count, clip, probe, media_dir, output_dir):
    """Adds `count` ready items to the `media` table of `database` (a catalog `vod serve` made through its
    migrations, with no server running), as uploads of `clip` transcoded to a 720p and a 1080p rung leave
    them: its `vod probe` JSON (in `probe`) stored compact with sorted keys as ingest stores it, with the probe's `source`
    and `tracks` encoded alone as ingest stores them too, its size and
    duration, two variants with one segment per 6 s, created a minute apart from 2026-11-23T10:00:00.000Z and
    updated 40 s later; every other one has a description. Prints the number of rows the table then holds."""
    count = int(count)
    with open(probe) as f:
        probe_json = json.load(f)
    duration = float(probe_json["duration"])
    stored_probe = json.dumps(probe_json, sort_keys=True, separators=(",", ":"))
    source_summary, tracks = (json.dumps(probe_json.get(key), sort_keys=True, separators=(",", ":"))
                              for key in ("source", "tracks"))
    segments = max(1, math.ceil(duration / 6))
    variants = json.dumps([
        {"averageBandwidth": 700000, "bandwidth": 800000, "codecs": "avc1.64001f,mp4a.40.2", "frameRate": 30,
         "height": 720, "name": "720p", "playlist": "720p/index.m3u8", "segmentCount": segments, "width": 1280},
        {"averageBandwidth": 2500000, "bandwidth": 3000000, "codecs": "avc1.640028,mp4a.40.2", "frameRate": 30,
         "height": 1080, "name": "1080p", "playlist": "1080p/index.m3u8", "segmentCount": segments,
         "width": 1920},
    ], sort_keys=True, separators=(",", ":"))
    size = os.path.getsize(clip)
    start = datetime.datetime(2026, 11, 23, 10, 0, 0, tzinfo=datetime.timezone.utc)

    def stamp(moment):
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"

    connection = sqlite3.connect(database)
    try:
        with connection:
            first = connection.execute("SELECT COALESCE(MAX(id), 0) FROM media").fetchone()[0] + 1
            rows = []
            for n in range(count):
                media_id = first + n
                created = start + datetime.timedelta(minutes=n)
                rows.append((
                    media_id, f"Bench clip {media_id:05d}",
                    f"Item {media_id} of the list benchmark" if n % 2 else None,
                    "ready", f"{output_dir}/{media_id}", duration, 1.0, None, f"clip-{media_id:05d}.mp4",
                    f"{media_dir}/{uuid.uuid4()}.mp4", size, stored_probe, source_summary, tracks, variants, 1,
                    stamp(created), stamp(created + datetime.timedelta(seconds=40)),
                ))
            connection.executemany(
                "INSERT INTO media (id, title, description, status, hls_path, duration, progress, error, "
                "source_file_name, source_path, source_size, probe, source_summary, tracks, variants, attempts, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        print(connection.execute("SELECT COUNT(*) FROM media").fetchone()[0])
    finally:
        connection.close()


def check_media_list(path, count):
    """Checks that `path` holds what GET /api/media answers for a catalog of `count` ready items: a JSON array
    of exactly `count` objects, newest (highest id) first, each "ready" with its variants and source summary
    decoded from the stored JSON (not null). Prints the number of items."""
    count = int(count)
    try:
        with open(path, "rb") as f:
            items = json.load(f)
    except ValueError as error:
        sys.exit(f"the body is not JSON ({error}): {open(path, 'rb').read(200)!r}")
    if not isinstance(items, list):
        sys.exit(f"the body is not a JSON array: {json.dumps(items)[:200]}")
    if len(items) != count:
        sys.exit(f"the array has {len(items)} items, not {count}")
    previous = None
    for item in items:
        if not isinstance(item, dict):
            sys.exit(f"an item is not an object: {json.dumps(item)[:200]}")
        if previous is not None and not item.get("id", 0) < previous:
            sys.exit(f"item {item.get('id')} follows item {previous}: the list is not newest first")
        previous = item.get("id", 0)
        if item.get("status") != "ready" or not item.get("variants") or item.get("source") is None:
            sys.exit(f"item {item.get('id')} is not ready with variants and a source: {json.dumps(item)[:300]}")
    print(len(items))


def tus_upload(base, path, chunk_mib):
    """Uploads `path` through tus at `base`/api/uploads: one POST, then PATCHes of `chunk_mib` MiB streamed from
    disk on one connection. Prints `seconds bytes_sent last_status` (the last PATCH of a file that is not media
    answers 422: the bytes were all received and probed)."""
    import base64
    import http.client
    import urllib.parse
    size, chunk = os.path.getsize(path), int(chunk_mib) << 20
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    encode = lambda text: base64.b64encode(text.encode()).decode()
    start = time.monotonic()
    connection.request("POST", "/api/uploads", headers={
        "Tus-Resumable": "1.0.0", "Upload-Length": str(size),
        "Upload-Metadata": f"filename {encode('bench.mp4')},title {encode('tus bench')}"})
    response = connection.getresponse()
    response.read()
    if response.status != 201:
        sys.exit(f"POST /api/uploads answered HTTP {response.status}")
    location = urllib.parse.urlsplit(response.getheader("Location")).path
    sent, status = 0, None
    with open(path, "rb") as f:
        while sent < size:
            length = min(chunk, size - sent)
            connection.putrequest("PATCH", location)
            for name, value in [("Tus-Resumable", "1.0.0"), ("Upload-Offset", str(sent)),
                                ("Content-Type", "application/offset+octet-stream"), ("Content-Length", str(length))]:
                connection.putheader(name, value)
            connection.endheaders()
            remaining = length
            while remaining:
                block = f.read(min(1 << 20, remaining))
                connection.send(block)
                remaining -= len(block)
            response = connection.getresponse()
            response.read()
            status = response.status
            sent += length
            if status != 204:
                break
    print(f"{time.monotonic() - start:.3f} {sent} {status}")


def sse_clients(url, count, ready_file, out, until, timeout):
    """Holds `count` Server-Sent Events connections to `url`; writes `ready_file` once all are open, then reads
    until every client has seen an event of type `until`, or `timeout` s. Writes JSON to `out`: clients open,
    events received, and the delay of each event from its `created_at` (the server's clock, the same machine)
    to its arrival at each client, in ms."""
    import asyncio
    import resource
    import urllib.parse
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, int(count) + 256)), hard))
    target = urllib.parse.urlsplit(url)
    count, opened, delays, received, finished = int(count), [0], [], [0], [0]
    all_open = None

    def created(text):
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()

    async def client():
        reader, writer = await asyncio.open_connection(target.hostname, target.port)
        writer.write(f"GET {target.path} HTTP/1.1\r\nHost: {target.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(head.decode(errors="replace"))
        chunked = b"transfer-encoding: chunked" in head.lower()
        opened[0] += 1
        if opened[0] == count:
            all_open.set()
        text = ""
        try:
            while True:
                if chunked:
                    size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
                    if size == 0:
                        return
                    data = await reader.readexactly(size + 2)
                    text += data[:-2].decode()
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                    text += data.decode()
                while "\n\n" in text:
                    block, text = text.split("\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
                    if "data" not in fields:
                        continue
                    event = json.loads(fields["data"])
                    delays.append((time.time() - created(event["created_at"])) * 1000)
                    received[0] += 1
                    if event["type"] == until:
                        finished[0] += 1
                        return
        finally:
            writer.close()

    async def run():
        nonlocal all_open
        all_open = asyncio.Event()
        tasks = [asyncio.create_task(client()) for _ in range(count)]
        await asyncio.wait_for(all_open.wait(), 120)
        with open(ready_file, "w") as f:
            f.write(str(opened[0]))
        await asyncio.wait(tasks, timeout=float(timeout))

    asyncio.run(run())
    delays.sort()
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else None
    with open(out, "w") as f:
        json.dump({"clients": opened[0], "finished": finished[0], "events": received[0],
                   "delay_ms_median": pick(0.5), "delay_ms_p99": pick(0.99), "delay_ms_max": delays[-1] if delays else None}, f)


def main():
    command, args = sys.argv[1], sys.argv[2:]
    functions = {
        "free-port": free_port, "wait-http": wait_http, "json-field": json_field, "parse-wrk": parse_wrk, "mark-live": mark_live,
        "parse-psnr": parse_psnr, "watch-ready": watch_ready, "watch-playback": playback.watch_playback,
        "figures": figures, "rss": rss, "sample-rss": sample_rss,
        "http-sink": http_sink, "fill-catalog": fill_catalog, "check-media-list": check_media_list,
        "tus-upload": tus_upload, "sse-clients": sse_clients,
    }
    if command not in functions:
        sys.exit(f"unknown helper {command}")
    functions[command](*args)


if __name__ == "__main__":
    main()
