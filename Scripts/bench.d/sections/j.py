"""Section j's figures: jobs per minute with 1, 2, 4 worker processes on PostgreSQL, against SQLite in-process.

Keys: j.sqlite.jobs_min, j.pg<N>.jobs_min.
"""
from figures import fmt_ratio, m_split


def title(r):
    """The heading of the section (without its ###)."""
    return "j. Scale-out: `vod worker` processes on PostgreSQL"


def figures(r):
    cores = r.meta.get("meta.machine.cores", "?")
    out = [f"Informational: no target. {cores} cores; each worker runs x264 with `--threads 1`.", "",
           "| transcoders | jobs per minute | vs SQLite in-process | scaling efficiency |",
           "| --- | --- | --- | --- |"]
    sqlite, one = r.median("j.sqlite.jobs_min"), r.median("j.pg1.jobs_min")
    out.append(f"| one in-process worker, SQLite (`vod serve`) | {r.cell('j.sqlite.jobs_min', digits=1)} | 1.00× | — |")
    for count in m_split(r.meta.get("meta.j.workers", "")):
        key = f"j.pg{count}.jobs_min"
        rate = r.median(key)
        efficiency = rate / (int(count) * one) if rate is not None and one else None
        out.append(f"| {count} `vod worker` process{'es' if count != '1' else ''}, PostgreSQL | "
                   f"{r.cell(key, digits=1)} | {fmt_ratio(r.ratio(rate, sqlite))} | "
                   f"{f'{efficiency:.0%}' if efficiency is not None else '—'} |")
    return out


def note(r):
    m = r.meta
    return (f"{m.get('meta.j.clip', '?')} are imported (`vod import`) into a fresh catalog with nothing running; "
            "then the transcoders start and the round is timed until `GET /api/media?status=ready` lists every "
            "item: N `vod worker` processes (`--threads 1`, one job each at a time) with an API node "
            f"(`vod serve --workers 0`) on a throwaway {m.get('meta.j.postgres', 'PostgreSQL')} (Debian's initdb "
            "and pg_ctl, loopback), or one `vod serve` with its in-process worker (default threads) on SQLite. Jobs "
            "per minute is the number of items × 60 / that time, start-up included. The scaling efficiency of N "
            "workers is their rate / (N × the rate of one).")
