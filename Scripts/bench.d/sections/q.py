"""Section q's figures: rate control, `--rate-control quality` (capped constant quality, the default) against `fixed`.

Keys: q.<mode>.bytes.<clip>.<rung>, q.<mode>.ssim.<clip>.<rung>, q.<mode>.<clip>.{wall,cpu,rss_kb} (mode: fixed |
quality), q.quality.crf.<clip>, q.quality.analysis.<clip> (seconds).
"""
from figures import COMPARISON_HEADER, comparison_rows, m_split


def title(r):
    """The heading of the section (without its ###)."""
    return "q. Rate control: capped constant quality vs fixed bitrates"


def figures(r):
    out = list(COMPARISON_HEADER)
    row = comparison_rows(r, out)

    totals = {"fixed": 0.0, "quality": 0.0, "cli": 0.0}
    ssims = {"fixed": [], "quality": [], "cli": []}
    walls = {"fixed": 0.0, "quality": 0.0}
    analysis = 0.0
    for clip in m_split(r.meta.get("meta.q.clips", "")):
        crf = r.median(f"q.quality.crf.{clip}")
        for rung in m_split(r.meta.get(f"meta.q.rungs.{clip}", "")):
            keys = {mode: (f"q.{mode}.bytes.{clip}.{rung}", f"q.{mode}.ssim.{clip}.{rung}") for mode in totals}
            for mode, (size, ssim) in keys.items():
                totals[mode] += r.median(size) or 0
                if r.median(ssim) is not None:
                    ssims[mode].append(r.median(ssim))
            row(f"q. {clip} {rung}: video bytes (kB), CRF {crf:g}" if crf is not None else f"q. {clip} {rung}: video bytes (kB)",
                r.cell(keys["quality"][0], 1 / 1000, 0), r.cell(keys["fixed"][0], 1 / 1000, 0) + " (fixed)",
                r.ratio(r.median(keys["quality"][0]), r.median(keys["fixed"][0])), "", None)
            ours, ref = r.median(keys["quality"][1]), r.median(keys["fixed"][1])
            row(f"q. {clip} {rung}: SSIM (all planes)", r.cell(keys["quality"][1], digits=4),
                r.cell(keys["fixed"][1], digits=4) + " (fixed)", r.ratio(ours, ref), "", None)
            if r.median(keys["cli"][0]) is not None:
                row(f"q. {clip} {rung}: video bytes (kB) against the CLI at capped CRF 26", r.cell(keys["quality"][0], 1 / 1000, 0),
                    r.cell(keys["cli"][0], 1 / 1000, 0) + " (CLI)", r.ratio(r.median(keys["quality"][0]), r.median(keys["cli"][0])), "", None)
                row(f"q. {clip} {rung}: SSIM against the CLI at capped CRF 26", r.cell(keys["quality"][1], digits=4),
                    r.cell(keys["cli"][1], digits=4) + " (CLI)", r.ratio(ours, r.median(keys["cli"][1])), "", None)
        for mode in walls:
            walls[mode] += r.median(f"q.{mode}.{clip}.wall") or 0
        analysis += r.median(f"q.quality.analysis.{clip}") or 0
    bytes_ratio = r.ratio(totals["quality"], totals["fixed"])
    mean = {mode: sum(v) / len(v) if v else None for mode, v in ssims.items()}
    ok = None
    if bytes_ratio is not None and mean["quality"] is not None and mean["fixed"] is not None:
        ok = bytes_ratio <= 0.60 and mean["quality"] >= mean["fixed"]
    row("q. every rung: video bytes (kB)", f"{totals['quality'] / 1000:.0f}", f"{totals['fixed'] / 1000:.0f} (fixed)",
        bytes_ratio, "≤ 0.60× at an equal or better mean SSIM", ok)
    if mean["quality"] is not None and mean["fixed"] is not None:
        row("q. every rung: mean SSIM", f"{mean['quality']:.4f}", f"{mean['fixed']:.4f} (fixed)",
            r.ratio(mean["quality"], mean["fixed"]), "", None)
    if totals["cli"] and mean["cli"] is not None and mean["quality"] is not None:
        row("q. every rung: video bytes (kB) against the CLI at capped CRF 26", f"{totals['quality'] / 1000:.0f}",
            f"{totals['cli'] / 1000:.0f} (CLI)", r.ratio(totals["quality"], totals["cli"]), "", None)
        row("q. every rung: mean SSIM against the CLI at capped CRF 26", f"{mean['quality']:.4f}", f"{mean['cli']:.4f} (CLI)",
            r.ratio(mean["quality"], mean["cli"]), "", None)
    wall = r.ratio(walls["quality"], walls["fixed"])
    row("q. every clip: wall time (s)", f"{walls['quality']:.2f}", f"{walls['fixed']:.2f} (fixed)", wall, "≤ 1.15×",
        wall <= 1.15 if wall is not None else None)
    share = r.ratio(analysis, walls["quality"])
    row("q. every clip: the analysis (s)", f"{analysis:.2f}", f"{walls['quality']:.2f} (quality's wall)", share,
        "≤ 0.15×", share <= 0.15 if share is not None else None)
    return out


def note(r):
    return ("Each clip is transcoded by `vod transcode` with the bench's ladder, once with `--rate-control fixed` "
            "(each rung at its bitrate, maxrate 1.1 ×) and once with `--rate-control quality` (the default: x264 CRF capped by VBV at each "
            "rung's bitrate, the CRF chosen per title by SSIM-scored sample encodes; docs/engine.md, Rate control). "
            "Video bytes are the sum of the video packets of a rung's segments (ffprobe); SSIM is the `All` of "
            "ffmpeg's `ssim` filter for the rung, read back through its media playlist, against the source scaled "
            "to the rung's size with bicubic. Wall time from `/usr/bin/time`; the analysis's time is what "
            "`vod transcode` prints. Clips: the natural ones of `../shared/media/natural/` (full mode only), a still "
            "SMPTE card and `testsrc2` under strong temporal noise (lossless sources). Issue 25's anchor, the ffmpeg "
            "CLI at a plain capped CRF 26 (x264 veryfast, maxrate the rung's bitrate, a 2 s buffer, an IDR every 2 s, "
            "each rung encoded on its own from the source scaled with bicubic, once), is measured the same way; its rows "
            "have no target yet.")
