"""Schemathesis hooks for vod: tus chunks (`application/offset+octet-stream`) are sent as raw bytes, and the
schema-valid tus metadata is the metadata tus allows."""
import schemathesis
from schemathesis import GenerationMode

schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")


@schemathesis.hook("filter_case").apply_to(method="POST", path="/api/uploads")
def unique_upload_metadata_keys(ctx, case):
    """tus requires each Upload-Metadata key once, which the header's schema pattern cannot say: the server refuses a
    key given twice with 400, so a case meant to be valid names each key once."""
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return True
    value = (case.headers or {}).get("Upload-Metadata")
    if not isinstance(value, str):
        return True
    keys = [pair.strip(" ").split(" ")[0] for pair in value.split(",")]
    return len(keys) == len(set(keys))
