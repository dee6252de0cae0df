"""The Python test kit shared by Tests/e2e and Tests/web: the `reelhouse` binary under test
(cli), a live `reelhouse serve` on a free port (server), ffmpeg-made media (media) and plain
HTTP calls against the API (api). Each suite's conftest puts Tests/ on sys.path and imports
from here, so a launcher or clip maker is fixed once for both."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# Every transcode a test causes uses x264's fastest preset: the tests check what the pipeline
# does, not how good it looks, and CI time is mostly encoding. A test may still override it.
TEST_ENVIRONMENT = {"REELHOUSE_PRESET": "ultrafast"}
