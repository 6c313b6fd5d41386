"""A vod catalog as the bench prepares and checks it (helpers.py mark-live, fill-catalog, check-media-list)."""
import datetime
import json
import math
import os
import sqlite3
import sys
import time
import uuid


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
