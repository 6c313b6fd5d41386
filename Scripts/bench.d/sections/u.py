"""Section u's figures: the same ladder in fMP4 (CMAF) segments against MPEG-TS ones, wall and CPU time and bytes.

Keys: u.<format>.{wall,cpu,rss_kb,bytes} (format: ts | fmp4).
"""
from figures import COMPARISON_HEADER, comparison_rows


def title(r):
    """The heading of the section (without its ###)."""
    return "u. fMP4 against MPEG-TS: the same ladder"


def figures(r):
    out = list(COMPARISON_HEADER)
    row = comparison_rows(r, out)
    label = r.meta.get("meta.u.source", "the source")
    for key, what, digits in (("wall", "wall time (s)", 2), ("cpu", "CPU time (s)", 2), ("bytes", "media bytes", 0)):
        row(f"u. {label}: {what}, fMP4", r.cell(f"u.fmp4.{key}", digits=digits), r.cell(f"u.ts.{key}", digits=digits) + " (MPEG-TS)",
            r.ratio(r.median(f"u.fmp4.{key}"), r.median(f"u.ts.{key}")), "", None)
    return out


def note(r):
    return ("The source of section a's kind is transcoded by `vod transcode` with the bench's ladder, first into MPEG-TS "
            "segments (the default, the sound muxed into every rung), then into fMP4 segments (`--segment-format fmp4`, "
            "the sound an audio rendition of its own, and a DASH manifest beside the master), in every run. Wall and CPU "
            "time from `/usr/bin/time`; media bytes are the sum of every `.ts`, `.m4s` and `init.mp4` written. No target: "
            "issue 26 asks for the figures.")
