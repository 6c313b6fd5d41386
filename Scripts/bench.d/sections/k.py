"""Section k's figures: time to playable and to ready by source length, backend and number of transcoders.

Keys: k.<seconds>s.<backend><N>.{playable_s,ready_s} (backend: sqlite | postgres).
"""
from figures import fmt_ratio, m_split


def title(r):
    """The heading of the section (without its ###)."""
    return "k. Split and stitch: time to playable and to ready"


def figures(r):
    cores = r.meta.get("meta.machine.cores", "?")
    out = [f"{cores} cores; sources {r.meta.get('meta.k.size', '?')}; split: "
           f"{r.meta.get('meta.k.split', '?')}. Mux's published medians (2023) for comparison: "
           "playable 2 s for clips under a minute, 9 s for 5–20 minute files. Target: playable within 10 s "
           "whatever the length.", "",
           "| source | transcoders | playable (s) | ready (s) | ready vs 1 worker | playable ≤ 10 s |",
           "| --- | --- | --- | --- | --- | --- |"]
    for seconds in m_split(r.meta.get("meta.k.lengths", "")):
        length = f"{int(seconds) // 60} min" if int(seconds) >= 60 else f"{seconds} s"
        for backend, label in (("sqlite", "in-process, SQLite"), ("postgres", "`vod worker`, PostgreSQL")):
            one = r.median(f"k.{seconds}s.{backend}1.ready_s")
            for count in m_split(r.meta.get("meta.k.workers", "")):
                key = f"k.{seconds}s.{backend}{count}"
                ready, playable = r.median(f"{key}.ready_s"), r.median(f"{key}.playable_s")
                verdict = "—" if playable is None else ("pass" if playable <= 10 else "**fail**")
                out.append(f"| {length} | {count} {label} | {r.cell(f'{key}.playable_s')} | "
                           f"{r.cell(f'{key}.ready_s')} | {fmt_ratio(r.ratio(ready, one))} | {verdict} |")
    return out


def note(r):
    return ("For each source length, backend and number of transcoders, a fresh catalog: `vod serve "
            "--workers N` on SQLite, or an API node (`vod serve --workers 0`) and N `vod worker` processes "
            "(default threads) on the throwaway PostgreSQL; one upload with curl (`-T`, raw `video/mp4`), "
            "then `GET /api/media/$ID` every 0.2 s from curl's return until `\"playable\": true` and until "
            "`ready`. Sources are synthetic (the test pattern of a with a tone), the ladder vod's default "
            "(one 720p rung for a 720p source). Titles up to the split threshold are transcoded whole (with "
            "progressive publishing); longer ones are split, the first chunk one segment, and their chunks "
            "spread over the N transcoders.")
