"""Section n's figures: time to playable and to ready of a's source, with the fast start and without it.

Keys: n.<start>.{playable_s,ready_s} (start: fast | slow).
"""
from figures import fmt_ratio


def title(r):
    """The heading of the section (without its ###)."""
    return "n. Fast start: time to playable of the top of the ladder"


def figures(r):
    cores = r.meta.get("meta.machine.cores", "?")
    out = [f"{cores} cores; source {r.meta.get('meta.n.source', '?')}; one in-process transcoder on SQLite, "
           "not split. Target: playable within 10 s of the upload.", "",
           "| first segment | playable (s) | ready (s) | playable vs without | playable ≤ 10 s |",
           "| --- | --- | --- | --- | --- |"]
    without = r.median("n.slow.playable_s")
    for key, label in (("fast", "2 s, superfast (the default)"),
                       ("slow", "6 s, the rung's preset (`--first-segment-duration 6 --start-preset veryfast`)")):
        playable = r.median(f"n.{key}.playable_s")
        out.append(f"| {label} | {r.cell(f'n.{key}.playable_s')} | {r.cell(f'n.{key}.ready_s')} | "
                   f"{fmt_ratio(r.ratio(playable, without))} | "
                   f"{r.verdict(None if playable is None else playable <= 10)} |")
    return out


def note(r):
    return ("As k (one fresh `vod serve --workers 1` on SQLite per run, one upload, the same polling), "
            "for the source of a, alternating a server with the defaults and one with "
            "`--first-segment-duration 6 --start-preset veryfast`, which is how every title started before "
            "the fast start.")
