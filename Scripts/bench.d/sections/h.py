"""Section h's figures: GET /api/media on a large catalog, cold and warm, against an absolute target.

Keys: h.cold_s (the first request after start, one run), h.warm_s (the requests after it).
"""
import statistics


def title(r):
    """The heading of the section (without its ###)."""
    items = r.meta.get("meta.h.items")
    return f"h. List of {int(items):,} items" if items else "h. List of every item"


def figures(r):
    size = r.meta.get("meta.h.body_bytes")
    size_text = f", {int(size) / 1e6:.1f} MB of JSON" if size else ""
    warm = r.values.get("h.warm_s", [])
    warm_text = r.cell("h.warm_s", digits=3) if len(warm) < 2 else (
        f"{statistics.median(warm):.3f} <sub>({len(warm)} requests: {min(warm):.3f}–{max(warm):.3f})</sub>")
    out = [f"| `GET /api/media`, every item{size_text} | seconds | target | result |", "| --- | --- | --- | --- |"]
    for label, key, text in [
        ("cold: the first request after the server started", "h.cold_s", r.cell("h.cold_s", digits=3)),
        (f"warm: the median of the {len(warm)} requests after it", "h.warm_s", warm_text),
    ]:
        median = r.median(key)
        out.append(f"| {label} | {text} | well under 1 s | {r.verdict(median < 1.0 if median is not None else None)} |")
    return out


def note(r):
    m = r.meta
    items = f"{int(m['meta.h.items']):,}" if "meta.h.items" in m else "?"
    return ("A server is started on an empty folder, so that its migrations make the catalog, and "
            f"stopped; {items} rows are then inserted into its `media` table with python3's sqlite3 "
            "(`Scripts/bench.d/helpers.py fill-catalog`), each `ready` with the probe JSON of "
            f"`{m.get('meta.h.clip', '?')}` as `vod probe` prints it (stored compact with sorted keys, as ingest "
            "stores it) and two variants (720p, 1080p), so the list decodes real stored JSON. The server is started "
            "again on that catalog (waited for on `/health`, not on the list, then given 1 s for its "
            "start-up work) and `GET /api/media` is timed on loopback with curl's `time_total`: the first "
            "request (cold: the server decodes each row's stored probe and variants once; a single "
            f"request), then {len(r.values.get('h.warm_s', []))} more (warm: answered from the decoded copy). "
            f"Every body was checked to be a JSON array of exactly {items} items, newest first, each with its "
            "variants and source summary. No reference tool: nginx has nothing that builds a list from a catalog, "
            "so the figures are against the target alone (pass below 1 s).")
