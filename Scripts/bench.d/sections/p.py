"""Section p's figures: time to playable and to ready, and the stall of a 1× player in each rendition.

Keys: p.<config>.{playable_s,ready_s,stall_max_s}, p.<config>.stall_s.<rendition> (config: sqlite1 | sqlite2 |
postgres2; a 1× player's total wait in each rendition, from when the master offered it),
p.<config>.joined_s.<rendition> (when the master first named it: at playable, or later for a rung that joins it).
"""

CONFIGS = (("sqlite1", "`vod serve` (1 in-process, the default), SQLite"),
           ("sqlite2", "`vod serve --workers 2`, SQLite"),
           ("postgres2", "API node and 2 `vod worker`, PostgreSQL"))


def title(r):
    """The heading of the section (without its ###)."""
    return "p. Playable means watchable: a 1× player from the moment a title is playable"


def figures(r):
    cores = r.meta.get("meta.machine.cores", "?")
    out = [f"{cores} cores; source {r.meta.get('meta.p.source', '?')}; split {r.meta.get('meta.p.split', '?')}. "
           "Goals: playable within 10 s of the upload, and a player that starts then waits at most 0.5 s in all, "
           "in every rendition.", "",
           "| transcoders | playable (s) | ready (s) | in the master from (s) | stall per rendition (s) "
           "| worst stall (s) | playable ≤ 10 s | stall ≤ 0.5 s |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for config, label in CONFIGS:
        stalls, joined = (", ".join(f"{key[len(prefix):]} {r.cell(key)}" for key in r.values if key.startswith(prefix))
                          for prefix in (f"p.{config}.stall_s.", f"p.{config}.joined_s."))
        playable, worst = r.median(f"p.{config}.playable_s"), r.median(f"p.{config}.stall_max_s")
        out.append(f"| {label} | {r.cell(f'p.{config}.playable_s')} | {r.cell(f'p.{config}.ready_s')} | "
                   f"{joined or '—'} | {stalls or '—'} | {r.cell(f'p.{config}.stall_max_s')} | "
                   f"{r.verdict(None if playable is None else playable <= 10)} | "
                   f"{r.verdict(None if worst is None else worst <= 0.5)} |")
    return out


def note(r):
    return ("As k, for one source at the defaults (split after 120 s, 30 s chunks): a fresh catalog "
            "and transcoders per row, one upload with curl. From curl's return, `GET /api/media/$ID` every "
            "0.1 s until `\"playable\": true`; from then a player plays every rendition of the master at "
            "`/api/media/$ID/stream` (each `#EXT-X-STREAM-INF` variant and `#EXT-X-MEDIA:TYPE=AUDIO` URI, named "
            "by its folder) at 1×: it needs segment k by its start + the `#EXTINF` durations of the "
            "segments before k + the time it has waited so far, and waits when a segment appears in its "
            "playlist later than that; a rendition the master names only later (a rung that joins it once its "
            "own publication stays ahead) is played from that moment. When each segment appears is read by "
            "polling every media playlist every 0.1 s on one kept-alive connection until it has "
            "`#EXT-X-ENDLIST`, and the master until the title is ready (the segments of a "
            "playlist's first answer count as there at the start); the stall is that wait in total "
            "(`Scripts/bench.d/playback.py`; the worst column is the largest over renditions).")
