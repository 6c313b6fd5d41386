"""A process's memory as /proc tells it (helpers.py rss, sample-rss)."""
import os
import time


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields


def rss(pid):
    """Prints `VmRSS VmHWM` of process `pid`, in KiB."""
    fields = proc_status(pid)
    print(fields["VmRSS"], fields["VmHWM"])


def sample_rss(pid, out, interval):
    """Samples VmRSS of `pid` every `interval` s until the process or the file `out`.stop goes away;
    writes the largest sample, in KiB, to `out`."""
    peak = 0
    while not os.path.exists(out + ".stop"):
        try:
            peak = max(peak, proc_status(pid)["VmRSS"])
        except (OSError, KeyError):
            break
        with open(out + ".tmp", "w") as f:
            f.write(str(peak))
        os.replace(out + ".tmp", out)
        time.sleep(float(interval))
