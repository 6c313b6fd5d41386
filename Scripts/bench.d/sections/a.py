"""Section a's figures: the ladder transcode, vod against one ffmpeg CLI process.

Keys: a.<tool>.{wall,cpu,rss_kb}, a.<tool>.psnr.<rung>, a.<tool>.psnr_y.<rung> (tool: vod | ffmpeg).
"""
from figures import COMPARISON_HEADER


def title(r):
    """The heading of the section (without its ###)."""
    return "a. Ladder transcode: vod vs the ffmpeg CLI"


def figures(r):
    return COMPARISON_HEADER + r.ladder_rows(
        "a", "a. ladder", "≤ 0.85× with every PSNR ≥ ffmpeg − 0.1 dB", 0.85, psnr_gates_wall=True,
        psnr_target="≥ ffmpeg − 0.1 dB", rss_target="≤ 1.0×")


def note(r):
    m = r.meta
    return (f"Source: {m.get('meta.a.source', '?')}. Ladder: {m.get('meta.a.ladder', '?')}. The reference is one "
            "ffmpeg process (one decode, `split`, the same scales, libx264 with the same preset, bitrates, maxrate, "
            "bufsize and closed 2 s GOP (vod with `--rate-control fixed`, the reference's rate control; section q "
            "measures the default, capped constant quality), AAC-LC 128 kb/s 48 kHz encoded once per rung as the CLI must, 6 s HLS "
            "segments). Wall, CPU (user+sys) and peak RSS come from `/usr/bin/time`. PSNR is the `average` "
            "(all planes) of ffmpeg's `psnr` filter for each rung, read back through its media playlist, "
            f"against the source scaled to the rung's size with bicubic; Y-only PSNR: {r.psnr_y('a')}.")
