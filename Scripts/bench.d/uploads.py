"""The upload clients and sinks of sections c and l (helpers.py http-sink, tus-upload)."""
import os
import socket
import sys
import time


def http_sink(port_file):
    """Answers one HTTP request on a free loopback port (written to `port_file`) after reading and discarding
    its Content-Length body: how fast the client alone can send, with no server work behind it."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.getsockname()[1]))
        os.replace(port_file + ".tmp", port_file)
        server.settimeout(120)
        connection, _ = server.accept()
        with connection:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the client closed before the end of the headers")
                data += chunk
            head, _, rest = data.partition(b"\r\n\r\n")
            lengths = [l.split(b":", 1)[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
            length, received = int(lengths[0]), len(rest)
            buffer = memoryview(bytearray(1 << 20))
            while received < length:
                n = connection.recv_into(buffer)
                if not n:
                    break
                received += n
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")


def tus_upload(base, path, chunk_mib):
    """Uploads `path` through tus at `base`/api/uploads: one POST, then PATCHes of `chunk_mib` MiB streamed from
    disk on one connection. Prints `seconds bytes_sent last_status` (the last PATCH of a file that is not media
    answers 422: the bytes were all received and probed)."""
    import base64
    import http.client
    import urllib.parse
    size, chunk = os.path.getsize(path), int(chunk_mib) << 20
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    encode = lambda text: base64.b64encode(text.encode()).decode()
    start = time.monotonic()
    connection.request("POST", "/api/uploads", headers={
        "Tus-Resumable": "1.0.0", "Upload-Length": str(size),
        "Upload-Metadata": f"filename {encode('bench.mp4')},title {encode('tus bench')}"})
    response = connection.getresponse()
    response.read()
    if response.status != 201:
        sys.exit(f"POST /api/uploads answered HTTP {response.status}")
    location = urllib.parse.urlsplit(response.getheader("Location")).path
    sent, status = 0, None
    with open(path, "rb") as f:
        while sent < size:
            length = min(chunk, size - sent)
            connection.putrequest("PATCH", location)
            for name, value in [("Tus-Resumable", "1.0.0"), ("Upload-Offset", str(sent)),
                                ("Content-Type", "application/offset+octet-stream"), ("Content-Length", str(length))]:
                connection.putheader(name, value)
            connection.endheaders()
            remaining = length
            while remaining:
                block = f.read(min(1 << 20, remaining))
                connection.send(block)
                remaining -= len(block)
            response = connection.getresponse()
            response.read()
            status = response.status
            sent += length
            if status != 204:
                break
    print(f"{time.monotonic() - start:.3f} {sent} {status}")
