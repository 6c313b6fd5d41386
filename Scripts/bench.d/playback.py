"""The player of Scripts/bench section p: does a title that says "playable" play at 1× without waiting?

From the first answer of GET /api/media/:id that says "playable": true, a player starts and plays every
rendition of the master at 1×. It needs segment k of a rendition by its start, plus the durations of the
segments before k, plus the time it has already waited; a segment that appears in its playlist later than
that makes it wait (stall) until it does, and every later deadline moves by the wait. A rendition that joins
the master later (a rung that could not yet stay ahead of a player) is played by a player that starts when it
joins. The watcher records when each segment first appears in each media playlist, polling them every 0.1 s on
one kept-alive connection until each has #EXT-X-ENDLIST, the master until the title is "ready", and the title
until then; then it works out each rendition's total stall from the moment it was offered.

The examples of `stall` check its arithmetic: python3 -m doctest Scripts/bench.d/playback.py
"""
import http.client
import json
import posixpath
import re
import sys
import time
import urllib.parse

POLL_SECONDS = 0.1


def stall(start, segments):
    """The total time a 1× player that starts at `start` waits, given each segment's (duration, time it
    appeared in the playlist), in playlist order.

    >>> stall(10.0, [(2, 9.5), (6, 11.0), (6, 20.0), (6, 23.0)])  # segment 2 was due at 18: waits 2 s
    2.0
    >>> stall(10.0, [(2, 9.5), (6, 12.5), (6, 18.4)])  # 0.5 s late for 1, which moves 2's deadline to 18.5
    0.5
    """
    due, waited = start, 0.0
    for duration, appeared in segments:
        if appeared > due:
            waited += appeared - due
            due = appeared
        due += duration
    return waited


def renditions(master, master_path):
    """The (name, path) of each rendition a player plays from the `master` playlist served at `master_path`:
    the variant after each #EXT-X-STREAM-INF and each #EXT-X-MEDIA:TYPE=AUDIO with a URI, named by the URI's
    folder (`720p/index.m3u8` is `720p`)."""
    found, variant_next = [], False
    for line in master.splitlines():
        line = line.strip()
        uri = None
        if line.startswith("#EXT-X-STREAM-INF:"):
            variant_next = True
        elif line.startswith("#EXT-X-MEDIA:") and "TYPE=AUDIO" in line:
            match = re.search(r'URI="([^"]+)"', line)
            uri = match.group(1) if match else None
        elif line and not line.startswith("#") and variant_next:
            uri, variant_next = line, False
        if uri:
            path = urllib.parse.urljoin(master_path, uri)
            folder = posixpath.dirname(urllib.parse.urlsplit(uri).path)
            found.append((posixpath.basename(folder) or uri, path))
    return found


def segment_durations(playlist):
    """The #EXTINF duration of each segment of a media playlist, and whether it has #EXT-X-ENDLIST."""
    durations = [float(m.group(1)) for m in re.finditer(r"^#EXTINF:([\d.]+)", playlist, re.M)]
    return durations, "#EXT-X-ENDLIST" in playlist


class Connection:
    """GETs on one kept-alive HTTP/1.1 connection, opened again when the server has closed it."""

    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.connection = None

    def get(self, path):
        """The status and body of GET `path` (status 0 when the server could not be reached twice)."""
        for _ in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=10)
            try:
                self.connection.request("GET", path)
                response = self.connection.getresponse()
                return response.status, response.read().decode("utf-8", "replace")
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
        return 0, ""


def watch_playback(base, media_id, t_end, timeout):
    """After an upload ended at wall-clock `t_end`, polls GET /api/media/:id until it says "playable", then the
    media playlists of its master and the title, every POLL_SECONDS, until every playlist has #EXT-X-ENDLIST
    and the title is "ready". Segments listed by a playlist's first answer count as there at the start (the
    player's own first request would have found them). Prints JSON {playable_s, ready_s, stall_s: {rendition:
    seconds}, stall_max_s, joined_s: {rendition: seconds}}, times from `t_end`; joined_s is when the master first
    named each rendition, from `playable` on."""
    t_end, deadline = float(t_end), time.monotonic() + float(timeout)
    connection = Connection(base)
    item_path, master_path = f"/api/media/{media_id}", f"/api/media/{media_id}/stream"
    playable = ready = None
    appeared, durations, ended, joined = {}, {}, set(), {}
    players, master_final = [], False

    def poll_item():
        nonlocal playable, ready
        status, body = connection.get(item_path)
        item = json.loads(body) if status == 200 else {}
        if item.get("status") == "failed":
            sys.exit(f"media {media_id} failed: {body}")
        if playable is None and (item.get("playable") or item.get("status") == "ready"):
            playable = time.time() - t_end
        if item.get("status") == "ready":
            ready = time.time() - t_end

    while ready is None or not master_final or len(ended) < len(players):
        if time.monotonic() > deadline:
            sys.exit(f"media {media_id}: playable after {playable} s, ready after {ready} s, playlists ended "
                     f"{sorted(ended)} of {[name for name, _ in players]} after {timeout} s")
        started = time.monotonic()
        if ready is None:
            poll_item()
        if playable is not None and not master_final:
            master_final = ready is not None
            status, master = connection.get(master_path)
            for name, path in renditions(master, master_path) if status == 200 else []:
                if name not in joined:
                    joined[name] = max(playable, time.time() - t_end)
                    players.append((name, path))
        for name, path in players:
            if name in ended:
                continue
            status, playlist = connection.get(path)
            if status != 200:
                continue
            durations[name], complete = segment_durations(playlist)
            now = time.time() - t_end if name in appeared else joined[name]
            seen = appeared.setdefault(name, [])
            seen.extend([now] * (len(durations[name]) - len(seen)))
            if complete:
                ended.add(name)
        time.sleep(max(0.0, POLL_SECONDS - (time.monotonic() - started)))

    stalls = {name: round(stall(joined[name], zip(durations[name], appeared[name])), 3) for name, _ in players}
    print(json.dumps({"playable_s": round(playable, 3), "ready_s": round(ready, 3), "stall_s": stalls,
                      "stall_max_s": max(stalls.values(), default=0.0),
                      "joined_s": {name: round(joined[name], 3) for name, _ in players}}))
