"""Section l's figures: the same body through tus and as a multipart form.

Keys: l.<way>.{mibps,rss_growth_kb} (way: tus | multipart).
"""
from figures import fmt_ratio


def title(r):
    """The heading of the section (without its ###)."""
    mib = r.meta.get("meta.l.body_mib", "?")
    return f"l. Resumable upload of {mib} MiB: tus against multipart"


def figures(r):
    chunk = r.meta.get("meta.l.chunk_mib", "?")
    ratio = r.ratio(r.median("l.tus.mibps"), r.median("l.multipart.mibps"))
    growth = r.median("l.tus.rss_growth_kb")
    return [
        "| figure | tus | multipart | tus / multipart | target | result |", "| --- | --- | --- | --- | --- | --- |",
        f"| throughput (MiB/s), tus in PATCHes of {chunk} MiB | {r.cell('l.tus.mibps', digits=0)} | "
        f"{r.cell('l.multipart.mibps', digits=0)} | {fmt_ratio(ratio)} | | |",
        f"| server RSS growth (MiB) | {r.cell('l.tus.rss_growth_kb', 1 / 1024, 1)} | "
        f"{r.cell('l.multipart.rss_growth_kb', 1 / 1024, 1)} | | < 64 MiB for 2 GiB | "
        f"{r.verdict(growth / 1024 < 64 if growth is not None else None)} |",
        f"| the last answer (the body is zeros, not media) | {r.meta.get('meta.l.tus_answer', '?')} | "
        f"{r.meta.get('meta.l.multipart_answer', '?')} | | | |"]


def note(r):
    """None: the table says how l was measured (as c, through tus and as a multipart form)."""
    return None
