"""Section t's figures: a playlist's p99 latency under a flood of on-demand thumbnails, against idle.

Keys: t.idle_p99_ms, t.flood_p99_ms, t.ratio, t.thumbnails_served, t.thumbnails_refused.
"""


def title(r):
    """The heading of the section (without its ###)."""
    return "t. Thumbnail flood: playlist latency while anonymous clients ask random thumbnails"


def figures(r):
    clients = r.meta.get("meta.t.clients", "?")
    flood = r.median("t.flood_p99_ms")
    ratio = r.median("t.ratio")
    out = [f"| {r.meta.get('meta.t.clip', 'clip')}, `{r.meta.get('meta.t.playlist', 'playlist')}` | value | target | result |",
           "| --- | --- | --- | --- |",
           f"| playlist p99, idle server (ms) | {r.cell('t.idle_p99_ms')} | | |",
           f"| playlist p99, {clients} clients flooding thumbnails (ms) | {r.cell('t.flood_p99_ms')} | < 20 ms | "
           f"{r.verdict(flood < 20 if flood is not None else None)} |",
           f"| flooded / idle p99 | {r.cell('t.ratio')} | < 40× (the test's bound) | "
           f"{r.verdict(ratio < 40 if ratio is not None else None)} |",
           f"| thumbnails served during a run | {r.cell('t.thumbnails_served', digits=0)} | | |",
           f"| thumbnails refused with 503 and `Retry-After` | {r.cell('t.thumbnails_refused', digits=0)} | | |"]
    return out


def note(r):
    """None: the table says how t was measured."""
    return None
