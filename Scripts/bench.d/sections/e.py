"""Section e's figures: vod transcode of clips of several lengths, time and peak RSS.

Keys: e.<seconds>.{wall,cpu,rss_kb}.
"""


def title(r):
    """The heading of the section (without its ###)."""
    return "e. Scale with length"


def figures(r):
    lengths = sorted({int(k.split(".")[1]) for k in r.values if k.startswith("e.")})
    out = [f"| {r.meta.get('meta.e.size', '')} clip | transcode time (s) | s per source second "
           "| CPU time (s) | peak RSS (MiB) | vs the shortest clip |",
           "| --- | --- | --- | --- | --- | --- |"]
    base = None
    for seconds in lengths:
        wall, rss = r.median(f"e.{seconds}.wall"), r.median(f"e.{seconds}.rss_kb")
        per = wall / seconds if wall is not None else None
        versus = "—"
        if base is None:
            base = (per, rss)
        elif per is not None and rss is not None:
            versus = f"{per / base[0]:.2f}× the time per second, {rss / base[1]:.2f}× the RSS"
        out.append(f"| {seconds} s | {r.cell(f'e.{seconds}.wall')} | {per:.3f} | {r.cell(f'e.{seconds}.cpu')} | "
                   f"{r.cell(f'e.{seconds}.rss_kb', 1 / 1024, 0)} | {versus} |")
    return out


def note(r):
    return (f"`vod transcode` with the default ladder on {r.meta.get('meta.e.size', '?')} clips of each length, "
            "lengths taken in turn in each round; linear cost shows as a constant time per source second, flat "
            "memory as the same peak RSS.")
