"""A live `reelhouse serve` for schemathesis: one small library (a clip, an image), an owner
key, a member key. Server launcher and media makers come from the e2e kit."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from e2e.conftest import BIN, RunningServer, import_json, make_clip, make_image  # noqa: E402
from pykit.plugins import register_shared_hooks  # noqa: E402


def pytest_configure(config):
    register_shared_hooks(config)


__all__ = ["BIN"]

# Settings that keep a fuzzing run bounded without changing what is checked: event streams end
# after 2 s (a stream of a job that never ends would hold schemathesis until its read timeout),
# and the API and wrong-key limits are out of the way (a 429 is documented, but it would answer
# for the routes behind it: schemathesis sends hundreds of requests, many with a wrong key on
# purpose, and must see the 401 each deserves). Transcodes use the fastest preset.
SERVER_ENV = {
    "REELHOUSE_EVENT_STREAM_LIFETIME": "2",
    "REELHOUSE_API_REQUESTS_PER_MINUTE": "1000000",
    "REELHOUSE_LOGIN_ATTEMPTS_PER_IP": "1000000",
    "REELHOUSE_PRESET": "ultrafast",
}


@pytest.fixture(scope="session")
def api_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("api")
    data = root / "data"
    clips = root / "clips"
    make_clip(clips / "harbour.mp4", size="180x320", seconds=2)
    make_image(clips / "still.jpg", size="320x240")
    report = import_json(data, clips, extra=("--tag", "fuzz"))
    assert len(report["imported"]) == 2, report
    server = RunningServer(data, env=SERVER_ENV)
    server.owner_key = server.key("owner")
    server.member_key = server.add_user("member")
    yield server
    server.stop()
