"""Section s's figures: the wall time of a transcode of an HLG clip with its HDR kept (`--hdr keep`) against the
SDR ladder alone (`--hdr sdr`), and the HDR rung's bitrate.

Keys: s.<mode>.<clip>.{wall,cpu,rss_kb} (mode: sdr | keep), s.hdr_kbps.<clip>, s.sdr_kbps.<clip> (the average kb/s of the
HDR rung and of the SDR rung of its size).
"""
from figures import COMPARISON_HEADER, comparison_rows, m_split

TARGET = 1.6


def title(r):
    """The heading of the section (without its ###)."""
    return "s. HDR kept: the cost of the HDR rung"


def figures(r):
    out = list(COMPARISON_HEADER)
    row = comparison_rows(r, out)
    for clip in m_split(r.meta.get("meta.s.clips", "")):
        label = r.meta.get(f"meta.s.clip.{clip}", clip)
        keep, sdr = r.median(f"s.keep.{clip}.wall"), r.median(f"s.sdr.{clip}.wall")
        ratio = r.ratio(keep, sdr)
        row(f"s. {label}: wall time (s), HDR kept", r.cell(f"s.keep.{clip}.wall"), r.cell(f"s.sdr.{clip}.wall") + " (SDR alone)",
            ratio, f"≤ {TARGET}×", ratio <= TARGET if ratio is not None else None)
        row(f"s. {label}: CPU time (s), HDR kept", r.cell(f"s.keep.{clip}.cpu"), r.cell(f"s.sdr.{clip}.cpu") + " (SDR alone)",
            r.ratio(r.median(f"s.keep.{clip}.cpu"), r.median(f"s.sdr.{clip}.cpu")), "", None)
        rung = r.meta.get(f"meta.s.hdr_rung.{clip}", "the HDR rung")
        row(f"s. {label}: {rung} average kb/s", r.cell(f"s.hdr_kbps.{clip}", digits=0), r.cell(f"s.sdr_kbps.{clip}", digits=0) + " (its SDR twin)",
            r.ratio(r.median(f"s.hdr_kbps.{clip}"), r.median(f"s.sdr_kbps.{clip}")), "", None)
    return out


def note(r):
    return ("Each clip is `hlg_clip` (Scripts/bench.d/lib/sources.sh: the moving test pattern with temporal noise in HLG "
            "BT.2020, HEVC Main10, as a phone records it), transcoded by `vod transcode` on the defaults (MPEG-TS, the "
            "HDR rung alone in fMP4) with the bench's ladder, first with `--hdr sdr`, then with `--hdr keep`, in every run. Wall and CPU time from "
            "`/usr/bin/time`. The HDR rung is the HEVC Main10 twin of the largest rung up to 1080p (docs/engine.md, HDR "
            "kept); its bitrate and its SDR twin's are the averages `vod transcode` prints.")
