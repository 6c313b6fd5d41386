"""Section b's figures: serving, vod serve against nginx.

Keys: b.<file>.<server>.{rps,p99_ms} (file: segment | first | playlist | live; server: vod | nginx).
"""
from figures import COMPARISON_HEADER, fmt_ratio


def title(r):
    """The heading of the section (without its ###)."""
    return "b. Serving: vod serve vs nginx"


def figures(r):
    out = list(COMPARISON_HEADER)
    size = r.meta.get("meta.b.segment_bytes")
    size_text = f"{int(size) / 1e6:.2f} MB segment" if size else "segment"
    first = r.meta.get("meta.b.first_bytes")
    first_text = f"first (2 s) segment, {int(first) / 1e6:.2f} MB" if first else "first (2 s) segment"
    for kind, label, target in [("segment", size_text, 1.0), ("first", first_text, 1.0),
                                ("playlist", "media playlist", 0.8),
                                ("live", "media playlist of a title still processing", 0.8)]:
        ratio = r.ratio(r.median(f"b.{kind}.vod.rps"), r.median(f"b.{kind}.nginx.rps"))
        out.append(f"| b. {label}: req/s | {r.cell(f'b.{kind}.vod.rps', digits=0)} | "
                   f"{r.cell(f'b.{kind}.nginx.rps', digits=0)} | {fmt_ratio(ratio)} | ≥ {target:.1f}× nginx | "
                   f"{r.verdict(ratio >= target if ratio is not None else None)} |")
        ratio = r.ratio(r.median(f"b.{kind}.vod.p99_ms"), r.median(f"b.{kind}.nginx.p99_ms"))
        out.append(f"| b. {label}: p99 latency (ms) | {r.cell(f'b.{kind}.vod.p99_ms')} | "
                   f"{r.cell(f'b.{kind}.nginx.p99_ms')} | {fmt_ratio(ratio)} | | {r.verdict(None)} |")
    return out


def note(r):
    m = r.meta
    return (f"`wrk` on loopback with {m.get('meta.b.wrk', '?')}, against `vod serve` "
            "(`/api/media/$ID/stream/<rung>/...`) and against nginx "
            f"{m.get('meta.b.nginx', '')}, both serving the rendition that section d produced; `vod serve` is "
            "started afresh on that catalog, so it is idle (nothing queued) like nginx, with its default "
            f"256 MiB segment cache. The segment is `{m.get('meta.b.segment', '?')}` "
            f"({m.get('meta.b.segment_bytes', '?')} bytes), the first segment of its rung "
            f"`{m.get('meta.b.first', '?')}` ({m.get('meta.b.first_bytes', '?')} bytes), the playlist "
            f"`{m.get('meta.b.playlist', '?')}` ({m.get('meta.b.playlist_bytes', '?')} bytes); both "
            "servers were checked to return the same bytes before measuring. The playlist of a title still "
            "processing is the same file, served by a server started again on that catalog with `--workers 0` "
            "after the item's row was set back to processing under a day's lease of another worker "
            "(`Scripts/bench.d/helpers.py mark-live`): vod then serves it as it serves a title being "
            "transcoded (checked against the file's inode and mtime on each request, the catalog asked at "
            "most once a second, `Cache-Control: public, max-age=1`), and nginx serves the file as before.")
