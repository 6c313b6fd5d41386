#!/usr/bin/env python3
"""Renders the results Scripts/bench recorded into BENCHMARKS.md.

The results file has one `key<TAB>value` line per measurement; a key measured in several runs has several
lines, in run order, and the report shows their median. Keys:
  meta.*            single values (machine, versions, settings), last one wins
  cmd.<label>       the exact commands, in the order they were first run
  a.<tool>.{wall,cpu,rss_kb}, a.<tool>.psnr.<rung>, a.<tool>.psnr_y.<rung>     tool: vod | ffmpeg
  f.*, g.*          as a.* (f: HDR HLG source, g: 1080i source)
  b.<file>.<server>.{rps,p99_ms}                                               file: segment | playlist
  c.vod.{mibps,rss_growth_kb}, c.dd.mibps
  d.{ready_s,playable_s,first_segment_s,first_complete_s}
  e.<seconds>.{wall,cpu,rss_kb}
  h.cold_s, h.warm_s  GET /api/media: the first request after start (one run), the requests after it
  i.<tool>.{wall,cpu,rss_kb}    four audio tracks into the ladder + audio-only renditions; tool: vod | ffmpeg
  i.<tool>1.{wall,cpu,rss_kb}   the same clip with its first track only (carried in every rung)
  p.<config>.{playable_s,ready_s,stall_max_s}, p.<config>.stall_s.<rendition>
                    config: sqlite1 | sqlite2 | postgres2; a 1× player's total wait in each rendition
  na.<section>      why a section was not available;  error.<section>  why it failed
"""
import statistics
import sys
from collections import OrderedDict


def load(path):
    values, meta, commands = OrderedDict(), {}, OrderedDict()
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or "\t" not in line:
            continue
        key, value = line.split("\t", 1)
        if key.startswith("cmd."):
            commands.setdefault(key[4:], value)
        elif key.startswith(("meta.", "na.", "error.")):
            meta[key] = value
        else:
            values.setdefault(key, []).append(float(value))
    return values, meta, commands


class Report:
    def __init__(self, values, meta, commands):
        self.values, self.meta, self.commands = values, meta, commands
        self.quick = meta.get("meta.mode") == "quick"

    def median(self, key):
        runs = self.values.get(key)
        return statistics.median(runs) if runs else None

    def cell(self, key, scale=1.0, digits=2):
        """The median with every run in parentheses when there were several."""
        runs = self.values.get(key)
        if not runs:
            return "—"
        text = f"{statistics.median(runs) * scale:.{digits}f}"
        if len(runs) > 1:
            text += " <sub>(" + ", ".join(f"{r * scale:.{digits}f}" for r in runs) + ")</sub>"
        return text

    @staticmethod
    def ratio(a, b):
        return a / b if a is not None and b not in (None, 0) else None

    def verdict(self, ok):
        if ok is None:
            return "—"
        return ("pass" if ok else "**fail**") + (" (quick: not asserted)" if self.quick else "")

    def unavailable(self, section):
        for prefix in ("error.", "na."):
            reason = self.meta.get(prefix + section)
            if reason:
                if reason.startswith("not run"):
                    return reason
                label = "**error**" if prefix == "error." else "not available"
                return f"{label}: {reason}"
        return None

    def render(self):
        m, out = self.meta, []
        mode = "quick (`--quick`: tiny sources, 1 run, short wrk; proves the bench runs, figures mean nothing)" \
            if self.quick else "full"
        out += [
            "# Benchmarks",
            "",
            f"Written by `Scripts/bench{' --quick' if self.quick else ''}` on {m.get('meta.date', '?')}, "
            f"mode {mode}, in one run of {m.get('meta.elapsed', '?')}. Every figure is the median of "
            f"{m.get('meta.runs', '?')} run(s), taken alternately (vod, reference, vod, reference, …); the runs "
            "are in small print after it. Reproduce with `Scripts/bench` (see `Scripts/bench --help`).",
            "",
            "## Machine and versions",
            "",
            "| | |",
            "| --- | --- |",
        ]
        for key, label in [
            ("meta.machine.cpu", "CPU"), ("meta.machine.cores", "cores"), ("meta.machine.memory", "memory"),
            ("meta.machine.kernel", "kernel"), ("meta.machine.os", "OS"),
            ("meta.machine.load_start", "load average at start"), ("meta.machine.load_end", "load average at end"),
            ("meta.version.vod", "vod"), ("meta.version.swift", "swift"), ("meta.version.ffmpeg", "ffmpeg"),
            ("meta.version.x264", "libx264 (used by both)"), ("meta.version.nginx", "nginx"),
            ("meta.version.wrk", "wrk"), ("meta.version.curl", "curl"),
        ]:
            if key in m:
                out.append(f"| {label} | {m[key]} |")
        out += ["", "## Results", ""]
        out += self.summary()
        out += self.details()
        out += ["", "## Commands", "",
                "`$WORK` is the run's temporary folder (removed at the end), `$CACHE` is `.bench-cache/`, "
                "`$PORT`/`$NGINX_PORT` free loopback ports, `$ID` the media id the server returned.", ""]
        for label, command in self.commands.items():
            out += [f"- {label}:", "", "  ```sh", f"  {command}", "  ```", ""]
        return "\n".join(out).rstrip() + "\n"

    def summary(self):
        out = ["### a–c. Against the reference", "",
               "| figure | vod | reference | vod / reference | target | result |",
               "| --- | --- | --- | --- | --- | --- |"]

        def row(figure, ours, ref, ratio_text, target, ok):
            out.append(f"| {figure} | {ours} | {ref} | {ratio_text} | {target} | {self.verdict(ok)} |")

        def fmt_ratio(r):
            return f"{r:.2f}×" if r is not None else "—"

        # a. Ladder transcode
        out += self.ladder_rows("a", "a. ladder", "≤ 0.85× with every PSNR ≥ ffmpeg − 0.1 dB", 0.85,
                                psnr_gates_wall=True, psnr_target="≥ ffmpeg − 0.1 dB", rss_target="≤ 1.0×")

        # b. Serving
        reason = self.unavailable("b")
        if reason:
            out.append(f"| b. serving | {reason} | | | | |")
        else:
            size = self.meta.get("meta.b.segment_bytes")
            size_text = f"{int(size) / 1e6:.2f} MB segment" if size else "segment"
            first = self.meta.get("meta.b.first_bytes")
            first_text = f"first (2 s) segment, {int(first) / 1e6:.2f} MB" if first else "first (2 s) segment"
            for kind, label, target in [("segment", size_text, 1.0), ("first", first_text, 1.0),
                                        ("playlist", "media playlist", 0.8),
                                        ("live", "media playlist of a title still processing", 0.8)]:
                r = self.ratio(self.median(f"b.{kind}.vod.rps"), self.median(f"b.{kind}.nginx.rps"))
                row(f"b. {label}: req/s", self.cell(f"b.{kind}.vod.rps", digits=0),
                    self.cell(f"b.{kind}.nginx.rps", digits=0), fmt_ratio(r), f"≥ {target:.1f}× nginx",
                    r >= target if r is not None else None)
                r = self.ratio(self.median(f"b.{kind}.vod.p99_ms"), self.median(f"b.{kind}.nginx.p99_ms"))
                row(f"b. {label}: p99 latency (ms)", self.cell(f"b.{kind}.vod.p99_ms"),
                    self.cell(f"b.{kind}.nginx.p99_ms"), fmt_ratio(r), "", None)

        # c. Upload
        reason = self.unavailable("c")
        if reason:
            out.append(f"| c. upload | {reason} | | | | |")
        else:
            mib = self.meta.get("meta.c.body_mib", "?")
            r = self.ratio(self.median("c.vod.mibps"), self.median("c.dd.mibps"))
            row(f"c. upload of {mib} MiB: throughput (MiB/s)", self.cell("c.vod.mibps", digits=0),
                self.cell("c.dd.mibps", digits=0) + " (dd to the same disk)", fmt_ratio(r),
                "bounded by the disk", None)
            r = self.ratio(self.median("c.vod.mibps"), self.median("c.sink.mibps"))
            row(f"c. upload of {mib} MiB: the client bound (MiB/s)", self.cell("c.vod.mibps", digits=0),
                self.cell("c.sink.mibps", digits=0) + " (the same curl into a socket that discards)",
                fmt_ratio(r), "", None)
            growth = self.median("c.vod.rss_growth_kb")
            row(f"c. upload of {mib} MiB: server RSS growth (MiB)", self.cell("c.vod.rss_growth_kb", 1 / 1024, 1),
                "", "", "< 64 MiB for 2 GiB", growth / 1024 < 64 if growth is not None else None)
            answer = self.meta.get("meta.c.answer")
            if answer:
                out.append(f"| c. the server answered | {answer} | | | | |")

        out.append("")

        # d. Time to ready
        out += ["### d. Time to ready", ""]
        reason = self.unavailable("d")
        if reason:
            out.append(f"{reason}")
        else:
            clip = self.meta.get("meta.d.clip", "clip")
            out += [f"| {clip}, from the end of the upload to | seconds |", "| --- | --- |",
                    f"| the first segment file created on disk | {self.cell('d.first_segment_s')} |",
                    f"| the first segment complete on disk | {self.cell('d.first_complete_s')} |",
                    f"| `\"playable\": true` (the stream plays while processing) | {self.cell('d.playable_s')} |",
                    f"| `\"status\": \"ready\"` | {self.cell('d.ready_s')} |"]
        out.append("")

        # e. Scale with length
        out += ["### e. Scale with length", ""]
        reason = self.unavailable("e")
        if reason:
            out.append(f"{reason}")
        else:
            lengths = sorted({int(k.split(".")[1]) for k in self.values if k.startswith("e.")})
            out += [f"| {self.meta.get('meta.e.size', '')} clip | transcode time (s) | s per source second "
                    "| CPU time (s) | peak RSS (MiB) | vs the shortest clip |",
                    "| --- | --- | --- | --- | --- | --- |"]
            base = None
            for seconds in lengths:
                wall, rss = self.median(f"e.{seconds}.wall"), self.median(f"e.{seconds}.rss_kb")
                per = wall / seconds if wall is not None else None
                note = "—"
                if base is None:
                    base = (per, rss)
                elif per is not None and rss is not None:
                    note = f"{per / base[0]:.2f}× the time per second, {rss / base[1]:.2f}× the RSS"
                out.append(f"| {seconds} s | {self.cell(f'e.{seconds}.wall')} | "
                           f"{per:.3f} | {self.cell(f'e.{seconds}.cpu')} | "
                           f"{self.cell(f'e.{seconds}.rss_kb', 1 / 1024, 0)} | {note} |")
        out.append("")

        # f, g. The ladder from HDR and interlaced sources
        out += ["### f–g. HDR and interlaced sources: vod vs the ffmpeg CLI", "",
                "| figure | vod | ffmpeg CLI | vod / CLI | target | result |",
                "| --- | --- | --- | --- | --- | --- |"]
        for section, label in [("f", "f. HDR (HLG) ladder"), ("g", "g. 1080i ladder")]:
            out += self.ladder_rows(section, label, "≤ 0.9× the CLI", 0.9, psnr_gates_wall=False,
                                    psnr_target="≥ the CLI − 0.1 dB", rss_target="")
        out.append("")

        # h. The list of every item
        out += self.list_rows()
        out.append("")

        # l, m. Resumable uploads and status events
        out += self.resumable_rows()
        out.append("")
        out += self.event_rows()
        out.append("")

        # i. Alternate audio
        out += self.alt_audio_rows()
        out.append("")

        # j. Scale-out
        out += self.scale_rows()
        out += [""] + self.split_rows()
        out += [""] + self.fast_start_rows()
        out += [""] + self.watchable_rows()
        return out

    def watchable_rows(self):
        """Section p: time to playable and to ready, and the stall of a 1× player in each rendition."""
        out = ["### p. Playable means watchable: a 1× player from the moment a title is playable", ""]
        reason = self.unavailable("p")
        if reason:
            return out + [reason]
        cores = self.meta.get("meta.machine.cores", "?")
        out += [f"{cores} cores; source {self.meta.get('meta.p.source', '?')}; split {self.meta.get('meta.p.split', '?')}. Goals: "
                "playable within 10 s of the upload, and a player that starts then waits at most 0.5 s in all, "
                "in every rendition.", "",
                "| transcoders | playable (s) | ready (s) | stall per rendition (s) | worst stall (s) "
                "| playable ≤ 10 s | stall ≤ 0.5 s |",
                "| --- | --- | --- | --- | --- | --- | --- |"]
        for config, label in (("sqlite1", "`vod serve` (1 in-process, the default), SQLite"),
                              ("sqlite2", "`vod serve --workers 2`, SQLite"),
                              ("postgres2", "API node and 2 `vod worker`, PostgreSQL")):
            prefix = f"p.{config}.stall_s."
            stalls = ", ".join(f"{key[len(prefix):]} {self.cell(key)}" for key in self.values if key.startswith(prefix))
            playable, worst = self.median(f"p.{config}.playable_s"), self.median(f"p.{config}.stall_max_s")
            out.append(f"| {label} | {self.cell(f'p.{config}.playable_s')} | {self.cell(f'p.{config}.ready_s')} | "
                       f"{stalls or '—'} | {self.cell(f'p.{config}.stall_max_s')} | "
                       f"{self.verdict(None if playable is None else playable <= 10)} | "
                       f"{self.verdict(None if worst is None else worst <= 0.5)} |")
        return out

    def fast_start_rows(self):
        """Section n: time to playable and to ready of a's source, with the fast start and without it."""
        out = ["### n. Fast start: time to playable of the top of the ladder", ""]
        reason = self.unavailable("n")
        if reason:
            return out + [reason]
        cores = self.meta.get("meta.machine.cores", "?")
        out += [f"{cores} cores; source {self.meta.get('meta.n.source', '?')}; one in-process transcoder on SQLite, "
                "not split. Target: playable within 10 s of the upload.", "",
                "| first segment | playable (s) | ready (s) | playable vs without | playable ≤ 10 s |",
                "| --- | --- | --- | --- | --- |"]
        without = self.median("n.slow.playable_s")
        for key, label in (("fast", "2 s, superfast (the default)"), ("slow", "6 s, the rung's preset (`--first-segment-duration 6 --start-preset veryfast`)")):
            playable = self.median(f"n.{key}.playable_s")
            versus = self.ratio(playable, without)
            out.append(f"| {label} | {self.cell(f'n.{key}.playable_s')} | {self.cell(f'n.{key}.ready_s')} | "
                       f"{f'{versus:.2f}×' if versus is not None else '—'} | {self.verdict(None if playable is None else playable <= 10)} |")
        return out

    def split_rows(self):
        """Section k: time to playable and to ready by source length, backend and number of workers."""
        out = ["### k. Split and stitch: time to playable and to ready", ""]
        reason = self.unavailable("k")
        if reason:
            return out + [reason]
        cores = self.meta.get("meta.machine.cores", "?")
        out += [f"{cores} cores; sources {self.meta.get('meta.k.size', '?')}; split: "
                f"{self.meta.get('meta.k.split', '?')}. Mux's published medians (2023) for comparison: "
                "playable 2 s for clips under a minute, 9 s for 5–20 minute files. Target: playable within 10 s "
                "whatever the length.", "",
                "| source | transcoders | playable (s) | ready (s) | ready vs 1 worker | playable ≤ 10 s |",
                "| --- | --- | --- | --- | --- | --- |"]
        for seconds in m_split(self.meta.get("meta.k.lengths", "")):
            length = f"{int(seconds) // 60} min" if int(seconds) >= 60 else f"{seconds} s"
            for backend, label in (("sqlite", "in-process, SQLite"), ("postgres", "`vod worker`, PostgreSQL")):
                one = self.median(f"k.{seconds}s.{backend}1.ready_s")
                for count in m_split(self.meta.get("meta.k.workers", "")):
                    key = f"k.{seconds}s.{backend}{count}"
                    ready, playable = self.median(f"{key}.ready_s"), self.median(f"{key}.playable_s")
                    versus = self.ratio(ready, one)
                    verdict = "—" if playable is None else ("pass" if playable <= 10 else "**fail**")
                    out.append(f"| {length} | {count} {label} | {self.cell(f'{key}.playable_s')} | "
                               f"{self.cell(f'{key}.ready_s')} | {f'{versus:.2f}×' if versus is not None else '—'} | {verdict} |")
        return out

    def scale_rows(self):
        """Section j: jobs per minute with 1, 2, 4 worker processes on PostgreSQL, against SQLite in-process."""
        out = ["### j. Scale-out: `vod worker` processes on PostgreSQL", ""]
        reason = self.unavailable("j")
        if reason:
            return out + [reason]
        cores = self.meta.get("meta.machine.cores", "?")
        out += [f"Informational: no target. {cores} cores; each worker runs x264 with `--threads 1`.", "",
                "| transcoders | jobs per minute | vs SQLite in-process | scaling efficiency |",
                "| --- | --- | --- | --- |"]
        sqlite, one = self.median("j.sqlite.jobs_min"), self.median("j.pg1.jobs_min")
        out.append(f"| one in-process worker, SQLite (`vod serve`) | {self.cell('j.sqlite.jobs_min', digits=1)} | 1.00× | — |")
        for count in m_split(self.meta.get("meta.j.workers", "")):
            key = f"j.pg{count}.jobs_min"
            rate = self.median(key)
            versus = self.ratio(rate, sqlite)
            efficiency = rate / (int(count) * one) if rate is not None and one else None
            out.append(f"| {count} `vod worker` process{'es' if count != '1' else ''}, PostgreSQL | "
                       f"{self.cell(key, digits=1)} | {f'{versus:.2f}×' if versus is not None else '—'} | "
                       f"{f'{efficiency:.0%}' if efficiency is not None else '—'} |")
        return out

    def alt_audio_rows(self):
        """Section i: four audio tracks as audio-only renditions, vod vs the CLI, and what the extra ones cost."""
        tracks = int(self.meta.get("meta.i.tracks", "4"))
        out = ["### i. Alternate audio: vod vs the ffmpeg CLI", ""]
        reason = self.unavailable("i")
        if reason:
            return out + [reason]
        out += ["Informational: no target.", "",
                "| figure | vod | ffmpeg CLI | vod / CLI |", "| --- | --- | --- | --- |"]

        def fmt_ratio(r):
            return f"{r:.2f}×" if r is not None else "—"

        figures = [("wall", "wall time (s)", 1.0, 2), ("cpu", "CPU time, user+sys (s)", 1.0, 2),
                   ("rss_kb", "peak RSS (MiB)", 1 / 1024, 0)]
        for suffix, label in [("", f"{tracks} audio tracks → ladder + {tracks} audio-only renditions"),
                              ("1", "first track only, in every rung")]:
            for key, name, scale, digits in figures:
                ours, ref = f"i.vod{suffix}.{key}", f"i.ffmpeg{suffix}.{key}"
                r = self.ratio(self.median(ours), self.median(ref))
                out.append(f"| i. {label}: {name} | {self.cell(ours, scale, digits)} | "
                           f"{self.cell(ref, scale, digits)} | {fmt_ratio(r)} |")
        for key, name, scale, digits in figures:
            costs = [self.cost(tool, key, scale, digits) for tool in ("vod", "ffmpeg")]
            vod, ffmpeg = (c[0] for c in costs)
            r = vod / ffmpeg if vod is not None and ffmpeg is not None and ffmpeg > 0 else None
            out.append(f"| i. cost of the {tracks - 1} extra renditions ({tracks} tracks − 1): {name} | "
                       f"{costs[0][1]} | {costs[1][1]} | {fmt_ratio(r)} |")
        return out

    def cost(self, tool, key, scale, digits):
        """The median with four tracks minus the median with one, and each run's own difference in small print."""
        four, one = self.values.get(f"i.{tool}.{key}"), self.values.get(f"i.{tool}1.{key}")
        if not four or not one:
            return None, "—"
        value = (statistics.median(four) - statistics.median(one)) * scale
        text = f"{value:+.{digits}f}"
        if len(four) > 1:
            text += " <sub>(runs: " + ", ".join(f"{(a - b) * scale:+.{digits}f}" for a, b in zip(four, one)) + ")</sub>"
        return value, text

    def list_rows(self):
        """Section h: GET /api/media on a large catalog, cold and warm, against an absolute target."""
        items = self.meta.get("meta.h.items")
        out = [f"### h. List of {int(items):,} items" if items else "### h. List of every item", ""]
        reason = self.unavailable("h")
        if reason:
            return out + [reason]
        size = self.meta.get("meta.h.body_bytes")
        size_text = f", {int(size) / 1e6:.1f} MB of JSON" if size else ""
        warm = self.values.get("h.warm_s", [])
        warm_text = self.cell("h.warm_s", digits=3) if len(warm) < 2 else (
            f"{statistics.median(warm):.3f} <sub>({len(warm)} requests: {min(warm):.3f}–{max(warm):.3f})</sub>")
        out += [f"| `GET /api/media`, every item{size_text} | seconds | target | result |",
                "| --- | --- | --- | --- |"]
        for label, key, text in [
            ("cold: the first request after the server started", "h.cold_s", self.cell("h.cold_s", digits=3)),
            (f"warm: the median of the {len(warm)} requests after it", "h.warm_s", warm_text),
        ]:
            median = self.median(key)
            out.append(f"| {label} | {text} | well under 1 s | "
                       f"{self.verdict(median < 1.0 if median is not None else None)} |")
        return out

    def resumable_rows(self):
        """Section l: the same body through tus and as a multipart form."""
        mib = self.meta.get("meta.l.body_mib", "?")
        out = [f"### l. Resumable upload of {mib} MiB: tus against multipart", ""]
        reason = self.unavailable("l")
        if reason:
            return out + [reason]
        chunk = self.meta.get("meta.l.chunk_mib", "?")
        out += ["| figure | tus | multipart | tus / multipart | target | result |", "| --- | --- | --- | --- | --- | --- |"]
        r = self.ratio(self.median("l.tus.mibps"), self.median("l.multipart.mibps"))
        out.append(f"| throughput (MiB/s), tus in PATCHes of {chunk} MiB | {self.cell('l.tus.mibps', digits=0)} | "
                   f"{self.cell('l.multipart.mibps', digits=0)} | {f'{r:.2f}×' if r is not None else '—'} | | |")
        growth = self.median("l.tus.rss_growth_kb")
        out.append(f"| server RSS growth (MiB) | {self.cell('l.tus.rss_growth_kb', 1 / 1024, 1)} | "
                   f"{self.cell('l.multipart.rss_growth_kb', 1 / 1024, 1)} | | < 64 MiB for 2 GiB | "
                   f"{self.verdict(growth / 1024 < 64 if growth is not None else None)} |")
        out.append(f"| the last answer (the body is zeros, not media) | {self.meta.get('meta.l.tus_answer', '?')} | "
                   f"{self.meta.get('meta.l.multipart_answer', '?')} | | | |")
        return out

    def event_rows(self):
        """Section m: SSE clients on /api/events while a clip is transcoded."""
        clients = self.meta.get("meta.m.clients")
        out = [f"### m. Status events to {int(clients):,} SSE clients" if clients else "### m. Status events", ""]
        reason = self.unavailable("m")
        if reason:
            return out + [reason]
        out += [f"| {self.meta.get('meta.m.clip', 'clip')} uploaded while they listen | value | target | result |",
                "| --- | --- | --- | --- |",
                f"| server memory per connected client (KiB of RSS) | {self.cell('m.rss_per_client_kb', digits=1)} | | |"]
        for key, label in [("m.delay_ms_median", "median"), ("m.delay_ms_p99", "99th percentile"), ("m.delay_ms_max", "largest")]:
            value = self.median(key)
            target, ok = ("< 1 s", value < 1000 if value is not None else None) if key == "m.delay_ms_p99" else ("", None)
            out.append(f"| event delay from its creation to a client, {label} (ms) | {self.cell(key, digits=0)} | "
                       f"{target} | {self.verdict(ok)} |")
        out.append(f"| events received, all clients | {self.meta.get('meta.m.events', '?')} | | |")
        out.append(f"| clients that saw the title become ready | {self.meta.get('meta.m.finished', '?')} | | |")
        return out

    def ladder_rows(self, section, label, wall_target, wall_limit, psnr_gates_wall, psnr_target, rss_target):
        """The rows of a ladder comparison (sections a, f, g): wall, CPU, peak RSS, then PSNR per rung."""
        reason = self.unavailable(section)
        if reason:
            return [f"| {label} transcode | {reason} | | | | |"]
        out, rows, psnr_ok = [], [], None

        def row(figure, ours, ref, ratio_text, target, ok):
            out.append(f"| {figure} | {ours} | {ref} | {ratio_text} | {target} | {self.verdict(ok)} |")

        def fmt_ratio(r):
            return f"{r:.2f}×" if r is not None else "—"

        for rung in m_split(self.meta.get(f"meta.{section}.rungs", "")):
            ours, ref = self.median(f"{section}.vod.psnr.{rung}"), self.median(f"{section}.ffmpeg.psnr.{rung}")
            ok = ours >= ref - 0.1 if ours is not None and ref is not None else None
            if ok is not None:
                psnr_ok = ok if psnr_ok is None else (psnr_ok and ok)
            diff = f"{ours - ref:+.2f} dB" if ok is not None else "—"
            rows.append((f"{section}. PSNR {rung} (dB, all planes)", self.cell(f"{section}.vod.psnr.{rung}"),
                         self.cell(f"{section}.ffmpeg.psnr.{rung}"), diff, psnr_target, ok))
        wall = self.ratio(self.median(f"{section}.vod.wall"), self.median(f"{section}.ffmpeg.wall"))
        wall_ok = None
        if wall is not None:
            wall_ok = wall <= wall_limit and (psnr_ok is not False or not psnr_gates_wall)
        row(f"{label} wall time (s)", self.cell(f"{section}.vod.wall"), self.cell(f"{section}.ffmpeg.wall"),
            fmt_ratio(wall), wall_target, wall_ok)
        cpu = self.ratio(self.median(f"{section}.vod.cpu"), self.median(f"{section}.ffmpeg.cpu"))
        row(f"{label} CPU time, user+sys (s)", self.cell(f"{section}.vod.cpu"), self.cell(f"{section}.ffmpeg.cpu"),
            fmt_ratio(cpu), "", None)
        rss = self.ratio(self.median(f"{section}.vod.rss_kb"), self.median(f"{section}.ffmpeg.rss_kb"))
        row(f"{label} peak RSS (MiB)", self.cell(f"{section}.vod.rss_kb", 1 / 1024, 0),
            self.cell(f"{section}.ffmpeg.rss_kb", 1 / 1024, 0), fmt_ratio(rss), rss_target,
            rss <= 1.0 if rss is not None and rss_target else None)
        for r in rows:
            row(*r)
        return out

    def details(self):
        m, out = self.meta, ["", "### Notes", ""]
        notes = [
            ("a", "**a.** Source: {src}. Ladder: {ladder}. The reference is one ffmpeg process "
                  "(one decode, `split`, the same scales, libx264 with the same preset, bitrates, maxrate, bufsize "
                  "and closed 2 s GOP, AAC-LC 128 kb/s 48 kHz encoded once per rung as the CLI must, 6 s HLS "
                  "segments). Wall, CPU (user+sys) and peak RSS come from `/usr/bin/time`. PSNR is the `average` "
                  "(all planes) of ffmpeg's `psnr` filter for each rung, read back through its media playlist, "
                  "against the source scaled to the rung's size with bicubic; Y-only PSNR: {psnr_y}."),
            ("b", "**b.** `wrk` on loopback with {wrk}, against `vod serve` (`/api/media/$ID/stream/<rung>/...`) and "
                  "against nginx {nginx_note}, both serving the rendition that section d produced; `vod serve` is "
                  "started afresh on that catalog, so it is idle (nothing queued) like nginx, with its default "
                  "256 MiB segment cache. The segment is "
                  "`{segment}` ({segment_bytes} bytes), the first segment of its rung `{first}` ({first_bytes} bytes), "
                  "the playlist `{playlist}` ({playlist_bytes} bytes); both "
                  "servers were checked to return the same bytes before measuring. The playlist of a title still "
                  "processing is the same file, served by a server started again on that catalog with `--workers 0` "
                  "after the item's row was set back to processing under a day's lease of another worker "
                  "(`Scripts/bench.d/helpers.py mark-live`): vod then serves it as it serves a title being "
                  "transcoded (checked against the file's inode and mtime on each request, the catalog asked at "
                  "most once a second, `Cache-Control: public, max-age=1`), and nginx serves the file as before."),
            ("c", "**c.** A {body} body of zeros (a sparse file, so the client reads it without touching the disk) "
                  "streamed with `curl -T` as `Content-Type: video/mp4` into `POST /api/media`; throughput is "
                  "body size / curl's total time, which includes the server's answer after it probed the file. "
                  "RSS growth is the server's peak RSS during the upload (VmHWM, reset through "
                  "`/proc/PID/clear_refs` before it, and 50 ms VmRSS samples) minus its VmRSS before, on a freshly "
                  "started server. The disk bound is `dd` writing the same amount to the same folder without "
                  "fsync, like the server; `sync` runs between runs. The client bound is the same curl command into a "
                  "loopback socket that reads and discards the body (`Scripts/bench.d/helpers.py http-sink`)."),
            ("d", "**d.** A {clip} uploaded with curl to a server started for each run (1 worker); times are "
                  "measured from curl's return, polling `GET /api/media/$ID` every 0.2 s and the output folder "
                  "every 20 ms (including the engine's hidden staging folder) for the first `segment_*.ts` to be created "
                  "(the engine creates a segment's file when the segment starts) and to be complete (the next "
                  "segment file or the rung's playlist exists, or the item is ready)."),
            ("e", "**e.** `vod transcode` with the default ladder on {size} clips of each length, lengths taken in "
                  "turn in each round; linear cost shows as a constant time per source second, flat memory as "
                  "the same peak RSS."),
            ("f", "**f.** Source: {f_src}. Ladder: {f_ladder}. vod tone-maps the HLG picture to SDR once, at "
                  "source size, before its rungs scale it; the reference is one ffmpeg process that runs the same "
                  "filter chain, `{f_filter}`, before its `split`, then does as in a (the same scales, encoder "
                  "settings, 2 s closed GOP, audio and HLS segments), with the output tagged BT.709 limited range "
                  "(`-color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv`). PSNR of each "
                  "rung, for both, against the same reference picture: the source through that chain at source "
                  "size, scaled to the rung's size with bicubic; Y-only PSNR: {f_psnr_y}. The top rung as "
                  "written (ffprobe: size, frame rate, scan of the first frame, primaries/transfer/matrix range): "
                  "vod {f_top_vod}; CLI {f_top_ffmpeg}."),
            ("g", "**g.** Source: {g_src}. Ladder: {g_ladder}. vod deinterlaces once, at source size, one frame "
                  "per frame (25 fps progressive), before its rungs scale the picture; the reference is one ffmpeg "
                  "process that runs the same filter, `{g_filter}`, before its `split`, then does as in a, with "
                  "a 2 s closed GOP of 50 frames. PSNR of each rung, for both, against the same reference "
                  "picture: the source through that filter at source size, scaled to the rung's size with "
                  "bicubic; Y-only PSNR: {g_psnr_y}. The top rung as written (ffprobe: size, frame rate, scan of "
                  "the first frame, primaries/transfer/matrix range): vod {g_top_vod}; CLI {g_top_ffmpeg}."),
            ("h", "**h.** A server is started on an empty folder, so that its migrations make the catalog, and "
                  "stopped; {h_items} rows are then inserted into its `media` table with python3's sqlite3 "
                  "(`Scripts/bench.d/helpers.py fill-catalog`), each `ready` with the probe JSON of "
                  "`{h_clip}` as `vod probe` prints it (stored compact with sorted keys, as ingest stores it) "
                  "and two variants (720p, 1080p), so the list decodes real stored JSON. The server is started "
                  "again on that catalog (waited for on `/health`, not on the list, then given 1 s for its "
                  "start-up work) and `GET /api/media` is timed on loopback with curl's `time_total`: the first "
                  "request (cold: the server decodes each row's stored probe and variants once; a single "
                  "request), then {h_warm} more (warm: answered from the decoded copy). Every body was checked "
                  "to be a JSON array of exactly {h_items} items, newest first, each with its variants and "
                  "source summary. No reference tool: nginx has nothing that builds a list from a catalog, so "
                  "the figures are against the target alone (pass below 1 s)."),
            ("i", "**i.** Source: {i_src}. Ladder: {i_ladder}. With the four tracks, `vod transcode` writes the "
                  "rungs video-only and each track as an audio-only rendition (AAC-LC stereo 128 kb/s 48 kHz, "
                  "folders `audio_0` … `audio_3`, listed in the master as `#EXT-X-MEDIA:TYPE=AUDIO` of one "
                  "group); the reference is one ffmpeg process with the video settings of a (one decode, "
                  "`split`, the same scales, libx264 preset, bitrates, maxrate, bufsize, closed 2 s GOP, 6 s HLS "
                  "segments), video-only rungs and the four tracks as audio-only variants of one audio group "
                  "through `-var_stream_map` (`agroup:aud`, `language:`, the first `default:yes`), each encoded "
                  "once with `-c:a aac -b:a 128k -ar 48000 -ac 2`. Both outputs were checked after the runs: "
                  "{i_rungs} video-only rungs and four `audio_N` playlists of one AAC 48 kHz stereo stream, with "
                  "in the master vod {i_layout_vod}; CLI {i_layout_ffmpeg}. The one-track rows run both tools on "
                  "the clip's video and first track only, as in a: vod then carries that track in every rung "
                  "(it makes audio renditions only from two tracks up) and the CLI command is a's, encoding it "
                  "once per rung. The cost of the extra renditions is, for each tool, the median with four "
                  "tracks minus the median with one (each run's own difference in small print), the last column "
                  "the ratio of vod's cost to the CLI's (— when the CLI's is not positive); it includes the "
                  "change of layout (one audio encode per rung with one track, one per track with four), and "
                  "the demuxing of the larger source. Each round runs vod and the CLI with four tracks, then vod and "
                  "the CLI with one. Wall, CPU (user+sys) and peak RSS come from "
                  "`/usr/bin/time`; no PSNR (the pictures are made as in a). Informational: no target."),
            ("j", "**j.** {j_clip} are imported (`vod import`) into a fresh catalog with nothing running; then the "
                  "transcoders start and the round is timed until `GET /api/media?status=ready` lists every item: "
                  "N `vod worker` processes (`--threads 1`, one job each at a time) with an API node "
                  "(`vod serve --workers 0`) on a throwaway {j_postgres} (Debian's initdb and pg_ctl, loopback), or "
                  "one `vod serve` with its in-process worker (default threads) on SQLite. Jobs per minute is the "
                  "number of items × 60 / that time, start-up included. The scaling efficiency of N workers is "
                  "their rate / (N × the rate of one)."),
            ("k", "**k.** For each source length, backend and number of transcoders, a fresh catalog: `vod serve "
                  "--workers N` on SQLite, or an API node (`vod serve --workers 0`) and N `vod worker` processes "
                  "(default threads) on the throwaway PostgreSQL; one upload with curl (`-T`, raw `video/mp4`), "
                  "then `GET /api/media/$ID` every 0.2 s from curl's return until `\"playable\": true` and until "
                  "`ready`. Sources are synthetic (the test pattern of a with a tone), the ladder vod's default "
                  "(one 720p rung for a 720p source). Titles up to the split threshold are transcoded whole (with "
                  "progressive publishing); longer ones are split, the first chunk one segment, and their chunks "
                  "spread over the N transcoders."),
            ("n", "**n.** As k (one fresh `vod serve --workers 1` on SQLite per run, one upload, the same polling), "
                  "for the source of a, alternating a server with the defaults and one with "
                  "`--first-segment-duration 6 --start-preset veryfast`, which is how every title started before "
                  "the fast start."),
            ("p", "**p.** As k, for one source at the defaults (split after 120 s, 30 s chunks): a fresh catalog "
                  "and transcoders per row, one upload with curl. From curl's return, `GET /api/media/$ID` every "
                  "0.1 s until `\"playable\": true`; from then a player plays every rendition of the master at "
                  "`/api/media/$ID/stream` (each `#EXT-X-STREAM-INF` variant and `#EXT-X-MEDIA:TYPE=AUDIO` URI, named "
                  "by its folder) at 1×: it needs segment k by its start + the `#EXTINF` durations of the "
                  "segments before k + the time it has waited so far, and waits when a segment appears in its "
                  "playlist later than that. When each segment appears is read by polling every media playlist "
                  "every 0.1 s on one kept-alive connection until it has `#EXT-X-ENDLIST` (the segments of a "
                  "playlist's first answer count as there at the start); the stall is that wait in total "
                  "(`Scripts/bench.d/playback.py`; the worst column is the largest over renditions)."),
        ]
        fields = {
            "src": m.get("meta.a.source", "?"), "ladder": m.get("meta.a.ladder", "?"), "psnr_y": self.psnr_y("a"),
            "wrk": m.get("meta.b.wrk", "?"),
            "nginx_note": m.get("meta.b.nginx", ""), "segment": m.get("meta.b.segment", "?"),
            "segment_bytes": m.get("meta.b.segment_bytes", "?"), "first": m.get("meta.b.first", "?"),
            "first_bytes": m.get("meta.b.first_bytes", "?"), "playlist": m.get("meta.b.playlist", "?"),
            "playlist_bytes": m.get("meta.b.playlist_bytes", "?"),
            "body": f"{m.get('meta.c.body_mib', '?')} MiB", "clip": m.get("meta.d.clip", "?"),
            "size": m.get("meta.e.size", "?"),
            "h_items": f"{int(m['meta.h.items']):,}" if "meta.h.items" in m else "?",
            "h_clip": m.get("meta.h.clip", "?"), "h_warm": len(self.values.get("h.warm_s", [])),
            "j_clip": m.get("meta.j.clip", "?"), "j_postgres": m.get("meta.j.postgres", "PostgreSQL"),
        }
        fields.update({
            "i_src": m.get("meta.i.source", "?"), "i_ladder": m.get("meta.i.ladder", "?"),
            "i_rungs": len(m_split(m.get("meta.i.rungs", ""))) or "?",
            "i_layout_vod": m.get(f"meta.i.layout_vod_{m.get('meta.i.tracks', '4')}", "?"),
            "i_layout_ffmpeg": m.get(f"meta.i.layout_ffmpeg_{m.get('meta.i.tracks', '4')}", "?"),
        })
        for section in ("f", "g"):
            fields.update({f"{section}_psnr_y": self.psnr_y(section)})
            for key in ("source", "ladder", "filter", "top_vod", "top_ffmpeg"):
                name = "src" if key == "source" else key
                fields[f"{section}_{name}"] = m.get(f"meta.{section}.{key}", "?")
        for section, text in notes:
            if not self.unavailable(section):
                out.append("- " + text.format(**fields))
        for key, value in m.items():
            if key.startswith("meta.note."):
                out.append(f"- {value}")
        return out


    def psnr_y(self, section):
        """Y-only PSNR of every rung of a ladder section, vod and the CLI."""
        return ", ".join(
            f"{r} vod {self.median(f'{section}.vod.psnr_y.{r}'):.2f} / "
            f"ffmpeg {self.median(f'{section}.ffmpeg.psnr_y.{r}'):.2f} dB"
            for r in m_split(self.meta.get(f"meta.{section}.rungs", ""))
            if self.median(f"{section}.vod.psnr_y.{r}") is not None
            and self.median(f"{section}.ffmpeg.psnr_y.{r}") is not None
        ) or "—"


def m_split(text):
    return [t for t in text.split() if t]


def main():
    results, output = sys.argv[1], sys.argv[2]
    text = Report(*load(results)).render()
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
