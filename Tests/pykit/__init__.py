"""The Python test kit shared by Tests/e2e and Tests/web: the `reelhouse` binary under test
(cli), a live `reelhouse serve` on a free port (server), ffmpeg-made media (media) and plain
HTTP calls against the API (api). Each suite's conftest puts Tests/ on sys.path and imports
from here, so a launcher or clip maker is fixed once for both."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
