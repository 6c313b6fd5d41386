"""Section m's figures: Server-Sent Events clients on /api/events while a clip is transcoded.

Keys: m.rss_per_client_kb, m.delay_ms_{median,p99,max}.
"""


def title(r):
    """The heading of the section (without its ###)."""
    clients = r.meta.get("meta.m.clients")
    return f"m. Status events to {int(clients):,} SSE clients" if clients else "m. Status events"


def figures(r):
    out = [f"| {r.meta.get('meta.m.clip', 'clip')} uploaded while they listen | value | target | result |",
           "| --- | --- | --- | --- |",
           f"| server memory per connected client (KiB of RSS) | {r.cell('m.rss_per_client_kb', digits=1)} | | |"]
    for key, label in [("m.delay_ms_median", "median"), ("m.delay_ms_p99", "99th percentile"),
                       ("m.delay_ms_max", "largest")]:
        value = r.median(key)
        target, ok = ("< 1 s", value < 1000 if value is not None else None) if key == "m.delay_ms_p99" else ("", None)
        out.append(f"| event delay from its creation to a client, {label} (ms) | {r.cell(key, digits=0)} | "
                   f"{target} | {r.verdict(ok)} |")
    out.append(f"| events received, all clients | {r.meta.get('meta.m.events', '?')} | | |")
    out.append(f"| clients that saw the title become ready | {r.meta.get('meta.m.finished', '?')} | | |")
    return out


def note(r):
    """None: the table says how m was measured."""
    return None
