"""Section i's figures: four audio tracks as audio-only renditions, vod against the CLI, and what the extra ones cost.

Keys: i.<tool>.{wall,cpu,rss_kb} (four audio tracks into the ladder and audio-only renditions; tool: vod | ffmpeg),
i.<tool>1.{wall,cpu,rss_kb} (the same clip with its first track only, carried in every rung).
"""
import statistics

from figures import fmt_ratio, m_split

FIGURES = [("wall", "wall time (s)", 1.0, 2), ("cpu", "CPU time, user+sys (s)", 1.0, 2),
           ("rss_kb", "peak RSS (MiB)", 1 / 1024, 0)]


def title(r):
    """The heading of the section (without its ###)."""
    return "i. Alternate audio: vod vs the ffmpeg CLI"


def figures(r):
    tracks = int(r.meta.get("meta.i.tracks", "4"))
    out = ["Informational: no target.", "", "| figure | vod | ffmpeg CLI | vod / CLI |", "| --- | --- | --- | --- |"]
    for suffix, label in [("", f"{tracks} audio tracks → ladder + {tracks} audio-only renditions"),
                          ("1", "first track only, in every rung")]:
        for key, name, scale, digits in FIGURES:
            ours, ref = f"i.vod{suffix}.{key}", f"i.ffmpeg{suffix}.{key}"
            ratio = r.ratio(r.median(ours), r.median(ref))
            out.append(f"| i. {label}: {name} | {r.cell(ours, scale, digits)} | {r.cell(ref, scale, digits)} | "
                       f"{fmt_ratio(ratio)} |")
    for key, name, scale, digits in FIGURES:
        costs = [cost(r, tool, key, scale, digits) for tool in ("vod", "ffmpeg")]
        vod, ffmpeg = (c[0] for c in costs)
        ratio = vod / ffmpeg if vod is not None and ffmpeg is not None and ffmpeg > 0 else None
        out.append(f"| i. cost of the {tracks - 1} extra renditions ({tracks} tracks − 1): {name} | "
                   f"{costs[0][1]} | {costs[1][1]} | {fmt_ratio(ratio)} |")
    return out


def cost(r, tool, key, scale, digits):
    """The median with four tracks minus the median with one, and each run's own difference in small print."""
    four, one = r.values.get(f"i.{tool}.{key}"), r.values.get(f"i.{tool}1.{key}")
    if not four or not one:
        return None, "—"
    value = (statistics.median(four) - statistics.median(one)) * scale
    text = f"{value:+.{digits}f}"
    if len(four) > 1:
        text += " <sub>(runs: " + ", ".join(f"{(a - b) * scale:+.{digits}f}" for a, b in zip(four, one)) + ")</sub>"
    return value, text


def note(r):
    m = r.meta
    tracks = m.get("meta.i.tracks", "4")
    return (f"Source: {m.get('meta.i.source', '?')}. Ladder: {m.get('meta.i.ladder', '?')}. With the four tracks, "
            "`vod transcode` writes the rungs video-only and each track as an audio-only rendition (AAC-LC stereo "
            "128 kb/s 48 kHz, folders `audio_0` … `audio_3`, listed in the master as `#EXT-X-MEDIA:TYPE=AUDIO` of "
            "one group); the reference is one ffmpeg process with the video settings of a (one decode, "
            "`split`, the same scales, libx264 preset, bitrates, maxrate, bufsize, closed 2 s GOP, 6 s HLS "
            "segments), video-only rungs and the four tracks as audio-only variants of one audio group "
            "through `-var_stream_map` (`agroup:aud`, `language:`, the first `default:yes`), each encoded "
            "once with `-c:a aac -b:a 128k -ar 48000 -ac 2`. Both outputs were checked after the runs: "
            f"{len(m_split(m.get('meta.i.rungs', ''))) or '?'} video-only rungs and four `audio_N` playlists of one "
            f"AAC 48 kHz stereo stream, with in the master vod {m.get(f'meta.i.layout_vod_{tracks}', '?')}; "
            f"CLI {m.get(f'meta.i.layout_ffmpeg_{tracks}', '?')}. The one-track rows run both tools on "
            "the clip's video and first track only, as in a: vod then carries that track in every rung "
            "(it makes audio renditions only from two tracks up) and the CLI command is a's, encoding it "
            "once per rung. The cost of the extra renditions is, for each tool, the median with four "
            "tracks minus the median with one (each run's own difference in small print), the last column "
            "the ratio of vod's cost to the CLI's (— when the CLI's is not positive); it includes the "
            "change of layout (one audio encode per rung with one track, one per track with four), and "
            "the demuxing of the larger source. Each round runs vod and the CLI with four tracks, then vod and "
            "the CLI with one. Wall, CPU (user+sys) and peak RSS come from "
            "`/usr/bin/time`; no PSNR (the pictures are made as in a). Informational: no target.")
