#!/usr/bin/env python3
"""Renders the results Scripts/bench recorded (see figures.py) into BENCHMARKS.md: the machine, then each section
in turn (its figures with their ratios and goals, how they were measured, its exact commands), written by
Scripts/bench.d/sections/<letter>.py.

Usage: report.py RESULTS OUTPUT
"""
import importlib.util
import os
import re
import sys

from figures import Figures, load

SECTIONS = "abcdefghijklmnpqrstu"
HERE = os.path.dirname(os.path.abspath(__file__))
MACHINE = [
    ("meta.machine.cpu", "CPU"), ("meta.machine.cores", "cores"), ("meta.machine.memory", "memory"),
    ("meta.machine.kernel", "kernel"), ("meta.machine.os", "OS"),
    ("meta.machine.load_start", "load average at start"), ("meta.machine.load_end", "load average at end"),
    ("meta.version.vod", "vod"), ("meta.version.swift", "swift"), ("meta.version.ffmpeg", "ffmpeg"),
    ("meta.version.x264", "libx264 (used by both)"), ("meta.version.nginx", "nginx"),
    ("meta.version.wrk", "wrk"), ("meta.version.curl", "curl"),
]
PLACEHOLDERS = ("`$WORK` is the run's temporary folder (removed at the end), `$CACHE` is `.bench-cache/`, "
                "`$PORT`/`$NGINX_PORT` free loopback ports, `$ID` the media id the server returned.")


def section_module(letter):
    """Scripts/bench.d/sections/<letter>.py: the section's title(r), figures(r) (its tables, when it ran) and note(r)
    (how they were measured, or None)."""
    spec = importlib.util.spec_from_file_location(f"section_{letter}", os.path.join(HERE, "sections", f"{letter}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def command_lines(commands):
    out = []
    for label, command in commands:
        out += [f"- {label}:", "", "  ```sh", f"  {command}", "  ```", ""]
    return out


def header(r):
    m = r.meta
    mode = "quick (`--quick`: tiny sources, 1 run, short wrk; proves the bench runs, figures mean nothing)" \
        if r.quick else "full"
    out = [
        "# Benchmarks",
        "",
        f"Written by `Scripts/bench{' --quick' if r.quick else ''}` on {m.get('meta.date', '?')}, "
        f"mode {mode}, in one run of {m.get('meta.elapsed', '?')}. Every figure is the median of "
        f"{m.get('meta.runs', '?')} run(s), taken alternately (vod, reference, vod, reference, …); the runs "
        "are in small print after it. Reproduce with `Scripts/bench` (see `Scripts/bench --help`). This file is "
        "only what the bench writes; earlier runs and their notes are in `docs/benchmarks-history.md`.",
        "",
        "## Machine and versions",
        "",
        "| | |",
        "| --- | --- |",
    ]
    return out + [f"| {label} | {m[key]} |" for key, label in MACHINE if key in m]


def render(r):
    out = header(r) + ["", "## Results", "", PLACEHOLDERS, ""]
    by_section = {}
    for label, command in r.commands.items():
        match = re.match(r"([a-z])\. ", label)
        by_section.setdefault(match.group(1) if match else None, []).append((label, command))
    for letter in SECTIONS:
        module = section_module(letter)
        out += [f"### {module.title(r)}", ""]
        reason = r.unavailable(letter)
        if reason:
            out += [reason, ""]
        else:
            note = module.note(r)
            out += module.figures(r) + [""] + ([note, ""] if note else [])
        if by_section.get(letter):
            out += ["Commands:", ""] + command_lines(by_section[letter])
    notes = [value for key, value in r.meta.items() if key.startswith("meta.note.")]
    if notes:
        out += ["## Notes", ""] + [f"- {value}" for value in notes] + [""]
    if by_section.get(None):
        out += ["## Commands shared by the sections", ""] + command_lines(by_section[None])
    return "\n".join(out).rstrip() + "\n"


def main():
    results, output = sys.argv[1], sys.argv[2]
    text = render(Figures(*load(results)))
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
