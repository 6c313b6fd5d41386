"""Verifies a webhook's Vod-Signature as docs/events-and-webhooks.md shows a receiver doing it: verify.py HEADER BODY_FILE SECRET."""
import hashlib
import hmac
import sys
import time


def verify(header: str, body: bytes, secret: str) -> bool:
    fields = dict(part.split("=", 1) for part in header.split(","))
    expected = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) <= 300


if __name__ == "__main__":
    header, body_file, secret = sys.argv[1], sys.argv[2], sys.argv[3]
    print(verify(header, open(body_file, "rb").read(), secret))
