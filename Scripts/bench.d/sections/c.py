"""Section c's figures: an upload into POST /api/media against dd to the same disk and a discarding socket.

Keys: c.vod.{mibps,rss_growth_kb}, c.dd.mibps, c.sink.mibps.
"""
from figures import COMPARISON_HEADER, fmt_ratio


def title(r):
    """The heading of the section (without its ###)."""
    return "c. Upload"


def figures(r):
    mib = r.meta.get("meta.c.body_mib", "?")
    out = list(COMPARISON_HEADER)
    ratio = r.ratio(r.median("c.vod.mibps"), r.median("c.dd.mibps"))
    out.append(f"| c. upload of {mib} MiB: throughput (MiB/s) | {r.cell('c.vod.mibps', digits=0)} | "
               f"{r.cell('c.dd.mibps', digits=0)} (dd to the same disk) | {fmt_ratio(ratio)} | "
               f"bounded by the disk | {r.verdict(None)} |")
    ratio = r.ratio(r.median("c.vod.mibps"), r.median("c.sink.mibps"))
    out.append(f"| c. upload of {mib} MiB: the client bound (MiB/s) | {r.cell('c.vod.mibps', digits=0)} | "
               f"{r.cell('c.sink.mibps', digits=0)} (the same curl into a socket that discards) | "
               f"{fmt_ratio(ratio)} | | {r.verdict(None)} |")
    growth = r.median("c.vod.rss_growth_kb")
    out.append(f"| c. upload of {mib} MiB: server RSS growth (MiB) | {r.cell('c.vod.rss_growth_kb', 1 / 1024, 1)} "
               f"| | | < 64 MiB for 2 GiB | {r.verdict(growth / 1024 < 64 if growth is not None else None)} |")
    answer = r.meta.get("meta.c.answer")
    if answer:
        out.append(f"| c. the server answered | {answer} | | | | |")
    return out


def note(r):
    return (f"A {r.meta.get('meta.c.body_mib', '?')} MiB body of zeros (a sparse file, so the client reads it "
            "without touching the disk) streamed with `curl -T` as `Content-Type: video/mp4` into "
            "`POST /api/media`; throughput is body size / curl's total time, which includes the server's answer "
            "after it probed the file. RSS growth is the server's peak RSS during the upload (VmHWM, reset through "
            "`/proc/PID/clear_refs` before it, and 50 ms VmRSS samples) minus its VmRSS before, on a freshly "
            "started server. The disk bound is `dd` writing the same amount to the same folder without "
            "fsync, like the server; `sync` runs between runs. The client bound is the same curl command into a "
            "loopback socket that reads and discards the body (`Scripts/bench.d/helpers.py http-sink`).")
