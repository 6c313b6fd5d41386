"""Section d's figures: from the end of an upload to the first segment on disk, to playable and to ready.

Keys: d.{ready_s,playable_s,first_segment_s,first_complete_s}.
"""


def title(r):
    """The heading of the section (without its ###)."""
    return "d. Time to ready"


def figures(r):
    clip = r.meta.get("meta.d.clip", "clip")
    return [f"| {clip}, from the end of the upload to | seconds |", "| --- | --- |",
            f"| the first segment file created on disk | {r.cell('d.first_segment_s')} |",
            f"| the first segment complete on disk | {r.cell('d.first_complete_s')} |",
            f"| `\"playable\": true` (the stream plays while processing) | {r.cell('d.playable_s')} |",
            f"| `\"status\": \"ready\"` | {r.cell('d.ready_s')} |"]


def note(r):
    return (f"A {r.meta.get('meta.d.clip', '?')} uploaded with curl to a server started for each run (1 worker); "
            "times are measured from curl's return, polling `GET /api/media/$ID` every 0.2 s and the output folder "
            "every 20 ms (including the engine's hidden staging folder) for the first `segment_*.ts` to be created "
            "(the engine creates a segment's file when the segment starts) and to be complete (the next "
            "segment file or the rung's playlist exists, or the item is ready).")
