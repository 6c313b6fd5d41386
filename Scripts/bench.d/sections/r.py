"""Section r's figures: the HEVC ladder (`--codecs h264,hevc`) against the H.264 rungs of the same fMP4 title.

Keys: r.<codec>.bytes.<clip>.<rung>, r.<codec>.ssim.<clip>.<rung> (codec: h264 | hevc), r.<ladder>.<clip>.{wall,cpu,rss_kb}
(ladder: h264, the H.264-only transcode | both, with the HEVC ladder).
"""
from figures import COMPARISON_HEADER, comparison_rows, m_split


def title(r):
    """The heading of the section (without its ###)."""
    return "r. HEVC ladder: bytes at equal SSIM against H.264, and its cost"


def figures(r):
    out = list(COMPARISON_HEADER)
    row = comparison_rows(r, out)

    totals = {"hevc": 0.0, "h264": 0.0}
    ssims = {"hevc": [], "h264": []}
    walls = {"both": 0.0, "h264": 0.0}
    for clip in m_split(r.meta.get("meta.r.clips", "")):
        for rung in m_split(r.meta.get(f"meta.r.rungs.{clip}", "")):
            size = {codec: f"r.{codec}.bytes.{clip}.{rung}" for codec in totals}
            ssim = {codec: f"r.{codec}.ssim.{clip}.{rung}" for codec in totals}
            for codec in totals:
                totals[codec] += r.median(size[codec]) or 0
                if r.median(ssim[codec]) is not None:
                    ssims[codec].append(r.median(ssim[codec]))
            row(f"r. {clip} {rung}: video bytes (kB)", r.cell(size["hevc"], 1 / 1000, 0), r.cell(size["h264"], 1 / 1000, 0) + " (H.264)",
                r.ratio(r.median(size["hevc"]), r.median(size["h264"])), "", None)
            row(f"r. {clip} {rung}: SSIM (all planes)", r.cell(ssim["hevc"], digits=4), r.cell(ssim["h264"], digits=4) + " (H.264)",
                r.ratio(r.median(ssim["hevc"]), r.median(ssim["h264"])), "", None)
        for ladder in walls:
            walls[ladder] += r.median(f"r.{ladder}.{clip}.wall") or 0
    mean = {codec: sum(v) / len(v) if v else None for codec, v in ssims.items()}
    bytes_ratio = r.ratio(totals["hevc"], totals["h264"])
    ok = None
    if bytes_ratio is not None and None not in mean.values():
        ok = bytes_ratio <= 0.8 and mean["hevc"] >= mean["h264"] - 0.005
    row("r. every rung: video bytes (kB)", f"{totals['hevc'] / 1000:.0f}", f"{totals['h264'] / 1000:.0f} (H.264)", bytes_ratio,
        "≤ 0.8× at a mean SSIM no lower than H.264's − 0.005", ok)
    if None not in mean.values():
        row("r. every rung: mean SSIM", f"{mean['hevc']:.4f}", f"{mean['h264']:.4f} (H.264)", r.ratio(mean["hevc"], mean["h264"]), "", None)
    row("r. every clip: wall time (s), with the HEVC ladder", f"{walls['both']:.2f}", f"{walls['h264']:.2f} (H.264 only)",
        r.ratio(walls["both"], walls["h264"]), "", None)
    return out


def note(r):
    return ("Each clip is transcoded by `vod transcode --segment-format fmp4` with the bench's ladder, once in H.264 alone and "
            "once with `--codecs h264,hevc` (each rung again in HEVC Main by libx265 `superfast`, the same size at 0.7× "
            "the bitrate; docs/engine.md, HEVC ladder); both codecs' rungs are measured in the second title. Video bytes "
            "are the sum of the video packets of a rung's segments (ffprobe); SSIM is the `All` of ffmpeg's `ssim` filter "
            "for the rung, read back through its media playlist, against the source scaled to the rung's size with "
            "bicubic. Wall time from `/usr/bin/time`: what adding the HEVC ladder costs, with no target (it is opt-in). "
            "Clips: the natural ones of `../shared/media/natural/` (full mode only) and `testsrc2` under temporal noise "
            "(a lossless source).")
