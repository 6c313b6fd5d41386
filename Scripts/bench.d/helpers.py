#!/usr/bin/env python3
"""Small helpers for Scripts/bench, where parsing or timing is easier in Python than in bash: this file holds the
small ones and dispatches to the modules beside it (watch, memory, uploads, catalog, events, playback, thumbnails).

Each subcommand prints plain values on stdout (space-separated) or JSON, and exits non-zero on error.
"""
import json
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.request

import catalog
import events
import memory
import playback
import thumbnails
import uploads
import watch


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


def main():
    command, args = sys.argv[1], sys.argv[2:]
    functions = {
        "free-port": free_port, "wait-http": wait_http, "json-field": json_field, "parse-wrk": parse_wrk,
        "mark-live": catalog.mark_live, "parse-psnr": parse_psnr, "watch-ready": watch.watch_ready,
        "watch-playback": playback.watch_playback, "figures": figures, "rss": memory.rss,
        "sample-rss": memory.sample_rss, "http-sink": uploads.http_sink, "fill-catalog": catalog.fill_catalog,
        "check-media-list": catalog.check_media_list, "tus-upload": uploads.tus_upload,
        "sse-clients": events.sse_clients, "thumbnail-flood": thumbnails.thumbnail_flood,
    }
    if command not in functions:
        sys.exit(f"unknown helper {command}")
    functions[command](*args)


if __name__ == "__main__":
    main()
