"""Section g's figures: the ladder from a 1080i source, vod against the ffmpeg CLI with the same deinterlacer.

Keys: as section a's, under g.
"""
from figures import CLI_HEADER


def title(r):
    """The heading of the section (without its ###)."""
    return "g. Interlaced (1080i) source: vod vs the ffmpeg CLI"


def figures(r):
    return CLI_HEADER + r.ladder_rows(
        "g", "g. 1080i ladder", "≤ 0.9× the CLI", 0.9, psnr_gates_wall=False,
        psnr_target="≥ the CLI − 0.1 dB", rss_target="")


def note(r):
    m = r.meta
    return (f"Source: {m.get('meta.g.source', '?')}. Ladder: {m.get('meta.g.ladder', '?')}. vod deinterlaces "
            "once, at source size, one frame per frame (25 fps progressive), before its rungs scale the picture; "
            f"the reference is one ffmpeg process that runs the same filter, `{m.get('meta.g.filter', '?')}`, "
            "before its `split`, then does as in a, with a 2 s closed GOP of 50 frames. PSNR of each rung, for "
            "both, against the same reference picture: the source through that filter at source size, scaled to "
            f"the rung's size with bicubic; Y-only PSNR: {r.psnr_y('g')}. The top rung as written (ffprobe: size, "
            "frame rate, scan of the first frame, primaries/transfer/matrix range): vod "
            f"{m.get('meta.g.top_vod', '?')}; CLI {m.get('meta.g.top_ffmpeg', '?')}.")
