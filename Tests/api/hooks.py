"""schemathesis hooks, loaded through SCHEMATHESIS_HOOKS=hooks by test_schemathesis.py."""
import os

import schemathesis

# tus PATCH bodies are plain bytes under tus's own media type.
schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")

if os.environ.get("REELHOUSE_FUZZ_SIGNED_OUT") == "1":
    @schemathesis.check
    def no_unauthenticated_success(ctx, response, case):
        """A route that documents security never answers 2xx to a request without credentials
        (the signed-out pass sends none)."""
        if case.operation.definition.raw.get("security") and 200 <= response.status_code < 300:
            raise AssertionError(
                f"{case.method} {case.path} answered {response.status_code} without credentials")
