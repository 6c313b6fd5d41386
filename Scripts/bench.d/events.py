"""Server-Sent Events clients of section m (helpers.py sse-clients)."""
import datetime
import json
import time


def sse_clients(url, count, ready_file, out, until, timeout):
    """Holds `count` Server-Sent Events connections to `url`; writes `ready_file` once all are open, then reads
    until every client has seen an event of type `until`, or `timeout` s. Writes JSON to `out`: clients open,
    events received, and the delay of each event from its `created_at` (the server's clock, the same machine)
    to its arrival at each client, in ms."""
    import asyncio
    import resource
    import urllib.parse
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, int(count) + 256)), hard))
    target = urllib.parse.urlsplit(url)
    count, opened, delays, received, finished = int(count), [0], [], [0], [0]
    all_open = None

    def created(text):
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()

    async def client():
        reader, writer = await asyncio.open_connection(target.hostname, target.port)
        writer.write(f"GET {target.path} HTTP/1.1\r\nHost: {target.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(head.decode(errors="replace"))
        chunked = b"transfer-encoding: chunked" in head.lower()
        opened[0] += 1
        if opened[0] == count:
            all_open.set()
        text = ""
        try:
            while True:
                if chunked:
                    size = int((await reader.readuntil(b"\r\n")).strip().split(b";")[0], 16)
                    if size == 0:
                        return
                    data = await reader.readexactly(size + 2)
                    text += data[:-2].decode()
                else:
                    data = await reader.read(65536)
                    if not data:
                        return
                    text += data.decode()
                while "\n\n" in text:
                    block, text = text.split("\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
                    if "data" not in fields:
                        continue
                    event = json.loads(fields["data"])
                    delays.append((time.time() - created(event["created_at"])) * 1000)
                    received[0] += 1
                    if event["type"] == until:
                        finished[0] += 1
                        return
        finally:
            writer.close()

    async def run():
        nonlocal all_open
        all_open = asyncio.Event()
        tasks = [asyncio.create_task(client()) for _ in range(count)]
        await asyncio.wait_for(all_open.wait(), 120)
        with open(ready_file, "w") as f:
            f.write(str(opened[0]))
        await asyncio.wait(tasks, timeout=float(timeout))

    asyncio.run(run())
    delays.sort()
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else None
    with open(out, "w") as f:
        json.dump({"clients": opened[0], "finished": finished[0], "events": received[0],
                   "delay_ms_median": pick(0.5), "delay_ms_p99": pick(0.99), "delay_ms_max": delays[-1] if delays else None}, f)
