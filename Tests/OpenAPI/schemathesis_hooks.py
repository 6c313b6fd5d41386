"""Schemathesis hooks for vod: tus chunks (`application/offset+octet-stream`) are sent as raw bytes."""
import schemathesis

schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")
