"""Section t: a playlist's latency, idle and while anonymous clients flood the server with on-demand thumbnails
at random times and widths (issue 27's attack), over keep-alive connections on loopback."""
import http.client
import json
import random
import threading
import time
import urllib.parse


def _latencies(url, seconds, pause=0.02):
    """GETs `url` one request at a time on one keep-alive connection for `seconds`; the latencies in ms."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    latencies, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"{url} answered {response.status}")
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(pause)
    connection.close()
    return latencies


def _p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def _flood(base, media_id, duration, stop, counts, lock):
    """One flooding client: thumbnails of `media_id` at random times and widths until `stop` is set."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    while not stop.is_set():
        path = f"/api/media/{media_id}/thumbnail.jpg?time={random.uniform(0, duration):.3f}&width={random.randint(64, 1920)}"
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            connection.close()
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
            status = "error"
        with lock:
            counts[status] = counts.get(status, 0) + 1
    connection.close()


def thumbnail_flood(base, media_id, playlist, duration, clients, seconds):
    """Prints JSON: the playlist's p99 latency idle and under `clients` flooding clients for `seconds` each, their
    ratio, and how the thumbnail requests were answered."""
    url = base + playlist
    seconds, duration = float(seconds), float(duration)
    _latencies(url, 1)  # warms the connection and the server's caches
    idle = _latencies(url, seconds)
    stop, lock, counts = threading.Event(), threading.Lock(), {}
    threads = [threading.Thread(target=_flood, args=(base, media_id, duration, stop, counts, lock))
               for _ in range(int(clients))]
    for thread in threads:
        thread.start()
    time.sleep(1)  # the flood is under way
    flooded = _latencies(url, seconds)
    stop.set()
    for thread in threads:
        thread.join()
    idle_p99, flood_p99 = _p99(idle), _p99(flooded)
    print(json.dumps({
        "idle_p99_ms": round(idle_p99, 2), "flood_p99_ms": round(flood_p99, 2),
        "ratio": round(flood_p99 / idle_p99, 2), "playlist_requests": len(idle) + len(flooded),
        "thumbnails_served": counts.get(200, 0), "thumbnails_refused": counts.get(503, 0),
        "thumbnail_other": sum(v for k, v in counts.items() if k not in (200, 503)),
    }))
