"""The results Scripts/bench recorded, and how a figure is written in BENCHMARKS.md (used by report.py and by each
section's Scripts/bench.d/sections/<letter>.py).

The results file has one `key<TAB>value` line per measurement; a key measured in several runs has several
lines, in run order, and the report shows their median. Keys:
  meta.*            single values (machine, versions, settings), last one wins
  cmd.<label>       the exact commands, in the order they were first run; a label starts with its section's letter
  <section>.*       the figures of a section (see the docstring of its sections/<letter>.py)
  na.<section>      why a section was not available;  error.<section>  why it failed
"""
import statistics
from collections import OrderedDict


def load(path):
    """The figures (key → runs), the single values and the commands of a results file."""
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


def m_split(text):
    """The words of a space-separated meta value."""
    return [t for t in text.split() if t]


def fmt_ratio(r):
    """A ratio as the tables write it, or a dash when there is none."""
    return f"{r:.2f}×" if r is not None else "—"


class Figures:
    """The recorded results of one run, with the ways the report writes a figure, a ratio and a verdict."""

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
        """Why a section has no figures (not run, not available, or its error), or None."""
        for prefix in ("error.", "na."):
            reason = self.meta.get(prefix + section)
            if reason:
                if reason.startswith("not run"):
                    return reason
                label = "**error**" if prefix == "error." else "not available"
                return f"{label}: {reason}"
        return None

    def ladder_rows(self, section, label, wall_target, wall_limit, psnr_gates_wall, psnr_target, rss_target):
        """The rows of a ladder comparison (sections a, f, g): wall, CPU, peak RSS, then PSNR per rung."""
        out, rows, psnr_ok = [], [], None

        def row(figure, ours, ref, ratio_text, target, ok):
            out.append(f"| {figure} | {ours} | {ref} | {ratio_text} | {target} | {self.verdict(ok)} |")

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

    def psnr_y(self, section):
        """Y-only PSNR of every rung of a ladder section, vod and the CLI."""
        return ", ".join(
            f"{r} vod {self.median(f'{section}.vod.psnr_y.{r}'):.2f} / "
            f"ffmpeg {self.median(f'{section}.ffmpeg.psnr_y.{r}'):.2f} dB"
            for r in m_split(self.meta.get(f"meta.{section}.rungs", ""))
            if self.median(f"{section}.vod.psnr_y.{r}") is not None
            and self.median(f"{section}.ffmpeg.psnr_y.{r}") is not None
        ) or "—"


COMPARISON_HEADER = ["| figure | vod | reference | vod / reference | target | result |",
                     "| --- | --- | --- | --- | --- | --- |"]

def comparison_rows(r, out):
    """A function that appends one row of a COMPARISON_HEADER table to `out`: the figure, vod's and the reference's
    cells, their ratio, the target and the verdict (None: no target)."""
    def row(figure, ours, ref, ratio, target, ok):
        out.append(f"| {figure} | {ours} | {ref} | {fmt_ratio(ratio)} | {target} | {r.verdict(ok)} |")
    return row


CLI_HEADER = ["| figure | vod | ffmpeg CLI | vod / CLI | target | result |", "| --- | --- | --- | --- | --- | --- |"]
