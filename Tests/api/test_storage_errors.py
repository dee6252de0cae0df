"""A storage fault on a live server is a clear error: the error schema, a code a program can
act on, and no file path or Swift type name in what the client receives."""
import json
import re
import shutil

from e2e.conftest import RunningServer, http

TUS = {"Tus-Resumable": "1.0.0"}
INTERNALS = re.compile(r"/(srv|tmp|root|home|var|data)\b|Error\(|PipelineError|CocoaError|NSError|\.swift")


def test_unwritable_upload_folder_is_a_clear_storage_error(tmp_path):
    server = RunningServer(tmp_path / "data")
    try:
        key = server.key("owner")
        uploads = server.data / "uploads"
        shutil.rmtree(uploads, ignore_errors=True)
        # A file where the folder should be: nothing can be created inside it, even as root.
        uploads.write_text("not a folder")
        status, headers, body = http(server.base + "/api/v1/uploads", "POST",
                                     {**TUS, "api-key": key, "Upload-Length": "100"})
        assert status == 500, body
        error = json.loads(body)["error"]
        assert error["code"] == "storage_error"
        assert set(error) == {"code", "message"}
        assert "/" not in error["message"] and not INTERNALS.search(body.decode()), body
        assert headers.get("Tus-Resumable") == "1.0.0"
        # The operator's log has the details (the client's answer does not).
        assert re.search(r" error .*NSFilePath=.*path=/api/v1/uploads ", server.output()), server.output()[-2000:]
    finally:
        server.stop()
