"""Uploads a file to vod with tuspy, the tus project's Python client, through a loopback proxy that cuts
connections at random points, and resumes after every cut and after a restart of the server.

Usage: upload.py FILE PORT TITLE CHUNK_SIZE SEED

The proxy forwards to 127.0.0.1:PORT and cuts every third connection after a random number of bytes from the
client. Once half the file is up, the script prints {"event": "restart", "offset": N} and reads the port of the
restarted server from its standard input. At the end it prints a JSON report: the media id, how many
connections were cut, and the offsets before and after the restart.
"""
import json
import random
import socket
import sys
import threading
import time

import requests
from tusclient import client as tus_client
from tusclient.exceptions import TusCommunicationError, TusUploadFailed


class CuttingProxy:
    """Forwards loopback connections to the server; every third one is closed after a random number of bytes
    from the client, mid-request."""

    def __init__(self, upstream_port, rng):
        self.upstream_port = upstream_port
        self.rng = rng
        self.connections = 0
        self.cuts = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            downstream, _ = self.listener.accept()
            with self.lock:
                self.connections += 1
                budget = self.rng.randint(1, 40_000) if self.connections % 3 == 0 else None
                port = self.upstream_port
            threading.Thread(target=self.serve, args=(downstream, port, budget), daemon=True).start()

    def serve(self, downstream, port, budget):
        try:
            upstream = socket.create_connection(("127.0.0.1", port))
        except OSError:
            downstream.close()
            return
        threading.Thread(target=self.pipe, args=(upstream, downstream, None), daemon=True).start()
        self.pipe(downstream, upstream, budget)

    def pipe(self, source, destination, budget):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if budget is not None and len(data) >= budget:
                    destination.sendall(data[:budget])
                    with self.lock:
                        self.cuts += 1
                    break
                if budget is not None:
                    budget -= len(data)
                destination.sendall(data)
        except OSError:
            pass
        for end in (source, destination):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()


def until_answered(action):
    """Runs `action` until a request gets through the proxy."""
    while True:
        try:
            return action()
        except (TusCommunicationError, TusUploadFailed, requests.exceptions.RequestException):
            time.sleep(0.05)


def main(path, port, title, chunk_size, seed):
    rng = random.Random(seed)
    proxy = CuttingProxy(port, rng)
    client = tus_client.TusClient(f"http://127.0.0.1:{proxy.port}/api/uploads")
    uploader = client.uploader(path, chunk_size=chunk_size, metadata={"filename": "clip.mp4", "title": title})
    until_answered(lambda: uploader.set_url(uploader.create_url()))
    size = uploader.get_file_size()
    report = {"seed": seed, "restarted": False, "media_id": None}
    settled = True  # the offset came from a chunk's answer, not from a HEAD racing a cut chunk's end
    while uploader.offset < size:
        if settled and not report["restarted"] and uploader.offset >= size // 2:
            print(json.dumps({"event": "restart", "offset": uploader.offset}), flush=True)
            proxy.upstream_port = int(sys.stdin.readline())
            report.update(restarted=True, offset_before_restart=uploader.offset)
            uploader.offset = until_answered(uploader.get_offset)
            report["offset_after_restart"] = uploader.offset
        uploader.upload_checksum = rng.random() < 0.5
        try:
            uploader.upload_chunk()
            report["media_id"] = uploader.request.response_headers.get("media-id") or report["media_id"]
            settled = True
        except (TusCommunicationError, TusUploadFailed, requests.exceptions.RequestException):
            settled = False
            time.sleep(0.05)
            uploader.offset = until_answered(uploader.get_offset)
    if report["media_id"] is None:
        head = until_answered(lambda: requests.head(uploader.url, headers={"Tus-Resumable": "1.0.0"}))
        report["media_id"] = head.headers.get("Media-Id")
    report.update(cuts=proxy.cuts, connections=proxy.connections, size=size, url=uploader.url)
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
