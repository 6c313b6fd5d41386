"""Watching a title after its upload: its times to playable and to ready, and when its first segment is written
(helpers.py watch-ready)."""
import json
import os
import sys
import threading
import time
import urllib.request


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
