"""Section f's figures: the ladder from an HDR (HLG) source, vod against the ffmpeg CLI with the same tone map.

Keys: as section a's, under f.
"""
from figures import CLI_HEADER


def title(r):
    """The heading of the section (without its ###)."""
    return "f. HDR (HLG) source: vod vs the ffmpeg CLI"


def figures(r):
    return CLI_HEADER + r.ladder_rows(
        "f", "f. HDR (HLG) ladder", "≤ 0.9× the CLI", 0.9, psnr_gates_wall=False,
        psnr_target="≥ the CLI − 0.1 dB", rss_target="")


def note(r):
    m = r.meta
    return (f"Source: {m.get('meta.f.source', '?')}. Ladder: {m.get('meta.f.ladder', '?')}. vod tone-maps the HLG "
            "picture to SDR once, at source size, before its rungs scale it; the reference is one ffmpeg process "
            f"that runs the same filter chain, `{m.get('meta.f.filter', '?')}`, before its `split`, then does as "
            "in a (the same scales, encoder settings, 2 s closed GOP, audio and HLS segments), with the output "
            "tagged BT.709 limited range (`-color_primaries bt709 -color_trc bt709 -colorspace bt709 "
            "-color_range tv`). PSNR of each rung, for both, against the same reference picture: the source "
            "through that chain at source size, scaled to the rung's size with bicubic; Y-only PSNR: "
            f"{r.psnr_y('f')}. The top rung as written (ffprobe: size, frame rate, scan of the first frame, "
            f"primaries/transfer/matrix range): vod {m.get('meta.f.top_vod', '?')}; "
            f"CLI {m.get('meta.f.top_ffmpeg', '?')}.")
